#!/usr/bin/env bash
# Call A (binA.txz: the artificial-cells tree) in two parts, each within the device tool's
# 600 s: `part1` hinesbatch-sim-l5pc on the four networks of cases_mod (the driftfire
# artificial cells among them) on chip and on the cells schedule against the OpenMP runs
# that matched NEURON (ref/), compute-sanitizer memcheck of both runs of the driftfire
# network, unit-suite shard 0 of 2; `part2` shard 1, memcheck on the event and synapse
# tests, the P3 network with the previous build (binC.txz: e7d9ff9's hinesbatch-sim alone, recompressed to fit the carry) and this one,
# alternating, twice each (rate, raster).
# Run from the repository root with .devcarry carried: cmd.sh part1 | part2.
set -u
part=$1
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary_$part.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
SIM=$c/binA/hinesbatch-sim; SIML=$c/binA/hinesbatch-sim-l5pc; U=$c/binA/hinesbatch_unit_tests
shard() {
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$1 OMP_NUM_THREADS=8 timeout 400 $U --gtest_brief=1 > $L/suite_$1.txt 2>&1
  stamp "suite shard $1/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$1.txt | tr '\n' ' ')"
  grep -h "FAILED" $L/suite_$1.txt | head -20 | tee -a $S
}
if [ $part = part1 ]; then
  for case in driftfire_explicit_cnic004 pulsesyn_random_cnic004 pulsesyn_explicit_cnic004 stdpsyn_random_p3; do
    for sched in on_chip cells; do
      if [ $sched = on_chip ]; then a="--on-chip on"; else a="--on-chip off"; fi
      o=$L/${case}_$sched
      timeout 60 $SIML $R/scripts/validation/cases_mod/$case.json $a --quiet --traces $o.csv --spikes $o.spk > $o.log 2>&1
      rc=$?
      stamp "$case $sched rc=$rc $(cd $R/scripts/validation && python3 -c "
import compare
tr = compare.compare_traces('$o.csv', '$c/ref/$case/ours.csv', None)
sp = compare.compare_spikes('$o.spk', '$c/ref/$case/ours_spikes.txt', 0.025, set(range(4, 8)) if '$case'.startswith('drift') else set())
print('against OpenMP (= NEURON): max|dV| %.3g mV, spikes %d/%d, max|dt| %s, %s' % (tr['max_dv'], sp['n_ours'], sp['n_neuron'], sp['max_dt'], 'PASS' if sp['ok'] else 'FAIL ' + '; '.join(sp['messages'][:3])))" 2>&1 | tail -1)"
      cp $o.spk $L/${case}_$sched.spikes.txt
    done
  done
  CASE=$R/scripts/validation/cases_mod/driftfire_explicit_cnic004.json
  for a in on off; do
    timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $SIML $CASE --on-chip $a --quiet --set 'output={}' > $L/memcheck_sim_$a.txt 2>&1
    stamp "memcheck hinesbatch-sim-l5pc driftfire explicit on-chip $a rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_sim_$a.txt)"
  done
  shard 0
else
  shard 1
  OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $U \
    --gtest_filter='Simulation/*.DeviceEvents*:SimulationRecords.*:PointProcessSynapses.*:SpikeSources.*:ArtificialCells.*' --gtest_brief=1 > $L/memcheck.txt 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
  rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
  for k in 1 2; do
    for b in binC binA; do
      timeout 60 $c/$b/hinesbatch-sim examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 \
        --quiet --set 'output={}' --metrics $L/p3_${b}_$k.json --spikes $L/p3.spk > $L/p3_${b}_$k.log 2>&1
      stamp "p3 $b run $k rc=$? $(python3 -c "import json; m=json.load(open('$L/p3_${b}_$k.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'])") $(md5sum < $L/p3.spk | cut -c1-8)"
    done
  done
fi
rm -f $L/*.spk; xz -9 $L/*.txt $L/*.log $L/*.csv 2>/dev/null
(cd $OUT && tar cJf d_$part.tar.xz d && rm -rf d)
stamp done
