#!/usr/bin/env bash
# Session 47's call D. binS47c is main (db4a50a) with the on-chip sweep's rows past its scratch
# also stepped through in step (Full-Interleaved ThomasVBatch not computing the padding, GPUs);
# binS47bmap is the solver_map of binS47b, main's device code before it (ffa7984).
# 1. That storage's map at m_max 64-512 (where the on-chip schedule sweeps rows in memory):
#    PerSystemOnChip, PerSystem, WarpPerSystem and Auto, A-B-B-A (before, after, after, before).
# 2. compute-sanitizer memcheck and racecheck on the CUDA VBatch and on-chip tests.
# 3. The whole CUDA unit suite, six shards side by side.
# Carry: .devcarry/binS47c.txz, binS47c.txt, binS47bmap.txz, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS47c binS47bmap; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; mkdir -p $U $M
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS47c.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run_map() {  # name binary
  timeout 45 $c/$2/hinesbatch_solver_map --map-families=thomasv --map-backends=device --map-vrows=64,100,129,200,256,300,512 \
    --benchmark_filter='^ThomasV/Device/FullInterleaved/(Auto|PerSystem|PerSystemOnChip|WarpPerSystem)/ncp-' \
    --benchmark_out=$M/map_$1.json --benchmark_out_format=json > $M/map_$1.txt 2>&1
  stamp "map $1 rc=$? $(grep -c '^ThomasV' $M/map_$1.txt) points, $(grep -c ERROR $M/map_$1.txt) error lines"
}
run_map before_a binS47bmap
run_map after_a binS47c
run_map after_b binS47c
run_map before_b binS47bmap
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
B=$c/binS47c/hinesbatch_unit_tests
$B --gtest_list_tests > $U/list.txt 2>&1
cu=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s}' $U/list.txt | grep -E "^(ThomasBatchTest|ThomasBatchFailures)/" | sort -u)
flt=$(for s in $cu; do printf '%sVBatch*:%sOnChip*:' $s $s; done)
for tool in memcheck racecheck; do
  OMP_NUM_THREADS=8 timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 $B --gtest_brief=1 \
    --gtest_filter="$flt" > $U/$tool.txt 2>&1
  stamp "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $U/$tool.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $U/$tool.txt | tr '\n' ' ')"
done
for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 290 $B > $U/unit_$i.log 2>&1 & done; wait
stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $(grep -c '^  ' $U/list.txt)"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
for i in 0 1 2 3 4 5; do tail -1 $U/unit_$i.log | cut -c1-120 | tee -a $S; done
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
stamp done
