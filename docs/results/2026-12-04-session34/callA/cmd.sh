#!/usr/bin/env bash
# Call A: the Full-Interleaved tridiagonal device map of the landed build (every schedule,
# the two-pass block with the bank spread of session 32's calls E-F), for Auto's
# Full-Interleaved tridiagonal table; and what bounds the grouped multi-morphology solve:
# Multi/RealMixed and Multi/RealCable at 25,600 cells and RealMixed at 256,000, Grouped, with
# each group alone and the largest tree's group under every schedule (the alone_ms_* and
# big_ms_* counters of bench_multi_morphology.cpp).
# .devcarry/binA.txz: hinesbatch_solver_map, hinesbatch_perf_tests, hinesbatch_unit_tests.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binA && mkdir -p $c/binA && tar xJf $c/binA.txz -C $c/binA
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; P=$OUT/perf; mkdir -p $M $P
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binA/hinesbatch_solver_map
timeout 200 $MAP --map-families=thomas --map-backends=device \
  --benchmark_filter='^Thomas/Device/FullInterleaved/' \
  --benchmark_out=$M/map_device.json --benchmark_out_format=json > $M/map_device.txt 2>&1
stamp "thomas FI device map rc=$? $(grep -c '^Thomas' $M/map_device.txt) points, $(grep -c ERROR $M/map_device.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
B=$c/binA/hinesbatch_perf_tests
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $B --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
bench grouped 200 '^Multi/(RealMixed|RealCable)/25600/(Grouped|LevelLaunches)/|^Multi/RealMixed/256000/Grouped/'
grep -h manual_time $P/*.txt | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
stamp done
