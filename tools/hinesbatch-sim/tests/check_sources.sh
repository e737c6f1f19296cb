#!/usr/bin/env bash
# Several cell templates ("cells") and spike sources ("sources") in one config: a regular
# source's spike times exact; a Poisson train the same across runs, schedules, backends,
# overlap and (with mpirun) 2 ranks, another with another seed, its mean rate and CV within
# statistical bounds; a network driven only by sources answers as its templates say (the
# passive one never fires, the hh one once per input volley); every bad entry exits 2
# naming the file, the key and the value.
#   check_sources.sh SIM
set -uo pipefail
SIM=$(realpath "${1:?usage: check_sources.sh SIM}")
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# check NAME CONDITION-STATUS MESSAGE
check() {
  cases=$((cases + 1))
  if [[ $2 == 0 ]]; then ok "$1" "$3"; else fail "$1" "$3"; fi
}

# Two templates on one morphology: gids 0-2 passive, 3-6 hh in the soma. A regular source
# (gid 7) gives each cell one strong input every 20 ms from 5 ms, 4 times; 40 Poisson
# sources (gids 8-47) at 50 Hz feed nothing (their trains are tested on their own).
cat >two.json <<'EOF'
{
  "dt": 0.025, "tstop": 100,
  "cells": [
    {"name": "passive", "count": 3, "morphology": "synthetic:ball-and-stick", "nseg": 5,
     "mechanisms": [{"name": "pas", "g": 0.001, "e": -65}]},
    {"name": "active", "count": 4, "morphology": "synthetic:ball-and-stick", "nseg": 5,
     "mechanisms": [{"name": "hh", "region": "soma"},
                    {"name": "pas", "region": "dend", "g": 0.0002, "e": -65}]}
  ],
  "sources": [
    {"name": "clock", "type": "regular", "start": 5, "interval": 20, "number": 4,
     "connect": {"per_cell": 1, "weight": 0.1, "delay": 1.5}},
    {"name": "background", "count": 40, "type": "poisson", "rate": 50, "seed": 11}
  ],
  "network": {"type": "single", "synapse_location": {"section": 0, "x": 0.5}},
  "run": {"progress_every_s": 0}
}
EOF
"$SIM" two.json --quiet --spikes base.spikes >/dev/null 2>&1
cases=$((cases + 1))
if [[ $(awk '$1 == 7 {printf "%s ", $2}' base.spikes) == "5.000000 25.000000 45.000000 65.000000 " ]]; then
  ok regular_exact "gid 7 at 5, 25, 45, 65 ms (number 4)"
else
  fail regular_exact "gid 7: $(awk '$1 == 7' base.spikes | tr '\n' ' ')"
