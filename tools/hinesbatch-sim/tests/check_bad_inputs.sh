#!/usr/bin/env bash
# hinesbatch-sim on bad input: every case must exit with the expected code and print the
# expected message (file, key, value); none may crash, hang or exit 0 with a wrong result.
# docs/HARDENING.md lists the cases (the names below) with their messages.
#   check_bad_inputs.sh SIM [CASE-REGEX]
set -uo pipefail
SIM=$(realpath "${1:?usage: check_bad_inputs.sh SIM [CASE-REGEX]}")
ONLY=${2:-}
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Each case runs under an address-space cap of 4 GB (a regression that reads /dev/zero
# until memory runs out must fail here, not take the machine); not for sanitizer builds,
# which reserve terabytes of shadow memory.
MEMCAP=4000000
ldd "$SIM" 2>/dev/null | grep -q 'libasan\|libubsan' && MEMCAP=unlimited
# expect NAME RC REGEX -- ARGS...: runs SIM ARGS --quiet; checks the exit code and that
# stderr matches REGEX (extended grep) and is shorter than 2,000 characters.
expect() {
  local name=$1 rc=$2 regex=$3
  shift 4
  if [[ -n $ONLY && ! $name =~ $ONLY ]]; then return; fi
  cases=$((cases + 1))
  local err got
  err=$( (ulimit -v $MEMCAP; timeout 120 "$SIM" "$@" --quiet) 2>&1 >/dev/null)
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
expect record_dt_off_grid 2 "config key 'record_dt': is not a whole number of steps of dt = 0.025 ms" -- "$BASE" --set record_dt=0.03
expect record_dt_negative 2 "config key 'record_dt': must be > 0 ms" -- "$BASE" --set record_dt=-1
expect cm_by_region_zero 2 "key 'cell.cm\[1\].value': must be > 0 \(uF/cm2\)" -- \
  "$BASE" --set 'cell.cm=[{"value": 1}, {"region": "dend", "value": 0}]'
expect section_list_past_the_cell 2 "key 'cell.section_lists.tips': names section 9, but .* has .* sections" -- \
  "$BASE" --set 'cell.section_lists={"tips": [1, 9]}'
expect section_list_unknown_region 2 "key 'cell.Ra\[0\].region': must be soma, axon, dend, apic, basal, all or a section list of section_lists \(tips\)" -- \
  "$BASE" --set 'cell.section_lists={"tips": [1]}' --set 'cell.Ra=[{"region": "tip", "value": 100}]'
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
for sched in tiles cells; do  # both host schedules name it
  expect iclamp_1e10_$sched 1 "membrane potential .* at gid 0, node [0-9]+, t = " -- \
    "$BASE" --backend host --host-schedule $sched --set 'cell.iclamp=[{"amp": 1e10, "dur": 10}]'
done
# Run options: a flag is a shorthand for --set run.<key>=VALUE, and both are the JSON key
# (one check per key): a bad value names the key and the value whichever way it comes.
sed 's/"run": {/"run": {"host_schedule": "lanes", /' "$BASE" >run_key.json
for path in "flag:--host-schedule lanes" "set:--set run.host_schedule=lanes" "json:"; do
  # shellcheck disable=SC2086
  expect "run_key_host_schedule_${path%%:*}" 2 "config key 'run.host_schedule': must be tiles or cells \(value '\"lanes\"'\)" -- \
    "$([[ ${path%%:*} == json ]] && echo run_key.json || echo "$BASE")" ${path#*:}
done
for path in "flag:--on-chip maybe" "set:--set run.on_chip=maybe"; do
  # shellcheck disable=SC2086
  expect "run_key_on_chip_${path%%:*}" 2 "config key 'run.on_chip': must be auto, on or off \(value '\"maybe\"'\)" -- "$BASE" ${path#*:}
done
for path in "flag:--dry-run-ranks 2000000" "set:--set run.dry_run_ranks=2000000"; do
  # shellcheck disable=SC2086
  expect "run_key_dry_run_ranks_${path%%:*}" 2 "config key 'run.dry_run_ranks': must be an integer in \[0, 1048576\] \(value '2000000'\)" -- "$BASE" ${path#*:}
done
expect run_key_overlap_set 2 "config key 'run.overlap': must be true or false \(value '\"maybe\"'\)" -- \
  "$BASE" --set run.overlap=maybe
# The same run whichever way its options come (flags, --set, the JSON); a flag wins over --set.
sed 's/"run": {/"run": {"host_schedule": "cells", "dry_run_ranks": 2, "overlap": true, /' "$BASE" >run_json.json
same_run() {  # same_run NAME ARGS...: spikes and the run's metrics as those of the flags' run
  local name=$1
  shift
  "$SIM" "$@" --quiet --spikes "$name.spikes" --metrics "$name.metrics" >/dev/null 2>&1
  cases=$((cases + 1))
  local keys='"(schedule|ranks|overlap|epoch_steps|exchange|spikes)"'
  if [[ -s $name.spikes ]] && cmp -s flags.spikes "$name.spikes" &&
    diff <(grep -E "$keys" flags.metrics) <(grep -E "$keys" "$name.metrics") >/dev/null; then
    echo "ok   run_options_$name: $(grep -E "$keys" "$name.metrics" | tr -d ' \n')"
  else
    echo "FAIL run_options_$name: differs from the flags' run"
    failures=$((failures + 1))
  fi
}
"$SIM" "$BASE" --quiet --host-schedule cells --dry-run-ranks 2 --overlap --spikes flags.spikes \
  --metrics flags.metrics >/dev/null 2>&1
same_run set "$BASE" --set run.host_schedule=cells --set run.dry_run_ranks=2 --set run.overlap=true
same_run json run_json.json
same_run flag_wins "$BASE" --set run.host_schedule=tiles --set run.overlap=false --host-schedule cells \
  --dry-run-ranks 2 --overlap

# --- 2. outputs
cp "$BASE" in.json
printf '%s\n' "$swc3" >in.swc
cfg in2.json '{"tstop": 1, "cell": {"morphology": "in.swc"}, "record": [{"gid": 0}]}'
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
# A failed run leaves the earlier output of the same name as it was (never removed before
# the new one is complete) and no temporary; the message says what was not written.
echo stale >stale.txt
expect output_kept_on_failure 1 "not written: spikes file 'stale.txt' \(an earlier file of that name is left unchanged\)" -- \
  "$BASE" --set 'cell.iclamp=[{"amp": 1e10, "dur": 10}]' --spikes stale.txt
cases=$((cases + 1))
if [[ $(cat stale.txt) == stale ]] && ! ls -a | grep -q '^\.hb-\|\.tmp\.'; then
  echo "ok   output_kept_no_temporary: the earlier output is unchanged, no temporary left"
else
  echo "FAIL output_kept_no_temporary: $(ls -a | tr '\n' ' ')"
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
# Ranks that overlap the exchange need two steps of delay (one rank never overlaps).
expect delay_short_overlap 2 "minimum delay 0.04 ms is shorter than 2 dt" -- \
  "$BASE" --set network.delay=0.04 --dry-run-ranks 2 --overlap
expect overlap_contradiction 2 "--overlap and --no-overlap contradict each other" -- \
  "$BASE" --overlap --no-overlap
expect delay_short_one_rank 0 "" -- "$BASE" --set network.delay=0.04 --set tstop=2
expect location_section 2 "key 'cell.iclamp\[\].location.section': names section 7 but" -- \
  "$BASE" --set 'cell.iclamp=[{"location": {"section": 7}}]'
expect location_x 2 "key 'record\[\].location.x': must lie in \[0, 1\]" -- \
  "$BASE" --set 'record=[{"gid": 0, "location": {"x": 2}}]'
expect record_gid 2 "key 'record\[\].gid': is not a cell of the network \(network.cells = 40\)" -- \
  "$BASE" --set 'record=[{"gid": 40}]'
expect record_variable_output_only 2 "ring_small.json: config key 'record\[\].variable': gna of hh is an ASSIGNED variable the mechanism only outputs .*does not store it \(value '\"gna_hh\"'\)" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "hh", "region": "soma", "parameters": {}}]' \
  --set 'record=[{"gid": 0, "variable": "gna_hh"}]'
expect record_variable_builtin 2 "key 'record\[\].variable': mechanism hh is not inserted .*the built-in hh records no variables" -- \
  "$BASE" --set 'record=[{"gid": 0, "variable": "m_hh"}]' --mechanisms builtin
expect record_variable_hh_keys 0 "" -- "$BASE" --set 'record=[{"gid": 0, "variable": "m_hh"}]' \
  --set tstop=2
expect record_synapse_index 2 "key 'record\[\].synapse': is not a synapse of gid 0 \(it has 11\) \(value '11'\)" -- \
  "$BASE" --set 'record=[{"gid": 0, "synapse": 11, "variable": "g"}]'
expect record_synapse_builtin 2 "key 'record\[\].variable': synapse 0 is the built-in ExpSyn" -- \
  "$BASE" --set 'record=[{"gid": 0, "synapse": 0, "variable": "g"}]' --mechanisms builtin
expect record_synapse_g 0 "" -- "$BASE" --set 'record=[{"gid": 0, "synapse": 0, "variable": "g"}]' \
  --set tstop=2
head -c 20000000 /dev/zero | tr '\0' 'x' >token.txt
{ printf '1 1 0 0 0 1'; cat token.txt; printf ' -1\n'; } >token.swc
cfg token.json '{"cell": {"morphology": "token.swc"}}'
expect huge_token_truncated 2 "token.swc:1: radius is not a number \(value '1x{63}\.\.\. \(20000001 characters\)'\)" -- token.json
expect dry_run_ranks_abc 2 "key 'run.dry_run_ranks': must be an integer.*'\"abc\"'" -- "$BASE" --dry-run-ranks abc
expect dry_run_ranks_12abc 2 "key 'run.dry_run_ranks': must be an integer.*'\"12abc\"'" -- "$BASE" --dry-run-ranks 12abc
cases=$((cases + 1))
help=$("$SIM" --help 2>&1)
if [[ $? == 0 && $(head -1 <<<"$help") == hinesbatch-sim:* ]] && ! grep -qi "kokkos.*command-line options" <<<"$help"; then
  echo "ok   help: exit 0, the program's own help first"
else
  echo "FAIL help: $(head -3 <<<"$help")"
  failures=$((failures + 1))
fi

# --- 4. hardening round two (no hang, no crash, no lost output, no silent wrong result);
# docs/HARDENING.md lists each with its message
# Deep nesting under an unknown or wrong-typed key (was a stack overflow in the dump).
python3 -c "print('{\"tstop\": 1, \"x\": ' + '['*100000 + ']'*100000 + '}')" >deep.json
expect deep_json_unknown_key 2 "deep.json:1: invalid JSON: arrays and objects nested deeper than 64 levels" -- deep.json
python3 -c "print('{\"cell\": {\"morphology\": \"synthetic:ball-and-stick\",\n \"Ra\": ' + '{\"a\": '*100000 + '1' + '}'*100000 + '}}')" >deep2.json
expect deep_json_wrong_type 2 "deep2.json:2: invalid JSON: arrays and objects nested deeper than 64" -- deep2.json
expect deep_json_set 2 "config key 'dt': --set: arrays and objects nested deeper than 64 levels" -- \
  "$BASE" --set "dt=$(python3 -c "print('['*65000 + ']'*65000)")"
# Inputs that are not regular files, or too many templates, are refused before reading.
expect config_dev_zero 2 "/dev/zero: is not a regular file \(a device, FIFO or socket\), not a config file" -- /dev/zero
ln -s /dev/zero zero_link.json
expect config_link_dev_zero 2 "zero_link.json: is not a regular file" -- zero_link.json
expect swc_dev_zero 2 "/dev/zero: is not a regular file.*not a SWC file" -- "$BASE" --set cell.morphology=/dev/zero
mkdir -p folder.swc folder.json
expect swc_folder 2 "folder.swc: is a directory, not a SWC file" -- "$BASE" --set cell.morphology=$W/folder.swc
expect config_folder 2 "folder.json: is a directory, not a config file" -- folder.json
expect config_missing_reason 2 "nothing.json: cannot open config file: No such file or directory" -- nothing.json
python3 -c "
import json
print(json.dumps({'tstop': 1, 'network': {'type': 'ring', 'cells': 40},
                  'cell': {'morphology': ['synthetic:ball-and-stick'] * 100000}}))" >many.json
expect morphologies_100000 2 "config key 'cell.morphology': lists 100000 morphologies, more than network.cells = 40" -- many.json
# (Not for sanitizer builds: their shadow memory cannot be reserved under ulimit -v.)
if [[ $MEMCAP != unlimited ]] && [[ -z $ONLY || memory_ulimit_v =~ $ONLY ]]; then
  cases=$((cases + 1))
  err=$( (ulimit -v 3000000; timeout 60 "$SIM" "$BASE" --quiet --set network.cells=1000000 --set tstop=0.025) 2>&1 >/dev/null)
  if [[ $? == 2 ]] && grep -q "needs about .* GB .* the address-space limit (ulimit -v) allows" <<<"$err"; then
    echo "ok   memory_ulimit_v: $(grep -m1 error <<<"$err" | head -c 200)"
  else
    echo "FAIL memory_ulimit_v: $(head -c 600 <<<"$err")"
    failures=$((failures + 1))
  fi
fi
# Interrupted runs: the earlier outputs stay, no temporary stays, the message says what
# was not written, exit 128 + signal; SIGKILL leaves no temporary either (created at the end;
# a traces file, written as the run goes, is the exception: see interrupt_streamed).
interrupt() {  # interrupt NAME SIGNAL RC
  local name=$1 sig=$2 rc=$3
  if [[ -n $ONLY && ! $name =~ $ONLY ]]; then return; fi
  cases=$((cases + 1))
  echo earlier >int.spikes
  echo earlier >int.metrics
  "$SIM" "$BASE" --set tstop=100000 --spikes int.spikes --metrics int.metrics 2>int.err &
  local pid=$! k
  for k in $(seq 600); do grep -q '^\[hinesbatch-sim\]' int.err 2>/dev/null && break; sleep 0.1; done
  sleep 0.3
  kill -s "$sig" $pid
  wait $pid
  local got=$?
  if [[ $got == "$rc" && $(cat int.spikes int.metrics) == $'earlier\nearlier' ]] &&
    ! ls -a | grep -q '^\.hb-' &&
    { [[ $sig == KILL ]] || grep -q "interrupted by SIG$sig: not written: spikes file 'int.spikes', metrics file 'int.metrics'" int.err; }; then
    echo "ok   $name: exit $got, $(grep interrupted int.err | head -c 160)"
  else
    echo "FAIL $name: exit $got (want $rc), $(ls -a | tr '\n' ' '), $(grep -v '^  \|WARNING' int.err | head -c 400)"
    failures=$((failures + 1))
  fi
}
interrupt interrupt_sigterm TERM 143
interrupt interrupt_sigint INT 130
interrupt interrupt_sighup HUP 129
interrupt interrupt_sigkill KILL 137
# Files written as the run goes (traces, epoch by epoch) and the SONATA report: SIGTERM
# during the run removes the traces temporary that exists by then; the earlier files stay.
if [[ -z $ONLY || interrupt_streamed =~ $ONLY ]]; then
  cases=$((cases + 1))
  echo earlier >int.csv
  echo earlier >int.h5
  "$SIM" "$BASE" --set tstop=100000 --set 'record=[{"gid": 0}]' --traces int.csv \
    --spikes-sonata int.h5 2>int.err &
  pid=$!
  for k in $(seq 600); do ls -a | grep -q '^\.hb-' && break; sleep 0.1; done
  streamed=$(ls -a | grep -c '^\.hb-')  # the traces temporary, growing
  sleep 0.3
  kill -s TERM $pid
  wait $pid
  got=$?
  if [[ $got == 143 && $streamed == 1 && $(cat int.csv int.h5) == $'earlier\nearlier' ]] &&
    ! ls -a | grep -q '^\.hb-' &&
    grep -q "interrupted by SIGTERM: not written: .*traces file 'int.csv'" int.err; then
    echo "ok   interrupt_streamed: exit $got, $(grep interrupted int.err | head -c 200)"
  else
    echo "FAIL interrupt_streamed: exit $got, temporaries during the run $streamed, $(ls -a | tr '\n' ' '), $(grep -v '^  \|WARNING' int.err | head -c 400)"
    failures=$((failures + 1))
  fi
fi
# A write-protected earlier output is refused, not replaced.
echo protected >ro.txt
chmod 0444 ro.txt
expect output_write_protected 2 "ro.txt: the spikes file exists and is write-protected \(mode 0444\)" -- \
  "$BASE" --spikes ro.txt
cases=$((cases + 1))
if [[ $(cat ro.txt) == protected ]]; then echo "ok   output_write_protected_kept"; else
  echo "FAIL output_write_protected_kept: replaced"; failures=$((failures + 1)); fi
# Outputs aliased through a symbolic link whose target does not exist yet.
ln -s target.txt dangling.txt
expect output_dangling_link_alias 2 "two outputs name the same file" -- \
  "$BASE" --set 'record=[{"gid": 0}]' --spikes dangling.txt --traces ./target.txt
mkdir -p sub
ln -s ../target2.txt sub/dangling2.txt
expect output_dangling_link_relative 2 "two outputs name the same file" -- \
  "$BASE" --metrics sub/dangling2.txt --spikes sub/../target2.txt
# Metrics JSON stays valid with quotes, backslashes and a config path of > 4 KB.
q='q"b\s.json'
cp "$BASE" "$q"
long=.  # relative: the whole path stays under PATH_MAX (4,096)
for k in $(seq 20); do long=$long/$(printf 'd%.0s' $(seq 190)); done
mkdir -p "$long"
cp "$BASE" "$long/cfg.json"
for c in "$q" "$long/cfg.json"; do
  cases=$((cases + 1))
  rm -f m.json
  "$SIM" "$c" --quiet --set tstop=1 --metrics m.json 2>/dev/null
  if python3 -c 'import json, sys; assert json.load(open("m.json"))["config"] == sys.argv[1]' "$c" 2>/dev/null; then
    echo "ok   metrics_json_valid: config path of ${#c} characters"
  else
    echo "FAIL metrics_json_valid: config path of ${#c} characters: $(head -c 300 m.json)"
    failures=$((failures + 1))
  fi
done
expect traces_without_record 2 "config key 'record': has no entries, but a traces file is asked for \(--traces\)" -- \
  "$BASE" --traces t.csv
expect region_matches_nothing 2 "config key 'cell.mechanisms\[0\].region': matches no section of synthetic:ball-and-stick.*'\"axon\"'" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "hh", "region": "axon"}]'
printf '1 3 0 0 0 1 -1\n2 3 10 0 0 1 1\n' >nosoma.swc
cfg nosoma.json '{"tstop": 1, "cell": {"morphology": "nosoma.swc", "mechanisms": [{"name": "pas", "region": "soma"}]}}'
expect region_soma_without_soma 2 "key 'cell.mechanisms\[0\].region': matches no section of .*nosoma.swc" -- nosoma.json
expect synapses_per_cell_above_cells 2 "key 'network.synapses_per_cell': is more than network.cells - 1 = 39.*'50'" -- \
  "$BASE" --set network.type=random --set network.synapses_per_cell=50
expect tstop_not_whole_steps 2 "key 'tstop': is not a whole number of steps of dt = 0.025 ms \(tstop / dt = 40.5; the run would stop at 1 ms\)" -- \
  "$BASE" --set tstop=1.0125
expect tstop_below_dt 2 "key 'tstop': is not a whole number of steps of dt = 1 ms" -- \
  "$BASE" --set dt=1 --set tstop=0.5
expect tstop_rounding_ok 0 "" -- "$BASE" --set tstop=1.1 --set dt=0.1
cfg dup.json '{"tstop": 1, "tstop": 2, "cell": {"morphology": "synthetic:ball-and-stick"}}'
expect duplicate_key 2 "dup.json:1: config key 'tstop': given twice in one object" -- dup.json
cfg dup2.json '{"tstop": 1,
  "cell": {"morphology": "synthetic:ball-and-stick"},
  "cell": {"morphology": "synthetic:p3"}}'
