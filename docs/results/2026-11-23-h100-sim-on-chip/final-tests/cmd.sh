# Final binaries (on-chip simulation schedule, issue #10), H100: the whole CUDA unit suite; compute-sanitizer memcheck on the simulation's tests, racecheck on the on-chip ones.
D=$OUT; R=/tmp/l6; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi --query-gpu=name,driver_version --format=csv > $R/gpu.txt
timeout 480 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|tests" | tee $R/run.log
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]" $R/unit_tests.log | head -20
SANITIZE_FILTER='SimulationSchedules.OnChip*:SimulationBackends.*:Simulation/0.SingleCell*:Simulation/0.RingRaster*' SANITIZE_LIMIT_S=150 bash scripts/gpu/device-run.sh sanitize:memcheck 2>&1 | tail -2 | tee -a $R/run.log
SANITIZE_FILTER='SimulationSchedules.OnChipNames*' SANITIZE_LIMIT_S=100 bash scripts/gpu/device-run.sh sanitize:racecheck 2>&1 | tail -2 | tee -a $R/run.log
gzip -9 $R/unit_tests.log $R/unit_tests.xml $R/compute-sanitizer/*.log 2>/dev/null
tar czf $D/l6.tgz -C $R .
