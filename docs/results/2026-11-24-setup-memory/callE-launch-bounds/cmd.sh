# Call E (2026-11-24, stop 25, issue #10), nvidia-h100-x1: experiment, continued. v out of team scratch (hinesbatch-sim-vrows, call D) with launch bounds of 32 threads and at least 25 or 28 blocks per SM (hinesbatch-sim-vrows-lb25, -lb28: the compiler caps registers so that 25 or 28 cells fit, where 86 registers allowed 20), against vrows and the final binaries (hinesbatch-sim, f8ee111), alternating; Nsight Compute on the launch-bound builds.
D=$OUT; R=/tmp/rE; mkdir -p $R; cp .devcarry/cmdE.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry; cp .devcarry/hinesbatch-sim-vrows* .devcarry/bin/
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rE.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for b in vrows-lb25 vrows-lb28 vrows final; do
  bin=hinesbatch-sim-$b; [ $b = final ] && bin=hinesbatch-sim
  run p3syn100k_$b $bin p3_synaptic.json $P3
done
save
for k in 1 2; do for b in vrows-lb25 vrows-lb28 vrows final; do
  bin=hinesbatch-sim-$b; [ $b = final ] && bin=hinesbatch-sim
  run ring10k_${b}_$k $bin ring.json --set network.cells=10000
done; done
for b in vrows-lb25 vrows-lb28 vrows final; do
  bin=hinesbatch-sim-$b; [ $b = final ] && bin=hinesbatch-sim
  run ringtest65k_$b $bin ringtest.json --set network.cells=65536
done
save
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
for b in vrows-lb25 vrows-lb28; do for c in p3_synaptic ringtest; do
  timeout 60 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis --metrics dram__bytes_read.sum,dram__bytes_write.sum,local_load_bytes:=l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum \
    $B/hinesbatch-sim-$b $E/$c.json --set network.cells=10000 --set tstop=10 --set 'output={}' --quiet > ncu_${b}_$c.txt 2>&1; echo "ncu $b $c rc=$?" | tee -a run.log
  grep -E 'Duration|dram__bytes|l1tex__t_bytes_pipe_lsu_mem_local|Achieved Occupancy|Theoretical Occupancy|Compute \(SM\) Throughput|Block Limit Shared|Block Limit Reg|L2 Hit|Registers Per' ncu_${b}_$c.txt | tee -a run.log
  gzip -9 ncu_${b}_$c.txt; save
done; done
