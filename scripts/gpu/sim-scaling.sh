#!/usr/bin/env bash
# Strong and weak scaling of hinesbatch-sim on networks that run on their synapses (issue
# #10), on the GPU machine over a packed .devcarry/ (scripts/gpu/pack.sh + pack-mpi.sh):
#   p3syn  examples/sim/p3_synaptic.json: P3's 450-compartment cells, random excitatory
#          network (100 synapses per cell), no clamp, 10% of the cells kicked once; 100 ms
#   ring   examples/sim/ring.json: Arbor's busyring (rings of 10, 50 extra weight-zero
#          synapses per cell that load the exchange); 100 ms
#   p3     examples/sim/p3.json: P3's literal setup (500 synapses per cell, 10 x 10 steps);
#          kept for the setup of 50 M connections and comparison with the paper
#   scripts/gpu/sim-scaling.sh gpu   one rank per GPU: 1..(visible GPUs, at most 4)
#   scripts/gpu/sim-scaling.sh cpu   CPU ranks (host backend, 1 thread each): 1..(cores, at most 32)
# Each run writes $OUT/sim_<kind>/<name>.{json,log}; spikes go to $OUT/sim_<kind>/spikes.md5
# (one md5 per run) and, where a run repeats another with other ranks or overlap, the two
# spike files are compared (cmp.txt): the raster must not depend on them. Runs stop being
# started when fewer than SIM_RESERVE_S (60) seconds are left of SIM_BUDGET_S (540).
# SIM_ONLY (an extended regex) runs only the runs whose names match it; SIM_OVERLAP=off
# runs every run with --no-overlap (the default), its name ending in _nooverlap;
# SIM_STRONG (cell counts) adds strong-scaling runs of larger networks;
# SIM_OVERLAP=on (the default here) with --overlap.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
kind=${1:?cpu or gpu}
c=$PWD/.devcarry
out=${OUT:-/tmp/hinesbatch-out}
dir=$out/sim_$kind
spk=/tmp/hinesbatch-spikes-$kind
mkdir -p "$dir" "$spk"
# shellcheck source=/dev/null
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
sim=${SIM:-$c/bin/hinesbatch-sim}
ex=$PWD/examples/sim
budget=${SIM_BUDGET_S:-540}
reserve=${SIM_RESERVE_S:-60}
unset OMP_PLACES
start=$(date +%s)
left() { echo $((budget - ($(date +%s) - start))); }
sfx=
extra=(--overlap)
if [ "${SIM_OVERLAP:-on}" = off ]; then
  sfx=_nooverlap
  extra=(--no-overlap)