fi
passive=$(awk '$1 <= 2' base.spikes | wc -l)
check passive_never_fires "$((passive != 0))" "$passive spikes of the passive template"
# Each hh cell fires once per clock spike, 1.5 ms (the delay) to 6.5 ms after it.
bad=$(awk '$1 >= 3 && $1 <= 6 { n[$1]++; d = ($2 - 6.5) % 20; if ($2 < 6.5 || $2 > 71.5 || d > 5) bad++ }
           END { for (g = 3; g <= 6; ++g) if (n[g] != 4) bad++; print bad + 0 }' base.spikes)
check active_answers "$((bad != 0))" "$(awk '$1 >= 3 && $1 <= 6' base.spikes | wc -l) spikes of the hh template (4 per cell, one per input)"

# The Poisson trains: the same on every schedule, backend, overlap and rank count.
for variant in "--host-schedule cells" "--on-chip on" "--backend host" "--overlap"; do
  # shellcheck disable=SC2086
  "$SIM" two.json --quiet --spikes v.spikes $variant >/dev/null 2>&1
  cases=$((cases + 1))
  if cmp -s base.spikes v.spikes; then ok "same_raster ${variant}" "$(wc -l <v.spikes) spikes"; else fail "same_raster ${variant}" "rasters differ"; fi
done
MPIRUN=(mpirun --oversubscribe)
[[ $(id -u) == 0 ]] && MPIRUN+=(--allow-run-as-root)
if command -v mpirun >/dev/null && "${MPIRUN[@]}" -np 1 true >/dev/null 2>&1; then
  for overlap in --overlap --no-overlap; do
    timeout 120 "${MPIRUN[@]}" -np 2 "$SIM" two.json --quiet --spikes np2.spikes $overlap >/dev/null 2>&1
    cases=$((cases + 1))
    if cmp -s base.spikes np2.spikes; then ok "same_raster_2_ranks $overlap" "$(wc -l <np2.spikes) spikes"; else fail "same_raster_2_ranks $overlap" "rasters differ"; fi
  done
else
  echo "skip same_raster_2_ranks: no mpirun"
fi
"$SIM" two.json --quiet --spikes again.spikes >/dev/null 2>&1
cases=$((cases + 1))
if cmp -s base.spikes again.spikes; then ok same_raster_rerun "identical"; else fail same_raster_rerun "rasters differ"; fi
sed 's/"seed": 11/"seed": 12/' two.json >seed12.json
"$SIM" seed12.json --quiet --spikes seed12.spikes >/dev/null 2>&1
cases=$((cases + 1))
if ! cmp -s <(awk '$1 >= 8' base.spikes | sort) <(awk '$1 >= 8' seed12.spikes | sort) &&
  cmp -s <(awk '$1 < 8' base.spikes) <(awk '$1 < 8' seed12.spikes); then
  ok other_seed "another Poisson train, the cells' and the clock's spikes unchanged"
else
  fail other_seed "seed 12 gave the same Poisson spikes or changed the rest"
fi

# Mean rate and CV of the intervals: 200 sources at 40 Hz for 2 s, 16,000 spikes expected
# (standard deviation 126: 5 of them allowed); the intervals' CV is 1 (its estimate's
# standard deviation here is about 0.01: 0.05 allowed).
cat >rate.json <<'EOF'
{"dt": 0.025, "tstop": 2000,
 "cell": {"morphology": "synthetic:ball-and-stick", "mechanisms": [{"name": "pas"}]},
 "sources": [{"name": "p", "count": 200, "type": "poisson", "rate": 40, "seed": 7}],
 "run": {"progress_every_s": 0}}
EOF
"$SIM" rate.json --quiet --spikes rate.spikes >/dev/null 2>&1
stats=$(sort -k1,1n -k2,2g rate.spikes | awk '$1 >= 1 {
    if ($1 == g) { d = $2 - t; s += d; ss += d * d; m++ } g = $1; t = $2; n++ }
  END { mean = s / m; sd = sqrt(ss / m - mean * mean); printf "%d %.4f", n, sd / mean }')
read -r n cv <<<"$stats"
cases=$((cases + 1))
if awk -v n="$n" -v cv="$cv" 'BEGIN { exit !(n > 16000 - 630 && n < 16000 + 630 && cv > 0.95 && cv < 1.05) }'; then
  ok poisson_rate "$n spikes (16,000 expected), interval CV $cv"
else
  fail poisson_rate "$n spikes (16,000 +- 630 wanted), interval CV $cv (1 +- 0.05 wanted)"
fi

# A source's gid feeds an explicit network's connection like a cell's detector.
cat >explicit.json <<'EOF'
{"dt": 0.025, "tstop": 30,
 "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 5,
          "mechanisms": [{"name": "hh", "region": "soma"}, {"name": "pas", "region": "dend"}]},
 "sources": [{"name": "s", "type": "regular", "start": 2, "interval": 10, "number": 2}],
 "network": {"type": "explicit", "cells": 2, "synapse_location": {"section": 0, "x": 0.5},
             "connections": [[2, 1, 0, 0.1, 1.0]]},
 "run": {"progress_every_s": 0}}
EOF
"$SIM" explicit.json --quiet --spikes explicit.spikes >/dev/null 2>&1
got=$(awk '{printf "%s ", $1}' explicit.spikes)
check explicit_source "$([[ $got == "2 1 2 1 " ]]; echo $?)" "gids in time order: $got (source 2 at 2 and 12 ms, cell 1 after each, cell 0 never)"

BASE=two.json
expect cell_and_cells 2 "two.json: config key 'cells': give either cell \(one template\) or cells" -- \
  "$BASE" --set 'cell={"morphology": "synthetic:ball-and-stick"}'
expect cells_empty 2 "config key 'cells': must be a non-empty list" -- "$BASE" --set 'cells=[]'
expect cells_name 2 "config key 'cells\[0\].name': is required" -- \
  "$BASE" --set 'cells=[{"count": 1, "morphology": "synthetic:ball-and-stick"}]'
expect cells_same_name 2 "config key 'cells\[1\].name': names another entry of cells too.*value '\"a\"'" -- \
  "$BASE" --set 'cells=[{"name": "a", "count": 1, "morphology": "synthetic:ball-and-stick"}, {"name": "a", "count": 1, "morphology": "synthetic:ball-and-stick"}]'
expect count_and_fraction 2 "config key 'cells\[0\].fraction': give exactly one of count and fraction" -- \
  "$BASE" --set 'cells=[{"name": "a", "count": 1, "fraction": 1, "morphology": "synthetic:ball-and-stick"}]'
expect count_range 2 "config key 'cells\[0\].count': must be an integer in \[1, .*value '0'" -- \
  "$BASE" --set 'cells=[{"name": "a", "count": 0, "morphology": "synthetic:ball-and-stick"}]'
expect fraction_sum 2 "config key 'cells\[\].fraction': must sum to 1 \(value '0.9'" -- \
  "$BASE" --set 'network={"cells": 10}' --set 'cells=[{"name": "a", "fraction": 0.5, "morphology": "synthetic:ball-and-stick"}, {"name": "b", "fraction": 0.4, "morphology": "synthetic:ball-and-stick"}]'
