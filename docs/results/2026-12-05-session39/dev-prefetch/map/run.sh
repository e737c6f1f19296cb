#!/bin/bash
# Host (OpenMP, 2 threads) map of Auto in Full-Interleaved and Flat storage: the tile sweeps
# with rows prefetched 4 ahead (f4, the default) and without (f0, -DHINESBATCH_TILE_PREFETCH_ROWS=0),
# the same source otherwise, in turn, twice.
export HINESBATCH_SHARED_DIR=/work/shared OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
for r in 1 2; do
  for v in f0 f4; do
    ../$v --map-families=thomas,hines --map-backends=device --map-totals=20,22,24 --map-trees=all \
      --map-reps=5 --benchmark_filter='FullInterleaved/Auto' --benchmark_format=json \
      > fi_${v}_r$r.json 2> fi_${v}_r$r.err
  done
done
for r in 1 2; do
  for v in f0 f4; do
    ../$v --map-families=thomas,hines --map-backends=device --map-totals=24 --map-trees=all \
      --map-reps=5 --benchmark_filter='Flat/Auto' --benchmark_format=json \
      > flat_${v}_r$r.json 2> flat_${v}_r$r.err
  done
done
