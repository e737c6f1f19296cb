#!/usr/bin/env bash
# The next GPU call (not run in session 46: its device time was spent). binS50 is the branch
# on-chip-in-step at 0b559fe: main's head (c884c30) with the on-chip one-thread sweep stepping
# through the padded rows together in Full-Interleaved ThomasVBatch not computing the padding,
# a lane past its own rows loading nothing (session 46's call F measured the version that
# loaded its last row again at 0.92x and it was reverted on main). binS48map: main's
# ThomasVBatch code (e45a042).
# 1. That storage's map at m_max 4-129 (where the on-chip schedule runs): PerSystemOnChip,
#    PerSystem, WarpPerSystem and Auto, A-B-B-A (binS48map, binS50, binS50, binS48map).
# 2. compute-sanitizer memcheck and racecheck on the CUDA ThomasVBatch tests (the on-chip
#    sweep keeps its rows in team scratch).
# 3. The whole CUDA unit suite (six shards side by side; call F's eight cut one shard).
# Carry: .devcarry/binS50.txz, binS50.txt, binS48map.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS50 binS48map; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; mkdir -p $U $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS50.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run_map() {  # name binary
  timeout 40 $c/$2/hinesbatch_solver_map --map-families=thomasv --map-backends=device --map-vrows=4,16,31,64,100,129 \
    --benchmark_filter='^ThomasV/Device/FullInterleaved/(Auto|PerSystem|PerSystemOnChip|WarpPerSystem)/ncp-' \
    --benchmark_out=$M/map_$1.json --benchmark_out_format=json > $M/map_$1.txt 2>&1
  stamp "map $1 rc=$? $(grep -c '^ThomasV' $M/map_$1.txt) points, $(grep -c ERROR $M/map_$1.txt) error lines"
}
run_map before_a binS48map
run_map after_a binS50
run_map after_b binS50
run_map before_b binS48map
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
B=$c/binS50/hinesbatch_unit_tests
$B --gtest_list_tests > $U/list.txt 2>&1
vb=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s}' $U/list.txt | grep -E "^(ThomasBatchTest|ThomasBatchFailures)/" | sort -u | sed 's/$/VBatch*/' | tr '\n' ':')
for tool in memcheck racecheck; do
  OMP_NUM_THREADS=8 timeout 90 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $B --gtest_brief=1 \
    --gtest_filter="$vb" > $U/$tool.txt 2>&1
  stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $U/$tool.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $U/$tool.txt | tr '\n' ' ')"
done
for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 330 $B > $U/unit_$i.log 2>&1 & done; wait
stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $(grep -c '^  ' $U/list.txt)"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
stamp done
