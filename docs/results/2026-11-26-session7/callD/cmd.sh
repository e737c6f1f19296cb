#!/usr/bin/env bash
# Call D (the final build; binD.txz): the NMODL tests, the whole CUDA unit suite (2 shards),
# compute-sanitizer (generated synapses on chip and in the cells schedule; the Thomas team and
# in-memory team tests, whose PCR is now one function), rasters and rates of the examples, and
# the solver map's points before (hinesbatch_solver_map_before: built from 62149be, the same
# Thomas and Hines kernels as main before the duplicates were removed) and after, alternating.
#   part 1: tests and sanitizers; part 2: examples and the solver points.
set -u
part=${1:-1}
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binD.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary$part.txt; L=$OUT/d$part; mkdir -p $L $L/cfg; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim; R=$E/real_mixed.json
python3 - $E $L/cfg <<'PY'
import json, sys
E, out = sys.argv[1], sys.argv[2]
for f in ["p3_synaptic", "ringtest", "ring"]:
    for syn in ["ExpSyn", "Exp2Syn"]:
        c = json.load(open(f"{E}/{f}.json")); n = c["network"]
        tau, e = n.pop("tau", 2.0), n.pop("e", 0.0)
        n["synapse"] = {"name": "ExpSyn", "parameters": {"tau": tau, "e": e}} if syn == "ExpSyn" else \
                       {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": tau, "e": e}}
        c["cell"]["mechanisms"] = [{"name": m["name"], "region": m.get("region", "all"),
            "parameters": {k: v for k, v in m.items() if k not in ("name", "region")}} for m in c["cell"]["mechanisms"]]
        json.dump(c, open(f"{out}/{f}_{'gen' if syn == 'ExpSyn' else 'exp2syn'}.json", "w"), indent=1)
PY
run() { local bin=$1 name=$2; shift 2
  timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), '|', m.get('schedule_detail'))" 2>/dev/null | cut -c1-200) $(md5sum < $L/$name.spk | cut -c1-32)"; }
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
if [ $part = 1 ]; then
  OMP_NUM_THREADS=8 timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
  timeout 60 $c/bin/nmodl_lanes_tests --gtest_brief=1 > $L/nmodl_lanes.txt 2>&1; stamp "nmodl_lanes_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|lanes \]' $L/nmodl_lanes.txt | tr '\n' ' ')"
  for s in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 250 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
    stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
  done
  grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
  few="--set network.cells=12 --set network.kick.cells=2 --set tstop=0.5 --set network.synapses_per_cell=4"
  timeout 120 compute-sanitizer --tool racecheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' $few \
    --set run.on_chip_kind='"team_per_cell"' --set run.on_chip_lanes=128 > $L/racecheck_exp2syn.txt 2>&1
  stamp "racecheck p3 + Exp2Syn team 128 rc=$? $(tail -1 $L/racecheck_exp2syn.txt)"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_exp2syn.json --quiet --set 'output={}' \
    --set network.cells=200 --set network.kick.cells=20 --set tstop=5 > $L/memcheck_exp2syn.txt 2>&1
  stamp "memcheck p3 + Exp2Syn rc=$? $(tail -1 $L/memcheck_exp2syn.txt)"
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_gen.json --quiet --set 'output={}' \
    --set network.cells=60 --set network.kick.cells=6 --set network.synapses_per_cell=20 --set tstop=5 --on-chip off > $L/memcheck_cells.txt 2>&1
  stamp "memcheck p3 generated, cells schedule rc=$? $(tail -1 $L/memcheck_cells.txt)"
  for tool in racecheck memcheck; do
    OMP_NUM_THREADS=8 timeout 200 compute-sanitizer --tool $tool --error-exitcode 9 $c/bin/hinesbatch_unit_tests --gtest_brief=1 \
      --gtest_filter='*InMemory*:ThomasBatchTest/*.TeamScheduleShapes' > $L/${tool}_thomas_teams.txt 2>&1
    stamp "$tool Thomas team and in-memory tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/${tool}_thomas_teams.txt | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $L/${tool}_thomas_teams.txt | tail -1)"
  done
fi
if [ $part = 2 ]; then
  # Part 1 ran this memcheck without synapses_per_cell=20: the config was refused (100 > 59), nothing ran.
  timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/cfg/p3_synaptic_gen.json --quiet --set 'output={}' \
    --set network.cells=60 --set network.kick.cells=6 --set network.synapses_per_cell=20 --set tstop=5 --on-chip off > $L/memcheck_cells.txt 2>&1
  stamp "memcheck p3 generated, cells schedule rc=$? $(tail -1 $L/memcheck_cells.txt)"
  for be in device host; do run hinesbatch-sim two_templates_$be $E/two_templates.json --set 'output={}' --backend $be; done
  p3="--set output={} --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
  run hinesbatch-sim p3syn100000 $E/p3_synaptic.json $p3
  run hinesbatch-sim p3syn100000_gen $L/cfg/p3_synaptic_gen.json $p3
  run hinesbatch-sim p3syn100000_exp2syn $L/cfg/p3_synaptic_exp2syn.json $p3
  run hinesbatch-sim ringtest65536 $E/ringtest.json --set output={} --set network.cells=65536 --set record=[]
  run hinesbatch-sim ring10000 $E/ring.json --set 'output={}' --set network.cells=10000
  run hinesbatch-sim ring10000_gen $L/cfg/ring_gen.json --set 'output={}' --set network.cells=10000
  run hinesbatch-sim mixed20000 $R --set 'output={}' $(cells 20000) --set tstop=50
  run hinesbatch-sim large2000 $E/real_large.json --set 'output={}' $(cells 2000) --set tstop=50
  for round in 1 2; do
    for v in _before ""; do
      timeout 120 $c/bin/hinesbatch_solver_map$v --map-families=thomas --map-backends=device --map-totals=24 \
        --map-rows=64,100,257,1000,3001,10000,100000 --benchmark_format=csv > $L/thomas$v.r$round.csv 2> $L/thomas$v.r$round.err
      stamp "solver_map$v thomas r$round rc=$? $(wc -l < $L/thomas$v.r$round.csv) rows"
      timeout 120 $c/bin/hinesbatch_solver_map$v --map-families=hines --map-backends=device --map-totals=24 \
        --map-trees=classes,real --benchmark_format=csv > $L/hines$v.r$round.csv 2> $L/hines$v.r$round.err
      stamp "solver_map$v hines r$round rc=$? $(wc -l < $L/hines$v.r$round.csv) rows"
    done
  done
fi
(cd $OUT && { rm -f $L/*.spk; tar czf d$part.tgz d$part && rm -rf d$part; })
