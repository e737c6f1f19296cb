# After the de-duplication commit: the whole CUDA unit suite, memcheck and racecheck on the warp schedules and the simulation on CUDA.
D=$OUT; R=/tmp/g6; mkdir -p $R; export OUT=$R
tar xzf .devcarry/bin.tgz -C .devcarry
timeout 280 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED" | tee $R/run.log
gzip -9 $R/unit_tests.log
export SANITIZE_FILTER='ThomasBatchTest/9.WarpScheduleShapes:ThomasBatchTest/9.WarpsFailuresNameSystemAndRow:ThomasBatchTest/12.PaperSizes:ThomasPackedTest/3.MatchesReference:Simulation*/0.*'
SANITIZE_LIMIT_S=120 timeout 260 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/g6.tgz -C $R .
