#!/usr/bin/env bash
# Call D (binC.txz): the L5PC network (cnic_004, the 12 mechanisms, Hay's densities; session 6's
# l5pc_cnic_net.json) with cm 1 everywhere as before and with Hay's cm (2 in the basal and
# apical dendrites: more segments by d_lambda), on the H100 and on its 16 cores.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1; shift
  timeout 120 $c/bin/hinesbatch-sim-l5pc "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m['compartments'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
NET=docs/results/2026-11-26-flags/callA/l5pc_cnic_net.json
HAY='cell.cm=[{"region": "all", "value": 1}, {"region": "basal", "value": 2}, {"region": "apic", "value": 2}]'
for k in 1 2; do
  run gpu_cm1_$k $NET --set network.cells=20000 --set tstop=20
  run gpu_hay_$k $NET --set network.cells=20000 --set tstop=20 --set "$HAY"
done
run gpu_cm1_2000 $NET --set network.cells=2000 --set tstop=20
run gpu_hay_2000 $NET --set network.cells=2000 --set tstop=20 --set "$HAY"
export OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads
run host16_cm1 $NET --set network.cells=2000 --set tstop=5 --backend host
run host16_hay $NET --set network.cells=2000 --set tstop=5 --backend host --set "$HAY"
rm -f $L/*.spk
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
