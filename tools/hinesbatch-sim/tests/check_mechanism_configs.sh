#!/usr/bin/env bash
# cell.mechanisms naming generated (NMODL) mechanisms of the catalogue hinesbatch-sim is
# built with: the default catalogue's hh and pas give the built-ins' raster, the run says
# which schedule ran them, and every bad entry exits 2 naming the file, the key and
# the value. network.synapse naming a point process of the catalogue: the default
# catalogue's ExpSyn gives the built-in ExpSyn's raster, and every bad synapse exits 2.
# cell.point_processes: the catalogue's IClamp placed there gives cell.iclamp's raster.
#   check_mechanism_configs.sh SIM
set -uo pipefail
SIM=$(realpath "${1:?usage: check_mechanism_configs.sh SIM}")
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
generated='[{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.25}},
            {"name": "pas", "region": "dend", "parameters": {"g": 0.0002, "e": -65}}]'

# The same ring with the built-ins and with the default catalogue's hh and pas.
cases=$((cases + 1))
"$SIM" "$BASE" --quiet --spikes builtin.spikes >/dev/null 2>&1
"$SIM" "$BASE" --quiet --spikes generated.spikes --metrics generated.metrics \
  --set "cell.mechanisms=$generated" >/dev/null 2>&1
if [[ -s builtin.spikes ]] && cmp -s builtin.spikes generated.spikes; then
  ok generated_same_raster "$(wc -l <generated.spikes) spikes"
else
  fail generated_same_raster "$(wc -l <builtin.spikes 2>/dev/null) against $(wc -l <generated.spikes 2>/dev/null) spikes"
fi
cases=$((cases + 1))
# The host's default (tiles) and the GPU's (on_chip) run them, and the metrics say so; no
# schedule falls back to another.
if grep -Eq '"schedule": "(tiles|on_chip)"' generated.metrics &&
  grep -Eq '"schedule_detail": ".*generated mechanisms' generated.metrics &&
  ! grep -q 'instead of' generated.metrics; then
  ok generated_schedule "$(grep schedule_detail generated.metrics | head -c 200)"
else
  fail generated_schedule "$(grep schedule generated.metrics)"
fi

expect unknown_mechanism 2 "config key 'cell.mechanisms\[0\].name': unknown mechanism: neither a built-in \(pas, hh\) nor in the catalogue 'defaults'.*value '\"kdr\"'" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "kdr", "region": "soma"}]'
expect unknown_parameter 2 "config key 'cell.mechanisms\[1\].parameters.gbar': unknown parameter of pas \(its parameters: g, e\).*value '0.1'" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "hh"}, {"name": "pas", "parameters": {"gbar": 0.1}}]'
expect state_as_parameter 2 "config key 'cell.mechanisms\[0\].parameters.m': not a parameter \(a state or assigned variable\) of hh" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "hh", "parameters": {"m": 0.1}}]'
expect point_process 2 "config key 'cell.mechanisms\[0\].name': is a point process.*ExpSyn" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "ExpSyn"}]'
expect parameter_type 2 "config key 'cell.mechanisms\[0\].parameters.g': must be a number or a distance function" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "pas", "parameters": {"g": "big"}}]'
expect distance_kind 2 "config key 'cell.mechanisms\[0\].parameters.g.distance': must be linear, exp, sigmoid or window.*value '\"log\"'" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "pas", "parameters": {"g": {"distance": "log"}}}]'
expect distance_key 2 "config key 'cell.mechanisms\[0\].parameters.g.x1': unknown key" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "pas", "parameters": {"g": {"distance": "exp", "x1": 3}}}]'
expect entry_key 2 "config key 'cell.mechanisms\[0\].gnabar': unknown key" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "hh", "parameters": {}, "gnabar": 0.2}]'
expect unknown_ion 2 "config key 'cell.ions.ca': unknown ion: no mechanism of the catalogue 'defaults' uses it \(na, k\)" -- \
  "$BASE" --set 'cell.ions={"ca": {"cai0": 5e-5}}'
expect ion_key 2 "config key 'cell.ions.na.cai0': unknown key" -- \
  "$BASE" --set 'cell.ions={"na": {"cai0": 5e-5}}'
expect ion_concentration 2 "config key 'cell.ions.na.nai0': must lie in" -- \
  "$BASE" --set 'cell.ions={"na": {"nai0": -1}}'
expect region 2 "config key 'cell.mechanisms\[0\].region': matches no section .* \(value '\"apic\"'\)" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "hh", "region": "apic", "parameters": {}}]'

# The network's synapses as the default catalogue's ExpSyn (ring_small: the built-in's tau
# 2 ms, e 0 mV): the same raster; Exp2Syn with a rise: another one.
cases=$((cases + 1))
"$SIM" "$BASE" --quiet --spikes expsyn.spikes --metrics expsyn.metrics \
  --set 'network.synapse={"name": "ExpSyn", "parameters": {"tau": 2, "e": 0}}' >/dev/null 2>&1
