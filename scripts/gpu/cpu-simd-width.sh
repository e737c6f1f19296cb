#!/usr/bin/env bash
# Runs on the GPU machine's host CPU: the SIMD-tile benchmarks built for AVX2 (x86-64-v3) and,
# where the host has AVX-512F, AVX-512 (x86-64-v4), against Sequential and Multicore (Flat).
# Build here first (OpenMP-only, the benchmark program alone gets the flags):
#   for v in 3 4; do cmake --preset openmp -B build/openmp-v$v -DHINESBATCH_BENCH_ARCH_FLAGS=-march=x86-64-v$v
#     cmake --build build/openmp-v$v --target hinesbatch_perf_tests; done
# and carry the two programs as .devcarry-cpu/cpu/perf_v{3,4} with .devcarry/lib's libraries in
# .devcarry-cpu/lib. Results: $OUT/cpu_v{3,4}.{txt,json}, lscpu.txt, avx512.txt.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=${CARRY:-.devcarry-cpu}
R=${OUT:-/tmp/hinesbatch-out}
mkdir -p "$R"
grep -o -m1 -w avx512f /proc/cpuinfo >"$R/avx512.txt"
lscpu >"$R/lscpu.txt"
export OMP_PROC_BIND=spread OMP_PLACES=threads LD_LIBRARY_PATH=$PWD/$c/lib
F='^Mono/(Sequential|Flat|SimdTiles|SimdTiles1Core)/(small-low|medium-high|big-low)/256000/|^ThomasBatch/(Sequential|Flat|SimdTiles|SimdTiles1Core)/f64/(64|256)/256000/'
# perf_v4x1, if carried: an AVX-512 build with one vector per tile
# (-DHINESBATCH_SIMD_TILE_VECTORS=1 in HINESBATCH_BENCH_ARCH_FLAGS), the tiles only, to
# compare with the default two vectors per tile in the same run.
F1='^Mono/(SimdTiles|SimdTiles1Core)/(small-low|medium-high|big-low)/256000/|^ThomasBatch/(SimdTiles|SimdTiles1Core)/f64/(64|256)/256000/'
for v in 3 4 4x1; do
  case $v in 4*) [ ! -s "$R/avx512.txt" ] && { echo "no AVX-512F: x86-64-v$v not run"; continue; } ;; esac
  [ -x "$c/cpu/perf_v$v" ] || continue
  filter=$F
  [ $v = 4x1 ] && filter=$F1
  timeout "${CPU_LIMIT_S:-250}" "$c/cpu/perf_v$v" --benchmark_filter="$filter" \
    --benchmark_out="$R/cpu_v$v.json" --benchmark_out_format=json >"$R/cpu_v$v.txt" 2>&1
  echo "cpu v$v rc=$?" | tee -a "$R/run.log"
done
