#!/usr/bin/env bash
# Call B (build of main after merging synapses as point processes, run options through one
# path, the lanes variants of generated mechanisms and constant flags in device code): the
# NMODL unit tests, the whole CUDA unit suite (2 shards), compute-sanitizer on networks whose
# synapses are generated point processes (racecheck on team and warp launches, memcheck),
# the examples with built-in and with generated mechanisms and synapses (rasters, rates),
# the L5PC network and the mixed cells on the host's 16 cores with the lanes variants.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; A=$PWD/docs/results/2026-11-26-flags/callA
rm -rf $c/bin && tar xJf $c/binB.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/b; mkdir -p $L $L/cfg; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim; R=$E/real_mixed.json
# A config with the network's synapses as the catalogue's point process (tau/e dropped) and,
# with "mech", the cell's mechanisms as the catalogue's (hh and pas with parameters).
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
derive $R $L/cfg/real_mixed_gen.json ExpSyn mech
OMP_NUM_THREADS=8 timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
timeout 60 $c/bin/nmodl_lanes_tests --gtest_brief=1 > $L/nmodl_lanes.txt 2>&1; stamp "nmodl_lanes_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|lanes \]' $L/nmodl_lanes.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 230 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
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
run() { local bin=$1 name=$2; shift 2
  timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
for be in device host; do run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be; done
p3="--set output={} --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
run hinesbatch-sim p3syn100000 $E/p3_synaptic.json $p3
run hinesbatch-sim p3syn100000_gen $L/cfg/p3_synaptic_gen.json $p3
run hinesbatch-sim p3syn100000_exp2syn $L/cfg/p3_synaptic_exp2syn.json $p3
rt="--set output={} --set network.cells=65536 --set record=[]"
run hinesbatch-sim ringtest65536 $E/ringtest.json $rt
run hinesbatch-sim ringtest65536_gen $L/cfg/ringtest_gen.json $rt
run hinesbatch-sim ring10000 $E/ring.json --set 'output={}' --set network.cells=10000
run hinesbatch-sim ring10000_gen $L/cfg/ring_gen.json --set 'output={}' --set network.cells=10000
run hinesbatch-sim mixed20000 $R --set 'output={}' $(cells 20000) --set tstop=50
run hinesbatch-sim mixed20000_gen $L/cfg/real_mixed_gen.json --set 'output={}' $(cells 20000) --set tstop=50
run hinesbatch-sim large2000 $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50
run hinesbatch-sim-l5pc l5pc_net20000 $A/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20
OMP_NUM_THREADS=16 run hinesbatch-sim-l5pc l5pc_host16_2000 $A/l5pc_cnic_net.json --set network.cells=2000 --set tstop=20 --backend host
OMP_NUM_THREADS=1 run hinesbatch-sim-l5pc l5pc_host1_192 $A/l5pc_cnic_net.json --set network.cells=192 --set tstop=20 --backend host
for t in 16 1; do
  n=1000; [ $t = 1 ] && n=192
  OMP_NUM_THREADS=$t run hinesbatch-sim host_mixed${n}_t$t $R --set 'output={}' $(cells $n) --set tstop=5 --backend host
  OMP_NUM_THREADS=$t run hinesbatch-sim host_mixed${n}_gen_t$t $L/cfg/real_mixed_gen.json --set 'output={}' $(cells $n) --set tstop=5 --backend host
done
(cd $OUT && tar czf b_sanitizers.tgz b/racecheck* b/memcheck* && rm -f $L/*.spk && tar czf b.tgz b && rm -rf b)
