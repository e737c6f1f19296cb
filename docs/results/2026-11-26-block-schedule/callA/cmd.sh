#!/usr/bin/env bash
# Call A (binA.txz): the block schedule (HinesSchedule::BlockPerSystem, a team of several
# warps per system over the tree's lane plan). The CUDA Hines and multi-morphology tests,
# memcheck and racecheck on the block schedule's shapes, the Hines part of the solver map on
# the device with every schedule (the new one included), and the block schedule's forced
# shapes (lanes x what stays on chip) on Flat storage. Each step archives its own files.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; T=$OUT/t; M=$OUT/map; mkdir -p $T $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
OMP_NUM_THREADS=8 timeout 200 $U --gtest_brief=1 \
  --gtest_filter='*HinesBatch*:*MultiMorph*:*Packed*:*CellLane*' > $T/tests.txt 2>&1
stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $T/tests.txt | tr '\n' ' ')"
grep -E "^\[  FAILED" $T/tests.txt | head | tee -a $S
# The CUDA configurations of the block tests (double and float, every layout).
$U --gtest_list_tests --gtest_filter='HinesBatchSolve/*.BlockShapes' > $T/list.txt 2>&1
cuda=$(awk '/^HinesBatchSolve\//{s=$1} /Cuda/{print s"BlockShapes"}' $T/list.txt | tr '\n' ':')
flat=$(awk '/^HinesBatchSolve\//{s=$1} /double.*Flat.*Cuda|Flat.*double.*Cuda/{print s"BlockShapes"}' $T/list.txt | head -1)
echo "cuda: $cuda flat double: $flat" >> $S
timeout 200 compute-sanitizer --tool memcheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$cuda" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
timeout 200 compute-sanitizer --tool racecheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$flat" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
(cd $OUT && tar czf tests.tgz t && rm -rf t)
map=$c/bin/hinesbatch_solver_map
timeout 300 $map --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_out=$M/map_device_hines.json --benchmark_out_format=json > $M/map_device_hines.txt 2>&1
stamp "map hines rc=$?"
xz -9 $M/map_device_hines.json $M/map_device_hines.txt
timeout 120 $map --map-backends=device --map-families=hines --map-totals=22,24,26 \
  --map-block-shapes=32-drp,64-drp,128-drp,256-drp,512-drp,128-dr,256-dr,128-all,256-all \
  --benchmark_filter='/Flat/BlockPerSystem@' \
  --benchmark_out=$M/map_block_shapes.json --benchmark_out_format=json > $M/map_block_shapes.txt 2>&1
stamp "block shapes rc=$?"
xz -9 $M/map_block_shapes.json $M/map_block_shapes.txt
stamp done
