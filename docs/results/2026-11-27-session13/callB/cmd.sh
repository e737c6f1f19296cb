#!/usr/bin/env bash
# Call B: the host's Flat solves with the tile schedule (SimdTiles over W consecutive systems,
# lane stride = the system's length) against PerSystem and PerSystemOnChip, and what Auto
# takes, on the GPU machine's 16 cores (OpenMP, 16 threads, spread); and three trees and
# five sizes in Full-Interleaved storage again (the tile kernels now take a lane stride).
# binB.txz: hinesbatch_solver_map of the openmp preset, default flags (SSE2, W = 4) and
# -march=x86-64-v4 (AVX-512, W = 16). $1: default | v4. Google Benchmark JSON in map/.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
v=${1:-default}
S=$OUT/summary_$v.txt; mkdir -p $OUT/map
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
map=$c/binB/$v/hinesbatch_solver_map
timeout 200 $map --map-families=thomas --map-totals=22,24 --map-reps=5 \
  --map-rows=2,3,5,8,16,31,32,33,64,100,128,129,255,256,257,300,1000,1024,8192,10000,100000 \
  --benchmark_filter='Thomas/Device/(Flat/(Auto|PerSystem|PerSystemOnChip|SimdTiles)|FullInterleaved/(Auto|SimdTiles)/m:(3|32|257|1000|10000)/)' \
  --benchmark_out=$OUT/map/thomas_flat_$v.json --benchmark_out_format=json > $OUT/map/thomas_flat_$v.txt 2>&1
stamp "thomas flat $v rc=$?"
timeout 330 $map --map-families=hines --map-totals=22,24 --map-reps=5 \
  --benchmark_filter='Hines/Device/(Flat/(Auto|PerSystem|PerSystemOnChip|SimdTiles)/|FullInterleaved/(Auto|SimdTiles)/(class-small-high|real-cnic|real-10-2012))' \
  --benchmark_out=$OUT/map/hines_flat_$v.json --benchmark_out_format=json > $OUT/map/hines_flat_$v.txt 2>&1
stamp "hines flat $v rc=$?"
(cd $OUT && tar cJf map_$v.tar.xz map && rm -rf map)
stamp done
