# The simulation after the model/mechanism refactor (issue #10) against the binary of before, H100.
ROOT=$PWD; D=$OUT; R=/tmp/s; mkdir -p $R; B=$ROOT/.devcarry/bin; E=$ROOT/examples/sim
source $ROOT/scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false
cd $R
for v in hinesbatch-sim hinesbatch-sim-old; do
  timeout 100 $B/$v $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set 'output={}' --metrics p3syn_100k_$v.json --spikes p3syn_100k_$v.txt > p3_$v.log 2>&1; echo "$v p3 rc=$?"
  timeout 60 $B/$v $E/ring.json --set network.cells=10000 --set 'output={}' --metrics ring_10k_$v.json --spikes ring_10k_$v.txt > ring_$v.log 2>&1; echo "$v ring rc=$?"
done
cmp p3syn_100k_hinesbatch-sim.txt p3syn_100k_hinesbatch-sim-old.txt && echo "p3 spikes identical ($(wc -l < p3syn_100k_hinesbatch-sim.txt) spikes)"
cmp ring_10k_hinesbatch-sim.txt ring_10k_hinesbatch-sim-old.txt && echo "ring spikes identical ($(wc -l < ring_10k_hinesbatch-sim.txt) spikes)"
grep -h "done:" *.log
tar czf $D/s.tgz -C $R .