expect duplicate_section 2 "dup2.json:3: config key 'cell': given twice in one object" -- dup2.json
expect duplicate_nested 2 "config key 'cell.mechanisms.\[\].g': --set: given twice" -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "pas", "g": 1, "g": 2}]'
expect celsius_cold 2 "key 'celsius': must lie in \[-273.15, 100\] \(value '-300'\)" -- "$BASE" --set celsius=-300
expect celsius_hot 2 "key 'celsius': must lie in \[-273.15, 100\]" -- "$BASE" --set celsius=1e6
expect v_init_huge 2 "key 'v_init': must lie in \[-1000, 1000\]" -- "$BASE" --set v_init=1e5
expect kick_time_negative 2 "key 'network.kick.time': must lie in \[0, " -- "$BASE" --set network.kick.time=-1
expect event_time_negative 2 "key 'network.events\[0\].time': must be >= 0" -- \
  "$BASE" --set 'network={"type": "explicit", "cells": 2, "events": [[0, 0, -1, 0.1]]}'
expect weight_max_below_weight 2 "key 'network.weight_max': must be >= network.weight = 0.05" -- \
  "$BASE" --set network.weight_max=0.01
printf '{"tstop": 1, "cell": {"morphology": "synthetic:ball-and-stick"}}\n\0{"tstop": 5}\n' >nul.json
expect config_nul_byte 2 "nul.json:2: config holds a NUL byte" -- nul.json
expect dt_1e308 2 "key 'dt': must lie in \(0, 1000\] ms" -- "$BASE" --set dt=1e308
expect synapse_tau_zero 2 "key 'network.tau': must be > 0" -- "$BASE" --set network.tau=0
expect iclamp_dur_negative 2 "key 'cell.iclamp\[\].dur': must lie in \[0, " -- \
  "$BASE" --set 'cell.iclamp=[{"dur": -1}]'
