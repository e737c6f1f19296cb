# Call L (2026-11-24, stop 26, issue #10), nvidia-h100-x1: setup time (setup_s, and setup_cells_s where the binary reports it) and host memory peak (VmHWM of the simulator process) of the final setup (per template, in parallel over slots; hinesbatch-sim) against 301f438 (hinesbatch-sim-old), alternating; same spikes expected.
D=$OUT; R=/tmp/rL; mkdir -p $R; cp .devcarry/cmdL.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rL.tgz -C $R .; }
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
run ring10k_new hinesbatch-sim ring.json --set network.cells=10000
run ring10k_old hinesbatch-sim-old ring.json --set network.cells=10000
for i in 1 2; do
  run p3syn100k_new$i hinesbatch-sim p3_synaptic.json $P3
  run p3syn100k_old$i hinesbatch-sim-old p3_synaptic.json $P3
  save
  run p3lit100k_new$i hinesbatch-sim p3.json --set network.cells=100000
  run p3lit100k_old$i hinesbatch-sim-old p3.json --set network.cells=100000
  save
done
run ringtest100k_new hinesbatch-sim ringtest.json --set network.cells=100000
run ringtest100k_old hinesbatch-sim-old ringtest.json --set network.cells=100000
save
