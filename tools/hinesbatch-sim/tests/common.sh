# The set-up that check_bad_inputs.sh, check_mechanism_configs.sh and check_sources.sh
# share, sourced once each has SIM (the program, an absolute path): HERE (this folder),
# BASE (its small ring config), a fresh work folder W as the current folder (removed on
# exit), one OpenMP thread unless OMP_NUM_THREADS says otherwise, and the counters of
# cases and failures.
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BASE=$HERE/ring_small.json
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
failures=0
cases=0
