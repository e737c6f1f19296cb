# Call Y (2026-11-24, stop 27, issue #10), nvidia-h100-x1: the review mend (660b315: the counting CSR uses its offsets as cursor; no behaviour change): the whole unit suite (CUDA, OpenMP, Serial), memcheck on every kernel over the simulation and event-queue tests, racecheck (errors) over the event-queue tests, spike md5 of the 10,000-cell busyring and ringtest model.
D=$OUT; R=/tmp/rY; mkdir -p $R; cp .devcarry/cmdY.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
B=$PWD/.devcarry/bin
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
OUT=$R timeout 400 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null
tar czf $D/rY.tgz -C $R .
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
timeout 150 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*:Events*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
tar czf $D/rY.tgz -C $R .
timeout 60 $cs --tool racecheck --racecheck-detect-level error --error-exitcode 99 --log-file $R/racecheck.log $B/hinesbatch_unit_tests --gtest_filter='Simulation/0.ConnectionsOrdered*:Simulation/0.DeviceEvents*' > $R/racecheck.txt 2>&1
echo "racecheck (event queue, errors) rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/racecheck.txt | tr '\n' ' ')" | tee -a $R/run.log
cd $R; E=$OLDPWD/examples/sim
for c in ring ringtest; do timeout 30 $B/hinesbatch-sim $E/$c.json --set network.cells=10000 --set 'output={}' --metrics ${c}10k.json --spikes ${c}10k_spikes.txt > ${c}10k.log 2>&1; echo "${c}10k rc=$? $(grep -o 'done: .*' ${c}10k.log | cut -c1-100) md5 $(md5sum < ${c}10k_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${c}10k_spikes.txt; done
tar czf $D/rY.tgz -C $R .
