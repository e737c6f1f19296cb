#!/usr/bin/env bash
# Call B (binB.txz: generated mechanisms called node by node in the on-chip schedule where a
# template has at most four blocks; cm and Ra by region, section lists): the whole CUDA unit
# suite in two shards; then (cmd.sh rates) the simulator against session 11's build
# (binE's hinesbatch-sim-after), alternating, rasters by md5, and compute-sanitizer memcheck
# on chip for both generated paths (per node: P3; a pass per block: the L5PC cell).
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binB.txz -C $c
[ -d $c/binE ] || tar xJf $c/binE.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
OLD=$c/binE/hinesbatch-sim-after; NEW=$c/bin/hinesbatch-sim
if [ "${1:-}" = rates ]; then
  P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
  RT="examples/sim/ringtest.json"
  MX="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
  for k in 1 2; do
    for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; run p3_${v}_$k $b $P3; done
    run p3_builtin_new_$k $NEW $P3 --mechanisms builtin
    for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; run ringtest_${v}_$k $b $RT; done
    for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; run mixed_${v}_$k $b $MX; done
  done
  run ringtest_builtin_new $NEW $RT --mechanisms builtin
  L5="docs/results/2026-11-26-flags/callA/l5pc_cnic_net.json --set network.cells=20000 --set tstop=20"
  [ -x $c/bin/hinesbatch-sim-l5pc ] && run l5pc_new $c/bin/hinesbatch-sim-l5pc $L5
  for cfg in "p3 examples/sim/p3_synaptic.json --set network.cells=200 --set network.kick.cells=20 --set tstop=5" \
             "hh96 scripts/validation/cases/hh_96ML_membrane_by_region.json --set tstop=10"; do
    set -- $cfg; name=$1; shift
    timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $NEW "$@" --on-chip on --quiet --set 'output={}' > $L/memcheck_$name.txt 2>&1
    stamp "memcheck $name rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_$name.txt)"
  done
  [ -x $c/bin/hinesbatch-sim-l5pc ] && { timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $c/bin/hinesbatch-sim-l5pc docs/results/2026-11-26-flags/callA/l5pc_cnic_net.json --set network.cells=50 --set tstop=2 --on-chip on --quiet --set 'output={}' > $L/memcheck_l5pc.txt 2>&1; stamp "memcheck l5pc rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_l5pc.txt)"; }
  /usr/local/cuda/bin/cuobjdump -res-usage $NEW 2>/dev/null | grep -A1 StepCellEpochOnChip > $L/res_usage_new.txt
  rm -f $L/*.spk
else
  U=$c/bin/hinesbatch_unit_tests
  for s in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
    stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
  done
  grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
  xz -9 $L/suite_*.txt
fi
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
