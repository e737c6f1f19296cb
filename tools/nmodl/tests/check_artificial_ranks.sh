#!/usr/bin/env bash
# Artificial cells run on every rank from the gathered spikes: the raster of a network of
# them (scripts/validation/cases_mod/driftfire_explicit_cnic004.json) must not depend on the
# ranks, overlap or the epoch length. 1 rank against 2, 2 with overlap, and 1-step epochs.
#   check_artificial_ranks.sh PATH/hinesbatch-sim-l5pc CONFIG     (exit 77: no mpirun)
set -euo pipefail
sim=$1
cfg=$2
command -v mpirun >/dev/null || { echo "SKIPPED: mpirun not found"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
mpi=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
"$sim" "$cfg" --quiet --backend host --spikes "$work/ref.txt"
n=$(awk '$1 >= 4' "$work/ref.txt" | wc -l)
[ "$n" -ge 20 ] || { echo "FAIL: only $n artificial cells' spikes in the reference run"; exit 1; }
status=0
check() {
  local name=$1
  shift
  "$@" --quiet --backend host --spikes "$work/$name.txt" >"$work/$name.log" 2>&1 ||
    { echo "FAIL: $name exited nonzero"; cat "$work/$name.log"; status=1; return; }
  if cmp -s "$work/ref.txt" "$work/$name.txt"; then
    echo "ok   $name: $(wc -l <"$work/ref.txt") spikes identical ($n of artificial cells)"
  else
    echo "FAIL $name: raster differs"; diff "$work/ref.txt" "$work/$name.txt" | head; status=1
  fi
}
check two_ranks "${mpi[@]}" -np 2 "$sim" "$cfg"
check two_ranks_overlap "${mpi[@]}" -np 2 "$sim" "$cfg" --set run.overlap=true
check epoch_steps_1 "$sim" "$cfg" --set run.epoch_steps=1
exit $status
