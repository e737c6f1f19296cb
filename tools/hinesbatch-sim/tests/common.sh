# The set-up that check_bad_inputs.sh, check_mechanism_configs.sh and check_sources.sh
# share, sourced once each has SIM (the program, an absolute path): HERE (this folder),
# BASE (its small ring config), a fresh work folder W as the current folder (removed on
# exit), one OpenMP thread unless OMP_NUM_THREADS says otherwise, a quick singleton MPI
# start, the counters of cases and failures, and the reporting of a case (ok, fail, expect).
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BASE=$HERE/ring_small.json
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
# Each case starts a singleton MPI process: without Open MPI's daemon and its UCX probe that
# takes 0.1 s instead of 0.5 s, which the cases pay one by one (here and under sanitize.sh).
export OMPI_MCA_ess_singleton_isolated=${OMPI_MCA_ess_singleton_isolated:-1}
export OMPI_MCA_pml=${OMPI_MCA_pml:-ob1}
failures=0
cases=0

ok() { echo "ok   $1: $2"; }
fail() {
  echo "FAIL $1: $2"
  failures=$((failures + 1))
}
# expect NAME RC REGEX -- ARGS...: SIM ARGS --quiet exits RC with stderr matching REGEX.
# (check_bad_inputs.sh replaces it with a stricter one: a memory cap, short stderr.)
expect() {
  local name=$1 rc=$2 regex=$3
  shift 4
  cases=$((cases + 1))
  local err got
  err=$(timeout 120 "$SIM" "$@" --quiet 2>&1 >/dev/null)
  got=$?
  if [[ $got != "$rc" ]] || ! grep -Eq -- "$regex" <<<"$err"; then
    fail "$name" "exit $got (want $rc), stderr: $(head -c 600 <<<"$err")"
  else
    ok "$name" "$(head -c 240 <<<"$err" | tr '\n' ' ')"
  fi
}
