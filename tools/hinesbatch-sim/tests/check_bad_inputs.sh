#!/usr/bin/env bash
# hinesbatch-sim on bad input (issue #12): every case must exit with the expected code and
# print the expected message (file, key, value); none may crash, hang or exit 0 with a
# wrong result. docs/HARDENING.md lists the cases (the names below) with their messages.
#   check_bad_inputs.sh SIM [CASE-REGEX]
set -uo pipefail
SIM=$(realpath "${1:?usage: check_bad_inputs.sh SIM [CASE-REGEX]}")
ONLY=${2:-}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BASE=$HERE/ring_small.json
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W"
export OMP_PROC_BIND=false OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}

failures=0
cases=0
# expect NAME RC REGEX -- ARGS...: runs SIM ARGS --quiet; checks the exit code and that
# stderr matches REGEX (extended grep) and is shorter than 2,000 characters.
expect() {
  local name=$1 rc=$2 regex=$3
  shift 4
  if [[ -n $ONLY && ! $name =~ $ONLY ]]; then return; fi
  cases=$((cases + 1))
  local err got
  err=$(timeout 120 "$SIM" "$@" --quiet 2>&1 >/dev/null)
  got=$?
  err=$(grep -v '^  \|^Kokkos::OpenMP::initialize WARNING' <<<"$err")
  if [[ $got != "$rc" ]] || ! grep -Eq -- "$regex" <<<"$err" || ((${#err} > 2000)); then
    echo "FAIL $name: exit $got (want $rc), stderr (${#err} chars):"
    head -c 600 <<<"$err"
    echo
    failures=$((failures + 1))
  else
    echo "ok   $name: $(head -c 200 <<<"$err" | tr '\n' ' ')"
  fi
}

cfg() {  # cfg FILE JSON: a config file
  printf '%s\n' "$2" >"$1"
}
swc3='1 1 0 0 0 5 -1
2 3 10 0 0 1 1
3 3 20 0 0 1 2'

# --- 1. wrong results with exit 0
printf '1 1 0 0 0 5 -1\r2 3 10 0 0 1 1\r3 3 20 0 0 1 2\r4 3 30 0 0 1 3\r' >cr.swc
printf '1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 20 0 0 1 2\n4 3 30 0 0 1 3\n' >lf.swc
for e in cr lf; do
  cfg $e.json '{"tstop": 1, "cell": {"morphology": "'$e'.swc", "max_segment_length_um": 1}}'
  "$SIM" $e.json --quiet --metrics $e.metrics >/dev/null 2>&1
done
cases=$((cases + 1))
if [[ -s cr.metrics ]] && diff <(grep compartments cr.metrics) <(grep compartments lf.metrics) >/dev/null; then
  echo "ok   swc_cr_line_ends: $(grep compartments cr.metrics)"
else
  echo "FAIL swc_cr_line_ends: CR-only SWC not read as the LF one"
  failures=$((failures + 1))
fi
printf '1 1 0 0 0 5 -1 2 3 10 0 0 1 1\n' >two.swc
cfg two.json '{"cell": {"morphology": "two.swc"}}'
expect swc_several_points_per_line 2 "two.swc:1: several points on one line" -- two.json
expect tstop_huge 2 "config key 'tstop': over dt is 4e\+21 steps" -- "$BASE" --set tstop=1e20
expect dt_tiny 2 "config key 'tstop': over dt is .* steps.*dt 1e-300" -- "$BASE" --set dt=1e-300
expect section_4294967296 2 "key 'cell.iclamp\[\].location.section': must be an integer in" -- \
  "$BASE" --set 'cell.iclamp=[{"location": {"section": 4294967296}}]'
expect nseg_1e8 2 "key 'cell.nseg': must be an integer in \[0, 32767\].*100000000" -- \
  "$BASE" --set cell.nseg=100000000
expect ring_size_2_32 2 "key 'network.ring_size': must be an integer in" -- \
  "$BASE" --set network.ring_size=4294967296
expect synapses_per_cell_huge 2 "key 'network.synapses_per_cell': must be an integer in" -- \
  "$BASE" --set network.type=random --set network.synapses_per_cell=4294967296
expect max_segment_length_tiny 2 "max_segment_length_um 1e-12 cuts a section.*32767" -- \
  "$BASE" --set cell.nseg=0 --set cell.max_segment_length_um=1e-12
printf '1 1 0 0 0 0 -1\n2 3 10 0 0 0 1\n3 3 20 0 0 0 2\n' >zero.swc
cfg zero.json '{"tstop": 5, "cell": {"morphology": "zero.swc", "mechanisms": [{"name": "pas"}],
  "iclamp": [{"amp": 1, "dur": 5}]}}'
expect radius_zero_voltage 1 "membrane potential .* mV at gid 0, node [0-9]+, t = .* ms" -- zero.json
expect iclamp_1e10 1 "membrane potential .* at gid [0-9]+, node [0-9]+, t = " -- \
  "$BASE" --set 'cell.iclamp=[{"amp": 1e10, "dur": 10}]'
for sched in lanes cells; do  # both host schedules name it (issue #11)
  expect iclamp_1e10_$sched 1 "membrane potential .* at gid 0, node [0-9]+, t = " -- \
    "$BASE" --backend host --host-schedule $sched --set 'cell.iclamp=[{"amp": 1e10, "dur": 10}]'
done
expect host_schedule_flag 2 "--host-schedule must be lanes or cells, got 'tiles'" -- \
  "$BASE" --host-schedule tiles
expect host_schedule_key 2 "config key 'run.host_schedule': must be lanes or cells" -- \
  "$BASE" --set run.host_schedule=tiles

# --- 2. outputs
cp "$BASE" in.json
printf '%s\n' "$swc3" >in.swc
cfg in2.json '{"tstop": 1, "cell": {"morphology": "in.swc"}}'
expect output_is_config 2 "output path is an input of the run.*in.json" -- in.json --spikes ./in.json
expect output_is_morphology 2 "output path is an input of the run.*in.swc" -- in2.json --traces in.swc
cases=$((cases + 1))
if cmp -s in.json "$BASE" && [[ $(head -1 in.swc) == "1 1 0 0 0 5 -1" ]]; then
  echo "ok   inputs_untouched"
else
  echo "FAIL inputs_untouched: an input was overwritten"
  failures=$((failures + 1))
fi
expect output_dev_full 2 "/dev/full: cannot write the spikes file: No space left" -- \
  "$BASE" --spikes /dev/full
expect output_missing_folder 2 "/no/such/folder/s.txt: cannot create a file" -- \
  "$BASE" --spikes /no/such/folder/s.txt
expect output_twice 2 "two outputs name the same file" -- "$BASE" --spikes o.txt --metrics ./o.txt
echo stale >stale.txt
expect output_stale_removed 1 "membrane potential" -- \
  "$BASE" --set 'cell.iclamp=[{"amp": 1e10, "dur": 10}]' --spikes stale.txt
cases=$((cases + 1))
if [[ ! -e stale.txt ]] && ! ls stale.txt.tmp.* >/dev/null 2>&1; then
  echo "ok   output_stale_gone: a failed run leaves neither the old output nor a temporary"
else
  echo "FAIL output_stale_gone: $(ls)"
  failures=$((failures + 1))
fi

# --- 3. errors inside the "file, key, value; exit 2" contract
expect mechanisms_not_objects 2 "key 'cell.mechanisms\[\]': must be an object \(value '1'\)" -- \
  "$BASE" --set 'cell.mechanisms=[1]'
expect mechanisms_not_array 2 "key 'cell.mechanisms': must be an array" -- \
  "$BASE" --set 'cell.mechanisms={"name": "pas"}'
expect set_into_number 2 "key 'dt': --set dt.x: is not an object" -- "$BASE" --set dt.x=1
expect set_number_1e400 2 "key 'dt': --set: number out of the range of a double.*1e400" -- \
  "$BASE" --set dt=1e400
cfg big.json '{"dt": 0.025,
  "tstop": 1e400, "cell": {"morphology": "synthetic:p3"}}'
