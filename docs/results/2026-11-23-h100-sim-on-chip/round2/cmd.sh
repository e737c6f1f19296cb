# On-chip epoch schedule, round 2 (scratch pointers in registers, per-cell ranges read once per epoch), H100: sims and ncu.
ROOT=$PWD; D=$OUT; R=/tmp/l2; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
source $ROOT/scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false
B=$ROOT/.devcarry/bin; E=$ROOT/examples/sim
cd $R
timeout 60 $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set 'output={}' --metrics ring_10k_auto.json --spikes ring_10k_auto.txt > ring_10k_auto.log 2>&1; echo "ring 10k rc=$?"
timeout 90 $B/hinesbatch-sim $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --set 'output={}' --metrics p3syn_100k_auto.json --spikes p3syn_100k_auto.txt > p3syn_100k_auto.log 2>&1; echo "p3syn 100k rc=$?"
md5sum *.txt
grep -h "done:" *.log
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 200 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section MemoryWorkloadAnalysis --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum \
  $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set tstop=5 --set 'output={}' --quiet > ncu_ring.txt 2> ncu_ring.err; echo "ncu rc=$?"
grep -E 'Duration|dram__bytes|inst_executed|local_op|Registers|Achieved Occupancy|Theoretical Occupancy|Warp Cycles Per Issued|Stall|Issued Warp|Block Limit Shared' ncu_ring.txt | head -30
gzip -9 *.txt
tar czf $D/l2.tgz -C $R .
