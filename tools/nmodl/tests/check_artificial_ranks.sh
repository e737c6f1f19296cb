#!/usr/bin/env bash
# Artificial cells run on every rank from the gathered spikes: the raster of a network of
# them (scripts/validation/cases_mod/driftfire_explicit_cnic004.json; with random numbers,
# tools/nmodl/tests/noisy_network.json) must not depend on the ranks, overlap or the epoch
# length. 1 rank against 2, 2 with overlap, and 1-step epochs.
#   check_artificial_ranks.sh PATH/hinesbatch-sim-l5pc CONFIG [FIRST_ARTIFICIAL_GID (4)]
#   (exit 77: no mpirun)
set -euo pipefail
sim=$1
cfg=$2
first=${3:-4}
# shellcheck source=SCRIPTDIR/../../../scripts/validation/rank_checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../../scripts/validation/rank_checks.sh"
"$sim" "$cfg" --quiet --backend host --spikes "$work/ref.txt"
artificial=$(awk -v first="$first" '$1 >= first' "$work/ref.txt" | wc -l)
[ "$artificial" -ge 20 ] || { echo "FAIL: only $artificial artificial cells' spikes in the reference run"; exit 1; }
n="$(wc -l <"$work/ref.txt") ($artificial of artificial cells)"
check two_ranks "${mpi[@]}" -np 2 "$sim" "$cfg"
check two_ranks_overlap "${mpi[@]}" -np 2 "$sim" "$cfg" --set run.overlap=true
check epoch_steps_1 "$sim" "$cfg" --set run.epoch_steps=1
exit "$status"
