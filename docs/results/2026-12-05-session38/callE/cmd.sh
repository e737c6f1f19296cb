#!/usr/bin/env bash
# Call E: BlockPerSystem and Auto over the shared SWC trees, random trees and the simulator's
# compartments at 2^20-2^26 nodes with the waits-per-warp binaries (.devcarry/binB.txz), twice:
# the map session 36's call A ran for its T (every wait the team's) and F (waits per warp and
# the cut by warp) builds, which this one is set beside.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -x $c/binB/hinesbatch_solver_map ] || { rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; mkdir -p $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binB.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for v in W1 W2; do
  timeout 150 $c/binB/hinesbatch_solver_map --map-backends=device --map-families=hines --map-trees=real,random,compartments \
    --map-totals=20,22,24,26 --benchmark_filter='/(Auto|BlockPerSystem)/' --map-reps=3 \
    --benchmark_out=$M/map-$v.json --benchmark_out_format=json > $M/map-$v.txt 2>&1
  stamp "map $v rc=$? $(grep -c floor_frac $M/map-$v.txt) points"
done
(cd $OUT && tar cJf map.tar.xz map && rm -rf map)
stamp done
