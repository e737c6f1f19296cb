# Call 3 (2026-11-23 night, issue #9): ThomasBatch fp64, m = 64...512 at 25,600 and 256,000 systems and m = 1,024...8,192 at 20,000: P2's kernel (Full-Interleaved) against ThomasSchedule::Auto on Flat and Full-Interleaved input; mixed real cells (RealMixed 25,600 / 256,000) on every multi-morphology path; Fig. 6. (The Thomas run reached its 170 s limit before m = 8,192; Fig. 6's branch50 PackedLanes before its end.)
D=$OUT; R=/tmp/r3; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=.devcarry/bin
export OMP_PROC_BIND=spread OMP_PLACES=threads HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
timeout 170 $B/hinesbatch_perf_tests --benchmark_filter='^ThomasBatch/(FullInterleaved|AutoFlat|AutoFullInterleaved)/f64/((64|128|256|512)/(25600|256000)|(1024|2048|4096|8192)/20000)(/manual_time)?$' --benchmark_min_time=0.05 --benchmark_out=$R/perf_thomas.json --benchmark_out_format=json > $R/perf_thomas.txt 2>&1; echo "thomas rc=$?"
timeout 100 $B/hinesbatch_perf_tests --benchmark_filter='^Multi/RealMixed/25600/(NaiveSorted|LevelLaunches|PackedTeam|PackedLanes)(/manual_time)?$' --benchmark_min_time=0.05 --benchmark_out=$R/perf_real25600.json --benchmark_out_format=json > $R/perf_real25600.txt 2>&1; echo "real25600 rc=$?"
timeout 150 $B/hinesbatch_perf_tests --benchmark_filter='^Multi/RealMixed/256000/(NaiveSorted|PackedTeam|PackedLanes)(/manual_time)?$' --benchmark_min_time=0.05 --benchmark_out=$R/perf_real256000.json --benchmark_out_format=json > $R/perf_real256000.txt 2>&1; echo "real256000 rc=$?"
timeout 110 $B/hinesbatch_perf_tests --benchmark_filter='^Multi/Fig6/branch(10|50)/25600/(Mono|PackedTeam|PackedLanes)(/manual_time)?$' --benchmark_min_time=0.05 --benchmark_out=$R/perf_fig6.json --benchmark_out_format=json > $R/perf_fig6.txt 2>&1; echo "fig6 rc=$?"
grep -h manual_time $R/perf_*.txt | awk '{for(i=1;i<=NF;i++) if($i ~ /^(nodes_per_s|rows_per_s|items_per_second)=/) n=$i; print $1, n}'
tar czf $D/r3.tgz -C $R .
