#!/usr/bin/env bash
# Real cells of any size through hinesbatch-sim on one GPU (or the host backend), over a
# packed .devcarry/ (scripts/gpu/pack.sh): throughput, the launch shapes the on-chip
# schedule chose, and the rasters, into $OUT/real/ (one metrics JSON and log per run,
# spikes.md5, cmp.txt where two runs must agree, and map.tsv: one row per run).
#   scripts/gpu/sim-real-cells.sh [targets] [map] [shapes] [regress] [host] [host-scaling]
#   targets  examples/sim/real_mixed.json (the 12 shared files round-robin, hh everywhere,
#            d_lambda 0.1) at 20,000 and 2,000 cells; examples/sim/real_large.json (the
#            largest file at 10 um, hh soma, pas) at 2,000 and 200 cells; 50 ms each
#   map      each shared file alone, d_lambda 0.1 (hh everywhere) and 10 um (hh soma, pas),
#            at 200, 2,000 and 20,000 cells, 10 ms: compartment-steps/s against cells and
#            compartments per cell, with the launch chosen at each point
#   shapes   forced launch shapes (run.on_chip_kind, run.on_chip_lanes) on the targets,
#            against the model's choice: same rasters, and whether the model picked well
#   regress  P3 synaptic 100,000, busyring 10,000 and ringtest 65,536 (100 ms)
#   host     the mixed network of 500 cells, 10 ms, host backend: 1 and all threads
#   host-scaling  the mixed network of 1,000 and 4,000 cells, 5 ms, host backend: 1 and 16
#            threads
# Runs stop being started when fewer than SIM_RESERVE_S (30) of SIM_BUDGET_S (540) seconds
# are left.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
c=$PWD/.devcarry
out=${OUT:-/tmp/hinesbatch-out}/real
spk=/tmp/hinesbatch-real-spikes
mkdir -p "$out" "$spk"
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=${HINESBATCH_SHARED_DIR:-$c/shared}
sim=${SIM:-$c/bin/hinesbatch-sim}
ex=$PWD/examples/sim
budget=${SIM_BUDGET_S:-540}
reserve=${SIM_RESERVE_S:-30}
start=$(date +%s)
left() { echo $((budget - ($(date +%s) - start))); }
[ -f "$out/map.tsv" ] ||
  printf 'name\tcells\tnodes_per_cell\tcompartment_steps_per_s\twall_s\tspikes\tschedule\tteam_lanes\tdetail\n' >"$out/map.tsv"
