# After sharing the piece elimination between the team and warp Hines schedules: the whole CUDA unit suite; memcheck and racecheck on the warp schedule tests (double, Flat and Full-Interleaved, CUDA).
D=$OUT; R=/tmp/h11; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
timeout 280 bash scripts/gpu/device-run.sh tests 2>&1 | grep -E "rc=|PASSED|FAILED|SKIPPED" | tee $R/run.log
grep -E "^\[  FAILED" $R/unit_tests.log | head -20
gzip -9 $R/unit_tests.log
ids=$(.devcarry/bin/hinesbatch_unit_tests --gtest_list_tests --gtest_filter='HinesBatchSolve/*.TinyTrees' 2>/dev/null | grep -E "Config<double, hinesbatch::layouts::(Flat|FullInterleaved), Kokkos::Cuda>" | sed -E 's#^HinesBatchSolve/([0-9]+)\..*#\1#')
f=""; for i in $ids; do f="$f:HinesBatchSolve/$i.WarpLaneCounts:HinesBatchSolve/$i.ZeroPivotNamesSystemAndNode:HinesBatchSolve/$i.NanInputIsReported:HinesBatchSolve/$i.MatchesDenseLuOnSmallTrees:HinesBatchSolve/$i.TeamPieceLengths"; done
export SANITIZE_FILTER="${f#:}"; echo "sanitize filter: $SANITIZE_FILTER" | tee -a $R/run.log
SANITIZE_LIMIT_S=110 timeout 240 bash scripts/gpu/device-run.sh sanitize:memcheck,racecheck 2>&1 | grep "rc=" | tee -a $R/run.log
gzip -9 $R/compute-sanitizer/*.log
tar czf $D/h11.tgz -C $R .
