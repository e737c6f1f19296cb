#!/usr/bin/env bash
# Call A. Binaries (binA.txz): hinesbatch-sim, hinesbatch-sim-l5pc, hinesbatch_unit_tests,
# nmodl_unit_tests and nmodl_lanes_tests of main at 354c087 (per-instance invariants of the
# generated mechanisms; the default catalogue's simulation compiled once in the library),
# and hinesbatch-sim-new / hinesbatch-sim-l5pc-new: the same with the on-chip launch model
# refitted (src/simulation/on_chip_launch_plan.cpp, uncommitted then; part 2 ran twice: first with a model whose barrier cost lengthened the latency (a2-first/), then with the committed one, whose barriers cost issue slots).
#  1. NMODL tests, the whole CUDA unit suite (2 shards), compute-sanitizer.
#  2. Rasters and rates of the examples with built-in and with generated mechanisms and synapses.
#  3. The launch plan: old and new model alternating on the networks whose shapes it decides.
set -u
part=${1:-1}  # 1: tests, sanitizers, examples; 2: the launch model
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; A=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary$part.txt; L=$OUT/a$part; mkdir -p $L $L/cfg; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim; R=$E/real_mixed.json; M=$c/shared/morphologies
derive() { python3 - "$@" <<'PY'
import json, sys
src, dst, syn, mech = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
c = json.load(open(src)); n = c["network"]
tau, e = n.pop("tau", 2.0), n.pop("e", 0.0)
n["synapse"] = {"name": "ExpSyn", "parameters": {"tau": tau, "e": e}} if syn == "ExpSyn" else \
               {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": tau, "e": e}}
if mech == "mech":
    ms = []
    for m in c["cell"]["mechanisms"]:
        p = {k: v for k, v in m.items() if k not in ("name", "region")}
        ms.append({"name": m["name"], "region": m.get("region", "all"), "parameters": p})
    c["cell"]["mechanisms"] = ms
json.dump(c, open(dst, "w"), indent=1)
PY
}
for f in p3_synaptic ringtest ring; do
  derive $E/$f.json $L/cfg/${f}_gen.json ExpSyn mech; derive $E/$f.json $L/cfg/${f}_exp2syn.json Exp2Syn mech
done
python3 - $E/real_large.json $L/cfg/moto_10um.json <<'PY'
import json, sys
c = json.load(open(sys.argv[1])); c["cell"]["morphology"] = c["cell"]["morphology"].replace("10-2012-02-09-001", "v_e_moto1")
json.dump(c, open(sys.argv[2], "w"), indent=1)
PY
run() { local bin=$1 name=$2; shift 2
  timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail'))" 2>/dev/null | cut -c1-400) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
if [ $part = 1 ]; then
OMP_NUM_THREADS=8 timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
timeout 60 $c/bin/nmodl_lanes_tests --gtest_brief=1 > $L/nmodl_lanes.txt 2>&1; stamp "nmodl_lanes_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|lanes \]' $L/nmodl_lanes.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 240 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
few="--set network.cells=12 --set network.kick.cells=2 --set tstop=0.5 --set network.synapses_per_cell=4"
for shape in team_per_cell:128 warp_per_cell:32; do
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' $few \
    --set run.on_chip_kind=\"${shape%%:*}\" --set run.on_chip_lanes=${shape##*:} > $L/racecheck_exp2syn_${shape%%:*}.txt 2>&1
  stamp "racecheck p3 generated + Exp2Syn synapses $shape rc=$? $(grep -E 'hinesbatch-sim: error' $L/racecheck_exp2syn_${shape%%:*}.txt) $(tail -1 $L/racecheck_exp2syn_${shape%%:*}.txt)"
done
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' \
  --set network.cells=200 --set network.kick.cells=20 --set tstop=5 > $L/memcheck_exp2syn.txt 2>&1
stamp "memcheck p3 generated + Exp2Syn synapses rc=$? $(tail -1 $L/memcheck_exp2syn.txt)"
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' \
  --set network.cells=60 --set network.kick.cells=6 --set tstop=5 --on-chip off > $L/memcheck_exp2syn_cells.txt 2>&1
stamp "memcheck p3 generated + Exp2Syn synapses, cells schedule rc=$? $(tail -1 $L/memcheck_exp2syn_cells.txt)"
# 2. Examples: built-in against generated (alternating), rasters.
for be in device host; do run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be; done
p3="--set output={} --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
rt="--set output={} --set network.cells=65536 --set record=[]"
for round in 1 2; do
  run hinesbatch-sim p3syn100000_r$round $E/p3_synaptic.json $p3
  run hinesbatch-sim p3syn100000_gen_r$round $L/cfg/p3_synaptic_gen.json $p3
  run hinesbatch-sim ringtest65536_r$round $E/ringtest.json $rt
  run hinesbatch-sim ringtest65536_gen_r$round $L/cfg/ringtest_gen.json $rt
  run hinesbatch-sim ring10000_r$round $E/ring.json --set 'output={}' --set network.cells=10000
  run hinesbatch-sim ring10000_gen_r$round $L/cfg/ring_gen.json --set 'output={}' --set network.cells=10000
done
run hinesbatch-sim p3syn100000_exp2syn $L/cfg/p3_synaptic_exp2syn.json $p3
run hinesbatch-sim ring10000_exp2syn $L/cfg/ring_exp2syn.json --set 'output={}' --set network.cells=10000
fi
if [ $part = 2 ]; then
# 3. The launch model, old and new alternating (20 ms each, same spikes expected).
ab() { local name=$1 cfg=$2; shift 2
  for round in 1 2; do
    run hinesbatch-sim ${name}_old_r$round $cfg --set 'output={}' --set tstop=20 "$@"
    run hinesbatch-sim-new ${name}_new_r$round $cfg --set 'output={}' --set tstop=20 "$@"
  done; }
ab mixed20000 $R $(cells 20000)
ab mixed2000 $R $(cells 2000)
ab mixed200 $R $(cells 200)
ab large2000 $E/real_large.json $(cells 2000)
ab large200 $E/real_large.json $(cells 200)
ab moto10um2000 $L/cfg/moto_10um.json $(cells 2000)
ab moto10um200 $L/cfg/moto_10um.json $(cells 200)
ab p3syn1000 $E/p3_synaptic.json $(cells 1000)
ab p3syn10000 $E/p3_synaptic.json $(cells 10000)
ab ringtest1000 $E/ringtest.json --set network.cells=1000 --set record=[]
for round in 1 2; do
  for v in "" -new; do
    run hinesbatch-sim-l5pc$v l5pc20000${v:-_old}_r$round $A/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20
    run hinesbatch-sim-l5pc$v l5pc2000${v:-_old}_r$round $A/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20
  done
done
fi
(cd $OUT && { [ $part = 1 ] && tar czf a1_sanitizers.tgz a1/racecheck* a1/memcheck*; rm -f $L/*.spk; tar czf a$part.tgz a$part && rm -rf a$part; })
