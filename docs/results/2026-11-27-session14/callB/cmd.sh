#!/usr/bin/env bash
# Call B: how wide a host tile over Full-Interleaved storage should be. Row i of a tile is
# node i of its consecutive systems, rows a whole batch apart (a page each): a tile of W =
# two vectors (4 doubles SSE2, 16 AVX-512) reads 32-128 B per page it visits. Wider tiles
# (32 or 64 systems: 256-512 B per row) read more per page and per prefetch stream.
# binB.txz: hinesbatch_solver_map of the openmp preset built with
# HINESBATCH_INTERLEAVED_TILE_LANES = 0 (W), 32, 64, each with the default flags (SSE2) and
# -march=x86-64-v4 (AVX-512). OpenMP, 16 threads, spread; 2^24 nodes or rows; five solves.
# $1: sse2 | v4 (the ISA run by this call).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
isa=${1:-sse2}
S=$OUT/summary_$isa.txt; mkdir -p $OUT/map
lscpu | grep -E "Model name|^CPU\(s\)|L2|L3" > $OUT/cpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for p in 0 32 64; do
  map=$c/binB/${isa}_$p/hinesbatch_solver_map
  timeout 120 $map --map-families=hines --map-totals=24 --map-reps=5 \
    --benchmark_filter='Hines/Device/FullInterleaved/SimdTiles/' \
    --benchmark_out=$OUT/map/hines_${isa}_$p.json --benchmark_out_format=json > $OUT/map/hines_${isa}_$p.txt 2>&1
  stamp "hines $isa lanes=$p rc=$?"
  timeout 60 $map --map-families=thomas --map-totals=24 --map-reps=5 \
    --map-rows=3,8,32,100,257,1000,10000,100000 \
    --benchmark_filter='Thomas/Device/FullInterleaved/SimdTiles/' \
    --benchmark_out=$OUT/map/thomas_${isa}_$p.json --benchmark_out_format=json > $OUT/map/thomas_${isa}_$p.txt 2>&1
  stamp "thomas $isa lanes=$p rc=$?"
done
(cd $OUT && tar cJf map_$isa.tar.xz map && rm -rf map)
stamp done
