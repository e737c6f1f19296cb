#!/usr/bin/env bash
# Call B: a variant of the staged schedule loading the next chunk ahead of its sweep, not
# landed (README.md describes it; .devcarry/binB.txz:
# hinesbatch_unit_tests, hinesbatch_solver_map):
# 1) the whole Hines part of the solver map (every tree, every schedule, 2^20-2^28 nodes,
#    both layouts), from which Auto's Hines table is made;
# 2) Nsight Compute on the staged kernel (Flat: 3,187 nodes at 2^26, the 1,000-node chain
#    at 2^28) and on PerSystem at the first;
# 3) every CUDA configuration of the Hines batch tests, beside compute-sanitizer memcheck
#    and racecheck on the staged schedule's chunk test (CUDA configurations).
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binB/hinesbatch_unit_tests
MAP=$c/binB/hinesbatch_solver_map
timeout 300 $MAP --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_out=$M/map_device_hines.json --benchmark_out_format=json > $M/map_device_hines.txt 2>&1
stamp "map hines rc=$?"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
prof() {  # name kernel-regex benchmark-filter total
  timeout 100 ncu --kernel-name-base demangled --kernel-name "regex:$2" --launch-skip 1 --launch-count 1 \
    --section SpeedOfLight --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    --section WarpStateStats --section SchedulerStats \
    $MAP --map-backends=device --map-families=hines --map-totals=$4 \
    --benchmark_filter="$3" > $T/ncu_$1.txt 2>&1
  stamp "ncu $1 rc=$?"
}
prof staged3187 Staged 'Hines/Device/Flat/PerSystemStaged/.*/n:3187/total:26$' 26
prof stagedchain1000 Staged 'Hines/Device/Flat/PerSystemStaged/chain/n:1000/total:28$' 28
prof persystem3187 'SolvePerSystem<' 'Hines/Device/Flat/PerSystem/.*/n:3187/total:26$' 26
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^HinesBatchSolve" | sort -u | tr '\n' ':')
mc=$(echo "$cuda" | tr ':' '\n' | grep . | sed 's/\*$/StagedAcross*/' | tr '\n' ':')
echo "suites: $cuda" >> $S
(OMP_NUM_THREADS=8 timeout 200 $U --gtest_filter="$cuda" > $T/tests.txt 2>&1; echo "rc=$?" >> $T/tests.txt) &
OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
OMP_NUM_THREADS=4 timeout 150 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
wait
stamp "tests $(tail -1 $T/tests.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/tests.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
