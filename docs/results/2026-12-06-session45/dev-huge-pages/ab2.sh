#!/usr/bin/env bash
# A/B: the library's own huge-page advice (map_new) against the build before it (map_old),
# in the order old, new, new, old; the same points as ab.sh, no glibc tunable.
F='^(Hines/Device/FullInterleaved/SimdTiles/(real-10-2012|real-951118a|real-l22|real-AKO|real-v_e_purk2|real-HSN|real-CT12T2|class-small-low|random)|Thomas/Device/FullInterleaved/SimdTiles/m:(300|1000|3000|10000|100000)/|Hines/Device/Flat/SimdTiles/(real-10-2012|real-HSN|random))'
out=${1:-/tmp/thp/out2}; mkdir -p $out
export OMP_PROC_BIND=false
for run in old1 new1 new2 old2; do
  B=/tmp/thp/map_${run%?}
  $B --map-families=hines,thomas --map-backends=device --map-totals=24 --map-trees=all \
    --map-rows=300,1000,3000,10000,100000 --benchmark_filter="$F" \
    --benchmark_out=$out/$run.json --benchmark_out_format=json > $out/$run.txt 2>&1 &
  pid=$!; max=0
  while kill -0 $pid 2>/dev/null; do
    v=$(awk '/AnonHugePages/ {print $2}' /proc/meminfo); [ "$v" -gt "$max" ] && max=$v; sleep 1
  done
  echo "AnonHugePages max $max kB" > $out/$run.thp
done