run() {  # name config [args...]
  local name=$1 cfg=$2
  shift 2
  if [ "$(left)" -lt "$reserve" ]; then
    echo "$name: not run (time budget)" | tee -a "$out/not_run.txt"
    return
  fi
  local limit=$(($(left) - 5))
  timeout -k 5 "$limit" "$sim" "$ex/$cfg" --quiet --set 'output={}' --metrics "$out/$name.json" \
    --spikes "$spk/$name.txt" "$@" >"$out/$name.log" 2>&1
  local rc=$?
  (cd "$spk" && md5sum "$name.txt" >>"$out/spikes.md5" 2>/dev/null)
  python3 - "$out/$name.json" "$name" "$rc" >>"$out/map.tsv" <<'EOF'
import json, sys
path, name, rc = sys.argv[1:4]
try:
    m = json.load(open(path))
except Exception:
    print(f"{name}\t-\t-\t-\t-\t-\tfailed rc={rc}\t-\t-")
    sys.exit()
cells = m.get("cells") or 0
nodes = m.get("compartments") or 0
print("\t".join(str(x) for x in [name, cells, round(nodes / max(cells, 1)),
      "%.3g" % m.get("compartment_steps_per_s", 0), "%.3f" % m.get("wall_s", 0),
      m.get("spikes", ""), m.get("schedule", ""), m.get("team_lanes", m.get("cell_lanes", "")),
      m.get("schedule_detail", "")]))
EOF
  printf '[%4ds] %-34s rc=%s %s\n' $(($(date +%s) - start)) "$name" "$rc" "$(tail -1 "$out/map.tsv" | cut -f4,7,8)"
}
same() {  # a b
  if [ ! -s "$spk/$1.txt" ] || [ ! -s "$spk/$2.txt" ]; then
    echo "$1 ? $2 (not compared: a run did not finish or had no spikes)" | tee -a "$out/cmp.txt"
  elif cmp -s "$spk/$1.txt" "$spk/$2.txt"; then
    echo "$1 = $2" | tee -a "$out/cmp.txt"
  else
    echo "$1 != $2 (DIFFERENT RASTERS)" | tee -a "$out/cmp.txt"
  fi
}
cells() { echo --set network.cells="$1" --set network.kick.cells=$(($1 / 20 > 0 ? $1 / 20 : 1)); }
files=$(cd "$HINESBATCH_SHARED_DIR/morphologies" && ls ./*.swc | sed 's#^\./##')
for step in "${@:-targets}"; do
  case $step in
  targets)
    run mixed_20000 real_mixed.json $(cells 20000) --set tstop=50
    run mixed_2000 real_mixed.json $(cells 2000) --set tstop=50
    run large_2000 real_large.json $(cells 2000) --set tstop=50
    run large_200 real_large.json $(cells 200) --set tstop=50
    ;;
  map)
    for f in $files; do
      for n in 200 2000 20000; do
        run "map_dl_${f%%.*}_$n" real_mixed.json --set "cell.morphology=\"\${HINESBATCH_SHARED_DIR}/morphologies/$f\"" \
          $(cells $n) --set tstop=10
        run "map_10um_${f%%.*}_$n" real_large.json --set "cell.morphology=\"\${HINESBATCH_SHARED_DIR}/morphologies/$f\"" \
          $(cells $n) --set tstop=10
      done
    done
    ;;
  shapes)
    for t in "mixed_20000 real_mixed.json 20000" "mixed_2000 real_mixed.json 2000" \
      "large_2000 real_large.json 2000" "large_200 real_large.json 200"; do
      set -- $t
      for shape in team_per_cell:32 team_per_cell:64 team_per_cell:128 team_per_cell:256 \
        team_per_cell:512 team_in_memory:128 warp_per_cell:32; do
        run "shape_$1_${shape/:/_}" "$2" $(cells "$3") --set tstop=20 \
          --set run.on_chip_kind="\"${shape%%:*}\"" --set run.on_chip_lanes="${shape##*:}"
      done
      run "shape_$1_auto" "$2" $(cells "$3") --set tstop=20
      run "shape_$1_cells" "$2" $(cells "$3") --set tstop=20 --on-chip off
      for shape in team_per_cell_32 team_per_cell_64 team_per_cell_128 team_per_cell_256 \
        team_per_cell_512 team_in_memory_128 warp_per_cell_32 cells; do
        same "shape_$1_auto" "shape_$1_$shape"
      done
    done
    ;;
  regress)
    run p3syn_100000 p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
    run ring_10000 ring.json --set network.cells=10000
    run ringtest_65536 ringtest.json --set network.cells=65536 --set 'record=[]'
    ;;
  host)
    # Threads by OMP_NUM_THREADS: Kokkos 3.4 reads --kokkos-threads, not --kokkos-num-threads.
    OMP_NUM_THREADS=1 run host_mixed_500_t1 real_mixed.json $(cells 500) --set tstop=10 --backend host
    OMP_NUM_THREADS=16 run host_mixed_500_t16 real_mixed.json $(cells 500) --set tstop=10 --backend host
    OMP_NUM_THREADS=16 run host_mixed_2000_t16 real_mixed.json $(cells 2000) --set tstop=10 --backend host
    same host_mixed_500_t1 host_mixed_500_t16
    ;;
  host-scaling)
    # 16 threads against one on the same network, at 1,000 and 4,000 cells (5 ms): with
    # few cells one 16-cell tile of the largest file is a twentieth of the work.
    for n in 1000 4000; do
      for t in 1 16; do
        OMP_NUM_THREADS=$t run "host_mixed_${n}_t$t" real_mixed.json $(cells $n) --set tstop=5 --backend host
      done
      same "host_mixed_${n}_t1" "host_mixed_${n}_t16"
    done
    ;;
  *) echo "unknown step $step" >&2 ;;
  esac
done
