#!/usr/bin/env bash
# The explicit pulsesyn network (scripts/validation/cases_mod/pulsesyn_explicit_cnic004.json:
# four cells, hand-listed connections, external events that pile six pulses onto one
# synapse) with each file of ../shared/morphologies instead of cnic_004 (pas everywhere, hh
# in the soma; CT12T2, which has no soma section, hh everywhere), against NEURON 8.2
# compiling pulse_syn.mod itself. Dev machine, OpenMP build, tiles schedule.
# Usage (repository root): docs/results/2026-11-28-session17/every-morphology/run.sh WORKDIR
set -eu
W=$1; mkdir -p $W/cases
python3 - "$W/cases" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
base = json.load(open('scripts/validation/cases_mod/pulsesyn_explicit_cnic004.json'))
for f in sorted(glob.glob(os.environ.get('HINESBATCH_SHARED_DIR', '../shared') + '/morphologies/*.swc')):
    name = os.path.basename(f).split('.')[0].replace('-', '_')
    c = json.loads(json.dumps(base))
    c['cell']['morphology'] = '${HINESBATCH_SHARED_DIR}/morphologies/' + os.path.basename(f)
    c['cell']['mechanisms'] = [{"name": "pas", "region": "all", "g": 0.0001, "e": -65},
                               {"name": "hh", "region": "soma", "gnabar": 0.25}]
    if name == 'CT12T2':
        c['cell']['mechanisms'] = [{"name": "hh", "region": "all", "gnabar": 0.25}]
    json.dump(c, open(os.path.join(out, 'pulsesyn_%s.json' % name), 'w'), indent=1)
PY
/usr/bin/python3 scripts/validation/validate_neuron.py --sim build/openmp/tools/nmodl/hinesbatch-sim-l5pc \
  --case-dir $W/cases --mods tools/nmodl/tests/mod/pulse_syn.mod \
  --sim-args "--host-schedule tiles --on-chip off" --workdir $W/work
(cd scripts/validation && python3 -c "
import compare, glob, os
for d in sorted(glob.glob('$W/work/pulsesyn_*')):
    tr = compare.compare_traces(d + '/ours.csv', d + '/neuron.csv', None)
    sp = compare.compare_spikes(d + '/ours_spikes.txt', d + '/neuron_spikes.txt', 0.025)
    print('%-28s max|dV| %.3g mV  synapse columns %.3g of peak  spikes %d/%d  max|dt| %s' % (os.path.basename(d), tr['max_dv'], tr.get('max_rel_other') or 0, sp['n_ours'], sp['n_neuron'], sp['max_dt']))
")
