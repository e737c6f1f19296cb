#!/usr/bin/env bash
# Runs on the GPU machine's host CPU: hinesbatch-sim --backend host with the tiles schedule
# (tiles of W cells stepped together, vectorised: issue #11) against the cells schedule
# (one cell per work item), built for AVX2 (x86-64-v3) and, where the host has AVX-512F,
# AVX-512 (x86-64-v4), on P3's synaptically driven network and the ring, on 1 core and
# on every core. Build here first (OpenMP only, no MPI: one process; hinesbatch-sim alone
# gets the flags, through its own copy of run.cpp):
#   for v in 3 4; do
#     cmake --preset openmp -B build/openmp-v$v -DHINESBATCH_ENABLE_MPI=OFF \
#       -DHINESBATCH_BENCH_ARCH_FLAGS=-march=x86-64-v$v
#     cmake --build build/openmp-v$v -j2 --target hinesbatch-sim
#   done
# and carry the two programs as .devcarry-cpu/sim/hinesbatch-sim_v{3,4} (with libgomp and
# libstdc++ in .devcarry-cpu/lib if the machine lacks them). Results: $OUT/sim_lanes/*.json
# (metrics of every run), summary.txt (compartment-steps/s per core, lanes/cells, raster
# check), lscpu.txt, avx512.txt.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=${CARRY:-.devcarry-cpu}
R=${OUT:-/tmp/hinesbatch-out}/sim_lanes
mkdir -p "$R"
grep -o -m1 -w avx512f /proc/cpuinfo >"$R/avx512.txt"
lscpu >"$R/lscpu.txt"
export OMP_PROC_BIND=spread OMP_PLACES=threads LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
cores=$(nproc)
summary=$R/summary.txt
printf '%-4s %-12s %-7s %-6s %8s %14s %16s %s\n' isa network cells threads wall_s \
  comp_steps_s per_core_steps_s schedule >"$summary"
run() {  # isa network threads schedule name [args...]
  local v=$1 net=$2 t=$3 sched=$4 name=$5
  shift 5
  OMP_NUM_THREADS=$t timeout 300 "$c/sim/hinesbatch-sim_v$v" "examples/sim/$net.json" \
    --backend host --host-schedule "$sched" --quiet --metrics "$R/$name.json" \
    --spikes "$R/$name.spikes" --traces "$R/$name.csv" "$@" >"$R/$name.log" 2>&1
  local rc=$?
  local wall rate cells
  wall=$(grep -o '"wall_s": [0-9.e+-]*' "$R/$name.json" 2>/dev/null | awk '{print $2}')
  rate=$(grep -o '"compartment_steps_per_s": [0-9.e+-]*' "$R/$name.json" 2>/dev/null |
    awk '{print $2}')
  cells=$(grep -o '"cells": [0-9]*' "$R/$name.json" 2>/dev/null | awk '{print $2}')
  printf '%-4s %-12s %-7s %-6s %8s %14s %16s %s rc=%s\n' "v$v" "$net" "${cells:-?}" "$t" \
    "${wall:-?}" "${rate:-?}" "$(awk -v r="${rate:-0}" -v t="$t" 'BEGIN{printf "%.4g", r/t}')" \
    "$sched" "$rc" | tee -a "$summary"
}
for v in 3 4; do
  [ $v = 4 ] && [ ! -s "$R/avx512.txt" ] && { echo "no AVX-512F: x86-64-v4 not run" | tee -a "$summary"; continue; }
  [ -x "$c/sim/hinesbatch-sim_v$v" ] || { echo "missing $c/sim/hinesbatch-sim_v$v" | tee -a "$summary"; continue; }
  for net in p3_synaptic ring; do
    for sched in cells tiles; do
      run $v $net 1 $sched "v${v}_${net}_${sched}_t1"
      run $v $net "$cores" $sched "v${v}_${net}_${sched}_t$cores"
    done
    # Same raster from both schedules and thread counts.
    for t in 1 "$cores"; do
      if cmp -s "$R/v${v}_${net}_cells_t$t.spikes" "$R/v${v}_${net}_tiles_t$t.spikes"; then
        echo "v$v $net t$t: rasters identical (cells, tiles)" | tee -a "$summary"
      else
        echo "v$v $net t$t: RASTERS DIFFER (cells, tiles)" | tee -a "$summary"
      fi
      if [ -s "$R/v${v}_${net}_cells_t$t.csv" ]; then
        cmp -s "$R/v${v}_${net}_cells_t$t.csv" "$R/v${v}_${net}_tiles_t$t.csv" &&
          echo "v$v $net t$t: traces identical (%.9g)" | tee -a "$summary" ||
          echo "v$v $net t$t: traces differ (FMA contraction? compare the CSVs)" | tee -a "$summary"
      fi
    done
  done
  # Every core busy with many tiles: 16 x the P3 network's cells, 50 ms.
  for sched in cells tiles; do
    run $v p3_synaptic "$cores" $sched "v${v}_p3x16_${sched}_t$cores" \
      --set network.cells=16000 --set tstop=50
  done
done
