# On-chip per-system schedule: CUDA correctness (Hines suites), perf, ncu bytes.
D=$OUT; R=/tmp/i1; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
timeout 120 $B/hinesbatch_unit_tests --gtest_filter='HinesBatchSolve/1[2-5].*' > $R/unit_hines_cuda.log 2>&1; echo "unit rc=$?"; grep -E "PASSED|FAILED" $R/unit_hines_cuda.log | head
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 300 $B/hinesbatch_perf_tests --benchmark_filter='^Mono/(FullInterleaved|OnChipFullInterleaved|OnChipBlockInterleaved|OnChipFlat|WarpFlat)/[a-z-]+/(25600|256000)/|^MonoKept/OnChipFullInterleaved/(small-low|medium-high|big-low)/' --benchmark_min_time=0.2 --benchmark_out=$R/perf.json --benchmark_out_format=json > $R/perf.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /^nodes_per_s=/) n=$i; print $1, n}' | tail -80
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 120 $ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_shared_mem --kernel-name-base demangled -k regex:SolvePerSystemOnChip -c 3 $B/hinesbatch_perf_tests --benchmark_filter='^Mono/OnChipFullInterleaved/(small-low|medium-high|big-low)/256000/' --benchmark_min_time=0 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "dram__|warps_active|duration|registers|limit_shared|Mono/" $R/ncu.txt | head -40
tar czf $D/i1.tgz -C $R .
