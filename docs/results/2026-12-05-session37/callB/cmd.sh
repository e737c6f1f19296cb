#!/usr/bin/env bash
# Call B: what call A's time limit cut, on the same binaries: shard 0 of the CUDA unit suite
# again without the 100,000-cell multi-morphology cases (call A's shard 0 passed 534 tests
# and was stopped inside the Serial backend's), racecheck on the block schedule's tests with
# more time, and racecheck on hinesbatch-sim's on-chip lanes at 128 and 256 lanes with 60
# cells (call A's 24 were refused by the config: 50 synapses per cell need 51 cells), side by side.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
[ -x $c/binB/hinesbatch_unit_tests ] || { rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB; }
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/t; mkdir -p $U
cat $c/binB.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
OMP_NUM_THREADS=6 GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=0 timeout 330 $c/binB/hinesbatch_unit_tests \
  --gtest_filter='-MultiMorphology/*.HundredThousandCells' > $U/unit_0.log 2>&1 &
OMP_NUM_THREADS=2 timeout 330 $CS --tool racecheck $c/binB/hinesbatch_unit_tests \
  --gtest_filter='HinesBatchSolve/*.Block*' > $U/racecheck_block.log 2>&1 &
for lanes in 128 256; do
  OMP_NUM_THREADS=2 timeout 300 $CS --tool racecheck $c/binB/hinesbatch-sim examples/sim/real_mixed.json --set network.cells=60 --set network.kick.cells=6 \
    --set tstop=0.5 --set run.on_chip_lanes=$lanes --quiet --set 'output={}' --metrics $U/rc_sim_$lanes.json > $U/racecheck_sim_$lanes.log 2>&1 &
done
wait
stamp "racecheck block: $(grep -E 'RACECHECK SUMMARY|tests? ran|PASSED|FAILED' $U/racecheck_block.log | tr '\n' ' ') races: $(grep -c 'Race reported' $U/racecheck_block.log)"
for lanes in 128 256; do stamp "racecheck sim $lanes: $(grep -E 'RACECHECK SUMMARY|error' $U/racecheck_sim_$lanes.log | tr '\n' ' ') $(python3 -c "import json; m=json.load(open('$U/rc_sim_$lanes.json')); print(m.get('schedule_detail','')[:100])" 2>/dev/null)"; done
stamp "shard 0: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $U/unit_0.log | tr '\n' ' ') ok $(grep -c '^\[       OK' $U/unit_0.log)"
(cd $OUT && tar cJf t.tar.xz t && rm -rf t)
stamp done
