# ThomasSchedule::PerSystemOnChip: Thomas fp64/fp32 at N = 25,600 / 256,000 against P2's kernel, the warp schedules and the on-chip one; ncu DRAM bytes of the on-chip kernel.
D=$OUT; R=/tmp/j1; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 380 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/(FullInterleaved|BlockInterleaved|WarpFullInterleaved|OnChipFullInterleaved|OnChipBlockInterleaved|WarpFlat)/f(64|32)/(64|128|256)/(25600|256000)/|^ThomasOnChipSizes/' --benchmark_min_time=0.1 --benchmark_out=$R/perf_thomas.json --benchmark_out_format=json > $R/perf_thomas.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_thomas.txt | awk '{for(i=1;i<=NF;i++) {if($i ~ /^items_per_second=/) n=$i; if($i ~ /^frac_copy_bw=/) f=$i}; print $1, n, f}'
grep -i "copy\|error" $R/perf_thomas.txt | head -5
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 90 $ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --kernel-name-base demangled -k "regex:ThomasPerSystemOnChip" -c 2 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/OnChipFullInterleaved/f64/64/256000/|^ThomasOnChipSizes/OnChipFullInterleaved/f64/80/256000/' --benchmark_min_time=0 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "ThomasPerSystemOnChip|dram__|duration|warps_active|registers" $R/ncu.txt | cut -c1-160 | head -30
tar czf $D/j1.tgz -C $R .
