#!/usr/bin/env bash
# Call D2: generated (NMODL) mechanisms that keep only what they read back and compute
# uniforms once (bin/, built from 39fc5e1), the same without uniforms (mid/, a3778d5) and
# the session-4 binary (old/, f5f7c97), same call: ringtest model (hh everywhere), P3
# network (hh soma, pas dendrites), mixed real cells, generated and built-in; the L5PC
# network on chip; ncu bytes of the epoch kernel.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin $c/mid $c/old && tar xzf $c/bins3.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d2; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim
gen_all='[{"name": "hh", "region": "all", "parameters": {"gnabar": 0.12}}]'
gen_p3='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}}, {"name": "pas", "region": "dend", "parameters": {"g": 0.0001, "e": -65}}]'
run() { local dir=$1 bin=$2 name=$3; shift 3
  timeout 150 $c/$dir/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
for rep in 1 2; do
for d in bin mid old; do
  [ $d = mid ] && [ $rep = 2 ] && continue
  [ $rep = 1 ] && [ $d != mid ] && run $d hinesbatch-sim ringtest_builtin_${d}_$rep $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]'
  run $d hinesbatch-sim ringtest_generated_${d}_$rep $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]' --set "cell.mechanisms=$gen_all"
  [ $rep = 1 ] && [ $d != mid ] && run $d hinesbatch-sim p3_builtin_${d}_$rep $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
  run $d hinesbatch-sim p3_generated_${d}_$rep $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set "cell.mechanisms=$gen_p3"
  [ $rep = 1 ] && [ $d != mid ] && run $d hinesbatch-sim mixed_builtin_${d}_$rep $E/real_mixed.json --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
  run $d hinesbatch-sim mixed_generated_${d}_$rep $E/real_mixed.json --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50 --set "cell.mechanisms=$gen_all"
done
done
B=docs/results/2026-11-26-flags/callA
for d in bin old; do
  run $d hinesbatch-sim-l5pc l5pc_net20000_on_chip_$d $B/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20
  run $d hinesbatch-sim-l5pc l5pc_net2000_on_chip_$d $B/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20
done
ncu_run() { local name=$1 dir=$2; shift 2
  timeout 100 ncu --kernel-name-base demangled --kernel-name regex:StepCellEpochOnChip --launch-count 1 \
    --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,smsp__inst_executed.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active \
    $c/$dir/hinesbatch-sim "$@" --quiet --set 'output={}' --set tstop=1 > $L/ncu_$name.txt 2>&1
  stamp "ncu $name rc=$? $(grep -E 'duration|bytes|inst_executed|registers|warps_active' $L/ncu_$name.txt | awk '{$1=$1};1' | tr '\n' ';')"; }
ncu_run ringtest_generated_bin bin $E/ringtest.json --set network.cells=10000 --set 'record=[]' --set "cell.mechanisms=$gen_all"
ncu_run ringtest_builtin_bin bin $E/ringtest.json --set network.cells=10000 --set 'record=[]'
ncu_run p3_generated_bin bin $E/p3_synaptic.json --set network.cells=20000 --set network.kick.cells=2000 --set "cell.mechanisms=$gen_p3"
(cd $OUT && rm -f $L/*.spk && tar czf d2.tgz d2 && rm -rf d2)
