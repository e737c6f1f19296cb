#!/usr/bin/env bash
# Call C (binC.txz: a hinesbatch-sim that hinesbatch-build-sim built from an install of the
# CUDA build, with tools/nmodl/tests/mod/stdp_syn.mod and the defaults, as a user would):
# the stdpsyn network on chip and on the cells schedule against the OpenMP run that matched
# NEURON 8.2 (.devcarry/ref, compare.py).
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
SIM=$c/binC/hinesbatch-sim
CASE=$R/scripts/validation/cases_mod/stdpsyn_random_p3.json
stamp "$($SIM --version 2>&1 | tail -1)"
for sched in on_chip cells; do
  if [ $sched = on_chip ]; then a="--on-chip on"; else a="--on-chip off"; fi
  timeout 60 $SIM $CASE $a --quiet --traces $L/stdp_$sched.csv --spikes $L/stdp_$sched.spk \
    --metrics $L/stdp_$sched.json > $L/stdp_$sched.log 2>&1
  rc=$?
  stamp "stdpsyn $sched rc=$rc schedule $(python3 -c "import json; m=json.load(open('$L/stdp_$sched.json')); print(m.get('schedule'), m.get('backend'))" 2>/dev/null) $(cd $R/scripts/validation && python3 -c "
import compare
tr = compare.compare_traces('$L/stdp_$sched.csv', '$c/ref/ours.csv', None)
sp = compare.compare_spikes('$L/stdp_$sched.spk', '$c/ref/ours_spikes.txt', 0.025)
print('against OpenMP (= NEURON): max|dV| %.3g mV, other columns %.3g of peak, spikes %d/%d, max|dt| %s' % (tr['max_dv'], tr.get('max_rel_other') or 0, sp['n_ours'], sp['n_neuron'], sp['max_dt']))" 2>&1 | tail -1)"
done
xz -9 $L/*.csv
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
