# Final binaries: mono Hines, six classes, fp64 and fp32, PerSystem (P1) vs PerSystemOnChip vs Auto-relevant schedules; ncu DRAM bytes of both kernels.
D=$OUT; R=/tmp/i7; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
timeout 330 $B/hinesbatch_perf_tests --benchmark_filter='^Mono/(FullInterleaved|BlockInterleaved|OnChipFullInterleaved|OnChipBlockInterleaved|WarpFlat)/[a-z-]+/(25600|256000)/|^Mono32/(FullInterleaved|OnChipFullInterleaved|WarpFlat)/' --benchmark_min_time=0.2 --benchmark_out=$R/perf_mono.json --benchmark_out_format=json > $R/perf_mono.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_mono.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /^nodes_per_s=/) n=$i; print $1, n}'
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for k in SolvePerSystemOnChip SolvePerSystem\<; do
timeout 60 $ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --kernel-name-base demangled -k "regex:$k" -c 1 $B/hinesbatch_perf_tests --benchmark_filter='^Mono/(OnChipFullInterleaved|FullInterleaved)/(small-low|medium-high)/256000/' --benchmark_min_time=0 >> $R/ncu.txt 2>&1; echo "ncu $k rc=$?"
done
grep -E "SolvePerSystem|dram__|duration|warps_active|registers" $R/ncu.txt | cut -c1-160 | head -30
tar czf $D/i7.tgz -C $R .
