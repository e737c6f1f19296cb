#!/usr/bin/env bash
# Call C. Binaries (binC.txz): hinesbatch-sim, hinesbatch-sim-l5pc and hinesbatch_unit_tests of
# main at 94eb810 (the launch model refitted, the library-compiled NetworkSimulation reverted;
# nmodl_unit_tests and nmodl_lanes_tests of call A), and hinesbatch-sim-single: the same with
# generated synapses that all run one point process indexed by the synapse (no mech(k) or row(k)
# load; uncommitted then).
#  part 1: the whole CUDA unit suite (2 shards), compute-sanitizer, the examples' rasters and rates.
set -u
part=${1:-1}
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary$part.txt; L=$OUT/c$part; mkdir -p $L $L/cfg; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim; R=$E/real_mixed.json
derive() { python3 - "$@" <<'PY'
import json, sys
src, dst, syn = sys.argv[1], sys.argv[2], sys.argv[3]
c = json.load(open(src)); n = c["network"]
tau, e = n.pop("tau", 2.0), n.pop("e", 0.0)
n["synapse"] = {"name": "ExpSyn", "parameters": {"tau": tau, "e": e}} if syn == "ExpSyn" else \
               {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": tau, "e": e}}
c["cell"]["mechanisms"] = [{"name": m["name"], "region": m.get("region", "all"),
    "parameters": {k: v for k, v in m.items() if k not in ("name", "region")}} for m in c["cell"]["mechanisms"]]
json.dump(c, open(dst, "w"), indent=1)
PY
}
for f in p3_synaptic ringtest ring; do derive $E/$f.json $L/cfg/${f}_gen.json ExpSyn; derive $E/$f.json $L/cfg/${f}_exp2syn.json Exp2Syn; done
run() { local bin=$1 name=$2; shift 2
  timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail'))" 2>/dev/null | cut -c1-300) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
if [ $part = 1 ]; then
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 250 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
few="--set network.cells=12 --set network.kick.cells=2 --set tstop=0.5 --set network.synapses_per_cell=4"
for bin in hinesbatch-sim hinesbatch-sim-single; do
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/$bin $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' $few \
    --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=128 > $L/racecheck_$bin.txt 2>&1
  stamp "racecheck $bin p3 + Exp2Syn team 128 rc=$? $(tail -1 $L/racecheck_$bin.txt)"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/$bin $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' \
    --set network.cells=200 --set network.kick.cells=20 --set tstop=5 > $L/memcheck_$bin.txt 2>&1
  stamp "memcheck $bin p3 + Exp2Syn rc=$? $(tail -1 $L/memcheck_$bin.txt)"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/$bin $L/cfg/p3_synaptic_gen.json --quiet --set 'output={}' \
    --set network.cells=60 --set network.kick.cells=6 --set tstop=5 --on-chip off > $L/memcheck_cells_$bin.txt 2>&1
  stamp "memcheck $bin p3 generated, cells schedule rc=$? $(tail -1 $L/memcheck_cells_$bin.txt)"
done
for be in device host; do run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be; done
p3="--set output={} --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
rt="--set output={} --set network.cells=65536 --set record=[]"
for round in 1 2; do
  run hinesbatch-sim p3syn100000_r$round $E/p3_synaptic.json $p3
  run hinesbatch-sim p3syn100000_gen_r$round $L/cfg/p3_synaptic_gen.json $p3
  run hinesbatch-sim-single p3syn100000_gen_single_r$round $L/cfg/p3_synaptic_gen.json $p3
  run hinesbatch-sim ring10000_r$round $E/ring.json --set 'output={}' --set network.cells=10000
  run hinesbatch-sim ring10000_gen_r$round $L/cfg/ring_gen.json --set 'output={}' --set network.cells=10000
  run hinesbatch-sim-single ring10000_gen_single_r$round $L/cfg/ring_gen.json --set 'output={}' --set network.cells=10000
done
run hinesbatch-sim ringtest65536 $E/ringtest.json $rt
run hinesbatch-sim ringtest65536_gen $L/cfg/ringtest_gen.json $rt
run hinesbatch-sim-single ringtest65536_gen_single $L/cfg/ringtest_gen.json $rt
run hinesbatch-sim-single p3syn100000_exp2syn_single $L/cfg/p3_synaptic_exp2syn.json $p3
run hinesbatch-sim mixed20000 $R --set 'output={}' $(cells 20000) --set tstop=50
run hinesbatch-sim large2000 $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50
fi
(cd $OUT && { [ $part = 1 ] && tar czf c1_sanitizers.tgz c1/racecheck* c1/memcheck*; rm -f $L/*.spk; tar czf c$part.tgz c$part && rm -rf c$part; })
