# Call 7 (2026-11-23 night, issue #9): the final binaries (Auto's batch-size boundary at concurrency() / 4, 67,584 systems on an H100). The whole CUDA unit suite; Auto on the ThomasAutoSwitch sizes and at 25,600 systems, beside P2's kernel and the warp schedule.
D=$OUT; R=/tmp/r7; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
nvidia-smi -L | tee $R/gpu.txt
timeout 320 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; tar czf $D/r7.tgz -C $R .
export OMP_PROC_BIND=spread OMP_PLACES=threads
timeout 150 $B/hinesbatch_perf_tests --benchmark_filter='^(ThomasAutoSwitch/.*/f64/(256|512)/(64000|128000)/|ThomasBatch/(FullInterleaved|AutoFullInterleaved|WarpFullInterleaved)/f64/(256|512)/25600/)' --benchmark_min_time=0.05 --benchmark_out=$R/perf_auto.json --benchmark_out_format=json > $R/perf_auto.txt 2>&1; echo "auto rc=$?" | tee -a $R/run.log
grep -h manual_time $R/perf_*.txt | awk '{n="";for(i=1;i<=NF;i++) if($i ~ /^(nodes_per_s|rows_per_s)=/) n=$i; print $1, n, $NF}'
tar czf $D/r7.tgz -C $R .
