#!/usr/bin/env bash
# Call A (binA.txz: self-events, NMODL's net_send, in synapses; binO.txz: hinesbatch-sim of
# 89757d6, the tree before it): hinesbatch-sim-l5pc (CUDA) on the three networks of
# scripts/validation/cases_mod with the on-chip and cells schedules, against the OpenMP runs
# that matched NEURON (ref/, compare.py); the overflow error on the GPU; compute-sanitizer
# memcheck of the on-chip and cells runs of the explicit pulsesyn network; the whole CUDA
# unit suite in two shards and memcheck on the event and synapse tests; the P3 network,
# this tree against 89757d6, alternating twice (same spikes expected: 449,218).
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
for b in binA binO; do rm -rf $c/$b && mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
SIM=$c/binA/hinesbatch-sim; SIML=$c/binA/hinesbatch-sim-l5pc; U=$c/binA/hinesbatch_unit_tests
for case in pulsesyn_random_cnic004 pulsesyn_explicit_cnic004 stdpsyn_random_p3; do
  CASE=$R/scripts/validation/cases_mod/$case.json
  for sched in on_chip cells; do
    if [ $sched = on_chip ]; then a="--on-chip on"; else a="--on-chip off"; fi
    o=$L/${case}_$sched
    timeout 60 $SIML $CASE $a --quiet --traces $o.csv --spikes $o.spk --metrics $o.json > $o.log 2>&1
    rc=$?
    stamp "$case $sched rc=$rc schedule $(python3 -c "import json; print(json.load(open('$o.json')).get('schedule'))" 2>/dev/null) $(cd $R/scripts/validation && python3 -c "
import compare
tr = compare.compare_traces('$o.csv', '$c/ref/$case/ours.csv', None)
sp = compare.compare_spikes('$o.spk', '$c/ref/$case/ours_spikes.txt', 0.025)
print('against OpenMP (= NEURON): max|dV| %.3g mV, other columns %.3g of peak, spikes %d/%d, max|dt| %s' % (tr['max_dv'], tr.get('max_rel_other') or 0, sp['n_ours'], sp['n_neuron'], sp['max_dt']))" 2>&1 | tail -1)"
  done
done
CASE=$R/scripts/validation/cases_mod/pulsesyn_explicit_cnic004.json
for a in on off; do
  timeout 60 $SIML $CASE --on-chip $a --quiet --set run.self_events_per_synapse=5 > $L/overflow_$a.log 2>&1
  stamp "overflow on-chip $a rc=$? $(grep -o 'synapse 1 of gid 2: its point process had more than 5 self-events' $L/overflow_$a.log)"
  timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $SIML $CASE --on-chip $a --quiet --set 'output={}' > $L/memcheck_sim_$a.txt 2>&1
  stamp "memcheck hinesbatch-sim-l5pc pulsesyn explicit on-chip $a rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_sim_$a.txt)"
done
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
OMP_NUM_THREADS=4 timeout 100 compute-sanitizer --tool memcheck --print-limit 20 $U \
  --gtest_filter='Simulation/*.DeviceEvents*:SimulationRecords.*:PointProcessSynapses.*' --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for i in 1 2; do
  run p3_new_$i $SIM $P3
  run p3_old_$i $c/binO/hinesbatch-sim $P3
done
rm -f $L/*.spk; xz -9 $L/*.txt $L/*.csv $L/*.log
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
