#!/usr/bin/env bash
# Call B: the final build (band plans + loads a step ahead) on CUDA: the whole CUDA unit
# suite, and compute-sanitizer memcheck on every test that runs the lanes' solve
# (BlockPerSystem, the packed CellLanes schedule) and on hinesbatch-sim's mixed real cells
# (the simulation's on-chip step, teams of 32-256 lanes).
# .devcarry/binB.txz: the cuda-h100 build's hinesbatch_unit_tests and a no-MPI hinesbatch-sim.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binB && mkdir -p $c/binB && tar xJf $c/binB.txz -C $c/binB
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; L=$OUT/b; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binB/hinesbatch_unit_tests
(OMP_NUM_THREADS=8 timeout 540 $U --gtest_brief=1 > $L/unit_tests.txt 2>&1; echo "rc=$?" >> $L/unit_tests.txt) &
suite=$!
$U --gtest_list_tests > $L/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $L/list.txt | grep -E "^(HinesBatchSolve|MultiMorphology)" | sort -u | tr '\n' ':')
mc="$(echo "$cuda" | sed 's/\*:/Block*:/g')$(echo "$cuda" | tr ':' '\n' | grep MultiMorphology | tr '\n' ':')PackedLanes.*:CellLanePlan*-*HundredThousand*"
echo "memcheck filter: $mc" >> $S
OMP_NUM_THREADS=4 timeout 420 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$mc" > $L/memcheck_tests.txt 2>&1
stamp "memcheck tests rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_tests.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck_tests.txt | tr '\n' ' ')"
OMP_NUM_THREADS=4 timeout 100 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $c/binB/hinesbatch-sim \
  examples/sim/real_mixed.json --set network.cells=300 --set network.kick.cells=30 --set tstop=3 --set 'output={}' --quiet > $L/memcheck_sim.txt 2>&1
stamp "memcheck sim mixed 300 cells rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck_sim.txt)"
wait $suite
stamp "CUDA unit suite $(tail -1 $L/unit_tests.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/unit_tests.txt | tr '\n' ' ')"
grep -h "FAILED" $L/unit_tests.txt | head -20 | tee -a $S
xz -9 $L/*.txt
(cd $OUT && tar cJf b.tar.xz b && rm -rf b)
stamp done
