#!/usr/bin/env bash
# Call D: the build to land (Auto's Hines table as in call C, with the staged schedule's 16-row
# prefetching shape a choice in Full-Interleaved storage, from call A's map; .devcarry/binD.txz: hinesbatch_unit_tests, hinesbatch_solver_map):
# 1) Auto at every Hines point of the device map (call A has every schedule and shape);
#    then held-out trees: every shared cell as the simulator solves it (NEURON's sections in
#    segments of at most 20 um), every schedule, the 32-row async and 16-row prefetching
#    shapes and Auto;
# 2) the whole CUDA unit suite in three gtest shards, alone on the GPU;
# 3) compute-sanitizer memcheck on the Auto and staged chunk tests of every CUDA configuration,
#    racecheck on the staged chunk tests of double Flat and Full-Interleaved batches.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binD && mkdir -p $c/binD && tar xJf $c/binD.txz -C $c/binD
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binD/hinesbatch_unit_tests
MAP=$c/binD/hinesbatch_solver_map
timeout 120 $MAP --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_filter='^Hines/Device/(Flat|FullInterleaved)/Auto/' \
  --benchmark_out=$M/map_device_hines_auto.json --benchmark_out_format=json > $M/map_device_hines_auto.txt 2>&1
stamp "map auto rc=$? $(grep -c ERROR $M/map_device_hines_auto.txt) error lines"
HINESBATCH_SHARED_DIR=$c/shared timeout 240 $MAP --map-backends=device --map-families=hines \
  --map-totals=20,22,24,26,28 --map-trees=compartments --map-staged-shapes=32a,16p \
  --benchmark_out=$M/map_device_hines_seg20.json --benchmark_out_format=json > $M/map_device_hines_seg20.txt 2>&1
stamp "map seg20 rc=$? $(grep -c ERROR $M/map_device_hines_seg20.txt) error lines"
$MAP --map-trees=compartments --map-export=$M/seg20_trees.bin > $M/seg20_trees.txt 2>&1; rm -f $M/seg20_trees.bin
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
mc=$(echo "$cuda" | tr ':' '\n' | grep . | sed 's/\*$/AutoTakes*/' | tr '\n' ':')$(echo "$cuda" | tr ':' '\n' | grep . | sed 's/\*$/StagedAcross*/' | tr '\n' ':')AutoTreePoint*
OMP_NUM_THREADS=8 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
rc='HinesBatchSolve/12.StagedAcross*:HinesBatchSolve/15.StagedAcross*'
OMP_NUM_THREADS=8 timeout 120 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$rc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
