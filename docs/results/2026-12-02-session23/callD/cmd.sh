#!/usr/bin/env bash
# Call D: the landed build. 1) the Hines device map's paper classes and chains (big-low and
# the chains now split in BlockPerSystem), Auto, BlockPerSystem and the warp and team
# schedules, 2^22 and 2^26 nodes (against session 22's call C); 2) the sim's targets once
# (auto); 3) the whole CUDA unit suite, three gtest shards side by side (5 OpenMP threads
# each for the host backends the suite also runs); 4) compute-sanitizer memcheck: the
# block schedule's tests, and hinesbatch-sim on v_e_moto1 at 10 um with split spines.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
mkdir -p $c/x && for f in $c/bin/*.xz; do b=$(basename $f .xz); [ -x $c/x/$b ] || { xz -dc $f > $c/x/$b; chmod +x $c/x/$b; }; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; T=$OUT/t; M=$OUT/map; mkdir -p $T $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
timeout 60 $c/x/hinesbatch_solver_map --map-backends=device --map-families=hines --map-trees=classes,chain \
  --map-totals=22,26 --benchmark_filter='/(Auto|BlockPerSystem|WarpPerSystem|TeamPerSystem)/' --map-reps=3 \
  --benchmark_out=$M/map.json --benchmark_out_format=json > $M/map.txt 2>&1
stamp "map rc=$?"
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
for net in "MX20 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50" \
           "MO200 examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50" \
           "P3 examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"; do
  set -- $net; name=$1; shift
  timeout 60 $c/x/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $T/$name.json --spikes $T/$name.spk > $T/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$T/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule_detail','')[:160])" 2>/dev/null) $(md5sum < $T/$name.spk | cut -c1-8)"
done
rm -f $T/*.spk
for i in 0 1 2; do
  OMP_NUM_THREADS=5 OMP_PROC_BIND=false GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i timeout 400 \
    $c/x/hinesbatch_unit_tests --gtest_output=xml:$T/unit_$i.xml > $T/unit_$i.log 2>&1 &
done
wait
for i in 0 1 2; do stamp "shard $i: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $T/unit_$i.log | tr '\n' ' ')"; done
grep -h "^\[  FAILED  \]" $T/unit_*.log | sort -u | head -20 | tee -a $S
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
OMP_NUM_THREADS=4 timeout 60 $CS --tool memcheck --leak-check no $c/x/hinesbatch_unit_tests \
  --gtest_filter='HinesBatchSolve/*.Block*' > $T/memcheck_block.log 2>&1
stamp "memcheck block rc=$? $(grep -E 'ERROR SUMMARY|tests? ran|PASSED|FAILED' $T/memcheck_block.log | tr '\n' ' ')"
timeout 60 $CS --tool memcheck --leak-check no $c/x/hinesbatch-sim examples/sim/real_large.json \
  --set cell.morphology=$MOTO --set network.cells=4 --set network.kick.cells=2 --set tstop=0.5 \
  --set 'run.on_chip_split_spines="on"' --set run.on_chip_lanes=256 --quiet --set 'output={}' --metrics $T/mc_sim.json > $T/memcheck_sim.log 2>&1
stamp "memcheck sim (moto1 10 um, split on) rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck_sim.log) $(python3 -c "import json; m=json.load(open('$T/mc_sim.json')); print(m.get('schedule_detail','')[:160])" 2>/dev/null)"
(cd $OUT && tar cJf t.tar.xz t && rm -rf t && tar cJf map.tar.xz map && rm -rf map)
stamp done