expect conductance_negative 2 "key 'cell.mechanisms\[\].g': must lie in \[0, " -- \
  "$BASE" --set 'cell.mechanisms=[{"name": "pas", "g": -1}]'
expect set_not_utf8 2 "key 'cell.morphology': --set: not valid UTF-8" -- "$BASE" --set $'cell.morphology=\xff\xfe'
printf '1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 1 40 0 0 5 -1\n4 3 50 0 0 1 3\n5 3 60 0 0 1 4\n' >roots.swc
cfg roots.json '{"tstop": 1, "cell": {"morphology": "roots.swc"}}'
expect swc_two_roots_names_key 2 "roots.swc:3: SWC file has 2 roots.*'cell.keep_largest_component'" -- roots.json
expect swc_two_roots_kept 0 "" -- roots.json --set cell.keep_largest_component=true
# Long strings are never echoed whole (expect checks stderr < 2,000 characters).
expect long_morphology_name 2 "cannot open SWC file: File name too long|cannot open SWC file" -- \
  "$BASE" --set "cell.morphology=$(head -c 100000 /dev/zero | tr '\0' 'm')"
# Output names of 250 characters (a 255-byte name limit leaves no room for ".tmp.PID").
n250=$(printf 'o%.0s' $(seq 250))
cases=$((cases + 1))
if "$SIM" "$BASE" --quiet --set tstop=1 --spikes "$n250" 2>/dev/null && [[ -f $n250 ]]; then
  echo "ok   output_name_250: written"