if [[ -s builtin.spikes ]] && cmp -s builtin.spikes expsyn.spikes &&
  grep -q "synapses' point processes" expsyn.metrics; then
  ok synapse_expsyn_same_raster "$(wc -l <expsyn.spikes) spikes"
else
  fail synapse_expsyn_same_raster "$(wc -l <builtin.spikes 2>/dev/null) against $(wc -l <expsyn.spikes 2>/dev/null) spikes"
fi
cases=$((cases + 1))
"$SIM" "$BASE" --quiet --spikes exp2syn.spikes \
  --set 'network.synapse={"name": "Exp2Syn", "parameters": {"tau1": 1, "tau2": 2}}' >/dev/null 2>&1
if [[ -s exp2syn.spikes ]] && ! cmp -s builtin.spikes exp2syn.spikes; then
  ok synapse_exp2syn_runs "$(wc -l <exp2syn.spikes) spikes"
else
  fail synapse_exp2syn_runs "$(wc -l <exp2syn.spikes 2>/dev/null) spikes, same as the built-in's?"
fi
expect synapse_unknown 2 "config key 'network.synapse.name': unknown point process: not in the catalogue 'defaults' \(its synapse point processes: Exp2Syn, ExpSyn\).*value '\"AMPA\"'" -- \
  "$BASE" --set 'network.synapse={"name": "AMPA"}'
expect synapse_density 2 "config key 'network.synapse.name': is a density mechanism.*value '\"hh\"'" -- \
  "$BASE" --set 'network.synapse={"name": "hh"}'
expect synapse_no_net_receive 2 "config key 'network.synapse': has no NET_RECEIVE" -- \
  "$BASE" --set 'network.synapse="IClamp"'
expect synapse_parameter 2 "config key 'network.synapse.parameters.tau': unknown parameter of Exp2Syn \(its parameters: tau1, tau2, e\).*value '3'" -- \
  "$BASE" --set 'network.synapse={"name": "Exp2Syn", "parameters": {"tau": 3}}'
expect synapse_and_tau 2 "config key 'network.tau': sets the built-in ExpSyn: give tau and e or a synapse" -- \
  "$BASE" --set 'network.synapse="ExpSyn"' --set 'network.tau=3'

# A point process placed on the cells (cell.point_processes): the catalogue's IClamp there
# gives the raster and traces of the same stimulus as cell.iclamp; a record names it by
# point_process index (its amp: i is an output the simulation does not keep).
clamp='{"location": {"section": 0, "x": 0.5}, "del": 2, "dur": 20, "amp": 0.3}'
placed='{"name": "IClamp", "location": {"section": 0, "x": 0.5}, "parameters": {"del": 2, "dur": 20, "amp": 0.3}}'
cases=$((cases + 1))
"$SIM" "$BASE" --quiet --spikes iclamp.spikes --traces iclamp.csv --set "cell.iclamp=[$clamp]" \
  --set 'record=[{"gid": 3, "location": {"section": 0, "x": 0.5}}]' >/dev/null 2>&1
"$SIM" "$BASE" --quiet --spikes placed.spikes --traces placed.csv --set "cell.point_processes=[$placed]" \
  --set 'record=[{"gid": 3, "location": {"section": 0, "x": 0.5}}, {"gid": 3, "point_process": 0, "variable": "amp"}]' \
  >/dev/null 2>&1
if [[ -s iclamp.spikes ]] && cmp -s iclamp.spikes placed.spikes &&
  cmp -s <(cut -d, -f1,2 iclamp.csv) <(cut -d, -f1,2 placed.csv) &&
  awk -F, 'NR > 1 && $3 != 0.3 { n++ } END { exit n == 0 && NR > 100 ? 0 : 1 }' placed.csv; then
  ok point_process_iclamp "$(wc -l <placed.spikes) spikes, same raster and v as cell.iclamp; its amp recorded"
else
  fail point_process_iclamp "$(wc -l <iclamp.spikes 2>/dev/null) against $(wc -l <placed.spikes 2>/dev/null) spikes; $(head -3 placed.csv 2>/dev/null | tr '\n' ' ')"
fi
expect point_process_density 2 "config key 'cell.point_processes\[\].name': is a density mechanism.*value '\"hh\"'" -- \
  "$BASE" --set 'cell.point_processes=[{"name": "hh", "location": {"section": 0, "x": 0.5}}]'
expect point_process_parameter 2 "config key 'cell.point_processes\[\].parameters.gmax': unknown parameter of IClamp" -- \
  "$BASE" --set 'cell.point_processes=[{"name": "IClamp", "parameters": {"gmax": 1}}]'
expect point_process_key 2 "config key 'cell.point_processes\[\].tau': unknown key" -- \
  "$BASE" --set 'cell.point_processes=[{"name": "IClamp", "tau": 1}]'
expect point_process_record 2 "config key 'record\[\].point_process': is not a point process placed on gid 0 \(cell.point_processes gives it 0\)" -- \
  "$BASE" --set 'record=[{"gid": 0, "point_process": 0, "variable": "amp"}]'

echo "$((cases - failures)) of $cases mechanism config cases passed"
((failures == 0))
