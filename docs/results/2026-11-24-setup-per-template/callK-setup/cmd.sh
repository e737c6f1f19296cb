# Call K (2026-11-24, stop 26, issue #10), nvidia-h100-x1: setup time and memory, the per-template setup (hinesbatch-sim) against 301f438 (hinesbatch-sim-old), alternating on one GPU; nvidia-smi samples device memory every 20 ms, /proc VmHWM gives the host's peak; same spikes expected.
D=$OUT; R=/tmp/rK; mkdir -p $R; cp .devcarry/cmdK.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rK.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader,nounits -lms 20 > ${n}_mem.csv 2>/dev/null & local sp=$!
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1 & local pid=$! hwm=0
  while kill -0 $pid 2>/dev/null; do h=$(awk '/VmHWM/{print $2}' /proc/$pid/status 2>/dev/null); [ -n "$h" ] && hwm=$h; sleep 0.05; done
  wait $pid; local rc=$?
  sleep 0.3; kill $sp; wait $sp 2>/dev/null
  echo "$n rc=$rc device_peak_MiB $(awk -F', ' 'BEGIN{m=0}{if($2+0>m)m=$2+0}END{print m}' ${n}_mem.csv) host_peak_MiB $((hwm/1024)) $(grep -o 'done: .*' $n.log | cut -c1-100) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"setup_connections_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt; gzip -9 ${n}_mem.csv
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
run p3syn100k_new hinesbatch-sim p3_synaptic.json $P3
run p3syn100k_old hinesbatch-sim-old p3_synaptic.json $P3
save
run p3lit100k_new hinesbatch-sim p3.json --set network.cells=100000
run p3lit100k_old hinesbatch-sim-old p3.json --set network.cells=100000
save
run ringtest100k_new hinesbatch-sim ringtest.json --set network.cells=100000
run ringtest100k_old hinesbatch-sim-old ringtest.json --set network.cells=100000
save
run p3lit100k_new2 hinesbatch-sim p3.json --set network.cells=100000
run p3syn100k_new2 hinesbatch-sim p3_synaptic.json $P3
run p3lit100k_old2 hinesbatch-sim-old p3.json --set network.cells=100000
save
