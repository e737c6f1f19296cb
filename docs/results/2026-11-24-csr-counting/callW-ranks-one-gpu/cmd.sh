# Call W (2026-11-24, stop 27, issue #10), nvidia-h100-x1: the multi-rank GPU path with this stop's code (eb054d9: on-chip epoch kernel of stop 25, setup of stop 26, CSR of stop 27) while no multi-GPU machine is lent: 1, 2 and 4 MPI ranks sharing the one H100, overlap on and off; the raster must not depend on ranks or overlap (spike md5). Not a scaling measurement: the ranks share one GPU.
D=$OUT; R=/tmp/rW; mkdir -p $R; cp .devcarry/cmdW.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/simbin.tgz -C .devcarry
source scripts/gpu/mpi-env.sh
export LD_LIBRARY_PATH=$PWD/.devcarry/lib:$LD_LIBRARY_PATH
B=$PWD/.devcarry/bin; E=$PWD/examples/sim
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt; date -u > $R/date.txt; mpirun --version | head -1 > $R/mpi.txt
cd $R
for net in "p3syn20k p3_synaptic.json --set network.cells=20000 --set network.kick.cells=2000" "ring10k ring.json --set network.cells=10000"; do
  set -- $net; name=$1; cfg=$2; shift 2
  for np in 1 2 4; do for ov in on off; do
    n=${name}_np${np}_overlap_$ov; x=(); [ $ov = off ] && x=(--no-overlap)
    timeout 120 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $np $B/hinesbatch-sim $E/$cfg "$@" "${x[@]}" --set 'output={}' --metrics $n.json --spikes ${n}_spikes.txt > $n.log 2>&1
    echo "$n rc=$? $(grep -o 'done: .*' $n.log | head -1 | cut -c1-90) $(grep -o '"ranks": [0-9]*' $n.json) $(grep -o '"overlap": [a-z]*' $n.json) $(grep -o '"events_delivered_rank0": [0-9]*' $n.json) md5 $(md5sum < ${n}_spikes.txt | cut -c1-8)" | tee -a run.log
    rm -f ${n}_spikes.txt
  done; done
done
tar czf $D/rW.tgz -C $R .
