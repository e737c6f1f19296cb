# Call A (2026-11-24, issue #10), nvidia-h100-x1: the on-chip schedule with the templates' constants in global memory (this change) against the previous build (hinesbatch-sim-old, tree of ce22892) on the same GPU; CoreNEURON's ringtest model (examples/sim/ringtest.json: hh on every node); the simulation's unit tests; compute-sanitizer on the epoch kernel; Nsight Compute on the ringtest's epoch kernel.
D=$OUT; R=/tmp/rA; mkdir -p $R; cp .devcarry/cmdA.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim; ROOT=$PWD
nvidia-smi -L | tee $R/gpu.txt; nproc --all > $R/nproc.txt; date -u > $R/date.txt
save() { tar czf $D/rA.tgz -C $R .; }
cd $R
timeout 120 $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation*:RunSimulation*:CellLanePlan*' > tests_sim.txt 2>&1; echo "tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' tests_sim.txt | tr '\n' ' ')" | tee -a run.log
save
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 120 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"events_delivered_rank0": [0-9]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
}
run ringtest10k_new hinesbatch-sim ringtest.json --set network.cells=10000
run ringtest10k_old hinesbatch-sim-old ringtest.json --set network.cells=10000
run ringtest10k_newoff hinesbatch-sim ringtest.json --set network.cells=10000 --on-chip off
save
run ring10k_new hinesbatch-sim ring.json --set network.cells=10000
run ring10k_old hinesbatch-sim-old ring.json --set network.cells=10000
run ring10k_new2 hinesbatch-sim ring.json --set network.cells=10000
run ring10k_old2 hinesbatch-sim-old ring.json --set network.cells=10000
save
run ringtest65k_new hinesbatch-sim ringtest.json --set network.cells=65536
run ringtest65k_old hinesbatch-sim-old ringtest.json --set network.cells=65536
save
run p3syn100k_new hinesbatch-sim p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run p3syn100k_old hinesbatch-sim-old p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
save
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 120 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_bytes.sum,lts__t_bytes.sum \
  $B/hinesbatch-sim $E/ringtest.json --set network.cells=10000 --set tstop=5 --set 'output={}' --quiet --metrics ncu_run.json > ncu_ringtest.txt 2> ncu_ringtest.err; echo "ncu rc=$?" | tee -a run.log
grep -E 'Duration|dram__bytes|inst_executed|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Memory Throughput|Block Limit Shared|Dynamic Shared' ncu_ringtest.txt | head -14 | tee -a run.log
gzip -9 ncu_ringtest.txt; save
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in racecheck memcheck; do
  timeout 100 $cs --tool $tool --kernel-name kns=StepCellEpochOnChip --error-exitcode 99 --log-file $R/$tool.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.OnChip*' > $R/$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/$tool.txt | tr '\n' ' ')" | tee -a $R/run.log
done
save
run ring100k_new hinesbatch-sim ring.json --set network.cells=100000
run ring100k_old hinesbatch-sim-old ring.json --set network.cells=100000
save
