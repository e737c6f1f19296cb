# Hines warp schedule with shared-memory instructions and multiply-shift divisions: lane sweep and the mono comparison.
D=$OUT; R=/tmp/h4; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
timeout 200 bash scripts/gpu/device-run.sh 'perf:lanes:^MonoLanes/' 2>&1 | tail -1 | tee -a $R/run.log
timeout 240 bash scripts/gpu/device-run.sh 'perf:mono:^Mono/(FullInterleaved|WarpFlat|WarpFullInterleaved)/[a-z-]+/(25600|256000)/' 2>&1 | tail -1 | tee -a $R/run.log
tar czf $D/h4.tgz -C $R .
