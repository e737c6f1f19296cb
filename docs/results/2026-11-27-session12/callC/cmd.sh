#!/usr/bin/env bash
# Call C (binC.txz: the final device code: cm and Ra by region, the config's IClamps applied
# one way by every schedule, the hand-written current through NoGenerated::stimulus_current):
# the whole CUDA unit suite in two shards; then (cmd.sh rates) the simulator against
# session 11's build (binE's hinesbatch-sim-after), alternating, rasters by md5, the clamped
# cell on every path, and compute-sanitizer memcheck on chip and with the cells schedule.
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binC.txz -C $c
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
  RT="examples/sim/ringtest.json --set network.cells=65536 --set tstop=100"
  MX="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
  for k in 1 2; do
    for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; run p3_${v}_$k $b $P3; done
    for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; run mixed_${v}_$k $b $MX; done
  done
  for v in old new; do b=$OLD; [ $v = new ] && b=$NEW; run ringtest_${v} $b $RT; done
  run p3_builtin_new $NEW $P3 --mechanisms builtin
  # the clamped cell: catalogue and hand-written IClamp, on chip and the cells schedule, GPU and host
  CL="scripts/validation/cases/hh_96ML.json"
  for v in old new; do b=$OLD; [ $v = new ] && b=$NEW
    run clamp_${v}_chip $b $CL --on-chip on --traces $L/clamp_${v}_chip.csv
    run clamp_${v}_builtin $b $CL --on-chip on --mechanisms builtin --traces $L/clamp_${v}_builtin.csv
    run clamp_${v}_cells $b $CL --on-chip off --traces $L/clamp_${v}_cells.csv
  done
  run clamp_new_host $NEW $CL --backend host --traces $L/clamp_new_host.csv
  for x in chip builtin cells; do
    stamp "clamp $x: old and new traces $(cmp -s $L/clamp_old_$x.csv $L/clamp_new_$x.csv && echo identical || echo DIFFER)"
  done
  run membrane_new $NEW scripts/validation/cases/hh_96ML_membrane_by_region.json --on-chip on
  run membrane_new_host $NEW scripts/validation/cases/hh_96ML_membrane_by_region.json --backend host
  for m in "" "--mechanisms builtin"; do
    for o in on off; do
      name=memcheck_${o}${m:+_builtin}
      timeout 200 compute-sanitizer --tool memcheck --print-limit 20 $NEW $CL --set tstop=10 --on-chip $o $m --quiet --set 'output={}' > $L/$name.txt 2>&1
      stamp "$name rc=$? $(grep -E 'ERROR SUMMARY' $L/$name.txt)"
    done
  done
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
