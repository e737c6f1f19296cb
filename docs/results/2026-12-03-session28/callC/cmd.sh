#!/usr/bin/env bash
# Call C: the build landed (.devcarry/binC.txz: hinesbatch_unit_tests, hinesbatch_solver_map):
# call B's with the two-pass kernel launched at most 128 registers a thread (launch bounds of
# 256 threads and 2 blocks), so that four blocks of 4 warps share an SM (call B's build took
# 129 registers: three). Short, for the device time left:
# 1) the tridiagonal device map, Flat, m >= 700: Auto, the two-pass block, the warp schedule
#    and the in-memory team;
# 2) the tridiagonal unit tests (every backend of the build);
# 3) compute-sanitizer memcheck on every two-pass test of the CUDA configurations and on the
#    Auto tests, racecheck on the two-pass kernel tests of double Flat and Full-Interleaved.
# Run from the repository root with .devcarry carried: cmd.sh
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/binC && mkdir -p $c/binC && tar xJf $c/binC.txz -C $c/binC
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared OMP_PROC_BIND=false
S=$OUT/summary.txt; M=$OUT/map; T=$OUT/t; mkdir -p $M $T
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/binC/hinesbatch_unit_tests
MAP=$c/binC/hinesbatch_solver_map
timeout 80 $MAP --map-families=thomas --map-backends=device \
  --map-rows=700,1000,1024,1500,2000,3000,4096,5000,8192,8193,10000,20000,50000,100000 \
  --benchmark_filter='^Thomas/Device/Flat/(Auto|TeamPerSystemTwoPass|WarpPerSystem|TeamPerSystemInMemory)/' \
  --benchmark_out=$M/map_device.json --benchmark_out_format=json > $M/map_device.txt 2>&1
stamp "thomas device map rc=$? $(grep -c '^Thomas' $M/map_device.txt) points, $(grep -c ERROR $M/map_device.txt) error lines"
xz -9 $M/*.json $M/*.txt 2>/dev/null
(cd $OUT && tar cf map.tar map && rm -rf map)
OMP_NUM_THREADS=8 timeout 150 $U --gtest_brief=1 --gtest_filter='*Thomas*:WarpThomasShape.*:*Tridiagonal*' > $T/thomas_tests.txt 2>&1
stamp "tridiagonal unit tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $T/thomas_tests.txt | tr '\n' ' ')"
$U --gtest_list_tests > $T/list.txt 2>&1
cuda=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"*"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
auto=$(awk '/^[A-Za-z]/{s=$1} /Cuda/{print s"Auto*"}' $T/list.txt | grep -E "^ThomasBatchTest/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 60 compute-sanitizer --tool memcheck --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$cuda$auto" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
rc=$(awk '/^[A-Za-z]/{s=$1} /double, hinesbatch::layouts::(Flat|FullInterleaved), Kokkos::Cuda/{print s"RunsItsKernel:"s"VBatch:"s"FailuresNameSystemAndRow"}' $T/list.txt | grep -E "^ThomasTwoPass/" | sort -u | tr '\n' ':')
OMP_NUM_THREADS=8 timeout 60 compute-sanitizer --tool racecheck --racecheck-report hazard --error-exitcode 9 --print-limit 20 $U --gtest_brief=1 --gtest_filter="$rc" > $T/racecheck.txt 2>&1
stamp "racecheck rc=$? $(grep -E 'RACECHECK SUMMARY|ERROR SUMMARY' $T/racecheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/racecheck.txt | tr '\n' ' ')"
grep -h "^\[  FAILED" $T/*.txt | head -20 | tee -a $S
xz -9 $T/*.txt
(cd $OUT && tar cf t.tar t && rm -rf t)
stamp done
