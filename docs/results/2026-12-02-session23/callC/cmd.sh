#!/usr/bin/env bash
# Call C: the final build's whole CUDA unit suite (three gtest shards side by side), then
# compute-sanitizer memcheck on the lanes' solve with split plans: BlockPerSystem's shapes
# and real trees (every lane count, u/l and plan on chip or not, level-1 scratch), the
# real-cell rasters with split spines forced on, and hinesbatch-sim's mixed network (300
# cells) with split spines on. Then the sim's targets once more on this build (auto).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
mkdir -p $c/x && for f in $c/bin/*.xz; do b=$(basename $f .xz); [ -x $c/x/$b ] || { xz -dc $f > $c/x/$b; chmod +x $c/x/$b; }; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for i in 0 1 2; do
  GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i timeout 420 $c/x/hinesbatch_unit_tests \
    --gtest_output=xml:$T/unit_$i.xml > $T/unit_$i.log 2>&1 &
done
wait
for i in 0 1 2; do stamp "shard $i: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $T/unit_$i.log | tr '\n' ' ')"; done
grep -h "^\[  FAILED  \]" $T/unit_*.log | sort -u | head -20 | tee -a $S
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
timeout 150 $CS --tool memcheck --leak-check no $c/x/hinesbatch_unit_tests \
  --gtest_filter='HinesBatchSolve/0.Block*:HinesBatchSolve/1.Block*' > $T/memcheck_block.log 2>&1
stamp "memcheck block rc=$? $(grep -E 'ERROR SUMMARY|tests? ran|PASSED|FAILED' $T/memcheck_block.log | tr '\n' ' ')"
timeout 100 $CS --tool memcheck --leak-check no $c/x/hinesbatch-sim examples/sim/real_mixed.json \
  --set network.cells=300 --set network.kick.cells=30 --set tstop=5 \
  --set 'run.on_chip_split_spines="on"' --quiet --set 'output={}' --metrics $T/mc_sim.json > $T/memcheck_sim.log 2>&1
stamp "memcheck sim (split on) rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck_sim.log) $(python3 -c "import json; m=json.load(open('$T/mc_sim.json')); print(m.get('schedule_detail','')[:200])" 2>/dev/null)"
MOTO=$c/shared/morphologies/v_e_moto1.CNG.swc
for net in "MX20 examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50" \
           "MO200 examples/sim/real_large.json --set cell.morphology=$MOTO --set network.cells=200 --set network.kick.cells=20 --set tstop=50" \
           "LG200 examples/sim/real_large.json --set network.cells=200 --set network.kick.cells=20 --set tstop=50"; do
  set -- $net; name=$1; shift
  [ $((SECONDS - t0)) -lt 540 ] || break
  timeout 60 $c/x/hinesbatch-sim "$@" --quiet --set 'output={}' --metrics $T/$name.json --spikes $T/$name.spk > $T/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$T/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule_detail','')[:160])" 2>/dev/null) $(md5sum < $T/$name.spk | cut -c1-8)"
done
rm -f $T/*.spk
(cd $OUT && tar cJf t.tar.xz t && rm -rf t)
stamp done
