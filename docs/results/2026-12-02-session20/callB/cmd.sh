#!/usr/bin/env bash
# Call B: tridiagonal systems of 257-384 rows on Flat (and Block-Interleaved) storage, one
# warp of 10 or 12 rows per lane (new) against two warps of 6 rows per lane (before).
# .devcarry/mapB.txz: base/hinesbatch_solver_map (main's tree) and new/ (the tree with the
# one-warp shapes (10, 32) and (12, 32)). Both binaries in turn, twice, over the Thomas
# device points of m = 200-1024 at 2^24-2^28 rows, Flat storage, Auto and the
# warp schedule. Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/mapB && mkdir -p $c/mapB && tar xJf $c/mapB.txz -C $c/mapB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
ROWS=200,255,256,257,280,300,320,321,350,384,385,450,500,512,513,700,1000,1024
for k in 1 2; do
  for v in base new; do
    timeout 200 $c/mapB/$v/hinesbatch_solver_map --map-families=thomas --map-backends=device \
      --map-totals=24,26,28 --map-rows=$ROWS \
      --benchmark_filter='Thomas/Device/Flat/(Auto|WarpPerSystem)/' \
      --benchmark_out=$L/map_${v}_$k.json --benchmark_out_format=json > $L/map_${v}_$k.txt 2>&1
    stamp "$v round $k rc=$? $(grep -c '^Thomas' $L/map_${v}_$k.txt) points"
  done
done
python3 - $L <<'PY' | tee -a $S
import json, sys, collections
L = sys.argv[1]
rate = collections.defaultdict(list)
for v in ("base", "new"):
    for k in (1, 2):
        try:
            for b in json.load(open(f"{L}/map_{v}_{k}.json"))["benchmarks"]:
                if "floor_frac" in b:
                    rate[(b["name"], v)].append(b["floor_frac"])
        except Exception as e:
            print("unreadable", v, k, e)
names = sorted({n for n, _ in rate}, key=lambda n: (n.split("/")[2], n.split("/")[3], int(n.split("m:")[1].split("/")[0]), n))
print("name base new new/base (floor fractions, best of two)")
for n in names:
    a, b = max(rate.get((n, "base"), [0])), max(rate.get((n, "new"), [0]))
    print(f"{n} {a:.3f} {b:.3f} {b / a if a else 0:.2f}")
PY
xz -9 $L/*.json $L/*.txt 2>/dev/null
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
