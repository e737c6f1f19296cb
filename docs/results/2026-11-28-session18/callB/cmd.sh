#!/usr/bin/env bash
# Call B (binB.txz: the tree with records of artificial cells' variables, host code only):
# hinesbatch-sim-l5pc on the four networks of cases_mod on chip and on the cells schedule
# against the OpenMP runs that matched NEURON (ref/: the driftfire network's five records of
# its artificial cells included), compute-sanitizer memcheck of both driftfire runs, and the
# CUDA unit tests of the simulation's records, events, sources and artificial cells.
# Run from the repository root with .devcarry carried: cmd.sh.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
SIML=$c/binB/hinesbatch-sim-l5pc; U=$c/binB/hinesbatch_unit_tests
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
print('against OpenMP (= NEURON): max|dV| %.3g mV, other columns %.3g of peak, spikes %d/%d, max|dt| %s, %s' % (tr['max_dv'], tr.get('max_rel_other') or 0, sp['n_ours'], sp['n_neuron'], sp['max_dt'], 'PASS' if sp['ok'] and tr['ok'] else 'FAIL ' + '; '.join((tr['messages'] + sp['messages'])[:3])))" 2>&1 | tail -1)"
    cp $o.spk $L/${case}_$sched.spikes.txt
  done
done
CASE=$R/scripts/validation/cases_mod/driftfire_explicit_cnic004.json
for a in on off; do
  timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $SIML $CASE --on-chip $a --quiet --traces $L/mc_$a.csv > $L/memcheck_sim_$a.txt 2>&1
  stamp "memcheck hinesbatch-sim-l5pc driftfire explicit (records) on-chip $a rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_sim_$a.txt)"
done
OMP_NUM_THREADS=8 timeout 300 $U --gtest_filter='Simulation*:RunSimulation*:SpikeSources.*:ArtificialCells.*:PointProcessSynapses.*' --gtest_brief=1 > $L/unit.txt 2>&1
stamp "unit tests (simulation, records, sources, artificial cells) rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/unit.txt | tr '\n' ' ')"
rm -f $L/*.spk $L/mc_*.csv; xz -9 $L/*.txt $L/*.log $L/*.csv 2>/dev/null
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
