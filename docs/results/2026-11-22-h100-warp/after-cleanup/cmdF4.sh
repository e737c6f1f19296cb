# After the Thomas clean-up: the whole CUDA unit suite, memcheck and racecheck on the padded schedules.
D=$OUT; R=/tmp/f4; mkdir -p $R; export OUT=$R
timeout 300 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED" | tee $R/run.log
gzip -9 $R/unit_tests.log
export SANITIZE_FILTER='ThomasBatchTest/9.TeamScheduleShapes:ThomasBatchTest/9.WarpScheduleShapes:ThomasBatchTest/9.VBatchBothVariantsAgree:ThomasBatchTest/9.VBatchFailuresAndBadSizes:ThomasBatchTest/9.ZeroPivotNamesSystemAndRow:ThomasBatchTest/9.NanNamesSystemAndRow:ThomasPackedTest/3.*'
SANITIZE_LIMIT_S=120 timeout 140 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/f4.tgz -C $R .
