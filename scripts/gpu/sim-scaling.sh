#!/usr/bin/env bash
# Strong and weak scaling of hinesbatch-sim on P3's network (examples/sim/p3.json: cells of
# 450 compartments, 500 synapses each, 10 global x 10 local steps), run on the GPU
# machine over a packed .devcarry/ (scripts/gpu/pack.sh + pack-mpi.sh).
#   scripts/gpu/sim-scaling.sh cpu   CPU ranks (OpenMP backend, 1 thread each): 1..16
#   scripts/gpu/sim-scaling.sh gpu   one rank per GPU: 1..(visible GPUs)
# Writes one metrics JSON per run into $OUT/sim_<kind>/ and a tarball $OUT/sim_<kind>.tgz.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
kind=${1:?cpu or gpu}
c=$PWD/.devcarry
out=${OUT:-/tmp/hinesbatch-out}
dir=$out/sim_$kind
mkdir -p "$dir"
# shellcheck source=/dev/null
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
sim=$c/bin/hinesbatch-sim
cfg=examples/sim/p3.json
cores=$(nproc)
unset OMP_PLACES
start=$(date +%s)
run() {  # name ranks [args...]
  local name=$1 np=$2
  shift 2
  local t0=$(date +%s.%N)
  mpirun --allow-run-as-root --oversubscribe --bind-to none -np "$np" \
    -x OMP_NUM_THREADS -x OMP_PROC_BIND -x LD_LIBRARY_PATH -x OPAL_PREFIX \
    "$sim" "$cfg" --quiet --metrics "$dir/$name.json" "$@" >"$dir/$name.log" 2>&1
  local rc=$?
  printf '[%4ds] %-28s ranks=%-3s rc=%s %s\n' $(($(date +%s) - start)) "$name" "$np" "$rc" \
    "$(grep -o '"wall_s": [0-9.e+-]*' "$dir/$name.json" 2>/dev/null)"
}
case $kind in
cpu)
  export OMP_NUM_THREADS=1 OMP_PROC_BIND=false
  for n in 100 1000 10000; do
    for p in 1 2 4 8 16; do
      [ "$p" -le "$cores" ] || continue
      run "strong_n${n}_p${p}" "$p" --backend host --set network.cells=$n
    done
  done
  for p in 16; do run "strong_n100000_p${p}" "$p" --backend host --set network.cells=100000; done
  for per in 1000 10000; do
    for p in 1 2 4 8 16; do
      run "weak_${per}_p${p}" "$p" --backend host --set network.cells=$((per * p))
    done
  done
  run "nooverlap_n10000_p16" 16 --backend host --set network.cells=10000 --no-overlap
  run "dryrun_1000x64" 1 --backend host --set network.cells=1000 --dry-run-ranks 64
  run "dryrun_1000x1024" 1 --backend host --set network.cells=1000 --dry-run-ranks 1024
  ;;
gpu)
  gpus=$(nvidia-smi -L | wc -l)
  export OMP_NUM_THREADS=4 OMP_PROC_BIND=false  # unbound: ranks must not share cores
  for n in 1000 10000 100000; do
    for g in 1 2 4; do
      [ "$g" -le "$gpus" ] || continue
      run "gpu_strong_n${n}_g${g}" "$g" --kokkos-num-devices="$g" --set network.cells=$n
    done
  done
  for per in 10000 25000; do
    for g in 1 2 4; do
      [ "$g" -le "$gpus" ] || continue
      run "gpu_weak_${per}_g${g}" "$g" --kokkos-num-devices="$g" --set network.cells=$((per * g))
    done
  done
  [ "$gpus" -ge 2 ] && run "gpu_nooverlap_n100000_g2" 2 --kokkos-num-devices=2 \
    --set network.cells=100000 --no-overlap
  [ "$gpus" -ge 4 ] && run "gpu_nooverlap_n100000_g4" 4 --kokkos-num-devices=4 \
    --set network.cells=100000 --no-overlap
  ;;
esac
tar -czf "$out/sim_$kind.tgz" -C "$out" "sim_$kind" && rm -rf "$dir"
echo "sim-scaling $kind done in $(($(date +%s) - start)) s"
