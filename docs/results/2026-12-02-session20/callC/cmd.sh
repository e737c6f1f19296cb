#!/usr/bin/env bash
# Call C: the warp schedule with 10 and 12 rows per lane (one warp for m = 257-384, 2-8 warps
# up to 3,072 rows), the tree of the session's Thomas change (binC.txz: bin/ its unit suite
# and solver map; base/ the solver map of main before it).
#   part1: both solver maps in turn, twice, over Thomas Flat points of m = 2-8,192 at
#          2^22-2^28 rows (Auto, WarpPerSystem); the new tree's whole Thomas device map (every
#          schedule, the default sizes and totals: the Auto table is made from it);
#          compute-sanitizer memcheck on the warp schedule's tests
#   part2: the whole CUDA unit suite
# Run from the repository root with .devcarry carried: cmd.sh part1 | part2
set -u
part=$1
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary_$part.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binC/bin/hinesbatch_unit_tests
if [ $part = part1 ]; then
  ROWS=2,3,4,5,7,8,9,12,16,17,24,31,32,129,192,193,256,257,300,320,321,350,384,385,450,512,513,600,640,641,700,768,769,1000,1024,1025,1280,1281,1500,1536,1537,2000,2048,2049,2560,2561,3000,3072,3073,4096,4097,5000,6144,6145,8192
  for k in 1 2; do
    for v in base bin; do
      timeout 100 $c/binC/$v/hinesbatch_solver_map --map-families=thomas --map-backends=device \
        --map-totals=22,24,26,28 --map-rows=$ROWS \
        --benchmark_filter='Thomas/Device/Flat/(Auto|WarpPerSystem)/' \
        --benchmark_out=$L/map_${v}_$k.json --benchmark_out_format=json > $L/map_${v}_$k.txt 2>&1
      stamp "map $v round $k rc=$? $(grep -c '^Thomas' $L/map_${v}_$k.txt) points"
    done
  done
  python3 - $L <<'PY' | tee $OUT/map_compare.txt | awk 'NR == 1 || $4 < 0.97 || $4 > 1.03' | tee -a $S
import json, sys, collections
L = sys.argv[1]
rate = collections.defaultdict(list)
for v in ("base", "bin"):
    for k in (1, 2):
        try:
            for b in json.load(open(f"{L}/map_{v}_{k}.json"))["benchmarks"]:
                if "floor_frac" in b:
                    rate[(b["name"].split("/iterations")[0], v)].append(b["floor_frac"])
        except Exception as e:
            print("unreadable", v, k, e)
key = lambda n: (n.split("/")[3], int(n.split("m:")[1].split("/")[0]), int(n.split("total:")[1]))
names = sorted({n for n, _ in rate}, key=key)
print("point before after after/before (floor fractions, best of two)")
for n in names:
    a, b = max(rate.get((n, "base"), [0])), max(rate.get((n, "bin"), [0]))
    print(f"{n} {a:.3f} {b:.3f} {b / a if a else 0:.2f}")
PY
  timeout 300 $c/binC/bin/hinesbatch_solver_map --map-families=thomas --map-backends=device \
    --benchmark_out=$L/map_device.json --benchmark_out_format=json > $L/map_device.txt 2>&1
  stamp "thomas device map rc=$? $(grep -c '^Thomas' $L/map_device.txt) points"
  OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $U \
    --gtest_filter="$(cat $c/binC/memcheck_filter.txt)" > $L/memcheck.txt 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
else
  OMP_NUM_THREADS=8 timeout 560 $U --gtest_brief=1 > $L/suite.txt 2>&1
  stamp "unit suite rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite.txt | tr '\n' ' ')"
  grep -h "FAILED" $L/suite.txt | head -20 | tee -a $S
fi
xz -9 $L/*.json $L/*.txt 2>/dev/null
(cd $OUT && tar cJf d_$part.tar.xz d && rm -rf d)
stamp done
