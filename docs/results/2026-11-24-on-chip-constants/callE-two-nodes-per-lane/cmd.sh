# Call E (2026-11-24, issue #10), nvidia-h100-x1: the hh update two nodes per lane and pass (sim-v3) against one (sim-v2, the code of a784a86), alternating on one GPU.
D=$OUT; R=/tmp/rE; mkdir -p $R; cp .devcarry/cmdE.sh $R/cmd.sh
tar xzf .devcarry/sims.tgz -C /tmp; B=/tmp/bin; export LD_LIBRARY_PATH=/tmp/lib
E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rE.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt
}
for v in v2 v3; do run ringtest10k_$v sim-$v ringtest.json --set network.cells=10000; done
for v in v3 v2; do run ringtest65k_$v sim-$v ringtest.json --set network.cells=65536; done
save
for v in v2 v3; do run p3syn100k_$v sim-$v p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100; done
for v in v3 v2; do run ring10k_$v sim-$v ring.json --set network.cells=10000; done
for v in v2 v3; do run ringtest10k_${v}b sim-$v ringtest.json --set network.cells=10000; done
save
