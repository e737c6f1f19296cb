#!/usr/bin/env bash
# Call B: the split schedule's checks and the grouped rule as it landed. First the new tests
# on the GPU (the split schedule at every lane count, the grouped batch split, the zero-pivot
# names) and compute-sanitizer (memcheck, racecheck) on them; then the whole CUDA unit suite in
# six shards; then, in the time left, the mixed batches' Grouped (the rule: every eligible
# group at the lanes of the batch's count) against GroupedNoSplit at 6,400 and 25,600 cells.
# Binaries: .devcarry/binB42.txz (hinesbatch_unit_tests, hinesbatch_perf_tests).
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB42 && mkdir -p $c/binB42 && tar xJf $c/binB42.txz -C $c/binB42
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; P=$OUT/perf; U=$OUT/u; mkdir -p $P $U
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binB42.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
B=$c/binB42/hinesbatch_unit_tests
F='*Split*:GroupedMultiBatch.*'
OMP_NUM_THREADS=2 timeout 80 $B --gtest_filter="$F" > $U/new_tests.log 2>&1
stamp "new tests rc=$? $(grep -E '^\[  (PASSED|FAILED)  \]' $U/new_tests.log | tr '\n' ' ')"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
for tool in memcheck racecheck; do
  timeout 40 $CS --tool $tool $B --gtest_filter='GroupedMultiBatch.SplitLanes:HinesBatchSolve/15.Split*' > $U/san_$tool.log 2>&1
  stamp "$tool rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/san_$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED)  \]' $U/san_$tool.log | tr '\n' ' ')"
done
left=260; stamp "whole suite, $left s"
for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout $left $B > $U/unit_$i.log 2>&1 & done; wait
for i in 0 1 2 3 4 5; do echo "shard $i: $(grep -E '^\[  (PASSED|FAILED)  \]' $U/unit_$i.log | tr '\n' ' ') ok $(grep -c '^\[       OK' $U/unit_$i.log)"; done | tee -a $S
stamp "all: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') skipped $(cat $U/unit_*.log | grep -c '^\[  SKIPPED \] [A-Z]') of $($B --gtest_list_tests | grep -c '^  ')"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
bench() {  # name timeout filter
  OMP_NUM_THREADS=16 timeout $2 $c/binB42/hinesbatch_perf_tests --benchmark_filter="$3" --benchmark_min_time=0.05 \
    --benchmark_out=$P/$1.json --benchmark_out_format=json > $P/$1.txt 2>&1
  stamp "$1 rc=$? $(grep -c manual_time $P/$1.txt) results, $(grep -c ERROR $P/$1.txt) errors"
}
bench mixed $((530 - SECONDS)) '^Multi/RealMixed/(6400|25600)/(Grouped|GroupedNoSplit)/'
bench cable $((545 - SECONDS)) '^Multi/RealCable/25600/(Grouped|GroupedNoSplit)/'
grep -h -o 'Multi/[^ ]*manual_time.*nodes_per_s=[^ ]*' $P/*.txt | sed -E 's/ .*nodes_per_s=/ /' | tee -a $S
grep -h -o 'largest group: .*' $P/*.txt | tee -a $S
xz -9 $P/*.json $P/*.txt
(cd $OUT && tar cf perf.tar perf && rm -rf perf)
