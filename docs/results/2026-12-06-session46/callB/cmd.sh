#!/usr/bin/env bash
# Session 46's call B: main with ThomasVBatch's one-thread-per-system solve stepping through
# the padded rows together in Full-Interleaved storage not computing the padding
# (thomas_solve_system_in_step), binS47.
# 1. The Full-Interleaved ThomasVBatch map not computing the padding (ncp): every schedule and
#    Auto (the table still from session 35), m_max 4-100,000, both spreads, 2^20-2^28 rows.
# 2. Nsight Compute on the in-step solve named (PerSystem) and Auto at m_max = 300, 2^26,
#    `half` (call A's Auto ran the warp schedule there: 4.19 ms, 24% of DRAM peak).
# 3. The whole CUDA unit suite (six shards side by side).
# 4. compute-sanitizer memcheck on the CUDA ThomasVBatch tests (padded and their failures).
# Carry: .devcarry/binS47.txz, binS47.txt, lib, shared.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
for b in binS47; do rm -rf $c/$b; mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/u; M=$OUT/map; N=$OUT/ncu; mkdir -p $U $M $N
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binS47.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MAP=$c/binS47/hinesbatch_solver_map
timeout 170 $MAP --map-families=thomasv --map-backends=device \
  --benchmark_filter='^ThomasV/Device/FullInterleaved/[A-Za-z]+/ncp-' \
  --benchmark_out=$M/map_device_fi_ncp.json --benchmark_out_format=json > $M/map_device_fi_ncp.txt 2>&1
stamp "thomasv FI ncp map rc=$? $(grep -c '^ThomasV' $M/map_device_fi_ncp.txt) points, $(grep -c ERROR $M/map_device_fi_ncp.txt) error lines"
xz -9 $M/*; (cd $OUT && tar cf map.tar map && rm -rf map)
NCU=$(command -v ncu || ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1)
k=0
for p in PerSystem Auto; do
  k=$((k + 1))
  timeout 40 $NCU --csv --print-units base --kernel-name-base demangled \
    --kernel-name "regex:Thomas(PerSystem|Team|TwoPass|Warp|Packed)" --launch-count 1 --log-file $N/ncu_$p.csv \
    --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__thread_inst_executed_per_inst_executed.ratio,launch__registers_per_thread,launch__grid_size,launch__block_size,lts__t_sector_hit_rate.pct \
    $MAP --map-families=thomasv --map-backends=device --map-totals=26 --map-vrows=300 --map-vspreads=half --map-reps=1 \
    --benchmark_filter="^ThomasV/Device/FullInterleaved/$p/ncp-half/m:300/total:26/" > $N/run_$p.txt 2>&1
  stamp "ncu $p rc=$? $(grep -c '"' $N/ncu_$p.csv) csv lines"
done
xz -9 $N/*; (cd $OUT && tar cf ncu.tar ncu && rm -rf ncu)
B=$c/binS47/hinesbatch_unit_tests
for i in 0 1 2 3 4 5; do OMP_NUM_THREADS=2 GTEST_TOTAL_SHARDS=6 GTEST_SHARD_INDEX=$i timeout 300 $B > $U/unit_$i.log 2>&1 & done; wait
stamp "suite: ok $(cat $U/unit_*.log | grep -c '^\[       OK') failed $(cat $U/unit_*.log | grep -c '^\[  FAILED  \] [A-Z]') of $($B --gtest_list_tests | grep -c '^  ')"
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head | tee -a $S
$B --gtest_list_tests > $U/list.txt 2>&1
vb=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s}' $U/list.txt | grep -E "^(ThomasBatchTest|ThomasBatchFailures)/" | sort -u | sed 's/$/VBatch*/' | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $B --gtest_brief=1 \
  --gtest_filter="$vb" > $U/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $U/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $U/memcheck.txt | tr '\n' ' ')"
(cd $OUT && tar cJf u.tar.xz u && rm -rf u)
stamp done
