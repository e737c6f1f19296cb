# fp32 Auto threshold for Full-Interleaved (64 rows): CUDA Thomas tests, fp32 timings; the lanes host schedule of hinesbatch-sim on the 16-core host (AVX2, AVX-512).
D=$OUT; R=/tmp/g4; mkdir -p $R; export OUT=$R
tar xzf .devcarry/bin.tgz -C .devcarry
timeout 120 bash scripts/gpu/device-run.sh 'tests:Thomas*' 2>&1 | tail -3 | tee $R/run.log
timeout 100 bash scripts/gpu/device-run.sh 'perf:thomas:^ThomasBatch/(FullInterleaved|WarpFullInterleaved)/f32/(64|128)/(25600|256000)/|^ThomasBatch/WarpFlat/f32/(2048|8192)/20000/' 2>&1 | tail -1 | tee -a $R/run.log
CARRY=.devcarry-cpu timeout 340 bash scripts/gpu/cpu-sim-lanes.sh 2>&1 | tail -40 | tee -a $R/run.log
tar czf $D/g4.tgz -C $R .
