#!/bin/bash
# A-B-B-A per point: f0 (no prefetch) and f4 (4 rows ahead), the same source otherwise,
# each point run by one binary, then the other, twice, so that drift in the machine's load
# falls on both. Host (OpenMP, 2 threads), Auto, five timed solves a point.
export HINESBATCH_SHARED_DIR=/work/shared OMP_NUM_THREADS=2 OMP_PROC_BIND=spread OMP_PLACES=threads
points=(
 'Hines/Device/FullInterleaved/Auto/class-small-low/n:76/total:24'
 'Hines/Device/FullInterleaved/Auto/random/n:200/total:24'
 'Hines/Device/FullInterleaved/Auto/class-medium-low/n:305/total:24'
 'Hines/Device/FullInterleaved/Auto/real-CT12T2/n:468/total:24'
 'Hines/Device/FullInterleaved/Auto/class-big-low/n:695/total:24'
 'Hines/Device/FullInterleaved/Auto/real-HSN-fluoro02/n:998/total:24'
 'Hines/Device/FullInterleaved/Auto/random/n:1000/total:24'
 'Hines/Device/FullInterleaved/Auto/real-v_e_purk2/n:1521/total:24'
 'Hines/Device/FullInterleaved/Auto/real-AKO60sdax2lay/n:2281/total:24'
 'Hines/Device/FullInterleaved/Auto/real-10-2012-02-09-001/n:3187/total:24'
 'Hines/Device/FullInterleaved/Auto/random/n:10000/total:24'
 'Hines/Device/FullInterleaved/Auto/random/n:30000/total:24'
 'Hines/Device/FullInterleaved/Auto/real-10-2012-02-09-001/n:3187/total:20'
 'Hines/Device/FullInterleaved/Auto/class-big-low/n:695/total:20'
 'Thomas/Device/FullInterleaved/Auto/m:5/total:20'
 'Thomas/Device/FullInterleaved/Auto/m:32/total:24'
 'Thomas/Device/FullInterleaved/Auto/m:100/total:24'
 'Thomas/Device/FullInterleaved/Auto/m:300/total:24'
 'Thomas/Device/FullInterleaved/Auto/m:700/total:20'
 'Thomas/Device/FullInterleaved/Auto/m:1000/total:24'
 'Thomas/Device/FullInterleaved/Auto/m:3000/total:24'
 'Thomas/Device/FullInterleaved/Auto/m:10000/total:24'
 'Thomas/Device/FullInterleaved/Auto/m:100000/total:24'
 'Hines/Device/Flat/Auto/real-10-2012-02-09-001/n:3187/total:24'
 'Hines/Device/Flat/Auto/random/n:200/total:24'
 'Thomas/Device/Flat/Auto/m:1000/total:24'
)
for p in "${points[@]}"; do
  f=$(echo "$p" | sed 's/[^A-Za-z0-9]/_/g')
  i=0
  for v in f0 f4 f4 f0; do
    i=$((i + 1))
    ../$v --map-families=thomas,hines --map-backends=device --map-totals=20,24 --map-trees=all \
      --map-rows=5,32,100,300,700,1000,3000,10000,100000 --map-reps=5 \
      --benchmark_filter="^$p/" --benchmark_format=json > ${f}_${v}_$i.json 2>/dev/null
  done
done
