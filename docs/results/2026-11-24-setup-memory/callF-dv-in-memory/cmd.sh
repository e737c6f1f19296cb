# Call F (2026-11-24, stop 25, issue #10), nvidia-h100-x1: experiment, continued. v out of team scratch with NEURON's system for dv kept (hinesbatch-sim-vrows-dv: v in the cell's row in memory, read across lanes from there; launch bounds 32 x 28), against the system for v itself (hinesbatch-sim-vrows-lb28, call E) and the final binaries (hinesbatch-sim, f8ee111), alternating.
D=$OUT; R=/tmp/rF; mkdir -p $R; cp .devcarry/cmdF.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry; cp .devcarry/hinesbatch-sim-vrows* .devcarry/bin/
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rF.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log; rm -f ${n}_spikes.txt
}
P3="--set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for k in 1 2; do for b in vrows-dv vrows-lb28 final; do
  bin=hinesbatch-sim-$b; [ $b = final ] && bin=hinesbatch-sim
  run p3syn100k_${b}_$k $bin p3_synaptic.json $P3
done; done
save
for k in 1 2; do for b in vrows-dv vrows-lb28 final; do
  bin=hinesbatch-sim-$b; [ $b = final ] && bin=hinesbatch-sim
  run ring10k_${b}_$k $bin ring.json --set network.cells=10000
  run ringtest65k_${b}_$k $bin ringtest.json --set network.cells=65536
done; done
save
