# Hines warp schedule, first look: its tests on CUDA, the mono rates against P1 and the team schedule, the lane sweep.
D=$OUT; R=/tmp/h1; mkdir -p $R; export OUT=$R
tar xzf .devcarry/bin.tgz -C .devcarry
timeout 150 bash scripts/gpu/device-run.sh 'tests:HinesBatchSolve*:WarpTreePlan*' 2>&1 | grep -E "rc=|PASSED|FAILED" | tee $R/run.log
grep -E "FAILED|Failure" -A3 $R/unit_tests_filtered.log | head -30
gzip -9 $R/unit_tests_filtered.log
timeout 170 bash scripts/gpu/device-run.sh 'perf:mono:^Mono/(FullInterleaved|TeamFlat|WarpFlat|WarpFullInterleaved)/[a-z-]+/(25600|256000)/' 2>&1 | tail -1 | tee -a $R/run.log
grep -E "^Mono" $R/perf_mono.txt | awk '{print $1, $(NF-0)}' | head -5
timeout 170 bash scripts/gpu/device-run.sh 'perf:lanes:^MonoLanes/' 2>&1 | tail -1 | tee -a $R/run.log
tar czf $D/h1.tgz -C $R .
