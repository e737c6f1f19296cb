#!/usr/bin/env bash
# Call A2, throughput: teams' solves by flags (auto) against level barriers
# (run.on_chip_sync=barriers), same binary, same call; the warp-per-cell networks (P3, ring,
# ringtest) against last session's rasters; generated (NMODL) mechanisms on chip against the
# built-ins and against the cells schedule.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; B=$PWD/docs/results/2026-11-26-flags/callA
[ -x $c/bin/hinesbatch-sim ] || { rm -rf $c/bin && mkdir -p $c/bin && tar xzf $c/bin.tgz -C $c; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary2.txt; L=$OUT/a2; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu2.txt; lscpu > $OUT/lscpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local bin=$1 name=$2; shift 2
  timeout 120 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
E=examples/sim
moto="--set cell.morphology=\"\${HINESBATCH_SHARED_DIR}/morphologies/v_e_moto1.CNG.swc\""
bar="--set run.on_chip_sync=\"barriers\""
for sync in flags barriers; do
  x=""; [ $sync = barriers ] && x=$bar
  run hinesbatch-sim mixed20000_$sync $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50 $x
  run hinesbatch-sim mixed2000_$sync $E/real_mixed.json --set 'output={}' $(cells 2000) --set tstop=50 $x
  run hinesbatch-sim large2000_$sync $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50 $x
  run hinesbatch-sim large200_$sync $E/real_large.json --set 'output={}' $(cells 200) --set tstop=50 $x
  run hinesbatch-sim moto2000_$sync $E/real_large.json --set 'output={}' $moto $(cells 2000) --set tstop=50 $x
  run hinesbatch-sim moto200_$sync $E/real_large.json --set 'output={}' $moto $(cells 200) --set tstop=50 $x
done
run hinesbatch-sim p3syn100000 $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run hinesbatch-sim ring10000 $E/ring.json --set 'output={}' --set network.cells=10000
run hinesbatch-sim ringtest65536 $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]'
# Generated (NMODL) hh and pas of the default catalogue against the built-ins, on chip.
gen_mixed='[{"name": "hh", "region": "all", "parameters": {"gnabar": 0.12}}]'
gen_p3='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}}, {"name": "pas", "region": "dend", "parameters": {"g": 0.0001, "e": -65}}]'
run hinesbatch-sim mixed20000_generated $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50 --set "cell.mechanisms=$gen_mixed"
run hinesbatch-sim p3syn100000_generated $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set "cell.mechanisms=$gen_p3"
run hinesbatch-sim ringtest65536_generated $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]' --set "cell.mechanisms=[{\"name\": \"hh\", \"region\": \"all\", \"parameters\": {\"gnabar\": 0.12}}]"
# The L5PC network (12 generated mechanisms) on chip and on the cells schedule.
for n in 2000 20000; do
  run hinesbatch-sim-l5pc l5pc_net${n}_on_chip $B/l5pc_cnic_net.json --set network.cells=$n --set tstop=20
  run hinesbatch-sim-l5pc l5pc_net${n}_cells $B/l5pc_cnic_net.json --set network.cells=$n --set tstop=20 --on-chip off
done
# The host backend of the same binary on the machine's cores: 1, 8 and 16 threads (lscpu.txt
# says how many are physical).
for n in 1000 2000; do
  for t in 1 8 16; do
    OMP_NUM_THREADS=$t run hinesbatch-sim host_mixed${n}_t$t $E/real_mixed.json --set 'output={}' $(cells $n) --set tstop=5 --backend host
  done
done
grep -h '"schedule_detail"' $L/mixed20000_flags.json $L/mixed20000_barriers.json $L/moto2000_flags.json $L/l5pc_net2000_on_chip.json | cut -c1-600 | tee -a $S
(cd $OUT && rm -f $L/*.spk && tar czf a2.tgz a2 && rm -rf a2)
