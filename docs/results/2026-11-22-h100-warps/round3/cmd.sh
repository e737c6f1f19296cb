# After the merge of the lanes host schedule: the whole CUDA unit suite, memcheck and racecheck on the multi-warp and transposed schedules, the timings G2 did not reach (fp32, VBatch at 256,000, accuracy).
D=$OUT; R=/tmp/g3; mkdir -p $R; export OUT=$R
timeout 280 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|SKIPPED" | tee $R/run.log
gzip -9 $R/unit_tests.log
export SANITIZE_FILTER='ThomasBatchTest/9.WarpScheduleShapes:ThomasBatchTest/9.WarpsFailuresNameSystemAndRow:ThomasBatchTest/9.VBatchBothVariantsAgree:ThomasBatchTest/12.PaperSizes:ThomasBatchTest/12.WarpsFailuresNameSystemAndRow:ThomasBatchTest/12.VBatchFailuresAndBadSizes:ThomasBatchTest/3.TinySystems:ThomasPackedTest/3.MatchesReference'
SANITIZE_LIMIT_S=110 timeout 240 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
timeout 150 bash scripts/gpu/device-run.sh 'perf:thomas:^ThomasBatch/(FullInterleaved|WarpFlat|WarpFullInterleaved)/f32/(64|128|256|512)/256000/|^ThomasBatch/WarpFlat/f32/(1024|8192)/20000/|^ThomasVBatch/(WarpPacked|WarpNoComputingPaddingFlat|Packed)/f64/256000/|^ThomasAccuracy/Warp/f64/' 2>&1 | tail -1 | tee -a $R/run.log
tar czf $D/g3.tgz -C $R .
