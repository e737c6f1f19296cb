#!/usr/bin/env bash
# Call D (binD.txz: the CUDA build, cuda-h100, of the final solver code: SimdTiles on Flat
# and Full-Interleaved storage, ThomasSchedule::SimdTiles, the lane-stride tile kernels):
# the whole CUDA unit suite in two shards, then compute-sanitizer memcheck on the tests that
# run every schedule, SimdTiles among them, on small batches (CUDA and host configurations).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binD.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
F='HinesBatchSolve/*.TinyTrees:HinesBatchSolve/*.ZeroPivotNamesSystemAndNode:HinesBatchSolve/*.HostAutoTakesTilesAndBlockSharedRefusesThem:ThomasBatchTest/*.TinySystems:ThomasBatchTest/*.BlockSizesAndPartialTiles:SimdTiles/*.HinesTinyTreesAndPartialTiles:SimdTiles/*.ThomasSizesAndPartialTiles'
OMP_NUM_THREADS=4 timeout 250 compute-sanitizer --tool memcheck --print-limit 20 $U --gtest_filter="$F" --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
xz -9 $L/*.txt
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
