#!/usr/bin/env bash
# Call E: the staged schedule with its chunks moved by per-lane cursors (a lane's elements a
# fixed stride apart, no per-element index arithmetic), rows carried in registers from a
# child to its parent below, and the next chunk asked of L2 while one is swept:
# 1) the whole Hines part of the device map (every tree, every schedule, 2^20-2^28 nodes,
#    both layouts) with the staged schedule's other shapes beside it
#    (PerSystemStaged@<rows>[p]: 8, 16 or 32 rows a chunk, p: with the L2 requests);
# 2) the whole CUDA unit suite in three gtest shards; compute-sanitizer memcheck and
#    racecheck on the staged chunk test of every CUDA configuration;
# 3) Nsight Compute on the new kernel at the point session 24 profiled (3,187 nodes, 2^26).
# .devcarry/binE.txz: hinesbatch_unit_tests, hinesbatch_solver_map.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binE && mkdir -p $c/binE && tar xJf $c/binE.txz -C $c/binE
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binE/hinesbatch_unit_tests
MAP=$c/binE/hinesbatch_solver_map
timeout 240 $MAP --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --map-staged-shapes=8,8p,16,32,32p \
  --benchmark_out=$M/map_device_hines.json --benchmark_out_format=json > $M/map_device_hines.txt 2>&1
stamp "map hines rc=$?"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^HinesBatchSolve" | sort -u | tr '\n' ':')
mc=$(echo "$cuda" | tr ':' '\n' | grep . | sed 's/\*$/StagedAcross*/' | tr '\n' ':')
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=4 timeout 250 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
OMP_NUM_THREADS=3 timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
OMP_NUM_THREADS=3 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
timeout 60 ncu --kernel-name-base demangled --kernel-name regex:SolvePerSystemStaged --launch-skip 1 --launch-count 1 \
  --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section SchedulerStats --section SourceCounters \
  $MAP --map-backends=device --map-families=hines --map-totals=26 \
  --benchmark_filter='Hines/Device/Flat/PerSystemStaged/real-10-2012-02-09-001/n:3187/total:26/' > $T/ncu_staged3187.txt 2>&1
stamp "ncu rc=$? $(grep -cE 'Duration' $T/ncu_staged3187.txt) sections"
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
