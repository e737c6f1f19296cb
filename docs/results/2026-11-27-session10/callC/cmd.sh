#!/usr/bin/env bash
# Call C (binC.txz, the final build: call A's code, plus the per-step schedules' run_steps and
# events in their base, the lane-plan containers beside CellLanePlan, the benchmarks' host test
# through is_host_backend): the whole CUDA unit suite in two shards, then the simulator's
# rasters (against call B's md5 sums) and a memcheck of the cells schedule's generated synapses
# on the GPU (the events path that moved). Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
[ -d $c/mpi ] || tar xJf $c/mpi.txz -C $c
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 270 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
run() { local name=$1; shift
  timeout 40 $c/bin/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m['schedule'], m['team_lanes'], m['tile_cells'])" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-32)"; }
run p3syn100000 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run mixed20000 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
run ringtest65536 examples/sim/ringtest.json --set network.cells=65536 --set record=[]
timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 $c/bin/hinesbatch-sim examples/sim/two_templates.json \
  --on-chip off --quiet --set 'output={}' --set tstop=5 --spikes $L/two_templates_cells.spk > $L/memcheck_cells_synapses.txt 2>&1
stamp "memcheck two_templates, cells schedule rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_cells_synapses.txt | tail -1)"
xz -9 $L/suite_*.txt
(cd $OUT && tar czf d.tgz d && rm -rf d)
stamp done
