# Call N (2026-11-24, stop 26, issue #10), nvidia-h100-x1: setup time (setup_s, setup_cells_s, setup_connections_s) and host memory peak (VmHWM of the simulator process) of the final build (connection arrays filled in parallel; hinesbatch-sim) against 9e39fa8 (hinesbatch-sim-prev: cells set up per template in parallel) and 301f438 (hinesbatch-sim-old), alternating; same spikes expected. Then the simulation tests on CUDA, OpenMP and Serial and memcheck over them.
D=$OUT; R=/tmp/rN; mkdir -p $R; cp .devcarry/cmdN.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim; ROOT=$PWD; export HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rN.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1 & local pid=$! hwm=0
  while kill -0 $pid 2>/dev/null; do h=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$h" ] && hwm=$h; sleep 0.05; done
  wait $pid; local rc=$?
  echo "$n rc=$rc host_peak_MiB $((hwm/1024)) $(grep -o 'done: .*' $n.log | cut -c1-100) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"setup_cells_s": [0-9.]*' $n.json) $(grep -o '"setup_connections_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for i in 1 2 3; do
  run p3lit100k_new$i hinesbatch-sim p3.json --set network.cells=100000
  run p3lit100k_prev$i hinesbatch-sim-prev p3.json --set network.cells=100000
  save
done
run p3lit100k_old hinesbatch-sim-old p3.json --set network.cells=100000
for i in 1 2; do
  run p3syn100k_new$i hinesbatch-sim p3_synaptic.json $P3
  run p3syn100k_prev$i hinesbatch-sim-prev p3_synaptic.json $P3
done
run ring10k_new hinesbatch-sim ring.json --set network.cells=10000
run ring10k_prev hinesbatch-sim-prev ring.json --set network.cells=10000
save
cd $ROOT
timeout 150 $B/hinesbatch_unit_tests --gtest_filter='Simulation*:RunSimulation*:ExplicitNetwork*:MultiMorphology*:Events*:SimulationModel*' > $R/sim_tests.txt 2>&1
echo "simulation tests rc=$? $(grep -E '^\[  (PASSED|FAILED) ' $R/sim_tests.txt | tr '\n' ' ')" | tee -a $R/run.log
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
timeout 150 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*:Events*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
gzip -9 $R/sim_tests.txt
save
