#!/usr/bin/env bash
# Synaptic events must drive the activity: the random network of
# scripts/validation/cases/random_synaptic_p3.json (100 of the P3 network's cells, no clamp,
# 10 cells kicked once at 1 ms) keeps firing through its own synapses; with zero weights
# only the kicked cells fire, once. Also Arbor's busyring (examples/sim/ring.json, 2 rings
# of 10 of the P3 network's cells): it keeps going round with its weights and stops after
# the kicked cells without them.
#   check_synapses_matter.sh PATH/hinesbatch-sim
set -euo pipefail
sim=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cfg=$here/cases/random_synaptic_p3.json
ring=$here/../../examples/sim/ring.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_PROC_BIND=${OMP_PROC_BIND:-false}
"$sim" "$cfg" --quiet --set tstop=60 --spikes "$work/on.txt"
"$sim" "$cfg" --quiet --set tstop=60 --set network.weight=0 --set network.weight_max=0 \
  --spikes "$work/off.txt"
small=(--set network.cells=20 --set network.extra_synapses=5 --set tstop=60 --set output={})
"$sim" "$ring" --quiet "${small[@]}" --spikes "$work/ring_on.txt"
"$sim" "$ring" --quiet "${small[@]}" --set network.weight=0 --spikes "$work/ring_off.txt"
status=0
late_cells=$(awk '$2 > 30 {print $1}' "$work/on.txt" | sort -u | wc -l)
n_on=$(wc -l <"$work/on.txt")
n_off=$(wc -l <"$work/off.txt")
off_cells=$(awk '{print $1}' "$work/off.txt" | sort -u | tr '\n' ' ')
echo "random: $n_on spikes with synapses ($late_cells of 100 cells fire after 30 ms); $n_off with zero weights (gids $off_cells)"
[ "$late_cells" -ge 50 ] || { echo "FAIL: activity not sustained by synapses"; status=1; }
[ "$n_off" -eq 10 ] && [ "$off_cells" = "0 1 2 3 4 5 6 7 8 9 " ] ||
  { echo "FAIL: zero weights should leave the 10 kicked cells' single spikes"; status=1; }
cmp -s "$work/on.txt" "$work/off.txt" && { echo "FAIL: weights do not change the raster"; status=1; }
r_on=$(wc -l <"$work/ring_on.txt")
r_off=$(wc -l <"$work/ring_off.txt")
echo "ring: $r_on spikes with synapses, $r_off with zero weights"
[ "$r_off" -eq 2 ] && [ "$r_on" -ge 20 ] ||
  { echo "FAIL: the ring should go round with its synapses and stop without"; status=1; }
[ $status -eq 0 ] && echo PASS
exit $status
