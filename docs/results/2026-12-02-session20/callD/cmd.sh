#!/usr/bin/env bash
# Call D: the final Thomas tree (binD.txz: the new shapes and the Auto table made from call
# C's map): the tridiagonal unit tests on the CUDA backend (the table's own test among them),
# compute-sanitizer memcheck on the warp schedule's tests, and the whole tridiagonal device
# map again, now with Auto from the new table.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binD && mkdir -p $c/binD && tar xJf $c/binD.txz -C $c/binD
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-}
S=$OUT/summary.txt; L=$OUT/d; mkdir -p $L
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binD/hinesbatch_unit_tests
OMP_NUM_THREADS=8 timeout 150 $U --gtest_brief=1 --gtest_filter='Thomas*:WarpThomasShape.*:*Tridiagonal*' > $L/thomas_tests.txt 2>&1
stamp "tridiagonal unit tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/thomas_tests.txt | tr '\n' ' ')"
grep -h "FAILED" $L/thomas_tests.txt | head -20 | tee -a $S
OMP_NUM_THREADS=4 timeout 60 compute-sanitizer --tool memcheck --print-limit 20 $U \
  --gtest_filter='ThomasBatchTest/9.WarpScheduleShapes:ThomasBatchTest/9.Auto*:ThomasBatchFailures/9.*' > $L/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $L/memcheck.txt) $(grep -E '^\[  (PASSED|FAILED)' $L/memcheck.txt | tr '\n' ' ')"
timeout 200 $c/binD/hinesbatch_solver_map --map-families=thomas --map-backends=device \
  --benchmark_out=$L/map_device.json --benchmark_out_format=json > $L/map_device.txt 2>&1
stamp "thomas device map rc=$? $(grep -c '^Thomas' $L/map_device.txt) points"
xz -9 $L/*.json $L/*.txt 2>/dev/null
(cd $OUT && tar cJf d.tar.xz d && rm -rf d)
stamp done
