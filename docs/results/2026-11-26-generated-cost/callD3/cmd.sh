#!/usr/bin/env bash
# Call D3: generated currents linear in v evaluated once (di/dv = g; bin/, built from
# 0eb547f on main with the api-tidy merge) against call D2's build (prev/, 39fc5e1) and the
# built-in mechanisms, same call, twice each: P3 network, ringtest model, mixed real cells,
# L5PC network on chip.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin $c/prev && tar xzf $c/bins_d3.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d3; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim
gen_all='[{"name": "hh", "region": "all", "parameters": {"gnabar": 0.12}}]'
gen_p3='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}}, {"name": "pas", "region": "dend", "parameters": {"g": 0.0001, "e": -65}}]'
run() { local dir=$1 bin=$2 name=$3; shift 3
  timeout 150 $c/$dir/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
for rep in 1 2; do
for d in bin prev; do
  run $d hinesbatch-sim p3_generated_${d}_$rep $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set "cell.mechanisms=$gen_p3"
  run $d hinesbatch-sim ringtest_generated_${d}_$rep $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]' --set "cell.mechanisms=$gen_all"
  run $d hinesbatch-sim mixed_generated_${d}_$rep $E/real_mixed.json --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50 --set "cell.mechanisms=$gen_all"
done
  run bin hinesbatch-sim p3_builtin_bin_$rep $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
  run bin hinesbatch-sim ringtest_builtin_bin_$rep $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]'
  run bin hinesbatch-sim mixed_builtin_bin_$rep $E/real_mixed.json --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
done
B=docs/results/2026-11-26-flags/callA
for d in bin prev; do
  run $d hinesbatch-sim-l5pc l5pc_net20000_on_chip_$d $B/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20
  run $d hinesbatch-sim-l5pc l5pc_net2000_on_chip_$d $B/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20
done
run bin hinesbatch-sim-l5pc l5pc_net2000_cells_bin $B/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20 --on-chip off
(cd $OUT && rm -f $L/*.spk && tar czf d3.tgz d3 && rm -rf d3)
