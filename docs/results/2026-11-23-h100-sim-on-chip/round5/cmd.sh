# On-chip epoch schedule, round 5 (host-only plan accessors made device functions; the solve over a multi-level CellLanePlan: pieces are small subtrees or chains between branch points), H100: sims, ncu, the simulation's CUDA tests.
ROOT=$PWD; D=$OUT; R=/tmp/l5; mkdir -p $R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
source $ROOT/scripts/gpu/mpi-env.sh; export OMP_PROC_BIND=false
B=$ROOT/.devcarry/bin; E=$ROOT/examples/sim
cd $R
run() { name=$1; shift; timeout 90 $B/hinesbatch-sim "$@" --set 'output={}' --metrics $name.json --spikes $name.txt > $name.log 2>&1; echo "$name rc=$? $(grep -h 'done:' $name.log | sed 's/.*done: //')"; }
run ring_10k_on $E/ring.json --set network.cells=10000 --on-chip on
run p3syn_100k_on $E/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100 --on-chip on
run p3syn_25k_on $E/p3_synaptic.json --set network.cells=25000 --set network.kick.cells=2500 --set tstop=100 --on-chip on
run p3syn_25k_off $E/p3_synaptic.json --set network.cells=25000 --set network.kick.cells=2500 --set tstop=100 --on-chip off
run ring_100k_on $E/ring.json --set network.cells=100000 --on-chip on
run ring_100k_off $E/ring.json --set network.cells=100000 --on-chip off
md5sum *.txt; cmp p3syn_25k_on.txt p3syn_25k_off.txt && echo "p3syn 25k: on = off"; cmp ring_100k_on.txt ring_100k_off.txt && echo "ring 100k: on = off"
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu | head -1)
timeout 200 $ncu --kernel-name-base demangled -k regex:StepCellEpochOnChip --launch-skip 3 -c 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats --metrics dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum \
  $B/hinesbatch-sim $E/ring.json --set network.cells=10000 --set tstop=5 --set 'output={}' --on-chip on --quiet > ncu_ring.txt 2> ncu_ring.err; echo "ncu rc=$?"
grep -E 'Duration|dram__bytes|inst_executed|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Issued Warp' ncu_ring.txt | head -12
cd $ROOT; timeout 200 .devcarry/bin/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:CellLanePlan*:Simulation*:RunSimulation*:ExplicitNetwork*' > $R/unit_sim.log 2>&1; echo "unit sim rc=$?"; grep -E '^\[  (PASSED|FAILED)|FAILED|Failure' $R/unit_sim.log | head; cd $R
rm -f *.txt; gzip -9 ncu_ring.txt unit_sim.log
tar czf $D/l5.tgz -C $R .
