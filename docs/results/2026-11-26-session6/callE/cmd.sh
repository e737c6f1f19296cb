#!/usr/bin/env bash
# Call E (call D's binaries, the same warm H100): compute-sanitizer racecheck and memcheck on
# the unit tests of TeamPerSystemInMemory (every layout and precision, failures named).
c=$PWD/.devcarry; export LD_LIBRARY_PATH=$c/lib; rm -rf $c/bin && tar xJf $c/binD.txz -C $c; mkdir -p $OUT/e
for tool in racecheck memcheck; do
  OMP_NUM_THREADS=8 timeout 250 compute-sanitizer --tool $tool --error-exitcode 9 $c/bin/hinesbatch_unit_tests --gtest_brief=1 \
    --gtest_filter='*InMemory*' > $OUT/e/${tool}_in_memory.txt 2>&1
  echo "$tool rc=$? $(grep -E '^\[  (PASSED|FAILED)' $OUT/e/${tool}_in_memory.txt | tr '\n' ' ') $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' $OUT/e/${tool}_in_memory.txt | tail -1)"
  grep -E 'Warning: Race|Error: Race' $OUT/e/${tool}_in_memory.txt | grep -vc ParallelReduce
done
cd $OUT && tar czf e.tgz e && rm -rf e
# Output: racecheck rc=0 [ PASSED ] 110 tests. RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)
#         memcheck rc=0 [ PASSED ] 110 tests. ERROR SUMMARY: 0 errors
