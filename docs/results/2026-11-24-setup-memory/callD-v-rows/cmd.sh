# Call D (2026-11-24, stop 25, issue #10), nvidia-h100-x1: experiment. The on-chip epoch kernel with v out of team scratch (hinesbatch-sim-vrows: each cell's voltages in its own row in memory, the system assembled for the new v so no lane reads another's v; scratch d and rhs, 16 B per node) against the final binaries (hinesbatch-sim, f8ee111: v, d, rhs in scratch, 24 B per node), alternating on one GPU; Nsight Compute on both.
D=$OUT; R=/tmp/rD; mkdir -p $R; cp .devcarry/cmdD.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry; cp .devcarry/hinesbatch-sim-vrows .devcarry/bin/
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rD.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for k in 1 2; do
  run p3syn100k_vrows$k hinesbatch-sim-vrows p3_synaptic.json $P3
  run p3syn100k_final$k hinesbatch-sim p3_synaptic.json $P3
done
save
for k in 1 2; do
  run ring10k_vrows$k hinesbatch-sim-vrows ring.json --set network.cells=10000
  run ring10k_final$k hinesbatch-sim ring.json --set network.cells=10000
  run ringtest65k_vrows$k hinesbatch-sim-vrows ringtest.json --set network.cells=65536
  run ringtest65k_final$k hinesbatch-sim ringtest.json --set network.cells=65536
done
run ring100k_vrows hinesbatch-sim-vrows ring.json --set network.cells=100000
run ring100k_final hinesbatch-sim ring.json --set network.cells=100000
save
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for b in hinesbatch-sim-vrows hinesbatch-sim; do for c in p3_synaptic ringtest; do
  timeout 60 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum \
    $B/$b $E/$c.json --set network.cells=10000 --set tstop=10 --set 'output={}' --quiet > ncu_${b}_$c.txt 2>&1; echo "ncu $b $c rc=$?" | tee -a run.log
  grep -E 'Duration|dram__bytes|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Block Limit Shared|Block Limit Reg|L1/TEX Hit|L2 Hit|Registers Per' ncu_${b}_$c.txt | tee -a run.log
  gzip -9 ncu_${b}_$c.txt; save
done; done
