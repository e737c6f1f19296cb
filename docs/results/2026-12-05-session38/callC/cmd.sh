#!/usr/bin/env bash
# Call C: the whole CUDA unit suite on the waits-per-warp binaries (.devcarry/binB.txz), as
# six gtest shards side by side (session 37's three shards each ran past the call's limit in
# shard 0, whose tests alone take about 420 s one after another).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/t; mkdir -p $U
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binB.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
N=6
for i in $(seq 0 $((N - 1))); do
  OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=$N GTEST_SHARD_INDEX=$i timeout 540 \
    $c/binB/hinesbatch_unit_tests --gtest_output=xml:$U/unit_$i.xml > $U/unit_$i.log 2>&1 &
done
wait
for i in $(seq 0 $((N - 1))); do stamp "shard $i/$N: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $U/unit_$i.log | tr '\n' ' ') ok $(grep -c '^\[       OK' $U/unit_$i.log)"; done
stamp "all: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $($c/binB/hinesbatch_unit_tests --gtest_list_tests | grep -c '^  ')"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head -20 | tee -a $S
(cd $OUT && tar cJf t.tar.xz t && rm -rf t)
stamp done