expect fraction_cells 2 "config key 'network.cells': is required when cells\[\] give fractions" -- \
  "$BASE" --set 'cells=[{"name": "a", "fraction": 1, "morphology": "synthetic:ball-and-stick"}]'
expect cells_count_mismatch 2 "config key 'network.cells': differs from the sum of cells\[\].count \(7\).*value '8'" -- \
  "$BASE" --set 'network={"cells": 8}'
expect cells_unknown_key 2 "config key 'cells\[1\].gnabar': unknown key" -- \
  "$BASE" --set 'cells=[{"name": "a", "count": 1, "morphology": "synthetic:ball-and-stick"}, {"name": "b", "count": 1, "morphology": "synthetic:ball-and-stick", "gnabar": 1}]'
expect cells_mechanism 2 "config key 'cells\[1\].mechanisms\[0\].name': unknown mechanism.*value '\"kdr\"'" -- \
  "$BASE" --set 'cells=[{"name": "a", "count": 1, "morphology": "synthetic:ball-and-stick"}, {"name": "b", "count": 1, "morphology": "synthetic:ball-and-stick", "mechanisms": [{"name": "kdr"}]}]'
expect cells_region 2 "config key 'cells\[0\].mechanisms\[0\].region': matches no section" -- \
  "$BASE" --set 'cells=[{"name": "a", "count": 1, "morphology": "synthetic:ball-and-stick", "mechanisms": [{"name": "hh", "region": "apic", "parameters": {}}]}]'
expect sources_type 2 "config key 'sources\[0\].type': must be regular, poisson or artificial \(value '\"gamma\"'\)" -- \
  "$BASE" --set 'sources=[{"name": "s", "type": "gamma"}]'
expect sources_rate_interval 2 "config key 'sources\[0\].rate': give interval \(ms\) or rate \(Hz\), not both" -- \
  "$BASE" --set 'sources=[{"name": "s", "rate": 5, "interval": 3}]'
expect sources_rate 2 "config key 'sources\[0\].rate': must be > 0 \(Hz\).*value '0'" -- \
  "$BASE" --set 'sources=[{"name": "s", "rate": 0}]'
expect sources_name 2 "config key 'sources\[1\].name': names another entry of sources too" -- \
  "$BASE" --set 'sources=[{"name": "s"}, {"name": "s"}]'
expect sources_unknown_key 2 "config key 'sources\[0\].noise': unknown key" -- \
  "$BASE" --set 'sources=[{"name": "s", "noise": 1}]'
expect sources_too_many 2 "config key 'sources\[0\].rate': would draw about .* spikes in tstop \(more than 1e9" -- \
  "$BASE" --set 'sources=[{"name": "s", "count": 1000000, "rate": 100000, "type": "poisson"}]'
expect sources_count 2 "config key 'sources\[1\].count': makes 10000001 sources, more than the limit of 10000000" -- \
  "$BASE" --set 'sources=[{"name": "a", "count": 10000000, "number": 0}, {"name": "b", "number": 0}]'
expect connect_to 2 "config key 'sources\[0\].connect.to': names no entry of cells \(passive, active\).*value '\"pyr\"'" -- \
  "$BASE" --set 'sources=[{"name": "s", "connect": {"to": ["pyr"]}}]'
expect connect_delay 2 "config key 'sources\[0\].connect.delay': must be > 0 \(ms\)" -- \
  "$BASE" --set 'sources=[{"name": "s", "connect": {"delay": 0}}]'
expect connect_explicit 2 "explicit.json: config key 'sources\[0\].connect': an explicit network lists its connections \(sources are gids 2 and up\)" -- \
  explicit.json --set 'sources=[{"name": "s", "connect": {"per_cell": 1}}]'
expect explicit_source_gid 2 "explicit.json: config key 'network.connections\[0\].source': must be an integer in \[0, 2\] \(value '3'\)" -- \
  explicit.json --set 'network.connections=[[3, 1, 0, 0.1, 1.0]]'
expect artificial_mechanism 2 "config key 'sources\[0\].mechanism': is not an ARTIFICIAL_CELL: the artificial cells of the catalogue 'defaults' are none.*value '\"hh\"'" -- \
  "$BASE" --set 'sources=[{"name": "s", "mechanism": "hh"}]'
expect artificial_interval 2 "config key 'sources\[0\].interval': is for regular and Poisson sources" -- \
  "$BASE" --set 'sources=[{"name": "s", "mechanism": "hh", "interval": 3}]'
expect source_target 2 "network: connections\[0\]: target gid 2 is a regular spike source of group 's': only cells and artificial cells receive events" -- \
  explicit.json --set 'network.connections=[[0, 2, 0, 0.1, 1.0]]'
expect min_delay 2 "minimum delay 0.01 ms is shorter than dt" -- \
  "$BASE" --set 'sources=[{"name": "s", "connect": {"delay": 0.01}}]'
expect export_model 2 "output.model: a network with regular or Poisson spike sources cannot be exported" -- \
  "$BASE" --export-model model.json

echo "$((cases - failures)) of $cases source and template cases passed"
((failures == 0))
