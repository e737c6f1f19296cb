#!/usr/bin/env bash
# The explicit driftfire network (scripts/validation/cases_mod/driftfire_explicit_cnic004.json:
# four artificial cells that drive four cells and are driven by them, by each other and by
# external events) with each file of ../shared/morphologies instead of cnic_004 (pas
# everywhere, hh in the soma; CT12T2, which has no soma section, hh everywhere), against
# NEURON 8.2 compiling drift_fire.mod itself. Dev machine, OpenMP build, tiles schedule.
# Usage (repository root): docs/results/2026-11-28-session18/every-morphology/run.sh WORKDIR
set -eu
W=$1; mkdir -p $W/cases
python3 - "$W/cases" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
base = json.load(open('scripts/validation/cases_mod/driftfire_explicit_cnic004.json'))
for f in sorted(glob.glob(os.environ.get('HINESBATCH_SHARED_DIR', '../shared') + '/morphologies/*.swc')):
    name = os.path.basename(f).split('.')[0].replace('-', '_')
    c = json.loads(json.dumps(base))
    c['cell']['morphology'] = '${HINESBATCH_SHARED_DIR}/morphologies/' + os.path.basename(f)
    c['cell']['mechanisms'] = [{"name": "pas", "region": "all", "g": 0.0001, "e": -65},
                               {"name": "hh", "region": "soma", "gnabar": 0.25}]
    if name == 'CT12T2':
        c['cell']['mechanisms'] = [{"name": "hh", "region": "all", "gnabar": 0.25}]
    json.dump(c, open(os.path.join(out, 'driftfire_%s.json' % name), 'w'), indent=1)
PY
/usr/bin/python3 scripts/validation/validate_neuron.py --sim build/openmp/tools/nmodl/hinesbatch-sim-l5pc \
  --case-dir $W/cases --mods tools/nmodl/tests/mod/drift_fire.mod \
  --sim-args "--host-schedule tiles --on-chip off" --workdir $W/work
(cd scripts/validation && python3 -c "
import compare, glob, os
for d in sorted(glob.glob('$W/work/driftfire_*')):
    tr = compare.compare_traces(d + '/ours.csv', d + '/neuron.csv', None)
    sp = compare.compare_spikes(d + '/ours_spikes.txt', d + '/neuron_spikes.txt', 0.025, set(range(4, 8)))
    a = [r for r in sp['per_gid'] if r['gid'] >= 4]
    print('%-30s max|dV| %.3g mV  spikes %d/%d (artificial %d)  max|dt| %s  %s' % (os.path.basename(d), tr['max_dv'], sp['n_ours'], sp['n_neuron'], sum(r['ours'] for r in a), sp['max_dt'], 'PASS' if sp['ok'] else 'FAIL'))
")
