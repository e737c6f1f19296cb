#!/usr/bin/env bash
# Call G (planned): the host's tile sweeps with rows asked for 4 ahead against none, on the GPU
# machine's 16 cores, where session 38 measured Full-Interleaved large trees at 0.42 of the
# floor. Two OpenMP builds of hinesbatch_solver_map from the same source, carried as
# .devcarry/binG.txz (.devcarry/binG.txt): f4 (the default) and f0
# (-DHINESBATCH_TILE_PREFETCH_ROWS=0). Whole maps in the order f0 f4 f4 f0, so that drift
# falls on both; Flat storage (no prefetch in either build) as the control.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binG && mkdir -p $c/binG && tar xJf $c/binG.txz -C $c/binG
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; P=$OUT/map; mkdir -p $P
lscpu | head -20 > $OUT/cpu.txt; cat $c/binG.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
maps() {  # name layout timeout totals builds...: each build's whole map in turn
  local name=$1 layout=$2 limit=$3 totals=$4 v i=0
  shift 4
  for v in "$@"; do
    i=$((i + 1))
    timeout $limit $c/binG/$v --map-families=thomas,hines --map-backends=device --map-totals=$totals \
      --map-trees=all --map-reps=5 --benchmark_filter="$layout/Auto" \
      --benchmark_format=json > $P/${name}_${v}_$i.json 2> $P/${name}_${v}_$i.err
    stamp "$name $v $i rc=$?"
  done
}
# FI_TOTALS, FI_TIMEOUT, FLAT_BUILDS: a shorter call (session 40's call I) sets them.
maps fi FullInterleaved ${FI_TIMEOUT:-150} ${FI_TOTALS:-22,24} f0 f4 f4 f0
maps flat Flat ${FLAT_TIMEOUT:-60} 24 ${FLAT_BUILDS:-f0 f4 f4 f0}
xz -9 $P/*.json
(cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
