#!/usr/bin/env bash
# Call B (binB.txz: the final tree; bin/ its hinesbatch_unit_tests (the event-queue test's
# external event at 0.064 ms, inside its step) and hinesbatch-sim, old/ hinesbatch-sim of
# 950a4a9, before this session): the Simulation tests on every backend and memcheck of the
# event-queue test; the P3, busyring and ringtest networks with both simulators
# alternating, two rounds (rates, spikes, md5 of the rasters).
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 90 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
U=$c/binB/bin/hinesbatch_unit_tests
OMP_NUM_THREADS=8 timeout 200 $U --gtest_filter='Simulation/*' --gtest_brief=1 > $L/simulation_tests.txt 2>&1
stamp "Simulation/* rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/simulation_tests.txt | tr '\n' ' ')"
OMP_NUM_THREADS=4 timeout 60 compute-sanitizer --tool memcheck --print-limit 20 $U \
  --gtest_filter='Simulation/*.DeviceEvents*' --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
BR="examples/sim/ring.json --set network.cells=10000"
RT="examples/sim/ringtest.json --set network.cells=65536"
for k in 1 2; do
  for net in P3 BR RT; do
    run ${net}_old_$k $c/binB/old/hinesbatch-sim ${!net}
    run ${net}_new_$k $c/binB/bin/hinesbatch-sim ${!net}
  done
done
rm -f $L/*.spk; xz -9 $L/*.txt
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
