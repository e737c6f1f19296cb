#!/usr/bin/env bash
# Call B: the build to land (Auto's Hines table from call A's map, with the staged schedule
# in 32-row chunks copied asynchronously where that was fastest; .devcarry/binH.txz:
# hinesbatch_unit_tests, hinesbatch_solver_map):
# 1) Auto at every Hines point of the device map (call A has every schedule and shape);
# 2) the whole CUDA unit suite in three gtest shards, alone on the GPU;
# 3) compute-sanitizer memcheck on the staged chunk test of every CUDA configuration,
#    racecheck on those of double Flat and Full-Interleaved batches (the 32-row
#    asynchronous shape's);
# 4) Nsight Compute on that shape at 3,187 nodes x 2^26 (Flat).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binH && mkdir -p $c/binH && tar xJf $c/binH.txz -C $c/binH
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binH/hinesbatch_unit_tests
MAP=$c/binH/hinesbatch_solver_map
timeout 120 $MAP --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_filter='^Hines/Device/(Flat|FullInterleaved)/Auto/' \
  --benchmark_out=$M/map_device_hines_auto.json --benchmark_out_format=json > $M/map_device_hines_auto.txt 2>&1
stamp "map auto rc=$? $(grep -c ERROR $M/map_device_hines_auto.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 300 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^HinesBatchSolve" | sort -u | tr '\n' ':')
mc=$(echo "$cuda" | tr ':' '\n' | grep . | sed 's/\*$/StagedAcross*/' | tr '\n' ':')
rc='HinesBatchSolve/12.StagedAcross*:HinesBatchSolve/15.StagedAcross*'
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$rc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
timeout 60 ncu --kernel-name-base demangled --kernel-name regex:SolvePerSystemStaged --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section SchedulerStats --section SourceCounters \
  $MAP --map-backends=device --map-families=hines --map-totals=26 --map-staged-shapes=32a \
  --benchmark_filter='Hines/Device/Flat/PerSystemStaged@32a/real-10-2012-02-09-001/n:3187/total:26/' > $T/ncu_staged32a_3187.txt 2>&1
stamp "ncu rc=$? $(grep -cE 'Duration' $T/ncu_staged32a_3187.txt) sections"
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
