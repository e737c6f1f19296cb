# Call 4 (2026-11-23, issues #9 and #10): the final binaries: the whole CUDA unit suite (CUDA, OpenMP, Serial); compute-sanitizer memcheck and racecheck over the packed CellLanes tests and the on-chip simulation tests (their solve is the same function now), racecheck also restricted to each of the two kernels (SolvePackedLanes, StepCellEpochOnChip), as Kokkos::sort's reduction floods the unrestricted reports.
D=$OUT; R=/tmp/r4; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi -L | tee $R/gpu.txt
timeout 330 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|tests" | tee $R/run.log
grep -E "^\[  FAILED|^\[  PASSED|^\[  SKIPPED \] [0-9]" $R/unit_tests.log | head -20
F='MultiMorphology/8.*:MultiMorphology/9.*:MultiMorphology/10.*:MultiMorphology/11.*:PackedLanes*:SimulationSchedules.OnChip*-*HundredThousandCells'  # typed configs 8-11: CUDA, CellLanes (double, float; backend scratch, 2 KB); the 100,000-cell test left out (sanitizer time)
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
mkdir -p $R/compute-sanitizer
for tool in memcheck racecheck; do
  timeout 80 $cs --tool $tool --error-exitcode 99 --log-file $R/compute-sanitizer/$tool.log .devcarry/bin/hinesbatch_unit_tests --gtest_filter="$F" > $R/compute-sanitizer/$tool.txt 2>&1
  echo "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $R/compute-sanitizer/$tool.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/compute-sanitizer/$tool.txt | tr '\n' ' ')" | tee -a $R/run.log
done
for k in SolvePackedLanes StepCellEpochOnChip; do
  timeout 60 $cs --tool racecheck --racecheck-report all --kernel-name kns=$k --error-exitcode 99 --log-file $R/compute-sanitizer/racecheck_$k.log .devcarry/bin/hinesbatch_unit_tests --gtest_filter="$F" > $R/compute-sanitizer/racecheck_$k.txt 2>&1
  echo "racecheck ($k only) rc=$? $(grep -E 'RACECHECK SUMMARY' $R/compute-sanitizer/racecheck_$k.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/compute-sanitizer/racecheck_$k.txt | tr '\n' ' ')" | tee -a $R/run.log
done
gzip -9 $R/unit_tests.log $R/unit_tests.xml $R/compute-sanitizer/*.log 2>/dev/null
tar czf $D/r4.tgz -C $R .
