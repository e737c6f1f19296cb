#!/usr/bin/env bash
# Call D: the build with Auto's Hines table made from call C's map (and the band planner's
# faster search, the same plans): every CUDA configuration of the Hines batch tests (Auto's
# table test among them), the packed multi-morphology CUDA tests and the plan tests, with
# compute-sanitizer memcheck on Auto and BlockPerSystem. .devcarry/binD.txz:
# hinesbatch_unit_tests. Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binD && mkdir -p $c/binD && tar xJf $c/binD.txz -C $c/binD
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; T=$OUT/t; mkdir -p $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binD/hinesbatch_unit_tests
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^(HinesBatchSolve|MultiMorphology)" | sort -u | tr '\n' ':')
echo "suites: ${cuda}PackedLanes.*:CellLanePlan*" >> $S
mc="$(echo "$cuda" | tr ':' '\n' | grep HinesBatchSolve | sed 's/\*$/AutoTakes*:/; p; s/AutoTakes\*:/Block*:/' | tr -d '\n')"
(OMP_NUM_THREADS=8 timeout 260 $U --gtest_filter="${cuda}PackedLanes.*:CellLanePlan*" > $T/tests.txt 2>&1; echo "rc=$?" >> $T/tests.txt) &
OMP_NUM_THREADS=4 timeout 260 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
wait
stamp "tests $(tail -1 $T/tests.txt) $(grep -E '^\[  (PASSED|FAILED)' $T/tests.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
