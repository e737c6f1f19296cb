#!/usr/bin/env bash
# Call A (binA.txz: the CUDA build, cuda-h100, with the simulation tests compiled as one
# translation unit and Lanes<W> a type whose conversion is device code): the whole CUDA unit
# suite in two shards, then compute-sanitizer memcheck on the tile tests (Lanes<W> full
# tiles) and on simulation tests of the unity translation unit, every schedule, small runs.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binA.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; L=$OUT/a; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
$U --gtest_list_tests | grep -c "^  " | sed 's/^/tests listed: /' | tee -a $S
for s in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$s OMP_NUM_THREADS=8 timeout 280 $U --gtest_brief=1 > $L/suite_$s.txt 2>&1
  stamp "suite shard $s/2 rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/suite_$s.txt | tr '\n' ' ')"
done
grep -h "FAILED" $L/suite_*.txt | head -20 | tee -a $S
F='HinesBatchSolve/*.TinyTrees:SimdTiles/*.HinesTinyTreesAndPartialTiles:SimdTiles/*.ThomasSizesAndPartialTiles:Simulation/*.SingleCellMatchesDenseReference:SimulationSchedules.LanesMatchCellsWithMixedTreesAndPartialTiles:SimulationSchedules.OnChipMatchesCellsOnEveryBackend:GeneratedMechanisms.LanesMatchCellsWithSeveralTemplatesAndPartialTiles:PointProcessSynapses.Exp2SynGivesTheSameRunOnEverySchedule:SimulationRecords.GateParameterAndIonValueOnBothSchedules'
OMP_NUM_THREADS=4 timeout 230 compute-sanitizer --tool memcheck --print-limit 20 $U --gtest_filter="$F" --gtest_brief=1 > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
xz -9 $L/*.txt
(cd $OUT && tar cJf a.tar.xz a && rm -rf a)
stamp done
