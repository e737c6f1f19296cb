# The branch planner before and after (standalone programs of the same SWC cells, host CPU of the GPU machine), and RealMixed LevelLaunches with the new planner (plan_seconds).
D=$OUT; R=/tmp/h6; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
for n in 25600 102400 256000; do for v in old new; do /usr/bin/time -f "$v $n: %e s wall, %M KB max RSS" .devcarry/bin/plan_$v $n; done; done 2>&1 | tee $R/planner.txt
timeout 300 bash scripts/gpu/device-run.sh 'perf:multi:^Multi/RealMixed/(25600|256000)/LevelLaunches' 2>&1 | tail -1 | tee -a $R/run.log
tar czf $D/h6.tgz -C $R .
