#!/usr/bin/env bash
# hinesbatch-sim under mpirun with 2 and 3 ranks: an error that only one rank sees must
# stop every rank with that error and the right exit code (never a hang: each case runs
# under a timeout), and rank-suffixed outputs (traces FILE.rank<r>) are checked against the
# inputs, the other outputs and stale files of another rank count. docs/HARDENING.md lists
# the cases.   check_mpi_errors.sh SIM [CASE-REGEX]   (exit 77: no mpirun)
set -uo pipefail
SIM=$(realpath "${1:?usage: check_mpi_errors.sh SIM [CASE-REGEX]}")
ONLY=${2:-}
command -v mpirun >/dev/null || { echo "no mpirun: skipped"; exit 77; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
export OMP_PROC_BIND=false OMP_NUM_THREADS=1
MPIRUN=(mpirun --oversubscribe)
[[ $(id -u) == 0 ]] && MPIRUN+=(--allow-run-as-root)
"${MPIRUN[@]}" -np 1 true >/dev/null 2>&1 || { echo "mpirun cannot start: skipped"; exit 77; }

failures=0
cases=0
want() { [[ -z $ONLY || $1 =~ $ONLY ]]; }
ok() { echo "ok   $1: $2"; }
fail() {
  echo "FAIL $1: $2"
  failures=$((failures + 1))
}
# expect NAME NP RC REGEX -- ARGS...: mpirun -np NP SIM ARGS --quiet under a 60 s timeout;
# checks the exit code and that stderr matches REGEX.
expect() {
  local name=$1 np=$2 rc=$3 regex=$4
  shift 5
  if [[ -n $ONLY && ! $name =~ $ONLY ]]; then return 1; fi
  cases=$((cases + 1))
  local err got
  err=$(timeout 60 "${MPIRUN[@]}" -np "$np" "$SIM" "$@" --quiet 2>&1 >/dev/null)
  got=$?
  err=$(grep -v '^  \|^Kokkos::OpenMP::initialize WARNING' <<<"$err")
  if [[ $got != "$rc" ]] || ! grep -Eq -- "$regex" <<<"$err"; then
    fail "$name" "exit $got (want $rc; 124: a hang), stderr: $(head -c 600 <<<"$err")"
    return 1
  fi
  ok "$name" "$(grep -E -m1 -- "$regex" <<<"$err" | head -c 200)"
}

printf '1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 20 0 0 1 2\n' >cell_0.swc
cat >per_rank.json <<'EOF'
{"tstop": 2, "cell": {"morphology": "cell_${OMPI_COMM_WORLD_RANK}.swc"},
 "network": {"type": "ring", "cells": 4, "ring_size": 4}}
EOF
# A per-rank morphology missing for rank 1 (2 ranks) or ranks 1 and 2 (3 ranks): the
# setup's error is agreed on, every rank exits 2, rank 0 prints the first failing rank's.
expect mpi_missing_morphology_one_rank 2 2 "error: rank 1: cell_1.swc: cannot open SWC file: No such file" -- per_rank.json
expect mpi_missing_morphology_3_ranks 3 2 "error: rank 1: cell_1.swc: cannot open SWC file" -- per_rank.json
cp cell_0.swc cell_1.swc
expect mpi_missing_morphology_last_of_3 3 2 "error: rank 2: cell_2.swc: cannot open SWC file" -- per_rank.json

# An output only rank 1 cannot create (its folder is missing): agreed on before the run.
mkdir out_0
cat >per_rank_out.json <<'EOF'
{"tstop": 2, "cell": {"morphology": "synthetic:ball-and-stick"},
 "network": {"type": "ring", "cells": 4, "ring_size": 4},
 "record": [{"gid": 0}, {"gid": 3}], "output": {"traces": "out_${OMPI_COMM_WORLD_RANK}/t.csv"}}
EOF
expect mpi_output_folder_one_rank 2 2 "error: rank 1: .*out_1/t.csv.rank1: cannot create a file in the folder of the traces file" -- per_rank_out.json

# An error while rank 1 builds its model: --on-chip on refuses the cell only rank 1 holds
# (45 sections of 32,001 segments: 1.44 M nodes of 16 B, more team scratch than any host
# schedule takes, 20 MB at most; rank 0's ball-and-stick fits). Agreed on after the model is
# built: every rank exits 2.
awk 'BEGIN { print "1 1 0 0 0 5 -1"
  for (k = 0; k < 45; k++) { c = cos(k * 0.1); s = sin(k * 0.1)
    printf "%d 3 %.6f %.6f 0 1 1\n", 2 * k + 2, 10 * c, 10 * s
    printf "%d 3 %.6f %.6f 0 1 %d\n", 2 * k + 3, 32010 * c, 32010 * s, 2 * k + 2 } }' >long.swc
