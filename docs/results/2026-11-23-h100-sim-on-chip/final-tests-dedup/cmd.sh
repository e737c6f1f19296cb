# After the ExpSyn NET_RECEIVE dedup (one device function, expsyn_receive, for both schedules), H100: the whole CUDA unit suite; the 10,000-cell ring on chip (spike file md5 against round 5's 63bdd4f8...).
D=$OUT; R=/tmp/l8; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
ROOT=$PWD; (source scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false; cd $R; timeout 60 $ROOT/.devcarry/bin/hinesbatch-sim $ROOT/examples/sim/ring.json --set network.cells=10000 --set 'output={}' --metrics ring_10k.json --spikes ring_10k.txt > ring_10k.log 2>&1; echo "ring rc=$? $(md5sum ring_10k.txt) $(grep 'done:' ring_10k.log | sed 's/.*done: //')"; rm -f ring_10k.txt)
timeout 480 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|tests" | tee $R/run.log
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log $R/unit_tests.xml
tar czf $D/l8.tgz -C $R .
