# Call X (2026-11-24, stop 27, issue #10), nvidia-h100-x1: the final build (a44ee0b: the counting path's size check without max_gid + 1, the largest-gid test): the whole unit suite (CUDA, OpenMP, Serial), then memcheck on every kernel over the simulation's and the event queue's tests.
D=$OUT; R=/tmp/rX; mkdir -p $R; cp .devcarry/cmdX.sh $R/cmd.sh
rm -rf .devcarry/bin; tar xzf .devcarry/bin.tgz -C .devcarry
export LD_LIBRARY_PATH=$PWD/.devcarry/lib HINESBATCH_SHARED_DIR=$PWD/.devcarry/shared
B=$PWD/.devcarry/bin
date -u > $R/date.txt; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $R/gpu.txt
OUT=$R timeout 400 bash scripts/gpu/device-run.sh tests 2>&1 | grep -v "SKIPPED \]" | tail -8 | tee -a $R/run.log
gzip -9 $R/unit_tests*.log $R/unit_tests.xml 2>/dev/null
tar czf $D/rX.tgz -C $R .
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer | head -1)
timeout 150 $cs --tool memcheck --error-exitcode 99 --log-file $R/memcheck_all.log $B/hinesbatch_unit_tests --gtest_filter='SimulationSchedules.*:Simulation/*:Events*' > $R/memcheck_all.txt 2>&1
echo "memcheck (every kernel) rc=$? $(grep -E 'ERROR SUMMARY' $R/memcheck_all.log | tail -1) $(grep -E '^\[  (PASSED|FAILED) ' $R/memcheck_all.txt | tr '\n' ' ')" | tee -a $R/run.log
tar czf $D/rX.tgz -C $R .
