#!/usr/bin/env bash
# A/B: transparent huge pages for the host's Full-Interleaved tile solves (glibc's malloc
# madvises its mmap'd chunks with glibc.malloc.hugetlb=1), in the order none, huge, huge, none.
B=${B:-/work/main/build/openmp/perf_tests/hinesbatch_solver_map}
F=${F:-'^(Hines/Device/FullInterleaved/SimdTiles/(real-10-2012|real-951118a|real-l22|real-AKO|real-v_e_purk2|real-HSN|real-CT12T2|class-small-low|random)|Thomas/Device/FullInterleaved/SimdTiles/m:(300|1000|3000|10000|100000)/)'}
out=${1:-/tmp/thp/out}; mkdir -p $out
export OMP_PROC_BIND=false
for run in none1 huge1 huge2 none2; do
  case $run in huge*) env="GLIBC_TUNABLES=glibc.malloc.hugetlb=1";; *) env="";; esac
  env $env $B --map-families=hines,thomas --map-backends=device --map-totals=24 --map-trees=all \
    --map-rows=300,1000,3000,10000,100000 --benchmark_filter="$F" \
    --benchmark_out=$out/$run.json --benchmark_out_format=json > $out/$run.txt 2>&1 &
  pid=$!; max=0
  while kill -0 $pid 2>/dev/null; do
    v=$(awk '/AnonHugePages/ {print $2}' /proc/meminfo); [ "$v" -gt "$max" ] && max=$v; sleep 1
  done
  echo "AnonHugePages max $max kB" > $out/$run.thp
done
