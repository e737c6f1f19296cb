# fp32 mono rates of the Hines schedules (final binary of the session).
D=$OUT; R=/tmp/h10; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
timeout 270 bash scripts/gpu/device-run.sh 'perf:mono32:^Mono32/(FullInterleaved|TeamFlat|WarpFlat)/(small-low|medium-high|big-low)/(25600|256000)/' 2>&1 | tail -1 | tee -a $R/run.log
tar czf $D/h10.tgz -C $R .
