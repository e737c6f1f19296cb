# Call A (2026-11-25, issue #34), one GPU: the new on-chip launches on real cells. The
# simulation, launch-plan and real-cells tests on CUDA/OpenMP/Serial; then hinesbatch-sim:
# the targets (mixed 20,000/2,000, large 2,000/200), forced shapes against the model's
# choice (same rasters), the P3/ring/ringtest regression, the host's mixed network.
D=$OUT; R=/tmp/rA; mkdir -p $R; cp .devcarry/cmdA.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
B=$PWD/.devcarry/bin
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > $R/gpu.txt; nproc >> $R/gpu.txt
export OMP_PROC_BIND=false
timeout 200 $B/hinesbatch_unit_tests --gtest_filter='OnChipLaunchPlan.*:RealCells.*:SimulationSchedules.*' > $R/tests.log 2>&1
echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/tests.log | tr '\n' ' ')" | tee -a $R/run.log
grep -E "FAILED|Failure" $R/tests.log | head -20 | tee -a $R/run.log
tar czf $D/rA.tgz -C $R .
OUT=$R SIM_BUDGET_S=330 bash scripts/gpu/sim-real-cells.sh targets regress shapes host 2>&1 | tee -a $R/run.log | tail -70
tar czf $D/rA.tgz -C $R .
