#!/usr/bin/env bash
# Runs on the GPU machine over a packed .devcarry/: DRAM bytes of the solve kernels, measured
# with Nsight Compute, so that the byte models of docs/PERFORMANCE.md are checked, not
# assumed. For each benchmark regex (one timing each, --benchmark_min_time=0) it profiles the
# first 40 kernel launches (Kokkos' start-up, the fills, then the solves) and prints the
# kernels whose functor is one of ours: name, bytes read, bytes written.
# Raw CSV: $OUT/ncu_<k>.csv.   scripts/gpu/ncu-bytes.sh [benchmark regex ...]
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=.devcarry
out=${OUT:-/tmp/hinesbatch-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
benches=("$@")
[ ${#benches[@]} -gt 0 ] || benches=('^ThomasBatch/(FullInterleaved|TeamFlat)/f64/256/25600/'
  '^Mono/(FullInterleaved|TeamFlat)/medium-high/25600/')
k=0
for b in "${benches[@]}"; do
  k=$((k + 1))
  "$ncu" --csv --print-units base --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    --launch-count 40 $c/bin/hinesbatch_perf_tests --benchmark_filter="$b" \
    --benchmark_min_time=0 >"$out/ncu_$k.csv" 2>"$out/ncu_$k.err"
  echo "# $b"
  python3 - "$out/ncu_$k.csv" <<'PY'
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0].isdigit() and 'hinesbatch::' in r[4]]
kernels = {}
for r in rows:
    kernels.setdefault((int(r[0]), r[4].split('hinesbatch::')[1][:50]), {})[r[12]] = float(r[14].replace(',', ''))
for (i, name), m in sorted(kernels.items()):
    print(f"  {i:3d} {name:50s} read {m.get('dram__bytes_read.sum', 0):.4g} B  written {m.get('dram__bytes_write.sum', 0):.4g} B")
PY
done
