# Call P (2026-11-24, stop 26, issue #10), nvidia-h100-x1: the review mend (34411f2, host code only): the simulation's tests on CUDA, OpenMP and Serial, memcheck on every kernel over them, and the spikes and setup of P3's literal network and P3 synaptic at 100,000 cells.
D=$OUT; R=/tmp/rP; mkdir -p $R; cp .devcarry/cmdP.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim; ROOT=$PWD; export HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rP.tgz -C $R .; }
timeout 150 $B/hinesbatch_unit_tests --gtest_filter='Simulation*:RunSimulation*:ExplicitNetwork*:MultiMorphology*:Events*:SimulationModel*' > $R/sim_tests.txt 2>&1
echo "simulation tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/sim_tests.txt | tr '\n' ' ')" | tee -a $R/run.log
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
timeout 150 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*:Events*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
gzip -9 $R/sim_tests.txt; save
cd $R
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
run() { local n=$1 c=$2; shift 2; timeout 60 $B/hinesbatch-sim $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1; echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-100) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"setup_cells_s": [0-9.]*' $n.json) $(grep -o '"setup_connections_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${n}_spikes.txt; }
run p3lit100k p3.json --set network.cells=100000
run p3syn100k p3_synaptic.json $P3
save
