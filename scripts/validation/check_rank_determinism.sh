#!/usr/bin/env bash
# The spike raster of a network must not depend on the number of MPI ranks, the
# partition, overlap or the backend. Runs tools/hinesbatch-sim/tests/
# ring_small.json with 1, 2 and 4 ranks (oversubscribed: correctness only) and compares;
# and with Exp2Syn synapses on 1 and 3 ranks.
#   check_rank_determinism.sh PATH/hinesbatch-sim     (exit 77: no mpirun)
set -euo pipefail
sim=$1
cfg=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../tools/hinesbatch-sim/tests" && pwd)/ring_small.json
# shellcheck source=SCRIPTDIR/rank_checks.sh
source "$(dirname "${BASH_SOURCE[0]}")/rank_checks.sh"
"$sim" "$cfg" --quiet --backend host --spikes "$work/ref.txt"
n=$(wc -l <"$work/ref.txt")
[ "$n" -ge 40 ] || { echo "FAIL: only $n spikes in the reference run"; exit 1; }
check np1 "${mpi[@]}" -np 1 "$sim" "$cfg"
check np2 "${mpi[@]}" -np 2 "$sim" "$cfg"
check np4 "${mpi[@]}" -np 4 "$sim" "$cfg"
check np3_balanced "${mpi[@]}" -np 3 "$sim" "$cfg" --set run.partition=balanced
check np2_overlap "${mpi[@]}" -np 2 "$sim" "$cfg" --overlap
check np4_overlap "${mpi[@]}" -np 4 "$sim" "$cfg" --overlap
check np4_epoch3 "${mpi[@]}" -np 4 "$sim" "$cfg" --set run.epoch_steps=3
# Synapses that run a point process of the catalogue (Exp2Syn): numbered per rank as the
# built-in's, the same raster for any number of ranks.
syn='network.synapse={"name": "Exp2Syn", "parameters": {"tau1": 1, "tau2": 2}}'
"$sim" "$cfg" --quiet --backend host --set "$syn" --spikes "$work/ref.txt"
n=$(wc -l <"$work/ref.txt")
check np3_exp2syn "${mpi[@]}" -np 3 "$sim" "$cfg" --set "$syn" --set run.partition=balanced
exit "$status"
