# Call 5 (2026-11-23 night, issue #9): call 4 again in two parts (call 4 ran past its 600 s and returned nothing). Part 1: the whole CUDA unit suite on the final binaries; compute-sanitizer memcheck over Thomas tests that take the new Auto route (Full-Interleaved, 129-512 rows, small batches).
D=$OUT; R=/tmp/r5; mkdir -p $R; export OUT=$R
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib
nvidia-smi -L | tee $R/gpu.txt
timeout 320 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee $R/run.log
gzip -9 $R/unit_tests*.log 2>/dev/null; tar czf $D/r5.tgz -C $R .
SANITIZE_LIMIT_S=110 SANITIZE_FILTER='ThomasBatchTest/*.AutoDependsOnTheBatchSize*:ThomasBatchTest/*.WarpScheduleShapes:ThomasBatchTest/*.VBatchBothVariantsAgree' timeout 125 bash scripts/gpu/device-run.sh sanitize:memcheck 2>&1 | tail -4 | tee -a $R/run.log
tail -3 $R/compute-sanitizer/memcheck.txt; grep -c "OK \]" $R/compute-sanitizer/memcheck.txt
gzip -9 $R/compute-sanitizer/*.log 2>/dev/null; tar czf $D/r5.tgz -C $R .
