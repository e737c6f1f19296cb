#!/usr/bin/env bash
# Session 47's call B, on binS47b: the branch on-chip-in-step with Auto's Full-Interleaved
# ThomasVBatch ncp table remade from call A (callA/table.py).
# 1. Auto from the new table: Full-Interleaved ThomasVBatch, cp and ncp, m_max 4-129, both
#    spreads, 2^20-2^28, twice; and PerSystemOnChip ncp (in step) beside it.
# 2. Nsight Compute (with the warp stall reasons) where call A caught the wrong kernels or the
#    schedule before: Hines Flat, Auto at 2^26, trees of 941-30,000 nodes (the solve kernels
#    only); ThomasVBatch Full-Interleaved m_max = 16 and 64, 2^26: the on-chip sweep in step
#    (ncp) against it computing the padding (cp).
# 3. compute-sanitizer memcheck and racecheck on the CUDA ThomasBatch VBatch and on-chip tests.
# 4. The whole CUDA unit suite, six shards side by side.
# Carry: .devcarry/binS47b.txz, binS47b.txt, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binS47b; mkdir -p $c/binS47b && tar xJf $c/binS47b.txz -C $c/binS47b
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; N=$OUT/ncu; mkdir -p $U $M $N
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS47b.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
X=$c/binS47b
for run in a b; do
  timeout 40 $X/hinesbatch_solver_map --map-families=thomasv --map-backends=device --map-vrows=4,16,31,64,100,129 \
    --map-vvariants=cp,ncp --benchmark_filter='^ThomasV/Device/FullInterleaved/(Auto/|PerSystemOnChip/ncp)' \
    --benchmark_out=$M/auto_$run.json --benchmark_out_format=json > $M/auto_$run.txt 2>&1
  stamp "auto map $run rc=$? $(grep -c '^ThomasV' $M/auto_$run.txt) points, $(grep -c ERROR $M/auto_$run.txt) error lines"
done
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)

NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
ST=smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_mio_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_lg_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_no_instruction_per_issue_active.ratio
prof() {  # name kernel-regex launch-count command...
  local name=$1 kre=$2 count=$3; shift 3
  timeout 60 $NCU --csv --page details --print-units base --kernel-name-base demangled \
    --kernel-name "regex:$kre" --launch-count $count --log-file $N/ncu_$name.csv \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,$ST \
    "$@" > $N/run_$name.txt 2>&1
  stamp "ncu $name rc=$? $(grep -c '"' $N/ncu_$name.csv) csv lines; $(grep -o '[0-9.]* ms .*floor_frac=[0-9.]*' $N/run_$name.txt | head -1 | cut -c1-60) $(grep -o '[A-Za-z@0-9]*$' $N/run_$name.txt | tail -1)"
}
for t in 'real-951118a/n:1348' 'real-10-2012-02-09-001/n:3187' 'random/n:3000' 'random/n:10000' 'random/n:30000' 'chain/n:10000' 'star/n:1000'; do
  k=$(echo "$t" | tr '/:' '__')
  prof "flat_$k" 'Solve[A-Za-z]+<' 1 $X/hinesbatch_solver_map --map-families=hines --map-backends=device \
    --map-totals=26 --map-trees=all --map-reps=1 --benchmark_filter="^Hines/Device/Flat/Auto/$t/total:26/"
done
for v in 16 64; do
  for p in PerSystemOnChip/ncp-full Auto/ncp-full Auto/cp-full; do
    prof "v${v}_$(echo $p | tr '/' '_')" 'Thomas(PerSystem|Team|TwoPass|Warp|Packed)' 1 $X/hinesbatch_solver_map \
      --map-families=thomasv --map-backends=device --map-totals=26 --map-vrows=$v --map-reps=1 \
      --benchmark_filter="^ThomasV/Device/FullInterleaved/$p/m:$v/total:26/"
  done
done
xz -9 $N/*; (cd $OUT && tar cf ncu.tar ncu && rm -rf ncu)

B=$X/hinesbatch_unit_tests
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
