# Call H (2026-11-24, stop 25, issue #10), nvidia-h100-x1: final binaries (hinesbatch-sim) against the code before this change (hinesbatch-sim-prev, f8ee111: v, d and rhs in scratch, no launch bounds), alternating on one GPU: the issue's networks and CoreNEURON's ringtest model, 100 ms, same spikes expected; P3's literal setup; Nsight Compute on the epoch kernel.
D=$OUT; R=/tmp/rH; mkdir -p $R; cp .devcarry/cmdH.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rH.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) $(grep -o '"setup_connections_s": [0-9.]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for k in 1 2; do
  run p3syn100k_new$k hinesbatch-sim p3_synaptic.json $P3
  run p3syn100k_prev$k hinesbatch-sim-prev p3_synaptic.json $P3
done
save
run ring100k_new hinesbatch-sim ring.json --set network.cells=100000
run ring100k_prev hinesbatch-sim-prev ring.json --set network.cells=100000
for k in 1 2 3; do
  run ring10k_new$k hinesbatch-sim ring.json --set network.cells=10000
  run ring10k_prev$k hinesbatch-sim-prev ring.json --set network.cells=10000
done
run ringtest10k_new hinesbatch-sim ringtest.json --set network.cells=10000
run ringtest10k_prev hinesbatch-sim-prev ringtest.json --set network.cells=10000
run ringtest65k_new hinesbatch-sim ringtest.json --set network.cells=65536
run ringtest65k_prev hinesbatch-sim-prev ringtest.json --set network.cells=65536
save
run ringtest100k_new hinesbatch-sim ringtest.json --set network.cells=100000
run p3lit100k_new hinesbatch-sim p3.json --set network.cells=100000
save
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for c in p3_synaptic ringtest; do
  timeout 60 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    $B/hinesbatch-sim $E/$c.json --set network.cells=10000 --set tstop=10 --set 'output={}' --quiet --metrics ncu_$c.json > ncu_$c.txt 2>&1; echo "ncu $c rc=$?" | tee -a run.log
  grep -E 'Duration|dram__bytes|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Block Limit Shared|Block Limit Reg|L1/TEX Hit|L2 Hit|Registers Per' ncu_$c.txt | tee -a run.log; grep -o '"epoch_steps": [0-9]*' ncu_$c.json | tee -a run.log
  gzip -9 ncu_$c.txt; save
done
