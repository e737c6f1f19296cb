# Call G (2026-11-24, issue #10), nvidia-h100-x1, final binaries (3d745e5): Nsight Compute bytes of the on-chip epoch kernel with one rank's 40-step epochs (2026-11-23: 20-step epochs, 2.8 B per compartment-step); compute-sanitizer racecheck and memcheck restricted to that kernel over the on-chip tests; the ring's weak scaling on the 16-core host's CPU ranks.
D=$OUT; R=/tmp/rG; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim; ROOT=$PWD
nvidia-smi -L | tee $R/gpu.txt; nproc --all > $R/nproc.txt
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
cd $R && timeout 150 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
  $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set tstop=5 --set 'output={}' --quiet --metrics ncu_run.json > ncu_ring40.txt 2> ncu_ring40.err; echo "ncu rc=$?" | tee -a run.log
grep -E 'Duration|dram__bytes|inst_executed|Achieved Occupancy' ncu_ring40.txt | head -8 | tee -a run.log; grep -o '"epoch_steps": [0-9]*' ncu_run.json | tee -a run.log
gzip -9 ncu_ring40.txt; tar czf $D/rG.tgz -C $R .
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
cd $ROOT
for tool in racecheck memcheck; do
  timeout 100 $cs --tool $tool --kernel-name kns=StepCellEpochOnChip --error-exitcode 99 --log-file $R/$tool.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.OnChip*' > $R/$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/$tool.txt | tr '\n' ' ')" | tee -a $R/run.log
done
tar czf $D/rG.tgz -C $R .
OUT=$R SIM_ONLY='^ring_weak' SIM_BUDGET_S=220 SIM_RESERVE_S=15 bash scripts/gpu/sim-scaling.sh cpu 2>&1 | tee $R/run_cpu.log
tar czf $D/rG.tgz -C $R .
