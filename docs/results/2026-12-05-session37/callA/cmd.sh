#!/usr/bin/env bash
# Call A: the GPU checks that lane plans waiting per warp need before landing, on binaries of
# main 08c8262 (Auto's tables compiled in the library) + session 36's warp-waits.diff
# (.devcarry/binB.txz, .devcarry/binB.txt): the whole CUDA unit suite in three gtest shards,
# beside them compute-sanitizer racecheck on the block schedule's tests, then racecheck on
# hinesbatch-sim's on-chip lanes with teams of 128 and 256 lanes and memcheck on the block
# and packed-lanes tests, as far as the call's time allows.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; U=$OUT/t; mkdir -p $U
nvidia-smi -L | tee $OUT/gpu.txt; cat $c/binB.txt | tee -a $S
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
for i in 0 1 2; do
  OMP_NUM_THREADS=4 GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$i timeout 420 \
    $c/binB/hinesbatch_unit_tests --gtest_output=xml:$U/unit_$i.xml > $U/unit_$i.log 2>&1 &
done
CS=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer)
OMP_NUM_THREADS=2 timeout 240 $CS --tool racecheck $c/binB/hinesbatch_unit_tests \
  --gtest_filter='HinesBatchSolve/*.Block*' > $U/racecheck_block.log 2>&1
stamp "racecheck block rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY|tests? ran|PASSED|FAILED' $U/racecheck_block.log | tr '\n' ' ')"
for lanes in 128 256; do
  [ $((SECONDS - t0)) -lt 330 ] || break
  OMP_NUM_THREADS=2 timeout 60 $CS --tool racecheck $c/binB/hinesbatch-sim examples/sim/real_mixed.json --set network.cells=24 --set network.kick.cells=4 \
    --set tstop=0.5 --set run.on_chip_lanes=$lanes --quiet --set 'output={}' --metrics $U/rc_sim_$lanes.json > $U/racecheck_sim_$lanes.log 2>&1
  stamp "racecheck sim mixed, $lanes lanes rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $U/racecheck_sim_$lanes.log | tr '\n' ' ') $(python3 -c "import json; m=json.load(open('$U/rc_sim_$lanes.json')); print(m.get('schedule_detail','')[:100])" 2>/dev/null)"
done
if [ $((SECONDS - t0)) -lt 380 ]; then
  OMP_NUM_THREADS=2 timeout 60 $CS --tool memcheck --leak-check no $c/binB/hinesbatch_unit_tests \
    --gtest_filter='HinesBatchSolve/*.Block*:*Packed*Lanes*' > $U/memcheck_block.log 2>&1
  stamp "memcheck block rc=$? $(grep -E 'ERROR SUMMARY|tests? ran|PASSED|FAILED' $U/memcheck_block.log | tr '\n' ' ')"
fi
wait
for i in 0 1 2; do stamp "shard $i: $(grep -E '^\[  (PASSED|FAILED)  \]|tests? ran' $U/unit_$i.log | tr '\n' ' ')"; done
grep -h "^\[  FAILED  \]" $U/unit_*.log | sort -u | head -20 | tee -a $S
(cd $OUT && tar cJf t.tar.xz t && rm -rf t)
stamp done
