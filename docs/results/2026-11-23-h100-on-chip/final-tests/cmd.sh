# Final binaries (PerSystemOnChip + Auto): the whole CUDA unit suite; memcheck and racecheck on the on-chip schedule's tests (CUDA: double FI/BI, float FI).
D=$OUT; R=/tmp/i6; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 300 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED" | tee $R/run.log
grep -E "^\[  FAILED" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log
f=""; for i in 3 15 18; do f="$f:HinesBatchSolve/$i.OnChip*:HinesBatchSolve/$i.TinyTrees"; done
export SANITIZE_FILTER="${f#:}"; echo "sanitize filter: $SANITIZE_FILTER" | tee -a $R/run.log
SANITIZE_LIMIT_S=120 timeout 260 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/i6.tgz -C $R .
