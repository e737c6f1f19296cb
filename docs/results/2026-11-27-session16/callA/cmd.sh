#!/usr/bin/env bash
# Call A (binA.txz: synapses that keep state per connection, NEURON's NetCon weight
# vectors): the whole CUDA unit suite in two shards, memcheck on the event queue, record and
# synapse tests; hinesbatch-sim-l5pc on the stdpsyn network (cases_mod) with the on-chip and
# cells schedules against the OpenMP run that matched NEURON (ref/, compare.py); the P3
# network (spikes and md5 against session 15's call E: 449,218 spikes, md5 92211f08).
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
SIM=$c/binA/hinesbatch-sim; SIML=$c/binA/hinesbatch-sim-l5pc; U=$c/binA/hinesbatch_unit_tests
CASE=$R/scripts/validation/cases_mod/stdpsyn_random_p3.json
for sched in on_chip cells; do
  if [ $sched = on_chip ]; then a="--on-chip on"; else a="--on-chip off"; fi
  timeout 60 $SIML $CASE $a --quiet --traces $L/stdp_$sched.csv --spikes $L/stdp_$sched.spk \
    --metrics $L/stdp_$sched.json > $L/stdp_$sched.log 2>&1
  rc=$?
  stamp "stdpsyn $sched rc=$rc schedule $(python3 -c "import json; print(json.load(open('$L/stdp_$sched.json')).get('schedule'))" 2>/dev/null) $(cd $R/scripts/validation && python3 -c "
import compare
tr = compare.compare_traces('$L/stdp_$sched.csv', '$c/ref/ours.csv', None)
sp = compare.compare_spikes('$L/stdp_$sched.spk', '$c/ref/ours_spikes.txt', 0.025)
print('against OpenMP (= NEURON): max|dV| %.3g mV, other columns %.3g of peak, spikes %d/%d, max|dt| %s' % (tr['max_dv'], tr.get('max_rel_other') or 0, sp['n_ours'], sp['n_neuron'], sp['max_dt']))" 2>&1 | tail -1)"
done
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 260 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
OMP_NUM_THREADS=4 timeout 100 compute-sanitizer --tool memcheck --print-limit 20 $U \
  --gtest_filter='Simulation/*.DeviceEvents*:SimulationRecords.*:PointProcessSynapses.*' --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
run p3 $SIM examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
rm -f $L/*.spk; xz -9 $L/*.txt $L/*.csv
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
