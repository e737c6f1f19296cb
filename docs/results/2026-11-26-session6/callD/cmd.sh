#!/usr/bin/env bash
# Call D (final build: call B's plus Auto taking TeamPerSystemInMemory for Flat systems past
# 8,192 rows in any batch, and the synapse test's GPU tolerance): the NMODL unit tests, the
# whole CUDA unit suite (2 shards), memcheck of generated Exp2Syn synapses on the cells
# schedule (call B's run had more synapses per cell than cells), Auto at the long Thomas
# points of 2^28 rows, and the examples' rasters against call B's.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binD.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=spread OMP_PLACES=threads
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
E=examples/sim
OMP_NUM_THREADS=8 timeout 60 $c/bin/nmodl_unit_tests --gtest_brief=1 > $L/nmodl.txt 2>&1; stamp "nmodl_unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/nmodl.txt | tr '\n' ' ')"
timeout 60 $c/bin/nmodl_lanes_tests --gtest_brief=1 > $L/nmodl_lanes.txt 2>&1; stamp "nmodl_lanes_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|lanes \]' $L/nmodl_lanes.txt | tr '\n' ' ')"
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 240 $c/bin/hinesbatch_unit_tests --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
python3 - $L <<'PY'
import json, sys
L = sys.argv[1]
c = json.load(open("examples/sim/p3_synaptic.json")); n = c["network"]
tau, e = n.pop("tau"), n.pop("e")
n["synapse"] = {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": tau, "e": e}}
json.dump(c, open(f"{L}/p3_exp2syn.json", "w"), indent=1)
PY
timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim $L/p3_exp2syn.json --quiet --set 'output={}' \
  --set network.cells=60 --set network.synapses_per_cell=20 --set network.kick.cells=6 --set tstop=5 --on-chip off > $L/memcheck_exp2syn_cells.txt 2>&1
stamp "memcheck p3 Exp2Syn synapses, cells schedule rc=$? $(tail -1 $L/memcheck_exp2syn_cells.txt)"
timeout 100 $c/bin/hinesbatch_solver_map --map-backends=device --map-families=thomas --map-rows=8193,10007,20000,100000 \
  --map-totals=28 --benchmark_filter='Thomas/Device/Flat/Auto/' --benchmark_out=$L/auto_long_28.json --benchmark_out_format=json > $L/auto_long_28.txt 2>&1
stamp "Auto, Flat, long systems, 2^28 rows rc=$? $(python3 -c "import json; print('; '.join('%s %.2f G rows/s' % (b['name'].split('/')[4], b['items_per_second'] / 1e9) for b in json.load(open('$L/auto_long_28.json'))['benchmarks'] if 'items_per_second' in b))" 2>&1)"
run() { local bin=$1 name=$2; shift 2
  timeout 150 $c/bin/$bin "$@" --quiet --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('cell_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run hinesbatch-sim p3syn100000 $E/p3_synaptic.json --set 'output={}' --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run hinesbatch-sim ringtest65536 $E/ringtest.json --set 'output={}' --set network.cells=65536 --set 'record=[]'
run hinesbatch-sim mixed20000 $E/real_mixed.json --set 'output={}' --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
(cd $OUT && rm -f $L/*.spk && tar czf d.tgz d && rm -rf d)
