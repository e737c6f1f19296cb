# Call B (2026-11-24, issue #10), nvidia-h100-x1: where the on-chip schedule keeps the solve's operands. sim-v1: scratch holds v, d, rhs, -g_axial and parents (+ hh gates); sim-v2: -g_axial and parents also read from the template's block (scratch: v, d, rhs + gates); sim-old: the previous build (ce22892). Alternating runs, same GPU.
D=$OUT; R=/tmp/rB; mkdir -p $R; cp .devcarry/cmdB.sh $R/cmd.sh
tar xzf .devcarry/sims.tgz -C /tmp; B=/tmp/bin; export LD_LIBRARY_PATH=/tmp/lib
E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt
save() { tar czf $D/rB.tgz -C $R .; }
cd $R
run() {  # name binary config args...
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
}
for v in v1 v2; do run ringtest10k_$v sim-$v ringtest.json --set network.cells=10000; done
for v in v2 v1; do run ring10k_$v sim-$v ring.json --set network.cells=10000; done
for v in v1 v2; do run ringtest65k_$v sim-$v ringtest.json --set network.cells=65536; done
save
for v in v2 v1; do run p3syn100k_$v sim-$v p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100; done
save
for v in v1 v2; do run ring100k_$v sim-$v ring.json --set network.cells=100000; done
save
for v in v2 v1; do run ringtest65k_${v}b sim-$v ringtest.json --set network.cells=65536; done
for v in v1 v2; do run ring10k_${v}b sim-$v ring.json --set network.cells=10000; done
save
