#!/usr/bin/env bash
# One core each, back to back: NEURON 8.2 (its fadvance loop, scripts/validation/neuron_run.py
# on the model hinesbatch-sim exports) against hinesbatch-sim's run loop on the host backend
# (the tiles schedule: cells in SIMD tiles, the default), on networks that run on their
# synapses.
# Rasters must be identical (cmp); the ratio is NEURON's loop over ours, per network.
#   neuron_per_core.sh PATH/hinesbatch-sim OUTDIR [REPEATS (3)]
# Writes OUTDIR/<case>_{model.json.gz,neuron.log,hb<k>.json,hb<k>.log} and OUTDIR/summary.txt.
set -euo pipefail
sim=$(realpath "$1")
out=$(mkdir -p "$2" && cd "$2" && pwd)
repeats=${3:-3}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3
export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
summary=$out/summary.txt
{
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC') $(uname -n): $(nproc --all) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
  grep -m1 'model name' /proc/cpuinfo
  echo "# NEURON $($py -c 'import neuron; print(neuron.__version__)' 2>/dev/null | tail -1)"
  echo "# case | NEURON fadvance s | hinesbatch-sim run loop s (each repeat) | NEURON / best | rasters"
} >"$summary"
case_run() {  # name config [--set ...]
  local name=$1 cfg=$2
  shift 2
  "$sim" "$cfg" --backend host --quiet --set 'output={}' "$@" \
    --export-model "$out/${name}_model.json" --spikes "$work/${name}_hb0.txt" >/dev/null
  "$py" "$here/neuron_run.py" "$out/${name}_model.json" --spikes "$work/${name}_nrn.txt" \
    --traces "$work/${name}_nrn.csv" >"$out/${name}_neuron.log" 2>&1
  gzip -9f "$out/${name}_model.json"
  local nrn
  nrn=$(grep -o 'fadvance loop [0-9.]* s' "$out/${name}_neuron.log" | grep -o '[0-9.]*')
  local times=() best=""
  for k in $(seq 1 "$repeats"); do
    "$sim" "$cfg" --backend host --quiet --set 'output={}' "$@" --metrics "$out/${name}_hb$k.json" \
      --spikes "$work/${name}_hb$k.txt" >"$out/${name}_hb$k.log" 2>&1
    local w
    w=$(grep -o '"wall_s": [0-9.e+-]*' "$out/${name}_hb$k.json" | awk '{print $2}')
    times+=("$w")
    best=$(awk -v a="${best:-1e30}" -v b="$w" 'BEGIN {print (b < a) ? b : a}')
  done
  local same=identical
  for k in 0 $(seq 1 "$repeats"); do
    cmp -s "$work/${name}_nrn.txt" "$work/${name}_hb$k.txt" || same="DIFFERENT (run $k)"
  done
  local spikes
  spikes=$(wc -l <"$work/${name}_nrn.txt")
  printf '%s | %s | %s | %.1fx | %s (%s spikes)\n' "$name" "$nrn" "${times[*]}" \
    "$(awk -v n="$nrn" -v b="$best" 'BEGIN {print n / b}')" "$same" "$spikes" | tee -a "$summary"
}
# NEURON_PER_CORE_CASES: an extended regex of the case names to run (default: all).
only=${NEURON_PER_CORE_CASES:-.}
want() { [[ $1 =~ $only ]]; }
want random_synaptic_p3_60ms &&
  case_run random_synaptic_p3_60ms "$here/cases/random_synaptic_p3.json" --set tstop=60
want p3_synaptic_1000_50ms &&
  case_run p3_synaptic_1000_50ms "$root/examples/sim/p3_synaptic.json" --set tstop=50
want ring_200_100ms && case_run ring_200_100ms "$root/examples/sim/ring.json" --set network.cells=200
# The twelve shared morphologies mixed, hh everywhere (HINESBATCH_SHARED_DIR/morphologies);
# NEURON with exact hh rates (as we compute them: same raster) and with its rate tables.
if want real_mixed && [ -d "${HINESBATCH_SHARED_DIR:-$root/../shared}/morphologies" ]; then
  export HINESBATCH_SHARED_DIR=${HINESBATCH_SHARED_DIR:-$root/../shared}
  case_run real_mixed_96_20ms "$root/examples/sim/real_mixed.json" --set network.cells=96 \
    --set network.kick.cells=10 --set tstop=20
  NEURON_USETABLE_HH=1 case_run real_mixed_96_20ms_nrn_tables "$root/examples/sim/real_mixed.json" \
    --set network.cells=96 --set network.kick.cells=10 --set tstop=20
fi
# The same with 16 cells per morphology: full tiles of 16 lanes (AVX-512 doubles x 2).
if want real_mixed_192 && [ -d "${HINESBATCH_SHARED_DIR:-$root/../shared}/morphologies" ]; then
  export HINESBATCH_SHARED_DIR=${HINESBATCH_SHARED_DIR:-$root/../shared}
  case_run real_mixed_192_20ms "$root/examples/sim/real_mixed.json" --set network.cells=192 \
    --set network.kick.cells=20 --set tstop=20
  NEURON_USETABLE_HH=1 case_run real_mixed_192_20ms_nrn_tables \
    "$root/examples/sim/real_mixed.json" --set network.cells=192 --set network.kick.cells=20 \
    --set tstop=20
fi
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$summary"
