# Call J (2026-11-24, issue #10), nvidia-h100-x1: the review mend's binary (sim-final, 2d2ebbe: a rename) against sim-v4 (the code of 142913c), alternating, after call I's 10,000-cell runs read slower than call H's.
D=$OUT; R=/tmp/rJ; mkdir -p $R; cp .devcarry/cmdJ.sh $R/cmd.sh
tar xzf .devcarry/sims.tgz -C /tmp; B=/tmp/bin; export LD_LIBRARY_PATH=/tmp/lib
E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt; date -u > $R/date.txt; nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee -a $R/run.log
save() { tar czf $D/rJ.tgz -C $R .; }
cd $R
run() {
  local n=$1 b=$2 c=$3; shift 3
  timeout 100 $B/$b $E/$c --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt "$@" > $n.log 2>&1
  echo "$n rc=$? $(grep -o 'done: .*' $n.log | cut -c1-110) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
  rm -f ${n}_spikes.txt
}
for k in 1 2; do for v in v4 final; do run ringtest10k_${v}_$k sim-$v ringtest.json --set network.cells=10000; run ring10k_${v}_$k sim-$v ring.json --set network.cells=10000; done; done
for v in final v4; do run ringtest65k_$v sim-$v ringtest.json --set network.cells=65536; done
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv | tee -a $R/run.log
save
