#!/usr/bin/env bash
# The solver performance map on the GPU machine, over a packed .devcarry/ (pack.sh, then
# build-peers.sh): hinesbatch_solver_map on the device and on the host, cuSPARSE and
# cuThomasBatch on the same (m, N) points, cuHinesBatch on the same trees. Raw files go to
# $OUT; draw the map here afterwards with scripts/solver_map.py $OUT.
#   scripts/gpu/solver-map.sh [device] [host] [peers]      (default: all three)
# MAP_TOTALS (20,22,24,26,28), MAP_HOST_TOTALS (20,22,24), MAP_PEER_TOTALS (22,24,26): log2
# of a batch's rows/nodes;
# MAP_ARGS: more options for hinesbatch_solver_map (e.g. --map-rows=..., --benchmark_filter=...).
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=.devcarry
out=${OUT:-/tmp/hinesbatch-map}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$PWD/$c/shared
export OMP_PROC_BIND=spread OMP_PLACES=threads
totals=${MAP_TOTALS:-20,22,24,26,28}
host_totals=${MAP_HOST_TOTALS:-20,22,24}
# The peers generate their inputs on the host (seconds per 2^26 rows): fewer totals.
peer_totals=${MAP_PEER_TOTALS:-22,24,26}
steps=("$@")
[ ${#steps[@]} -eq 0 ] && steps=(device host peers)
map=$c/bin/hinesbatch_solver_map
rc=0
for step in "${steps[@]}"; do
  start=$SECONDS
  case $step in
  device | host)
    # shellcheck disable=SC2086
    $map --map-backends="$step" --map-totals="$totals" --map-host-totals="$host_totals" \
      ${MAP_ARGS:-} --benchmark_out="$out/map_$step.json" --benchmark_out_format=json \
      >"$out/map_$step.txt" 2>&1 || rc=1
    ;;
  peers)
    $map --map-export="$out/map_trees.bin" >"$out/map_trees.txt" || rc=1
    # The tridiagonal points of the map, (m, 2^t / m), as cuSPARSE allows them (m >= 3).
    pairs=$(python3 - "$peer_totals" <<'EOF'
import sys
rows = [3, 4, 5, 7, 8, 12, 16, 24, 31, 32, 33, 48, 63, 64, 65, 80, 81, 96, 100, 127, 128, 129, 160,
        200, 255, 256, 257, 300, 384, 500, 511, 512, 513, 700, 1000, 1024, 1500, 2000, 3000,
        4096, 5000, 8192, 8193, 10000, 20000, 50000, 100000]
out = []
for t in map(int, sys.argv[1].split(",")):
    for m in rows:
        if m <= 2 ** t:
            out.append(f"{m}:{max(1, 2 ** t // m)}")
print(",".join(out))
EOF
    )
    $c/peers/cusparse_tridiagonal --type f64 --pairs "$pairs" --repeat 5 --max-gb 70 \
      --methods strided,interleaved0,reference \
      --out "$out/peers_map.json" >"$out/peers_map.txt" 2>&1 || rc=1
    $c/peers/hines_peers --classes "$out/map_trees.bin" --totals "$peer_totals" --type f64 \
      --repeat 5 --out "$out/hines_peers_map.json" >"$out/hines_peers_map.txt" 2>&1 || rc=1
    ;;
  *)
    echo "solver-map.sh: unknown step '$step' (device, host, peers)" >&2
    exit 2
    ;;
  esac
  echo "solver-map.sh: $step done in $((SECONDS - start)) s (rc so far $rc)"
done
exit $rc
