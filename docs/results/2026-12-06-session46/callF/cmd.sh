#!/usr/bin/env bash
# Session 46's call F: main with the on-chip one-thread-per-system sweep stepping through the
# padded rows together too (Full-Interleaved ThomasVBatch not computing the padding), binS49.
# The gate first (the session's device time was nearly spent):
# 1. compute-sanitizer memcheck on the CUDA ThomasVBatch tests.
# 2. The whole CUDA unit suite (eight shards side by side).
# 3. That storage's map at m_max 4-129 (where the on-chip schedule runs): PerSystemOnChip,
#    PerSystem, WarpPerSystem and Auto, after (binS49) and before (binS48map: e45a042).
# 4. racecheck on the CUDA ThomasVBatch tests, if time is left.
# Carry: .devcarry/binS49.txz, binS49.txt, binS48map.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS49 binS48map; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; mkdir -p $U $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS49.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run_map() {  # name binary
  timeout 30 $c/$2/hinesbatch_solver_map --map-families=thomasv --map-backends=device --map-vrows=4,16,31,64,100,129 \
    --benchmark_filter='^ThomasV/Device/FullInterleaved/(Auto|PerSystem|PerSystemOnChip|WarpPerSystem)/ncp-' \
    --benchmark_out=$M/map_$1.json --benchmark_out_format=json > $M/map_$1.txt 2>&1
  stamp "map $1 rc=$? $(grep -c '^ThomasV' $M/map_$1.txt) points, $(grep -c ERROR $M/map_$1.txt) error lines"
}
B=$c/binS49/hinesbatch_unit_tests
$B --gtest_list_tests > $U/list.txt 2>&1
vb=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s}' $U/list.txt | grep -E "^(ThomasBatchTest|ThomasBatchFailures)/" | sort -u | sed 's/$/VBatch*/' | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $B --gtest_brief=1 \
  --gtest_filter="$vb" > $U/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $U/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $U/memcheck.txt | tr '\n' ' ')"
for i in 0 1 2 3 4 5 6 7; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=8 GTEST_SHARD_INDEX=$i timeout 280 $B > $U/unit_$i.log 2>&1 & done; wait
stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $(grep -c '^  ' $U/list.txt)"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
(cd $OUT && tar cJf u.tar.xz u)
run_map after binS49
run_map before binS48map
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
OMP_NUM_THREADS=8 timeout 40 compute-sanitizer --tool racecheck --error-exitcode 9 $B --gtest_brief=1 \
  --gtest_filter="$vb" > $U/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY' $U/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $U/racecheck.txt | tr '\n' ' ')"
(cd $OUT && rm -f u.tar.xz && tar cJf u.tar.xz u && rm -rf u)
stamp done
