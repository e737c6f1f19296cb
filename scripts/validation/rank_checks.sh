# shellcheck shell=bash disable=SC2034,SC2154
# Shared by the rank-determinism checks (sourced): mpirun's arguments in `mpi`, a work
# folder removed at exit, and check NAME COMMAND...: runs COMMAND on the host backend into
# $work/NAME.txt and compares it with $work/ref.txt (its n lines), setting status=1 on a
# difference. Exits 77 (ctest's skip) without mpirun.
command -v mpirun >/dev/null || { echo "SKIPPED: mpirun not found"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
mpi=(mpirun --oversubscribe)
[ "$(id -u)" = 0 ] && mpi+=(--allow-run-as-root)
status=0
check() {
  local name=$1
  shift
  "$@" --quiet --backend host --spikes "$work/$name.txt" >"$work/$name.log" 2>&1 ||
    { echo "FAIL: $name exited nonzero"; cat "$work/$name.log"; status=1; return; }
  if cmp -s "$work/ref.txt" "$work/$name.txt"; then
    echo "ok   $name: $n spikes identical"
  else
    echo "FAIL $name: raster differs"; diff "$work/ref.txt" "$work/$name.txt" | head; status=1
  fi
}
