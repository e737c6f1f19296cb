# Multi-warp shapes (m = 257..8192) and the transposed Full-Interleaved warp schedule: CUDA tests, timings against cuSPARSE, ncu bytes.
D=$OUT; R=/tmp/g1; mkdir -p $R; export OUT=$R
nvidia-smi --query-gpu=name,driver_version --format=csv | tee $R/run.log
timeout 170 bash scripts/gpu/device-run.sh 'tests:Thomas*' 2>&1 | tail -4 | tee -a $R/run.log
timeout 250 bash scripts/gpu/device-run.sh 'perf:thomas:^ThomasBatch/(FullInterleaved|WarpFlat|WarpFullInterleaved)/f(64|32)/(64|128|256|512)/(25600|256000)/|^ThomasBatch/(FullInterleaved|Flat|WarpFullInterleaved)/f64/(1024|2048|4096|8192)/20000/|^ThomasVBatch/(WarpPacked|WarpNoComputingPaddingFlat|NoComputingPadding)/f64/(25600|256000)/|^ThomasAccuracy/Warp/f64/' 2>&1 | tail -1 | tee -a $R/run.log
timeout 100 bash scripts/gpu/device-run.sh peers 2>&1 | tail -2 | tee -a $R/run.log
timeout 70 bash scripts/gpu/ncu-bytes.sh '^ThomasBatch/WarpFlat/f64/512/25600/' '^ThomasBatch/Flat/f64/2048/20000/' '^ThomasBatch/WarpFullInterleaved/f64/(64|256)/25600/' 2>&1 | tee $R/ncu.txt
tar czf $D/g1.tgz -C $R .