fi
run() {  # name ranks config [args...]
  local name=$1$sfx np=$2 cfg=$3
  shift 3
  [[ $name =~ ${SIM_ONLY:-.} ]] || return 0
  if [ "$(left)" -lt "$reserve" ]; then
    echo "$name: not run (time budget)" | tee -a "$dir/not_run.txt"
    return
  fi
  local limit=$(($(left) - 5))
  [ "$limit" -ge 1 ] || limit=1
  timeout -k 5 "$limit" mpirun --allow-run-as-root --oversubscribe --bind-to none \
    -np "$np" -x OMP_NUM_THREADS -x OMP_PROC_BIND -x LD_LIBRARY_PATH -x OPAL_PREFIX \
    "$sim" "$ex/$cfg" --quiet --set 'output={}' --metrics "$dir/$name.json" \
    --spikes "$spk/$name.txt" "$@" "${extra[@]}" >"$dir/$name.log" 2>&1
  local rc=$?
  (cd "$spk" && md5sum "$name.txt" >>"$dir/spikes.md5" 2>/dev/null)
  printf '[%4ds] %-26s ranks=%-3s rc=%s %s %s\n' $(($(date +%s) - start)) "$name" "$np" "$rc" \
    "$(grep -o '"compartment_steps_per_s": [0-9.e+-]*' "$dir/$name.json" 2>/dev/null)" \
    "$(grep -o '"exposed_comm_fraction": [0-9.e+-]*' "$dir/$name.json" 2>/dev/null)"
}
run_no_overlap() {  # as run, with --no-overlap whatever SIM_OVERLAP says
  local saved=("${extra[@]}")
  extra=(--no-overlap)
  run "$@"
  extra=("${saved[@]}")
}
same() {  # a b: the two runs' rasters are identical
  local a=$1$sfx b=$2$sfx
  [ -e "$spk/$a.txt" ] || [ -e "$spk/$b.txt" ] || return 0  # neither ran (SIM_ONLY)
  if [ ! -s "$spk/$a.txt" ] || [ ! -s "$spk/$b.txt" ]; then
    echo "$a ? $b (not compared: a run did not finish)" | tee -a "$dir/cmp.txt"
  elif cmp -s "$spk/$a.txt" "$spk/$b.txt"; then
    echo "$a = $b" | tee -a "$dir/cmp.txt"
  else
    echo "$a != $b (DIFFERENT RASTERS)" | tee -a "$dir/cmp.txt"
  fi
}
p3syn() {  # cells: the synaptic P3 network of that size, 10% kicked, 100 ms
  echo p3_synaptic.json --set network.cells="$1" --set network.kick.cells=$(($1 / 10)) \
    --set tstop=100
}
ring() { echo ring.json --set network.cells="$1"; }
case $kind in
gpu)
  gpus=$(nvidia-smi -L | wc -l)
  [ "$gpus" -gt 4 ] && gpus=4
  counts=$(for g in 1 2 4; do [ "$g" -le "$gpus" ] && echo "$g"; done)
  export OMP_NUM_THREADS=8 OMP_PROC_BIND=false  # unbound: ranks must not share cores
  dev() { echo --kokkos-num-devices="$1"; }
  # Weak scaling: the same cells per GPU (the network grows with the GPUs).
  for per in 100000 10000; do
    for g in $counts; do
      # shellcheck disable=SC2046
      run "p3syn_weak${per}_g$g" "$g" $(p3syn $((per * g))) $(dev "$g")
    done
  done
  for per in 10000 100000; do
    for g in $counts; do
      # shellcheck disable=SC2046
      run "ring_weak${per}_g$g" "$g" $(ring $((per * g))) $(dev "$g")
    done
  done
  # Strong scaling (1 GPU: the weak runs' first point) and the raster across GPU counts.
  for g in $counts; do
    [ "$g" = 1 ] && continue
    # shellcheck disable=SC2046
    run "p3syn_strong100000_g$g" "$g" $(p3syn 100000) $(dev "$g")
    same p3syn_weak100000_g1 "p3syn_strong100000_g$g"
    # shellcheck disable=SC2046
    run "ring_strong10000_g$g" "$g" $(ring 10000) $(dev "$g")
    same ring_weak10000_g1 "ring_strong10000_g$g"
  done
  # Strong scaling of larger networks (SIM_STRONG, e.g. 400000; none by default): one GPU
  # and every count, P3 synaptic and the ring, the raster across GPU counts.
  for n in ${SIM_STRONG:-}; do
    for g in $counts; do
      # shellcheck disable=SC2046
      run "p3syn_strong${n}_g$g" "$g" $(p3syn "$n") $(dev "$g")
      # shellcheck disable=SC2046
      run "ring_strong${n}_g$g" "$g" $(ring "$n") $(dev "$g")
      [ "$g" = 1 ] && continue
      same "p3syn_strong${n}_g1" "p3syn_strong${n}_g$g"
      same "ring_strong${n}_g1" "ring_strong${n}_g$g"
    done
  done
  g=$(echo "$counts" | tail -1)
  if [ "$g" -gt 1 ]; then
    # shellcheck disable=SC2046
    run_no_overlap "p3syn_strong100000_g${g}_nooverlap" "$g" $(p3syn 100000) $(dev "$g")
    same "p3syn_strong100000_g$g" "p3syn_strong100000_g${g}_nooverlap"
  fi
  # P3's literal setup: 50 M connections (100,000 cells x 500 synapses), setup timed.
  for g in $counts; do
    run "p3_literal100000_g$g" "$g" p3.json --set network.cells=100000 "$(dev "$g")"
  done
  ;;
cpu)
  cores=$(nproc)
  [ "$cores" -gt 32 ] && cores=32
  counts=$(for p in 1 2 4 8 16 32; do [ "$p" -le "$cores" ] && echo "$p"; done)
  export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
  for p in $counts; do
    # shellcheck disable=SC2046
    run "p3syn_weak1000_p$p" "$p" $(p3syn $((1000 * p))) --backend host
  done
  for p in $counts; do
    # shellcheck disable=SC2046
    run "p3syn_strong4000_p$p" "$p" $(p3syn 4000) --backend host
  done
  for p in $counts; do
    [ "$p" = 1 ] && continue
    same p3syn_strong4000_p1 "p3syn_strong4000_p$p"
  done
  for p in $counts; do
    # shellcheck disable=SC2046
    run "ring_weak1000_p$p" "$p" $(ring $((1000 * p))) --backend host
  done
  p=$(echo "$counts" | tail -1)
  # shellcheck disable=SC2046
  run_no_overlap "p3syn_strong4000_p${p}_nooverlap" "$p" $(p3syn 4000) --backend host
  same "p3syn_strong4000_p$p" "p3syn_strong4000_p${p}_nooverlap"
  ;;
esac
rm -rf "$spk"
echo "sim-scaling $kind done in $(($(date +%s) - start)) s"
