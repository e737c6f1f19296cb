#!/usr/bin/env bash
# Session 46's call E: the two ways through the padding side by side in Full-Interleaved
# ThomasVBatch (Auto, binS48: the in-step solve and the remade table), one run: computing the
# padding (cp) and not (ncp), m_max 4-100,000, both spreads, 2^20-2^28 real rows.
# Carry: .devcarry/binS48.txz, binS48.txt, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binS48; mkdir -p $c/binS48 && tar xJf $c/binS48.txz -C $c/binS48 hinesbatch_solver_map
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS48.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
timeout 150 $c/binS48/hinesbatch_solver_map --map-families=thomasv --map-backends=device \
  --benchmark_filter='^ThomasV/Device/FullInterleaved/Auto/' \
  --benchmark_out=$M/map_fi_auto.json --benchmark_out_format=json > $M/map_fi_auto.txt 2>&1
stamp "FI Auto cp+ncp rc=$? $(grep -c '^ThomasV' $M/map_fi_auto.txt) points, $(grep -c ERROR $M/map_fi_auto.txt) error lines"
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
stamp done
