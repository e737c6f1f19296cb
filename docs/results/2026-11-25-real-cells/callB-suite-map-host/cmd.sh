# Call B (2026-11-25, issue #34), one GPU: the whole unit suite (CUDA, OpenMP, Serial) on the
# new on-chip launches; compute-sanitizer memcheck and racecheck over the on-chip tests
# (warp and multi-warp teams, shared memory and the team's memory); the map of real cells
# (each shared file alone at 200/2,000/20,000 cells, d_lambda and 10 um); the host's thread
# scaling on the mixed network (OMP_NUM_THREADS: Kokkos 3.4 ignores --kokkos-num-threads).
D=$OUT; R=/tmp/rB; mkdir -p $R; cp .devcarry/cmdB.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
OUT=$R timeout 200 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; tar czf $D/rB.tgz -C $R .
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
F='SimulationSchedules.OnChip*:OnChipLaunchPlan.*'
timeout 90 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck.log $B/hinesbatch_unit_tests --gtest_filter="$F" > $R/memcheck.txt 2>&1
echo "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck.txt | tr '\n' ' ')" | tee -a $R/run.log
timeout 90 $cs --tool racecheck --racecheck-detect-level warning --error-exitcode 99 --kernel-name kns=StepCellEpochOnChip --log-file $R/racecheck.log $B/hinesbatch_unit_tests --gtest_filter="$F" > $R/racecheck.txt 2>&1
echo "racecheck (epoch kernels) rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/racecheck.txt | tr '\n' ' ')" | tee -a $R/run.log
timeout 40 $cs --tool synccheck --error-exitcode 99 --kernel-name kns=StepCellEpochOnChip --log-file $R/synccheck.log $B/hinesbatch_unit_tests --gtest_filter="SimulationSchedules.OnChipNamesFailuresAndTakes*" > $R/synccheck.txt 2>&1
echo "synccheck rc=$? $(grep -E 'ERROR SUMMARY' $R/synccheck.log | tail -1)" | tee -a $R/run.log
tar czf $D/rB.tgz -C $R .
export OMP_PROC_BIND=spread OMP_PLACES=threads
for sch in lanes cells; do for t in 16 8 4 2 1; do
 OMP_NUM_THREADS=$t timeout 60 $B/hinesbatch-sim $E/real_mixed.json --backend host --host-schedule $sch --quiet --set 'output={}' --set network.cells=1000 --set network.kick.cells=50 --set tstop=10 --metrics $R/host_${sch}_t$t.json --spikes $R/host_${sch}_t$t.txt > $R/host_${sch}_t$t.log 2>&1
 echo "host $sch t$t rc=$? $(grep -o '"compartment_steps_per_s": [0-9.e+-]*' $R/host_${sch}_t$t.json) md5 $(md5sum < $R/host_${sch}_t$t.txt | cut -c1-8)" | tee -a $R/run.log
done; done
rm -f $R/host_*.txt; tar czf $D/rB.tgz -C $R .
unset OMP_PROC_BIND OMP_PLACES
OUT=$R SIM_BUDGET_S=120 SIM_RESERVE_S=8 bash scripts/gpu/sim-real-cells.sh map 2>&1 | tail -3 | tee -a $R/run.log
tar czf $D/rB.tgz -C $R .
