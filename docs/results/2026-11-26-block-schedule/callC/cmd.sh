#!/usr/bin/env bash
# Call C (binC.txz, the final build: the block schedule, the capped PerSystem and Auto's new
# Hines table): the whole CUDA unit suite in two shards.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $T/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $T/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $T/suite_*.txt | head -20 | tee -a $S
(cd $OUT && tar czf tests.tgz t && rm -rf t)
stamp done
