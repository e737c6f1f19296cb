#!/usr/bin/env bash
# Call A: the host's Full-Interleaved solves with the tile schedule (SimdTiles: W consecutive
# systems per vector pass) against PerSystem and PerSystemOnChip, and what Auto takes, on the
# GPU machine's 16 cores (OpenMP, 16 threads, spread). binA.txz holds two builds of
# hinesbatch_solver_map for the openmp preset: default flags (generic x86-64, SSE2: W = 4
# doubles) and -march=x86-64-v4 (AVX-512: W = 16). $1: default | v4. Google Benchmark JSON in map/.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
v=${1:-default}
S=$OUT/summary_$v.txt; mkdir -p $OUT/map
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
map=$c/binA/$v/hinesbatch_solver_map
lscpu | grep -E "Model name|^CPU\(s\)|Flags" | cut -c1-400 | tee $OUT/cpu.txt
timeout 270 $map --map-families=thomas --map-totals=22,24 --map-reps=5 \
  --map-rows=2,3,5,8,16,31,32,33,64,100,128,129,255,256,257,300,1000,1024,8192,10000,100000 \
  --benchmark_filter='Thomas/Device/FullInterleaved/(Auto|PerSystem|PerSystemOnChip|SimdTiles)/' \
  --benchmark_out=$OUT/map/thomas_fi_$v.json --benchmark_out_format=json > $OUT/map/thomas_fi_$v.txt 2>&1
stamp "thomas full-interleaved $v rc=$?"
timeout 290 $map --map-families=hines --map-totals=22,24 --map-reps=5 \
  --benchmark_filter='Hines/Device/FullInterleaved/(Auto|PerSystem|PerSystemOnChip|SimdTiles)/' \
  --benchmark_out=$OUT/map/hines_fi_$v.json --benchmark_out_format=json > $OUT/map/hines_fi_$v.txt 2>&1
stamp "hines full-interleaved $v rc=$?"
(cd $OUT && tar cJf map_$v.tar.xz map && rm -rf map)
stamp done
