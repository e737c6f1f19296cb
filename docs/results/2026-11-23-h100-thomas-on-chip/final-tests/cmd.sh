# Final binaries (same as j2): the whole CUDA unit suite (j2's run was cut by its own time limit after 843 tests, none failed).
D=$OUT; R=/tmp/j3; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 520 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|tests" | tee $R/run.log
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log
tar czf $D/j3.tgz -C $R .
