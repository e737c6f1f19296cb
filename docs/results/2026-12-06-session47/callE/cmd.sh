#!/usr/bin/env bash
# Session 47's call E, on binS47bmap (main's solver_map, ffa7984): the three points where call C
# found Auto's choice more than 10% behind another schedule, three runs each, to tell a choice
# that this H100 does not share with the H200 the tables were made on from a single slow run.
# Carry: .devcarry/binS47bmap.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binS47bmap; mkdir -p $c/binS47bmap && tar xJf $c/binS47bmap.txz -C $c/binS47bmap
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
X=$c/binS47bmap/hinesbatch_solver_map
for run in a b c; do
  timeout 40 $X --map-families=thomas --map-backends=device --map-rows=128,50000 --map-totals=24,26 \
    --benchmark_filter='^Thomas/Device/FullInterleaved/(Auto|PerSystem|WarpPerSystem|TeamPerSystemInMemory|TeamPerSystemTwoPass)/' \
    --benchmark_out=$M/thomas_$run.json --benchmark_out_format=json > $M/thomas_$run.txt 2>&1
  stamp "thomas $run rc=$? $(grep -c '^Thomas' $M/thomas_$run.txt) points"
  timeout 40 $X --map-families=hines --map-backends=device --map-trees=classes --map-totals=26 \
    --benchmark_filter='^Hines/Device/Flat/(Auto|TeamPerSystem|PerSystemStaged|WarpPerSystem)/class-medium-low/' \
    --benchmark_out=$M/hines_$run.json --benchmark_out_format=json > $M/hines_$run.txt 2>&1
  stamp "hines $run rc=$? $(grep -c '^Hines' $M/hines_$run.txt) points"
done
grep -h '^\(Thomas\|Hines\)' $M/*.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /nodes_per_s=/) r=$i; print $1, r, $NF}' | sort | tee $OUT/points.txt
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
