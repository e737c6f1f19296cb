#!/usr/bin/env bash
# Call B: main after the flags were reverted (generated mechanisms on chip kept) against last
# session's final binary (old/), same call, twice each: the warp-per-cell networks and the
# mixed real cells (team launches), then generated mechanisms on chip and the L5PC network.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; B=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin $c/old && tar xzf $c/bin.tgz -C $c && tar xzf $c/old.tgz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/b; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local bin=$1 name=$2; shift 2
  timeout 120 $bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
E=examples/sim
for rep in 1 2; do
  for b in bin old; do
    run $c/$b/hinesbatch-sim p3syn100000_${b}_$rep $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
    run $c/$b/hinesbatch-sim ring10000_${b}_$rep $E/ring.json --set 'output={}' --set network.cells=10000
    run $c/$b/hinesbatch-sim mixed20000_${b}_$rep $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50
    run $c/$b/hinesbatch-sim large2000_${b}_$rep $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50
  done
done
gen_p3='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}}, {"name": "pas", "region": "dend", "parameters": {"g": 0.0001, "e": -65}}]'
run $c/bin/hinesbatch-sim p3syn100000_generated $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set "cell.mechanisms=$gen_p3"
run $c/bin/hinesbatch-sim mixed20000_generated $E/real_mixed.json --set 'output={}' $(cells 20000) --set tstop=50 --set 'cell.mechanisms=[{"name": "hh", "region": "all", "parameters": {"gnabar": 0.12}}]'
for n in 2000 20000; do
  run $c/bin/hinesbatch-sim-l5pc l5pc_net${n}_on_chip $B/l5pc_cnic_net.json --set network.cells=$n --set tstop=20
done
(cd $OUT && rm -f $L/*.spk && tar czf b.tgz b && rm -rf b)
