#!/usr/bin/env bash
# Session 47's call C, on binS47b (main's device code as merged, ffa7984): the maps `Auto` is
# decided from, measured again on the code as it is, to count where `Auto` stands against
# the floor and against the library's fastest schedule at each point.
# 1. The tridiagonal device map (ThomasBatch), Flat and Full-Interleaved, every schedule and
#    Auto, the map's sizes and 2^20-2^28 rows.
# 2. The Hines device map, Flat and Full-Interleaved, every schedule and Auto, every tree,
#    2^20-2^26 nodes.
# 3. ThomasVBatch Flat computing the padding at 2^20-2^22 rows, Auto and the schedules it
#    chooses among, three runs: how far Auto's own launch trails the schedule named.
# Carry: .devcarry/binS47b.txz, binS47b.txt, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binS47b; mkdir -p $c/binS47b && tar xJf $c/binS47b.txz -C $c/binS47b
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS47b.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
X=$c/binS47b/hinesbatch_solver_map
timeout 170 $X --map-families=thomas --map-backends=device --benchmark_filter='^Thomas/Device/' \
  --benchmark_out=$M/map_thomas.json --benchmark_out_format=json > $M/map_thomas.txt 2>&1
stamp "thomas device map rc=$? $(grep -c '^Thomas' $M/map_thomas.txt) points, $(grep -c ERROR $M/map_thomas.txt) error lines"
timeout 200 $X --map-families=hines --map-backends=device --map-totals=20,22,24,26 --map-trees=all \
  --benchmark_filter='^Hines/Device/' \
  --benchmark_out=$M/map_hines.json --benchmark_out_format=json > $M/map_hines.txt 2>&1
stamp "hines device map rc=$? $(grep -c '^Hines' $M/map_hines.txt) points, $(grep -c ERROR $M/map_hines.txt) error lines"
for run in a b c; do
  timeout 30 $X --map-families=thomasv --map-backends=device --map-totals=20,21,22 --map-vvariants=cp \
    --benchmark_filter='^ThomasV/Device/Flat/(Auto|PerSystem|WarpPerSystem)/cp-' \
    --benchmark_out=$M/vflat_$run.json --benchmark_out_format=json > $M/vflat_$run.txt 2>&1
  stamp "thomasv Flat cp small batches $run rc=$? $(grep -c '^ThomasV' $M/vflat_$run.txt) points"
done
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
