# Call H (2026-11-24, issue #10), nvidia-h100-x1, final binaries (hinesbatch-sim: hh gates in memory) against the previous build (hinesbatch-sim-old, ce22892) and the first change of the session (hinesbatch-sim-a784, a784a86: constants in the template block, gates in shared memory), alternating on one GPU: the issue's networks, CoreNEURON's ringtest model (hh on every node), the setup of 50 M connections; Nsight Compute on the epoch kernel (P3 synaptic and ringtest).
D=$OUT; R=/tmp/rH; mkdir -p $R; cp .devcarry/cmdH.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; nproc --all > $R/nproc.txt; date -u > $R/date.txt
save() { tar czf $D/rH.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-120) $(grep -o '"setup_s": [0-9.]*' $n.json) $(grep -o '"events_delivered_rank0": [0-9]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
run p3syn100k_new hinesbatch-sim p3_synaptic.json $P3
run p3syn100k_old hinesbatch-sim-old p3_synaptic.json $P3
run ring100k_new hinesbatch-sim ring.json --set network.cells=100000
run ring100k_old hinesbatch-sim-old ring.json --set network.cells=100000
save
for k in 1 2 3; do run ring10k_new$k hinesbatch-sim ring.json --set network.cells=10000; done
run ring10k_old hinesbatch-sim-old ring.json --set network.cells=10000
run ringtest10k_new hinesbatch-sim ringtest.json --set network.cells=10000
run ringtest10k_cells hinesbatch-sim ringtest.json --set network.cells=10000 --on-chip off
run ringtest65k_new hinesbatch-sim ringtest.json --set network.cells=65536
run ringtest65k_cells hinesbatch-sim ringtest.json --set network.cells=65536 --on-chip off
run ringtest65k_old hinesbatch-sim-old ringtest.json --set network.cells=65536
run ringtest65k_a784 hinesbatch-sim-a784 ringtest.json --set network.cells=65536
run ringtest10k_a784 hinesbatch-sim-a784 ringtest.json --set network.cells=10000
run p3syn100k_a784 hinesbatch-sim-a784 p3_synaptic.json $P3
run ringtest100k_new hinesbatch-sim ringtest.json --set network.cells=100000
save
run p3lit100k_new hinesbatch-sim p3.json --set network.cells=100000
save
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for c in ringtest p3_synaptic; do
  timeout 100 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
    $B/hinesbatch-sim $E/$c.json --set network.cells=10000 --set tstop=10 --set 'output={}' --quiet --metrics ncu_$c.json > ncu_$c.txt 2> ncu_$c.err; echo "ncu $c rc=$?" | tee -a run.log
  grep -E 'Duration|dram__bytes|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Dynamic Shared Memory Per|Block Limit Shared|L1/TEX Hit|Registers Per' ncu_$c.txt | tee -a run.log; grep -o '"epoch_steps": [0-9]*' ncu_$c.json | tee -a run.log
  gzip -9 ncu_$c.txt; save
done
