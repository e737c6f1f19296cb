# Final binaries, ThomasSchedule::PerSystemOnChip: Thomas perf (FI/BI, fp64/fp32) beside P2's kernel, the warp schedules and cuSPARSE (same run); ncu DRAM bytes; the whole CUDA unit suite; memcheck + racecheck on the on-chip Thomas tests.
D=$OUT; R=/tmp/j2; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 150 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/(FullInterleaved|BlockInterleaved|WarpFullInterleaved|OnChipFullInterleaved|OnChipBlockInterleaved)/f(64|32)/(64|128)/(25600|256000)/|^ThomasOnChipSizes/' --benchmark_min_time=0.1 --benchmark_out=$R/perf_thomas.json --benchmark_out_format=json > $R/perf_thomas.txt 2>&1; echo "perf rc=$?"
grep -E "manual_time" $R/perf_thomas.txt | awk '{for(i=1;i<=NF;i++) {if($i ~ /^items_per_second=/) n=$i; if($i ~ /^frac_copy_bw=/) f=$i}; print $1, n, f}'
grep -i "copy_band\|error" $R/perf_thomas.txt | head -5
if [ -x .devcarry/peers/cusparse_tridiagonal ]; then
  for t in f64 f32; do timeout 60 .devcarry/peers/cusparse_tridiagonal --type $t --m 64,128 --n 25600,256000 --repeat 10 --out $R/peers_$t.json > $R/peers_$t.txt 2>&1; echo "peers $t rc=$?"; grep -v "^#" $R/peers_$t.txt | head -20; done
fi
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 50 $ncu --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,dram__throughput.avg.pct_of_peak_sustained_elapsed --kernel-name-base demangled -k "regex:ThomasPerSystemOnChip" -c 2 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/OnChip(Full|Block)Interleaved/f64/64/256000/' --benchmark_min_time=0 > $R/ncu.txt 2>&1; echo "ncu rc=$?"
grep -E "ThomasPerSystemOnChip|dram__|duration|warps_active|registers" $R/ncu.txt | cut -c1-160 | head -20
timeout 250 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED" | tee $R/run.log
grep -E "^\[  FAILED" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log
f=""; for i in 3 12 15; do f="$f:ThomasBatchTest/$i.OnChip*:ThomasBatchTest/$i.TinySystems"; done
export SANITIZE_FILTER="${f#:}"; echo "sanitize filter: $SANITIZE_FILTER" | tee -a $R/run.log
SANITIZE_LIMIT_S=90 timeout 200 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
grep -hE "ERROR SUMMARY|RACECHECK SUMMARY" $R/compute-sanitizer/*.log | sort | uniq -c | head
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/j2.tgz -C $R .
