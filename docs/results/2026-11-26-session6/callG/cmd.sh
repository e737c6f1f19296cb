#!/usr/bin/env bash
# Call G (an experiment, reverted: call D's build with TeamPerSystemInMemory at most 256 lanes under launch bounds of
# four teams per SM): the Thomas unit tests on CUDA, compute-sanitizer on the in-memory team's
# tests, the long systems again (as call C) and Nsight Compute at m = 20,000 (as call F).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binG.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/g; mkdir -p $L/map; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
OMP_NUM_THREADS=8 timeout 200 $c/bin/hinesbatch_unit_tests --gtest_brief=1 --gtest_filter='*Thomas*:*InMemory*:*Packed*' > $L/tests.txt 2>&1
stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/tests.txt | tr '\n' ' ')"
for tool in racecheck memcheck; do
  OMP_NUM_THREADS=8 timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 $c/bin/hinesbatch_unit_tests --gtest_brief=1 \
    --gtest_filter='*InMemory*' > $L/${tool}_in_memory.txt 2>&1
  stamp "$tool rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/${tool}_in_memory.txt | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/${tool}_in_memory.txt | tail -1)"
done
MAP_TOTALS=24,26,28 MAP_ARGS="--map-families=thomas --map-rows=8193,10007,16385,20000,32769,50000,65537,100000 --benchmark_filter=Thomas/Device/.*/(Auto|TeamPerSystemInMemory)/" \
  OUT=$L/map timeout 150 bash scripts/gpu/solver-map.sh device; stamp "map long rc=$?"
python3 - $L/map <<'PY' | tee -a $S
import json, re, sys
for b in json.load(open(sys.argv[1] + "/map_device.json"))["benchmarks"]:
    m = re.match(r"Thomas/Device/(\w+)/(\w+)/m:(\d+)/total:(\d+)", b["name"])
    if m and "items_per_second" in b and m.group(2) == "TeamPerSystemInMemory":
        print(m.group(1), m.group(3), m.group(4), "%.2f" % (b["items_per_second"] / 1e9), "floor %.3f" % b.get("floor_frac", 0))
PY
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 100 $ncu --kernel-name-base demangled -k regex:ThomasTeamInMemory -c 1 --section SpeedOfLight --section Occupancy \
  --section LaunchStats --section MemoryWorkloadAnalysis --section WarpStateStats \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum \
  $c/bin/hinesbatch_solver_map --map-backends=device --map-families=thomas --map-rows=20000 --map-totals=26 \
  --benchmark_filter="Thomas/Device/Flat/TeamPerSystemInMemory/m:20000/" > $L/ncu_in_memory_20000.txt 2>&1
stamp "ncu m=20000 rc=$? $(grep -E 'Duration|Registers Per Thread|Achieved Occupancy|Block Size|DRAM Throughput|Warp Cycles Per Issued|Local Memory Spilling Requests ' $L/ncu_in_memory_20000.txt | tr -s ' ' | tr '\n' ';')"
cd $OUT && tar czf g.tgz g && rm -rf g
