# Call U (2026-11-24, stop 27, issue #10), nvidia-h100-x1: the final build (eb054d9, hinesbatch-sim: the CSR by counting in host memory, by key sort on the GPU) against the build of stop 26 (00cbc8b, hinesbatch-sim-old), alternating: setup time (setup_s, setup_cells_s, setup_connections_s) and host peak (VmHWM) on the GPU and on the host backend (16 OpenMP threads); same spikes expected. Then compute-sanitizer memcheck (every kernel) and racecheck over the event-queue and simulation tests.
D=$OUT; R=/tmp/rU; mkdir -p $R; cp .devcarry/cmdU.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim; ROOT=$PWD; export HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee $R/gpu.txt; lscpu | grep -E "^CPU\(s\)|Model name" > $R/machine.txt; date -u > $R/date.txt
save() { tar czf $D/rU.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1 & local pid=$! hwm=0
  while kill -0 $pid 2>/dev/null; do h=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$h" ] && hwm=$h; sleep 0.05; done
  wait $pid; local rc=$?
  echo "$n rc=$rc host_peak_MiB $((hwm/1024)) $(grep -o 'done: .*' $n.log | cut -c1-100) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"setup_cells_s": [0-9.]*' $n.json) $(grep -o '"setup_connections_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000"
for i in 1 2; do
  run p3lit100k_new$i hinesbatch-sim p3.json --set network.cells=100000
  run p3lit100k_old$i hinesbatch-sim-old p3.json --set network.cells=100000
done
save
run p3syn100k_new hinesbatch-sim p3_synaptic.json $P3 --set tstop=100
run p3syn100k_old hinesbatch-sim-old p3_synaptic.json $P3 --set tstop=100
for c in ring ringtest; do
  run ${c}10k_new hinesbatch-sim $c.json --set network.cells=10000
  run ${c}10k_old hinesbatch-sim-old $c.json --set network.cells=10000
done
save
for i in 1 2; do
  run host_p3syn100k_new$i hinesbatch-sim p3_synaptic.json --backend host $P3 --set tstop=1
  run host_p3syn100k_old$i hinesbatch-sim-old p3_synaptic.json --backend host $P3 --set tstop=1
done
run host_p3lit100k_new hinesbatch-sim p3.json --backend host --set network.cells=100000 --set tstop=0.5
run host_p3lit100k_old hinesbatch-sim-old p3.json --backend host --set network.cells=100000 --set tstop=0.5
save
cd $ROOT
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
timeout 120 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*:Events*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
timeout 60 $cs --tool racecheck --racecheck-detect-level error --error-exitcode 99 --log-file $R/racecheck.log $B/hinesbatch_unit_tests --gtest_filter='Simulation/0.ConnectionsOrdered*:Simulation/0.DeviceEvents*' > $R/racecheck.txt 2>&1
echo "racecheck (event queue, errors) rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/racecheck.txt | tr '\n' ' ')" | tee -a $R/run.log
timeout 60 $cs --tool racecheck --error-exitcode 99 --log-file $R/racecheck_warn.log $B/hinesbatch_unit_tests --gtest_filter='Simulation/0.ConnectionsOrdered*:Simulation/0.DeviceEvents*' > $R/racecheck_warn.txt 2>&1
echo "racecheck (event queue, warnings too) rc=$? $(grep -E 'RACECHECK SUMMARY' $R/racecheck_warn.log | tail -1); kernels with a report: $(grep -oE 'Race reported between [A-Za-z]+ access at void Kokkos::Impl::[a-z_]+<Kokkos::Impl::Parallel[A-Za-z]+' $R/racecheck_warn.log | grep -oE 'Parallel[A-Za-z]+$' | sort | uniq -c | tr '\n' ' ')" | tee -a $R/run.log
gzip -9 $R/racecheck_warn.log
save