cat >onchip.json <<'EOF2'
{"tstop": 0.025, "cell": {"morphology": ["synthetic:ball-and-stick", "long.swc"],
                          "max_segment_length_um": 1},
 "network": {"type": "ring", "cells": 2, "ring_size": 2}}
EOF2
expect mpi_on_chip_one_rank 2 2 "error: rank 1: on_chip: a cell of [0-9]+ nodes .* B of team scratch" -- onchip.json --on-chip on

# A failure during the run on rank 1 alone (its cell's voltage blows up): every rank is
# aborted with exit 1; rank 0's pending spikes file is not written, the earlier one kept.
cat >blow1.json <<'EOF'
{"tstop": 5, "cell": {"morphology": "synthetic:ball-and-stick", "mechanisms": [{"name": "hh"}]},
 "network": {"type": "explicit", "cells": 2, "connections": [[0, 1, 0, 0.01, 1]],
             "iclamps": [{"gid": 1, "amp": 1e10, "dur": 5}]}}
EOF
echo earlier >blow1.spikes
if expect mpi_run_failure_one_rank 2 1 "error: rank 1: .*membrane potential .* at gid 1" -- blow1.json --spikes blow1.spikes; then
  cases=$((cases + 1))
  if [[ $(cat blow1.spikes) == earlier ]] && ! ls .hb-* >/dev/null 2>&1; then
    ok mpi_run_failure_keeps_output "the earlier spikes file is unchanged, no temporary left"
  else
    fail mpi_run_failure_keeps_output "$(ls -a)"
  fi
fi

# Rank-suffixed outputs: traces T with 2 ranks writes T.rank0 and T.rank1; each is checked.
cat >ring4.json <<'EOF'
{"tstop": 2, "cell": {"morphology": "synthetic:ball-and-stick"},
 "network": {"type": "ring", "cells": 4, "ring_size": 4}, "record": [{"gid": 0}, {"gid": 3}]}
EOF
cp ring4.json cfgx.rank1
expect mpi_rank_suffix_is_config 2 2 "output path is an input of the run.*cfgx.rank1" -- cfgx.rank1 --traces cfgx
if want mpi_rank_suffix_config_untouched; then
  cases=$((cases + 1))
  if cmp -s cfgx.rank1 ring4.json; then ok mpi_rank_suffix_config_untouched "cfgx.rank1 unchanged"; else fail mpi_rank_suffix_config_untouched "the config was overwritten"; fi
fi
expect mpi_rank_suffix_two_outputs 2 2 "two outputs name the same file \(value 'T.rank0'\)" -- ring4.json --spikes T.rank0 --traces T

# Stale traces of another rank count: a 1-rank F, then a 2-rank run (F.rank0, F.rank1 and
# no F), then a 1-rank run again (F and no F.rank<k>).
if want mpi_stale_traces_removed; then
  cases=$((cases + 1))
  "$SIM" ring4.json --quiet --traces F 2>/dev/null
  timeout 60 "${MPIRUN[@]}" -np 2 "$SIM" ring4.json --quiet --traces F >/dev/null 2>&1
  two=$(ls F* | tr '\n' ' ')
  "$SIM" ring4.json --quiet --traces F 2>/dev/null
  one=$(ls F* | tr '\n' ' ')
  if [[ $two == "F.rank0 F.rank1 " && $one == "F " ]]; then
    ok mpi_stale_traces_removed "2 ranks leave: $two; 1 rank: $one"
  else
    fail mpi_stale_traces_removed "2 ranks leave: $two; 1 rank: $one"
  fi
fi

echo "$((cases - failures)) of $cases MPI error cases passed"
((failures == 0))
