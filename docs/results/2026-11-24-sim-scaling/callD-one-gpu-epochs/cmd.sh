# Call D (2026-11-24, issue #10), nvidia-h100-x1, same binaries as calls A-C: one GPU, one rank, with overlap (epochs of 20 steps: what a one-rank run does today, though it has no exchange to hide) and without (epochs of 40 steps).
D=$OUT; R=/tmp/rD; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib OMP_PROC_BIND=false
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi -L | tee $R/gpu.txt
cd $R
run() { name=$1; shift; timeout 60 $B/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $name.json --spikes $name.txt > $name.log 2>&1; echo "$name rc=$? $(md5sum < $name.txt | cut -c1-8) $(grep -o '"epoch_steps": [0-9]*' $name.json) $(grep -o '"compartment_steps_per_s": [0-9.e+]*' $name.json) $(grep -o '"wall_s": [0-9.e+]*' $name.json)" | tee -a run.log; }
for rep in 1 2; do
  run ring10k_overlap_$rep $E/ring.json --set network.cells=10000
  run ring10k_nooverlap_$rep $E/ring.json --set network.cells=10000 --no-overlap
done
run p3syn100k_overlap $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run p3syn100k_nooverlap $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --no-overlap
tar czf $D/rD.tgz -C $R .
run ring100k_overlap $E/ring.json --set network.cells=100000
run ring100k_nooverlap $E/ring.json --set network.cells=100000 --no-overlap
md5sum *.txt > spikes.md5; rm -f *.txt
tar czf $D/rD.tgz -C $R .