expect json_1e400 2 "big.json:2: invalid JSON: number out of the range of a double \(value '1e400'\)" -- big.json
expect cells_0 2 "key 'network.cells': must be an integer in \[1, .*\(value '0'\)" -- \
  "$BASE" --set network.cells=0
expect cells_negative 2 "key 'network.cells': must be an integer in.*'-3'" -- \
  "$BASE" --set network.cells=-3
expect cells_1e12 2 "key 'network.cells': needs about .* GB of memory on each rank" -- \
  "$BASE" --set network.cells=1000000000000
expect cells_0_with_record 2 "key 'network.cells'" -- \
  "$BASE" --set network.cells=0 --set 'record=[{"gid": 0}]'
printf '1 1 0 0 0 5 -1\n2 3 1e200 0 0 1 1\n' >far.swc
cfg far.json '{"cell": {"morphology": "far.swc"}}'
expect geometry_1e200 2 "far.swc:2: coordinate beyond 1e8 um \(value '1e200'\)" -- far.json
expect delay_1e12 0 "" -- "$BASE" --set network.delay=1e12 --set tstop=2
expect delay_short 2 "minimum delay 0.01 ms is shorter than dt = 0.025 ms" -- \
  "$BASE" --set network.delay=0.01
# Several ranks overlap the exchange, so they need two steps of delay (one rank never overlaps).
expect delay_short_overlap 2 "minimum delay 0.04 ms is shorter than 2 dt" -- \
  "$BASE" --set network.delay=0.04 --dry-run-ranks 2
expect delay_short_one_rank 0 "" -- "$BASE" --set network.delay=0.04 --set tstop=2
expect location_section 2 "key 'cell.iclamp\[\].location.section': names section 7 but" -- \
  "$BASE" --set 'cell.iclamp=[{"location": {"section": 7}}]'
expect location_x 2 "key 'record\[\].location.x': must lie in \[0, 1\]" -- \
  "$BASE" --set 'record=[{"gid": 0, "location": {"x": 2}}]'
expect record_gid 2 "key 'record\[\].gid': is not a cell of the network \(network.cells = 40\)" -- \
  "$BASE" --set 'record=[{"gid": 40}]'
head -c 20000000 /dev/zero | tr '\0' 'x' >token.txt
{ printf '1 1 0 0 0 1'; cat token.txt; printf ' -1\n'; } >token.swc
cfg token.json '{"cell": {"morphology": "token.swc"}}'
expect huge_token_truncated 2 "token.swc:1: radius is not a number \(value '1x{63}\.\.\. \(20000001 characters\)'\)" -- token.json
expect dry_run_ranks_abc 2 "--dry-run-ranks needs an integer.*'abc'" -- "$BASE" --dry-run-ranks abc
expect dry_run_ranks_12abc 2 "--dry-run-ranks needs an integer.*'12abc'" -- "$BASE" --dry-run-ranks 12abc
cases=$((cases + 1))
help=$("$SIM" --help 2>&1)
if [[ $? == 0 && $(head -1 <<<"$help") == hinesbatch-sim:* ]] && ! grep -qi "kokkos.*command-line options" <<<"$help"; then
  echo "ok   help: exit 0, the program's own help first"
else
  echo "FAIL help: $(head -3 <<<"$help")"
  failures=$((failures + 1))
fi

echo "$((cases - failures)) of $cases bad-input cases passed"
((failures == 0))
