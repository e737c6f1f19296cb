#!/usr/bin/env bash
# Call C (binC.txz): the final code, Full-Interleaved host tiles of 32 systems
# (interleaved_tile_lanes, W past 4 MiB of tile rows per array).
#   $1 = map: hinesbatch_solver_map of the openmp preset, default flags (SSE2) and
#     -march=x86-64-v4 (AVX-512): every tree of the map and eight tridiagonal sizes in
#     Full-Interleaved storage, SimdTiles and Auto, 2^24, five solves (16 threads, spread).
#   $1 = suite: the CUDA build (cuda-h100): the whole unit suite in two shards, then
#     compute-sanitizer memcheck on the tile tests, the new ones among them.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
t0=$SECONDS; S=$OUT/summary_${1:-map}.txt; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
if [ "${1:-map}" = map ]; then
  export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
  mkdir -p $OUT/map
  for isa in sse2 v4; do
    m=$c/binC/$isa/hinesbatch_solver_map
    timeout 120 $m --map-families=hines --map-totals=24 --map-reps=5 \
      --benchmark_filter='Hines/Device/FullInterleaved/(SimdTiles|Auto)/' \
      --benchmark_out=$OUT/map/hines_$isa.json --benchmark_out_format=json > $OUT/map/hines_$isa.txt 2>&1
    stamp "hines $isa rc=$?"
    timeout 60 $m --map-families=thomas --map-totals=24 --map-reps=5 --map-rows=3,8,32,100,257,1000,10000,100000 \
      --benchmark_filter='Thomas/Device/FullInterleaved/(SimdTiles|Auto)/' \
      --benchmark_out=$OUT/map/thomas_$isa.json --benchmark_out_format=json > $OUT/map/thomas_$isa.txt 2>&1
    stamp "thomas $isa rc=$?"
  done
  (cd $OUT && tar cJf map.tar.xz map && rm -rf map)
else
  nvidia-smi -L | tee $OUT/gpu.txt
  U=$c/binC/cuda/hinesbatch_unit_tests; L=$OUT/c; mkdir -p $L
  for s in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 270 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
    stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
  done
  grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
  F='*InterleavedTilesWideAndForLongSystemsNarrow*:SimdTiles/*.HinesTinyTreesAndPartialTiles:SimdTiles/*.ThomasSizesAndPartialTiles:HinesBatchSolve/*.TinyTrees'
  OMP_NUM_THREADS=4 timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $U --gtest_filter="$F" --gtest_brief=1 > $L/memcheck.txt 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
  xz -9 $L/*.txt; (cd $OUT && tar cJf c.tar.xz c && rm -rf c)
fi
stamp done
