#!/usr/bin/env bash
# Call D (binC.txz, the final build): #34's host target on the H100 machine's 16 cores: the
# mixed real cells (real_mixed.json, hh everywhere, the default catalogue mechanisms, the
# tiles schedule) on 16 threads against one, 1,000 and 2,000 cells, 5 ms; the same at 2,000
# cells with --mechanisms builtin. The CUDA build's host backend (scalar exp in the host code
# nvcc compiles). Same raster at 1 and 16 threads is checked by md5.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; H=$OUT/host; mkdir -p $H
nvidia-smi -L | tee $OUT/gpu.txt; lscpu > $OUT/lscpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 t=$2; shift 2
  OMP_NUM_THREADS=$t timeout 120 $c/bin/hinesbatch-sim examples/sim/real_mixed.json --backend host --quiet --set 'output={}' \
    --metrics $H/$name.json --spikes $H/$name.spk "$@" > $H/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$H/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('tile_cells'), m['compartments'])" 2>/dev/null) $(md5sum < $H/$name.spk | cut -c1-32)"; }
for n in 1000 2000; do
  for t in 16 1; do run mixed${n}_t$t $t --set network.cells=$n --set network.kick.cells=$((n / 20)) --set tstop=5; done
done
for t in 16 1; do run mixed2000_builtin_t$t $t --set network.cells=2000 --set network.kick.cells=100 --set tstop=5 --mechanisms builtin; done
(cd $OUT && tar czf host.tgz host && rm -rf host)
stamp done
