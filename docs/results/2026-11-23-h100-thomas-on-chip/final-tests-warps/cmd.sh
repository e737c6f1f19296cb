# Final binaries (warp schedule on Full-Interleaved input: transposed up to 128 rows, 4 systems per block for 129-512): the whole CUDA unit suite; Full-Interleaved warp / P2 / on-chip timings at 128-512 rows as a check of the routing.
D=$OUT; R=/tmp/k2; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 60 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/(FullInterleaved|WarpFullInterleaved)/f64/(128|256|512)/(25600|256000)/' --benchmark_min_time=0.1 --benchmark_out=$R/perf_thomas.json --benchmark_out_format=json > $R/perf_thomas.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_thomas.txt | awk '{for(i=1;i<=NF;i++) {if($i ~ /^items_per_second=/) n=$i; if($i ~ /^frac_copy_bw=/) f=$i}; print $1, n, f}'
timeout 480 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|tests" | tee $R/run.log
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log $R/unit_tests.xml $R/perf_thomas.json
tar czf $D/k2.tgz -C $R .
