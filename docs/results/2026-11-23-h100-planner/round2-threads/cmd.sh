# The branch planner with its groups laid out on the host threads: standalone (1 and 16 threads) against the old planner, and RealMixed LevelLaunches (plan_seconds, 16 threads).
D=$OUT; R=/tmp/h7; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
for n in 25600 256000; do
  /usr/bin/time -f "old $n: %e s wall, %M KB max RSS" .devcarry/bin/plan_old $n
  for t in 1 16; do OMP_PROC_BIND=false OMP_NUM_THREADS=$t /usr/bin/time -f "new $t threads $n: %e s wall, %M KB max RSS" .devcarry/bin/plan_par $n 2>&1 | grep -v -i "omp_proc_bind\|In general\|For best\|For unit"; done
done 2>&1 | tee $R/planner.txt
timeout 300 bash scripts/gpu/device-run.sh 'perf:multi:^Multi/RealMixed/(25600|256000)/LevelLaunches' 2>&1 | tail -1 | tee -a $R/run.log
tar czf $D/h7.tgz -C $R .
