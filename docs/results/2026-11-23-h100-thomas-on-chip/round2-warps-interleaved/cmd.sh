# ThomasWarpsInterleaved (Full-Interleaved warp schedule, 65-512 rows: P warps on 4 systems, rows read coalesced): perf against P2's kernel and the on-chip schedule; Thomas CUDA tests; memcheck/racecheck on the warp-shape and failure tests of Full-Interleaved CUDA.
D=$OUT; R=/tmp/k1; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 170 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/(FullInterleaved|WarpFullInterleaved|OnChipFullInterleaved)/f(64|32)/(64|128|256|512)/(25600|256000)/' --benchmark_min_time=0.1 --benchmark_out=$R/perf_thomas.json --benchmark_out_format=json > $R/perf_thomas.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_thomas.txt | awk '{for(i=1;i<=NF;i++) {if($i ~ /^items_per_second=/) n=$i; if($i ~ /^frac_copy_bw=/) f=$i}; print $1, n, f}'
grep -i "copy_band\|error" $R/perf_thomas.txt | head -5
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 50 $ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --kernel-name-base demangled -k "regex:ThomasWarpsInterleaved" -c 2 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/WarpFullInterleaved/f64/(128|256)/256000/' --benchmark_min_time=0 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "ThomasWarpsInterleaved|dram__|duration|warps_active|registers" $R/ncu.txt | cut -c1-160 | head -20
timeout 150 $B/hinesbatch_unit_tests --gtest_filter='Thomas*' > $R/thomas_tests.log 2>&1; echo "thomas tests rc=$?"
grep -E "^\[  FAILED|^\[  PASSED" $R/thomas_tests.log | head; gzip -9 $R/thomas_tests.log
export SANITIZE_FILTER="ThomasBatchTest/3.WarpScheduleShapes:ThomasBatchTest/12.WarpScheduleShapes:ThomasBatchTest/12.WarpsFailuresNameSystemAndRow:ThomasBatchTest/12.VBatchBothVariantsAgree"
SANITIZE_LIMIT_S=70 timeout 160 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/k1.tgz -C $R .
