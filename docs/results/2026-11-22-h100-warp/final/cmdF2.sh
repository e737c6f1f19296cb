# Final: Thomas schedules against cuSPARSE in the same call, ncu bytes, and the CPU tiles with AVX2/AVX-512.
D=$OUT; R=/tmp/f2; mkdir -p $R; export OUT=$R
timeout 300 bash scripts/gpu/device-run.sh 'perf:thomas:^ThomasBatch/(FullInterleaved|TeamFlat|WarpFlat)/f(64|32)/(64|128|256|512)/(25600|256000)/|^ThomasBatch/(FullInterleaved|TeamFlat)/f64/(1024|8192)/20000/|^ThomasVBatch/(NoComputingPadding|Packed|WarpPacked|WarpNoComputingPaddingFlat|WarpComputingPaddingFlat)/f64/(25600|256000)/|^ThomasAccuracy/(Team/|Warp/)?f64/(64|128|256|512)/' 2>&1 | tail -1 | tee $R/run.log
timeout 100 bash scripts/gpu/device-run.sh peers 2>&1 | tail -2 | tee -a $R/run.log
timeout 60 bash scripts/gpu/ncu-bytes.sh '^ThomasBatch/WarpFlat/f64/(64|128|256|512)/25600/' '^ThomasVBatch/WarpPacked/f64/25600/' 2>&1 | tee $R/ncu.txt
tar czf $D/f2.tgz -C $R .
