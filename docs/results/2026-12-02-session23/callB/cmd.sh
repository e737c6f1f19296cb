#!/usr/bin/env bash
# Call B: call A again after making the fill a compile-time choice (kernels for plans that
# do not split spines have none of its code: call A's P3/ring/ringtest and BlockPerSystem
# lost 8-20% to it), splits kept only where the path is a tenth shorter, and the on-chip
# schedule offering split plans to teams in shared memory only. One build (.devcarry/bin);
# run.on_chip_split_spines auto (the model) and off (plans as before), and on for the
# large cells. 1) the networks, each way in turn, twice (P3, ringtest, ring once), rasters
# by md5; 2) the Hines device map's real trees, Auto and BlockPerSystem, both layouts,
# 2^22-2^26 nodes.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
mkdir -p $c/x && for f in $c/bin/*.xz; do b=$(basename $f .xz); [ -x $c/x/$b ] || { xz -dc $f > $c/x/$b; chmod +x $c/x/$b; }; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; M=$OUT/map; mkdir -p $L $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1; shift
  [ $((SECONDS - t0)) -lt ${BUDGET_S:-400} ] || { stamp "$name not run (time budget)"; return; }
  timeout 90 $c/x/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail', ''))" 2>/dev/null | cut -c1-420) $(md5sum < $L/$name.spk | cut -c1-8)"; }
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
MX20="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
MX2="examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50"
LG2="examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50"
LG200="examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50"
MO2="examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=2000 --set network.kick.cells=200 --set tstop=50"
MO200="examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50"
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
RT="examples/sim/ringtest.json --set network.cells=65536"
BR="examples/sim/ring.json --set network.cells=10000"
for k in 1 2; do
  for net in MX20 MX2 LG2 LG200 MO2 MO200 P3 RT BR; do
    case $net in P3|RT|BR) [ $k = 2 ] && continue; ways="auto off";; MX20|MX2|LG2) ways="auto off";; *) ways="auto off on";; esac
    for w in $ways; do run ${net}_${w}_$k ${!net} --set run.on_chip_split_spines=\"$w\"; done
  done
done
rm -f $L/*.spk; xz -9 $L/*.log $L/*.json 2>/dev/null
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
[ $((SECONDS - t0)) -lt 500 ] && timeout 80 $c/x/hinesbatch_solver_map --map-backends=device --map-families=hines --map-trees=real \
    --map-totals=22,24,26 --benchmark_filter='/(Auto|BlockPerSystem)' --map-reps=3 \
    --benchmark_out=$M/map.json --benchmark_out_format=json > $M/map.txt 2>&1
stamp "map rc=$?"
python3 - "$M" <<'PY' | tee -a $S
import json, sys, os
f = os.path.join(sys.argv[1], "map.json")
if os.path.exists(f):
    for b in json.load(open(f)).get("benchmarks", []):
        if "items_per_second" in b: print(b["name"], "%.2f" % (b["items_per_second"] / 1e9), b.get("label", "")[:40])
PY
(cd $OUT && tar cJf map.tar.xz map && rm -rf map)
stamp done
