#!/usr/bin/env bash
# Call E (binE.txz: the final tree, call D's with the on-chip single point process passes
# taking synapse constants through cst_from): the whole CUDA unit
# suite in two shards, memcheck on the record and synapse tests, and the P3 and busyring
# networks once each (rasters by md5 against call D's).
# Run from the repository root with .devcarry carried.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binE && mkdir -p $c/binE && tar xJf $c/binE.txz -C $c/binE
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
run() { local name=$1 bin=$2; shift 2
  timeout 60 $bin "$@" --quiet --set 'output={}' --metrics $L/$name.json --spikes $L/$name.spk > $L/$name.log 2>&1
  stamp "$name rc=$? $(python3 -c "import json; m=json.load(open('$L/$name.json')); print('%.4g'%m['compartment_steps_per_s'], m['spikes'], m.get('schedule'), m.get('team_lanes'))" 2>/dev/null) $(md5sum < $L/$name.spk | cut -c1-8)"; }
SIM=$c/binE/bin/hinesbatch-sim; U=$c/binE/bin/hinesbatch_unit_tests
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 250 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
OMP_NUM_THREADS=4 timeout 90 compute-sanitizer --tool memcheck --print-limit 20 $U \
  --gtest_filter='SimulationRecords.*:PointProcessSynapses.*' --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
run p3 $SIM examples/sim/p3_synaptic.json --set network.cells=100000 --set network.kick.cells=10000 --set tstop=100
run busyring $SIM examples/sim/ring.json --set network.cells=10000
rm -f $L/*.spk; xz -9 $L/*.txt
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
