# Final binaries, fp32: P1's Full-Interleaved kernel vs PerSystemOnChip (the classes whose tree fits: 160 nodes in float), and medium-high (does not fit).
D=$OUT; R=/tmp/i8; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
timeout 200 $B/hinesbatch_perf_tests --benchmark_filter='^Mono32/(FullInterleaved|OnChipFullInterleaved)/(small-low|small-high|medium-high)/' --benchmark_min_time=0.2 --benchmark_out=$R/perf_mono32.json --benchmark_out_format=json > $R/perf_mono32.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_mono32.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /^nodes_per_s=/) n=$i; print $1, n}'
grep copy_bandwidth $R/perf_mono32.txt
tar czf $D/i8.tgz -C $R .
