# Call 1 (2026-11-23 night, issue #9): the consolidated re-measurement's first call. The whole CUDA unit suite on the final binaries (the containers' fill / solution / check now share one base, BatchStorage, and one pair of copy helpers); the 10,000-cell ring's spike file against its md5 (63bdd4f8...); the peers (cuSPARSE, cuHinesBatch-style and CoreNEURON-style) on the benchmark inputs.
D=$OUT; R=/tmp/r1; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi -L | tee $R/gpu.txt; nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv | tee -a $R/gpu.txt
timeout 330 bash scripts/gpu/device-run.sh tests 2>&1 | tail -40 | tee $R/run.log
ROOT=$PWD; (source scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false; cd $R; timeout 60 $ROOT/.devcarry/bin/hinesbatch-sim $ROOT/examples/sim/ring.json --set network.cells=10000 --set 'output={}' --metrics ring_10k.json --spikes ring_10k.txt > ring_10k.log 2>&1; echo "ring rc=$? $(md5sum ring_10k.txt) $(grep 'done:' ring_10k.log | sed 's/.*done: //')" | tee -a $R/run.log; rm -f ring_10k.txt)
timeout 200 bash scripts/gpu/device-run.sh peers 2>&1 | tee -a $R/run.log
grep -E "^(cuHinesBatch|CoreNEURON)" $R/hines_peers.txt | cut -c1-200
gzip -9 $R/unit_tests*.log 2>/dev/null
tar czf $D/r1.tgz -C $R .
