# Final: the whole CUDA unit suite, then compute-sanitizer on the warp schedule and the simulation on CUDA.
D=$OUT; R=/tmp/f1; mkdir -p $R; export OUT=$R
timeout 400 bash scripts/gpu/device-run.sh tests 2>&1 | tee $R/run.log
gzip -9 $R/unit_tests.log
export SANITIZE_FILTER='ThomasBatchTest/9.WarpScheduleShapes:ThomasBatchTest/9.PaperSizes:ThomasBatchTest/9.VBatchBothVariantsAgree:ThomasBatchTest/9.VBatchFailuresAndBadSizes:ThomasBatchTest/0.WarpScheduleShapes:ThomasPackedTest/3.*:ThomasPackedTest/0.*:Simulation/0.*:SimulationBackends*:RunSimulation*'
SANITIZE_LIMIT_S=150 timeout 170 bash scripts/gpu/device-run.sh sanitize:memcheck 2>&1 | grep "rc=" | tee -a $R/run.log
export SANITIZE_FILTER='ThomasBatchTest/9.WarpScheduleShapes:ThomasBatchTest/0.WarpScheduleShapes:ThomasPackedTest/3.*:ThomasBatchTest/9.ZeroPivotNamesSystemAndRow:ThomasBatchTest/9.NanNamesSystemAndRow'
SANITIZE_LIMIT_S=60 timeout 80 bash scripts/gpu/device-run.sh sanitize:racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/f1.tgz -C $R .
