#!/usr/bin/env bash
# Call C (binC.txz: bin/ = the final device code, d9aaa3c with the on-chip kernel's synapse
# passes dispatched once, the generated blocks' phase at compile time and the slot's
# template read once per epoch).
#   cmd.sh suite: the whole CUDA unit suite in two shards, then compute-sanitizer memcheck
#     on the record, synapse, generated-mechanism and tile tests.
#   cmd.sh rates: the catalogue (default) against --mechanisms builtin alternating, rasters
#     by md5 (P3 100,000, busyring 10,000, ringtest 65,536, mixed 20,000); a synapse's g on
#     chip and on the cells schedule; memcheck on chip with synapse records.
# Run from the repository root with .devcarry carried.
set -u
MODE=${1:-suite}  # the memcheck loop below resets $1 (in the run recorded, the final tar failed so)
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary_${1:-suite}.txt; L=$OUT/d_${1:-suite}; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
SIM=$c/binC/bin/hinesbatch-sim
if [ "${1:-suite}" = rates ]; then
  P3="examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100"
  BR="examples/sim/ring.json --set network.cells=10000"
  RT="examples/sim/ringtest.json --set network.cells=65536"
  MX="examples/sim/real_mixed.json --set network.cells=20000 --set network.kick.cells=1000 --set tstop=50"
  for k in 1 2; do
    for net in P3 BR RT MX; do
      run ${net}_catalogue_$k $SIM ${!net}
      run ${net}_builtin_$k $SIM ${!net} --mechanisms builtin
    done
  done
  for oc in on off; do
    timeout 60 $SIM examples/sim/p3_synaptic.json --set network.cells=1000 --set tstop=50 --on-chip $oc \
      --set 'record=[{"gid": 0, "synapse": 0, "variable": "g"}, {"gid": 5, "synapse": 7, "variable": "g"}, {"gid": 0, "location": {"section": 0, "x": 0.5}}]' \
      --quiet --set 'output={}' --traces $L/records_$oc.csv --spikes $L/records_$oc.spk > $L/records_$oc.log 2>&1
    stamp "records on_chip=$oc rc=$? $(md5sum < $L/records_$oc.spk | cut -c1-8) $(head -1 $L/records_$oc.csv)"
  done
  python3 - "$L" <<'PY' | tee -a $S
import csv, sys
L = sys.argv[1]
a = [[float(x) for x in r] for r in list(csv.reader(open(L + "/records_on.csv")))[1:]]
b = [[float(x) for x in r] for r in list(csv.reader(open(L + "/records_off.csv")))[1:]]
print("records: rows %d/%d, max g %.4g %.4g, max |on - off| g %.3g %.3g uS, v %.3g mV" % (
    len(a), len(b), max(r[1] for r in a), max(r[2] for r in a),
    max(abs(x[1] - y[1]) for x, y in zip(a, b)), max(abs(x[2] - y[2]) for x, y in zip(a, b)),
    max(abs(x[3] - y[3]) for x, y in zip(a, b))))
PY
  for cfg in "p3 examples/sim/p3_synaptic.json --set network.cells=200 --set network.kick.cells=20 --set tstop=5" \
             "busyring examples/sim/ring.json --set network.cells=100 --set tstop=5" \
             "exp2syn scripts/validation/cases/exp2syn_random_p3.json --set tstop=10"; do
    set -- $cfg; name=$1; shift
    timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $SIM "$@" --on-chip on \
      --set 'record=[{"gid": 3, "synapse": 2, "variable": "g"}]' --quiet --set 'output={}' > $L/memcheck_$name.txt 2>&1
    stamp "memcheck $name rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_$name.txt)"
  done
  # The suite mode's memcheck (which ran out of time with GeneratedMechanisms.* in it).
  OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool memcheck --print-limit 20 $c/binC/bin/hinesbatch_unit_tests \
    --gtest_filter='SimulationRecords.*:PointProcessSynapses.*' --gtest_brief=1 > $L/memcheck_units.txt 2>&1
  stamp "memcheck units rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_units.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck_units.txt | tr '\n' ' ')"
  cuobjdump -res-usage $SIM 2>/dev/null | grep -A1 StepCellEpochOnChip > $L/res_usage.txt
  rm -f $L/*.spk
else
  U=$c/binC/bin/hinesbatch_unit_tests
  for s in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 270 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
    stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
  done
  grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
  F='SimulationRecords.*:PointProcessSynapses.*:GeneratedMechanisms.*:*InterleavedTilesWideAndForLongSystemsNarrow*'
  OMP_NUM_THREADS=4 timeout 170 compute-sanitizer --tool memcheck --print-limit 20 $U --gtest_filter="$F" --gtest_brief=1 > $L/memcheck.txt 2>&1
  stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
  xz -9 $L/*.txt
fi
(cd $OUT && tar cJf d_$MODE.tar.xz d_$MODE && rm -rf d_$MODE)
stamp done
