#!/usr/bin/env bash
# Call B (the same binaries as call A, on the same warm machine; call A ran past the
# device tool's 600 s limit after the unit suite): memcheck on the event and synapse tests;
# the P3 network, this tree (binA) against 89757d6 (binO), alternating twice.
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry; R=$PWD
for b in binA binO; do rm -rf $c/$b && mkdir -p $c/$b && tar xJf $c/$b.txz -C $c/$b; done
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
SIM=$c/binA/hinesbatch-sim; U=$c/binA/hinesbatch_unit_tests
P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
for i in 1 2; do
  run p3_new_$i $SIM $P3
  run p3_old_$i $c/binO/hinesbatch-sim $P3
done
OMP_NUM_THREADS=4 timeout 300 compute-sanitizer --tool memcheck --print-limit 20 $U \
  --gtest_filter='Simulation/*.DeviceEvents*:SimulationRecords.*:PointProcessSynapses.*' --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
rm -f $L/*.spk; xz -9 $L/*.txt $L/*.log
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
