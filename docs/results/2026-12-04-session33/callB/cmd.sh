#!/usr/bin/env bash
# Call B (call A's build): the 256,000-cell real mix on the paths call A's time limit cut
# (NaiveSorted, LevelLaunches, MonoMeanSize), then the whole CUDA unit suite in three gtest
# shards. Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; T=$OUT/t; mkdir -p $P $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
OMP_NUM_THREADS=16 timeout 250 $c/binA/hinesbatch_perf_tests \
  --benchmark_filter='^Multi/RealMixed/256000/(Grouped|NaiveSorted|LevelLaunches|MonoMeanSize)/' \
  --benchmark_min_time=0.05 --benchmark_out=$P/real256000b.json --benchmark_out_format=json > $P/real256000b.txt 2>&1
stamp "real256000b rc=$?"
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
xz -9 $P/*; (cd $OUT && tar cf perf.tar perf && rm -rf perf)
U=$c/binA/hinesbatch_unit_tests
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout 290 $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt; (cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
