# Final binaries of the session (planner in parallel, discretize removed, choose_lanes corrected): the whole CUDA unit suite; memcheck on the multi-morphology tests (CUDA), whose layouts the new planner makes.
D=$OUT; R=/tmp/h8; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
timeout 280 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED" | tee $R/run.log
grep -E "^\[  FAILED" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log
ids=$(.devcarry/bin/hinesbatch_unit_tests --gtest_list_tests --gtest_filter='MultiMorphology/*.HardShapesMixed' 2>/dev/null | grep -E "Kokkos::Cuda" | sed -E 's#^MultiMorphology/([0-9]+)\..*#\1#')
f=""; for i in $ids; do f="$f:MultiMorphology/$i.HardShapesMixed:MultiMorphology/$i.ZeroPivotNamesCellAndNode:MultiMorphology/$i.RealMorphologiesMixedWithSynthetic"; done
export SANITIZE_FILTER="${f#:}"; echo "sanitize filter: $SANITIZE_FILTER" | tee -a $R/run.log
SANITIZE_LIMIT_S=150 timeout 200 bash scripts/gpu/device-run.sh sanitize:memcheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/h8.tgz -C $R .
