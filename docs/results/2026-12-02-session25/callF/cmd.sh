#!/usr/bin/env bash
# Call F: the landed build (staged default 16 rows, no prefetch; .devcarry/binF.txz:
# hinesbatch_unit_tests): the whole CUDA unit suite in three gtest shards, alone on the GPU.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binF && mkdir -p $c/binF && tar xJf $c/binF.txz -C $c/binF
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binF/hinesbatch_unit_tests
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 400 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
grep -h "^\[  FAILED" $T/shard*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
