#!/usr/bin/env bash
# Call C: 1) the whole Hines part of the solver map on the device with the final build
# (every tree, every schedule, 2^20-2^28 nodes, both layouts), from which Auto's Hines
# table is made again; 2) the whole CUDA unit suite of the final build (call B's binary,
# whose run alongside memcheck did not finish in 540 s), as three gtest shards side by side
# on the one GPU, each shard's log in full. .devcarry/binB.txz (call B) and
# .devcarry/mapC.txz (final/hinesbatch_solver_map).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB $c/binC && mkdir -p $c/binB $c/binC && tar xJf $c/binB.txz -C $c/binB && tar xJf $c/mapC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
timeout 270 $c/binC/hinesbatch_solver_map --map-backends=device --map-families=hines \
  --map-totals=20,22,24,26,28 --benchmark_out=$M/map_device_hines.json --benchmark_out_format=json > $M/map_device_hines.txt 2>&1
stamp "map hines rc=$?"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
U=$c/binB/hinesbatch_unit_tests
left=$((585 - (SECONDS - t0)))
for i in 0 1 2; do
  (GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i OMP_NUM_THREADS=5 timeout $left $U > $T/shard$i.txt 2>&1; echo "rc=$?" >> $T/shard$i.txt) &
done
wait
for i in 0 1 2; do
  stamp "shard $i $(tail -1 $T/shard$i.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/shard$i.txt | tr '\n' ' ') last: $(grep -E '^\[ RUN' $T/shard$i.txt | tail -1)"
done
grep -h "^\[  FAILED" $T/shard*.txt | head -20 | tee -a $S
grep -h "^\[       OK" $T/shard*.txt | sed 's/.*(\([0-9]*\) ms)/\1 &/' | sort -rn | head -15 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
