#!/usr/bin/env bash
# Call A: the lane plan cut into bands of height (host code: CellLanePlan::build), and the
# lanes' solve loading each entry's read-only inputs a step ahead (device code:
# lanes_hines_solve), against today's build. Three builds of hinesbatch-sim (no MPI) and
# hinesbatch_solver_map, .devcarry/varA.txz:
#   base   HEAD (1a862bf)
#   bands  + the band plans
#   pf     + the band plans + the loads a step ahead
# 1) the networks of the real-cell targets and the regressions, each build in turn, twice,
#    rasters by md5; 2) the Hines device map's real trees, Auto and BlockPerSystem, both
#    layouts, 2^22-2^26 nodes, each build in turn.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/var && mkdir -p $c/var && tar xJf $c/varA.txz -C $c/var
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; M=$OUT/map; mkdir -p $L $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  [ $((SECONDS - t0)) -lt ${BUDGET_S:-330} ] || { stamp "$name not run (time budget)"; return; }
  timeout 90 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail', ''))" 2>/dev/null | cut -c1-300) $(md5sum < $L/$name.spk | cut -c1-8)"; }
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
    [ $k = 2 ] && case $net in P3|RT) continue;; esac
    for v in base bands pf; do run ${net}_${v}_$k $c/var/$v/hinesbatch-sim ${!net}; done
  done
done
rm -f $L/*.spk; xz -9 $L/*.log $L/*.json 2>/dev/null
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
for v in base bands pf; do
  [ $((SECONDS - t0)) -lt 540 ] || { stamp "map $v not run (time budget)"; continue; }
  timeout 70 $c/var/$v/hinesbatch_solver_map --map-backends=device --map-families=hines --map-trees=real \
    --map-totals=22,24,26 --benchmark_filter='/(Auto|BlockPerSystem)' --map-reps=3 \
    --benchmark_out=$M/map_$v.json --benchmark_out_format=json > $M/map_$v.txt 2>&1
  stamp "map $v rc=$?"
done
python3 - "$M" <<'PY' | tee -a $S
import json, sys, os
M = sys.argv[1]; rates = {}
for v in ("base", "bands", "pf"):
    f = os.path.join(M, "map_%s.json" % v)
    if not os.path.exists(f): continue
    for b in json.load(open(f)).get("benchmarks", []):
        if "items_per_second" in b: rates.setdefault(b["name"], {})[v] = (b["items_per_second"] / 1e9, b.get("label", ""))
print("G nodes/s base / bands / pf")
for name in sorted(rates):
    r = rates[name]
    print(name, " ".join("%s=%.2f" % (v, r[v][0]) for v in ("base", "bands", "pf") if v in r), r.get("base", (0, ""))[1][:40])
PY
xz -9 $M/*.json $M/*.txt 2>/dev/null
stamp done
