# Call B (2026-11-24, stop 25, issue #10), nvidia-h100-x1: device memory during setup, the reapplied review mend (hinesbatch-sim) against the code before it (hinesbatch-sim-old, 661764d), alternating on one GPU; nvidia-smi samples memory.used every 20 ms during each run; same spikes expected.
D=$OUT; R=/tmp/rB; mkdir -p $R; cp .devcarry/cmdB.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rB.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  nvidia-smi --query-gpu=timestamp,memory.used --format=csv,noheader,nounits -lms 20 > ${n}_mem.csv 2>/dev/null & local sp=$!
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1; local rc=$?
  sleep 0.3; kill $sp; wait $sp 2>/dev/null
  echo "$n rc=$rc peak_MiB $(awk -F', ' 'BEGIN{m=0}{if($2+0>m)m=$2+0}END{print m}' ${n}_mem.csv) $(grep -o 'done: .*' $n.log | cut -c1-100) $(grep -o '"setup_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt; gzip -9 ${n}_mem.csv
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
run p3syn100k_new hinesbatch-sim p3_synaptic.json $P3
run p3syn100k_old hinesbatch-sim-old p3_synaptic.json $P3
save
run ringtest100k_new hinesbatch-sim ringtest.json --set network.cells=100000
run ringtest100k_old hinesbatch-sim-old ringtest.json --set network.cells=100000
save
run p3lit100k_new hinesbatch-sim p3.json --set network.cells=100000
run p3lit100k_old hinesbatch-sim-old p3.json --set network.cells=100000
run p3syn100k_new2 hinesbatch-sim p3_synaptic.json $P3
save
