#!/usr/bin/env bash
# Session 39's call G cut to fit one call beside call F: the host's tile sweeps with rows asked
# for 4 ahead against none, on the GPU machine's 16 cores. Two OpenMP builds of
# hinesbatch_solver_map from the same source (.devcarry/binG.txz, .devcarry/binG.txt): f4 (the
# default) and f0 (-DHINESBATCH_TILE_PREFETCH_ROWS=0). Full-Interleaved at 2^24 in the order
# f0 f4 f4 f0, so that drift falls on both; Flat (no prefetch in either build) f0 f4 as the
# control.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binG && mkdir -p $c/binG && tar xJf $c/binG.txz -C $c/binG
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; P=$OUT/map; mkdir -p $P
lscpu | head -20 > $OUT/cpu.txt; cat $c/binG.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
i=0
for v in f0 f4 f4 f0; do
  i=$((i + 1))
  timeout 70 $c/binG/$v --map-families=thomas,hines --map-backends=device --map-totals=24 \
    --map-trees=all --map-reps=5 --benchmark_filter='FullInterleaved/Auto' \
    --benchmark_format=json > $P/fi_${v}_$i.json 2> $P/fi_${v}_$i.err
  stamp "fi $v $i rc=$?"
done
i=0
for v in f0 f4; do
  i=$((i + 1))
  timeout 40 $c/binG/$v --map-families=thomas,hines --map-backends=device --map-totals=24 \
    --map-trees=all --map-reps=5 --benchmark_filter='Flat/Auto' \
    --benchmark_format=json > $P/flat_${v}_$i.json 2> $P/flat_${v}_$i.err
  stamp "flat $v $i rc=$?"
done
xz -9 $P/*.json
(cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
