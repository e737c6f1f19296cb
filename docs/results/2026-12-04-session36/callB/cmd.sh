#!/usr/bin/env bash
# Call B: the landed build (waits per warp where the plan allows; no cut by warp). 1) the
# real-cell networks (3 runs of the mixed 20,000, 2 of the others) and the P3, ringtest and
# busyring networks once; 2) BlockPerSystem and Auto over the shared SWC trees, random trees
# and the simulator's compartments (as call A); 3) compute-sanitizer racecheck (shared
# memory hazards between the warps of a team) on the block schedule's tests and on
# hinesbatch-sim with teams of 128 and 256 lanes, memcheck on the same; 4) the whole CUDA
# unit suite, three gtest shards side by side.
# .devcarry/binB.txz. Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/sim; M=$OUT/map; U=$OUT/t; mkdir -p $T $M $U
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
sim() {  # name args...
  local name=$1; shift; local f=$T/$name
  timeout 60 $c/binB/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $f.json --spikes $f.spk > $f.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$f.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule_detail','')[:120])" 2>/dev/null) $(md5sum < $f.spk | cut -c1-8)"
}
for rep in 1 2; do
  sim MX20-$rep examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
  sim MX2-$rep examples/sim/real_mixed.json --set network.cells=2000 --set network.kick.cells=100 --set tstop=50
  sim LG2000-$rep examples/sim/real_large.json --set network.cells=2000 --set network.kick.cells=200 --set tstop=50
  sim LG200-$rep examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50
  sim MO200-$rep examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50
done
sim MX20-3 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50
sim P3 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
sim RINGTEST examples/sim/ringtest.json --set network.cells=65536 --set tstop=100
sim BUSYRING examples/sim/ring.json --set network.cells=10000
rm -f $T/*.spk
timeout 150 $c/binB/hinesbatch_solver_map --map-backends=device --map-families=hines --map-trees=real,random,compartments \
  --map-totals=20,22,24,26 --benchmark_filter='/(Auto|BlockPerSystem)/' --map-reps=3 \
  --benchmark_out=$M/map-final.json --benchmark_out_format=json > $M/map-final.txt 2>&1
stamp "map rc=$? $(grep -c floor_frac $M/map-final.txt) points"
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
OMP_NUM_THREADS=4 timeout 150 $CS --tool racecheck $c/binB/hinesbatch_unit_tests \
  --gtest_filter='HinesBatchSolve/*.Block*' > $U/racecheck_block.log 2>&1
stamp "racecheck block rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED' $U/racecheck_block.log | tr '\n' ' ')"
for lanes in 128 256; do
  timeout 90 $CS --tool racecheck $c/binB/hinesbatch-sim examples/sim/real_mixed.json --set network.cells=24 --set network.kick.cells=4 \
    --set tstop=0.5 --set run.on_chip_lanes=$lanes --quiet --set 'output={}' --metrics $U/rc_sim_$lanes.json > $U/racecheck_sim_$lanes.log 2>&1
  stamp "racecheck sim mixed, $lanes lanes rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/racecheck_sim_$lanes.log | tr '\n' ' ') $(python3 -c "import json; m=json.load(open('$U/rc_sim_$lanes.json')); print(m.get('schedule_detail','')[:100])" 2>/dev/null)"
done
timeout 90 $CS --tool racecheck $c/binB/hinesbatch-sim examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=4 \
  --set network.kick.cells=2 --set tstop=0.25 --set 'run.on_chip_split_spines="on"' --set run.on_chip_lanes=256 --quiet --set 'output={}' \
  --metrics $U/rc_moto.json > $U/racecheck_moto.log 2>&1
stamp "racecheck sim moto1 10 um split, 256 lanes rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/racecheck_moto.log | tr '\n' ' ')"
OMP_NUM_THREADS=4 timeout 60 $CS --tool memcheck --leak-check no $c/binB/hinesbatch_unit_tests \
  --gtest_filter='HinesBatchSolve/*.Block*:*Packed*Lanes*' > $U/memcheck_block.log 2>&1
stamp "memcheck block rc=$? $(grep -E 'ERROR SUMMARY|tests? ran|PASSED|FAILED' $U/memcheck_block.log | tr '\n' ' ')"
for i in 0 1 2; do
  OMP_NUM_THREADS=5 GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i timeout 330 \
    $c/binB/hinesbatch_unit_tests --gtest_output=xml:$U/unit_$i.xml > $U/unit_$i.log 2>&1 &
done
wait
for i in 0 1 2; do stamp "shard $i: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $U/unit_$i.log | tr '\n' ' ')"; done
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head -20 | tee -a $S
(cd $OUT && tar cJf sim.tar.xz sim && rm -rf sim && tar cJf map.tar.xz map && rm -rf map && tar cJf t.tar.xz t && rm -rf t)
stamp done
