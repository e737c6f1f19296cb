# On-chip schedule, batches of 8 nodes, int offsets: CUDA Hines tests, perf, ncu.
D=$OUT; R=/tmp/i4; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
F=""; for i in 0 3 6 9 12 15 18 21; do F="$F:HinesBatchSolve/$i.*"; done
timeout 150 $B/hinesbatch_unit_tests --gtest_filter="${F#:}" > $R/unit_hines_cuda.log 2>&1; echo "unit rc=$?"; grep -E "PASSED|FAILED|tests from.*ran" $R/unit_hines_cuda.log | head
timeout 240 $B/hinesbatch_perf_tests --benchmark_filter='^Mono/(FullInterleaved|OnChipFullInterleaved|OnChipBlockInterleaved)/(small-low|small-high)/(25600|256000)/|^MonoKept/OnChipFullInterleaved/small-low/|^Mono32/(FullInterleaved|OnChipFullInterleaved)/(small-low|small-high|medium-high)/' --benchmark_min_time=0.2 --benchmark_out=$R/perf.json --benchmark_out_format=json > $R/perf.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /^nodes_per_s=/) n=$i; print $1, n}'
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 100 $ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread,launch__occupancy_limit_shared_mem,dram__throughput.avg.pct_of_peak_sustained_elapsed --kernel-name-base demangled -k regex:SolvePerSystemOnChip -c 1 --section WarpStateStats $B/hinesbatch_perf_tests --benchmark_filter='^Mono/(FullInterleaved|OnChipFullInterleaved|OnChipBlockInterleaved)/(small-low|small-high)/(25600|256000)/|^MonoKept/OnChipFullInterleaved/small-low/|^Mono32/(FullInterleaved|OnChipFullInterleaved)/(small-low|small-high|medium-high)/' --benchmark_min_time=0 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "dram__|warps_active|duration|registers|limit_shared|Warp Cycles Per Issued" $R/ncu.txt | head -20
tar czf $D/i4.tgz -C $R .