else
  echo "FAIL output_name_250: not written"
  failures=$((failures + 1))
fi
# ${VAR} expanded in every string of the config, not only the morphology.
cases=$((cases + 1))
cp "$BASE" env.json  # here: a relative output must not land beside $BASE
if HB_SPIKES=env.spikes "$SIM" env.json --quiet --set tstop=1 --set 'output.spikes=${HB_SPIKES}' 2>/dev/null &&
  [[ -f env.spikes ]]; then
  echo "ok   env_var_in_output: env.spikes written"
else
  echo "FAIL env_var_in_output: $(ls)"
  failures=$((failures + 1))
fi
# The command line (CLI11): unknown and malformed options refused, Kokkos' checked.
expect cli_value_is_option 2 "--spikes needs a value, got the option '--no-overlap'" -- "$BASE" --spikes --no-overlap
expect cli_empty_value 2 "--spikes needs a non-empty value" -- "$BASE" --spikes ""
expect cli_unknown_option 2 "were not expected.*--spiks|--spiks" -- "$BASE" --spiks s.txt
expect cli_kokkos_threads_abc 2 "--kokkos-num-threads needs an integer in \[1, 1048576\], got 'abc'" -- \
  "$BASE" --kokkos-num-threads=abc
expect cli_kokkos_threads_negative 2 "--kokkos-num-threads needs an integer.*'-5'" -- "$BASE" --kokkos-num-threads=-5
expect cli_kokkos_typo 2 "unknown Kokkos option --kokkos-num-thread " -- "$BASE" --kokkos-num-thread=2
expect cli_kokkos_threads_ok 0 "" -- "$BASE" --set tstop=1 --kokkos-num-threads=1
cases=$((cases + 1))
if [[ $("$SIM" --version) == "hinesbatch-sim "* ]]; then echo "ok   cli_version"; else
  echo "FAIL cli_version"; failures=$((failures + 1)); fi

echo "$((cases - failures)) of $cases bad-input cases passed"
((failures == 0))
