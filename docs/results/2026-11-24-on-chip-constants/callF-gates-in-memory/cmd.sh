# Call F (2026-11-24, issue #10), nvidia-h100-x1: the hh gates in memory, in each cell's own rows (sim-v4), against in shared memory (sim-v2, the code of a784a86), alternating on one GPU.
D=$OUT; R=/tmp/rF; mkdir -p $R; cp .devcarry/cmdF.sh $R/cmd.sh
tar xzf .devcarry/sims.tgz -C /tmp; B=/tmp/bin; export LD_LIBRARY_PATH=/tmp/lib
E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rF.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt
}
for v in v2 v4; do run ringtest10k_$v sim-$v ringtest.json --set network.cells=10000; done
for v in v4 v2; do run ringtest65k_$v sim-$v ringtest.json --set network.cells=65536; done
save
for v in v2 v4; do run p3syn100k_$v sim-$v p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100; done
for v in v4 v2; do run ring10k_$v sim-$v ring.json --set network.cells=10000; done
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1); timeout 60 $ncu -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum $B/sim-v4 $E/ringtest.json --set network.cells=10000 --set tstop=5 --set "output={}" --quiet > ncu_ringtest_v4.txt 2>&1; grep -E "Duration|dram__bytes|Achieved Occupancy|Compute \(SM\) Throughput|L1/TEX Hit|L2 Hit|Block Limit Shared" ncu_ringtest_v4.txt | tee -a run.log; gzip -9 ncu_ringtest_v4.txt
for v in v2 v4; do run ringtest10k_${v}b sim-$v ringtest.json --set network.cells=10000; done
save
