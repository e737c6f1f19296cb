#!/usr/bin/env bash
# Call A: the two-pass block on Full-Interleaved storage with 4 or 8 systems a block, chosen
# by two_pass_block_systems() (.devcarry/binA.txz: hinesbatch_unit_tests, hinesbatch_solver_map
# of the working tree):
# 1) the tridiagonal device map, Full-Interleaved, every schedule, and the two-pass block
#    forced to 4 and to 8 systems; Flat: Auto, the two-pass block and the warp schedule;
# 2) the whole CUDA unit suite in three gtest shards, alone on the GPU;
# 3) compute-sanitizer memcheck on every two-pass test of the CUDA configurations and on the
#    Auto tests, racecheck on the two-pass kernel tests of double Flat and Full-Interleaved.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binA/hinesbatch_unit_tests
MAP=$c/binA/hinesbatch_solver_map
timeout 220 $MAP --map-families=thomas --map-backends=device --map-two-pass-systems=4,8 \
  --benchmark_filter='^Thomas/Device/(FullInterleaved/|Flat/(Auto|TeamPerSystemTwoPass|WarpPerSystem)/)' \
  --benchmark_out=$M/map_device.json --benchmark_out_format=json > $M/map_device.txt 2>&1
stamp "thomas device map rc=$? $(grep -c '^Thomas' $M/map_device.txt) points, $(grep -c ERROR $M/map_device.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 320 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
auto=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"Auto*"}' $T/list.txt | grep -E "^ThomasBatchTest/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$cuda$auto" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
rc=$(awk '/^[A-Za-z]/{s=$1} /double, hinesbatch::layouts::(Flat|FullInterleaved), Kokkos::Cuda/{print s"RunsItsKernel:"s"ForcedBlockWarps:"s"FailuresInABlockOfEight:"s"Sizes"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$rc" > $T/racecheck.txt 2>&1
stamp "racecheck ($rc) rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
