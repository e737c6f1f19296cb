# Call 2 (2026-11-23 night, issue #9): mono Hines, the six paper classes at 25,600 and 256,000 cells, fp64: P1's kernel (the cuHinesBatch reproduction, Full-Interleaved) against what HinesSchedule::Auto gives on Flat and on Full-Interleaved input; Nsight Compute DRAM bytes of P1's kernel and of the on-chip kernel.
D=$OUT; R=/tmp/r2; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
export OMP_PROC_BIND=spread OMP_PLACES=threads
timeout 430 $B/hinesbatch_perf_tests --benchmark_filter='^Mono/(FullInterleaved|AutoFlat|AutoFullInterleaved)/[a-z-]+/(25600|256000)/' --benchmark_min_time=0.05 --benchmark_out=$R/perf_mono.json --benchmark_out_format=json > $R/perf_mono.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_mono.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /^nodes_per_s=/) n=$i; print $1, n}'
timeout 100 bash scripts/gpu/ncu-bytes.sh '^Mono/(FullInterleaved|AutoFullInterleaved)/small-low/256000/' '^Mono/(AutoFlat)/small-low/256000/' 2>&1 | tee $R/ncu.txt
gzip -9 $R/*.csv 2>/dev/null
tar czf $D/r2.tgz -C $R .
