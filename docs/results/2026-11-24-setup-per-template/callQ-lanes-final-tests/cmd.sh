# Call Q (2026-11-24, stop 26, issue #10), nvidia-h100-x1, the final build (00cbc8b: the lanes schedule packs its tiles from the templates' blocks; the on-chip upload shares them); then the host backend's setup (lanes schedule, 16 OpenMP threads) against 301f438 (hinesbatch-sim-old), alternating: compute-sanitizer racecheck and memcheck on the epoch kernel over the on-chip tests, memcheck (every kernel) over the simulation's tests; the whole CUDA unit suite; spike md5s.
D=$OUT; R=/tmp/rQ; mkdir -p $R; cp .devcarry/cmdQ.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; ROOT=$PWD; export HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rQ.tgz -C $R .; }
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
for tool in racecheck memcheck; do
  timeout 100 $cs --tool $tool --kernel-name kns=StepCellEpochOnChip --error-exitcode 99 --log-file $R/$tool.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.OnChip*' > $R/$tool.txt 2>&1
  echo "$tool (epoch kernel) rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/$tool.txt | tr '\n' ' ')" | tee -a $R/run.log
done
timeout 120 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
save
OUT=$R timeout 400 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null; save
zcat $R/unit_tests*.xml.gz 2>/dev/null | grep -o '<property name="max_abs_v_on[^/]*' | tee -a $R/run.log
cd $R; E=$ROOT/examples/sim
for c in ringtest ring; do timeout 30 $B/hinesbatch-sim $E/$c.json --set network.cells=10000 --set 'output={}' --metrics ${c}10k.json --spikes ${c}10k_spikes.txt > ${c}10k.log 2>&1; echo "${c}10k rc=$? $(grep -o 'done: .*' ${c}10k.log | cut -c1-110) md5 $(md5sum < ${c}10k_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${c}10k_spikes.txt; done
save
cd $R; timeout 60 $B/hinesbatch-sim $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set 'output={}' --metrics p3syn100k.json --spikes p3syn100k_spikes.txt > p3syn100k.log 2>&1; echo "p3syn100k rc=$? $(grep -o 'done: .*' p3syn100k.log | cut -c1-110) md5 $(md5sum < p3syn100k_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f p3syn100k_spikes.txt
save
cd $R
hrun() {  # name binary config args... (host backend: the lanes schedule)
  local n=$1 b=$2 c=$3; shift 3
  OMP_NUM_THREADS=16 OMP_PROC_BIND=spread OMP_PLACES=threads $B/$b $E/$c --backend host --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1 & local pid=$! hwm=0
  while kill -0 $pid 2>/dev/null; do h=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$h" ] && hwm=$h; sleep 0.05; done
  wait $pid; local rc=$?
  echo "$n rc=$rc host_peak_MiB $((hwm/1024)) $(grep -o 'done: .*' $n.log | cut -c1-100) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"setup_cells_s": [0-9.]*' $n.json) $(grep -o '"setup_connections_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=1"
for i in 1 2; do
  hrun host_p3syn100k_new$i hinesbatch-sim p3_synaptic.json $P3
  hrun host_p3syn100k_old$i hinesbatch-sim-old p3_synaptic.json $P3
done
save
