#!/usr/bin/env bash
# Runs on the GPU machine over a packed .devcarry/: DRAM bytes per node (row) of the solve
# kernels, measured with Nsight Compute, for the one-thread-per-system kernels (P1/P2) and
# the team schedule, so that the byte models of docs/PERFORMANCE.md are checked, not assumed.
# Writes $OUT/ncu_bytes.csv (raw ncu CSV) and prints one line per kernel:
#   benchmark, kernel, dram bytes read + written, bytes per node.
#   scripts/gpu/ncu-bytes.sh [benchmark regex ...]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=.devcarry
out=${OUT:-/tmp/hinesbatch-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=(
  'Mono/FullInterleaved/medium-high/256000/' 'Mono/TeamFlat/medium-high/256000/'
  'Mono/TeamFullInterleaved/medium-high/256000/' 'ThomasBatch/FullInterleaved/f64/256/256000/'
  'ThomasBatch/TeamFlat/f64/256/256000/' 'ThomasBatch/TeamFullInterleaved/f64/256/256000/')
csv=$out/ncu_bytes.csv
: >"$csv"
for b in "${benches[@]}"; do
  # One iteration; only the solve kernels (their functor names), not the restore copies.
  "$ncu" --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
    --kernel-name regex:'Solve|Thomas' --launch-count 1 \
    $c/bin/hinesbatch_perf_tests --benchmark_filter="$b" --benchmark_min_time=0 \
    >"$out/ncu_one.csv" 2>"$out/ncu_one.err"
  echo "# $b" >>"$csv"
  grep -E '^"' "$out/ncu_one.csv" >>"$csv"
  python3 - "$b" "$out/ncu_one.csv" <<'PY'
import csv, re, sys
bench, path = sys.argv[1], sys.argv[2]
rows = [r for r in csv.reader(open(path)) if r and r[0].isdigit()]
m = re.search(r'/(\d+)/(\d+)/?$', bench)
by = {}
for r in rows:
    by.setdefault(r[4][:60], {})[r[-3]] = float(r[-1].replace(',', ''))
for k, v in by.items():
    rd = v.get('dram__bytes_read.sum', 0); wr = v.get('dram__bytes_write.sum', 0)
    print(f"{bench}  {k}  read+write {rd + wr:.4g} B  ({v})")
PY
done
rm -f "$out/ncu_one.csv" "$out/ncu_one.err"
