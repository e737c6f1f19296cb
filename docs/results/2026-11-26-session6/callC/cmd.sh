#!/usr/bin/env bash
# Call C (the same build as call B): tridiagonal systems past the on-chip capacity,
# TeamPerSystemInMemory against PerSystem, PerSystemOnChip, TeamPerSystem and Auto, Flat and
# Full-Interleaved, m = 8,193-100,000 at 2^24-2^26 rows per batch (and 2^28 for where the
# other schedules catch up), then cuSPARSE gtsv2StridedBatch / gtsvInterleavedBatch at the same
# points; m = 1,000-8,192 against the warp and team schedules.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; mkdir -p $OUT/map; nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
sched='(Auto|PerSystem|PerSystemOnChip|TeamPerSystem|TeamPerSystemInMemory|WarpPerSystem)'
MAP_TOTALS=24,25,26,28 MAP_ARGS="--map-families=thomas --map-rows=8193,10007,16385,20000,32769,50000,65537,100000 --benchmark_filter=Thomas/Device/.*/$sched/" \
  OUT=$OUT/map timeout 280 bash scripts/gpu/solver-map.sh device; stamp "map long rc=$?"
mv $OUT/map/map_device.json $OUT/map/map_long.json; mv $OUT/map/map_device.txt $OUT/map/map_long.txt
MAP_TOTALS=24,26 MAP_ARGS="--map-families=thomas --map-rows=1000,2000,3000,5000,8192 --benchmark_filter=Thomas/Device/.*/$sched/" \
  OUT=$OUT/map timeout 120 bash scripts/gpu/solver-map.sh device; stamp "map mid rc=$?"
mv $OUT/map/map_device.json $OUT/map/map_mid.json; mv $OUT/map/map_device.txt $OUT/map/map_mid.txt
pairs=$(python3 -c "print(','.join(f'{m}:{2**t//m}' for t in (24,25,26) for m in (8193,10007,16385,20000,32769,50000,65537,100000)))")
timeout 150 $c/peers/cusparse_tridiagonal --type f64 --methods strided,interleaved0 --repeat 5 --max-gb 70 \
  --out $OUT/map/peers_long.json --pairs "$pairs" > $OUT/map/peers_long.txt 2>&1; stamp "peers rc=$?"
python3 - $OUT/map <<'PY' | tee -a $S
import json, sys, re, collections
d = sys.argv[1]
rows = collections.defaultdict(dict)
for f in ("map_long.json", "map_mid.json"):
    try:
        bs = json.load(open(f"{d}/{f}"))["benchmarks"]
    except Exception as e:
        print("no", f, e); continue
    for b in bs:
        m = re.match(r"Thomas/Device/(\w+)/(\w+)/m:(\d+)/total:(\d+)", b["name"])
        if not m or "error_message" in b: continue
        lay, sch, rows_, tot = m.group(1), m.group(2), int(m.group(3)), int(m.group(4))
        rate = b.get("items_per_second", 0) / 1e9
        rows[(lay, rows_, tot)][sch] = rate
for k in sorted(rows):
    r = rows[k]
    print(k, " ".join(f"{s}={v:.2f}" for s, v in sorted(r.items())))
PY
(cd $OUT && tar cJf map.txz map && rm -rf map)
