#!/usr/bin/env bash
# Call B (binB.txz): call A's build plus PerSystem on Flat storage capped at concurrency / 8
# threads on GPUs (each taking several systems). The CUDA configurations of the Hines batch
# tests, memcheck on the capped PerSystem and the block schedule, and the Hines part of the
# solver map on the device with every schedule, from which Auto's table is made.
set -u
cd "$(dirname "$0")/../../../.."; c=$PWD/.devcarry
rm -rf $c/bin && tar xJf $c/binB.txz -C $c
export LD_LIBRARY_PATH=$c/lib:${LD_LIBRARY_PATH:-} HINESBATCH_SHARED_DIR=$c/shared
S=$OUT/summary.txt; T=$OUT/t; M=$OUT/map; mkdir -p $T $M
nvidia-smi -L | tee $OUT/gpu.txt
t0=$SECONDS; stamp() { echo "[$((SECONDS - t0)) s] $*" | tee -a $S; }
U=$c/bin/hinesbatch_unit_tests
$U --gtest_list_tests --gtest_filter='HinesBatchSolve/*' > $T/list.txt 2>&1
cuda=$(awk '/^HinesBatchSolve\//{s=$1} /Cuda/{print s"*"}' $T/list.txt | sort -u | tr '\n' ':')
echo "cuda suites: $cuda" >> $S
OMP_NUM_THREADS=8 timeout 240 $U --gtest_filter="$cuda" > $T/tests.txt 2>&1
stamp "tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $T/tests.txt | tr '\n' ' ')"
grep -E "^\[  FAILED" $T/tests.txt | head | tee -a $S
mc=$(echo "$cuda" | sed 's/\*:/PerSystemThreadsTakingSeveralSystems:/g')
timeout 120 compute-sanitizer --tool memcheck --error-exitcode 9 $U --gtest_brief=1 --gtest_filter="$mc" > $T/memcheck.txt 2>&1
stamp "memcheck rc=$? $(grep -E 'ERROR SUMMARY' $T/memcheck.txt | tail -1) $(grep -E '^\[  (PASSED|FAILED)' $T/memcheck.txt | tr '\n' ' ')"
(cd $OUT && tar czf tests.tgz t && rm -rf t)
timeout 250 $c/bin/hinesbatch_solver_map --map-backends=device --map-families=hines --map-totals=20,22,24,26,28 \
  --benchmark_out=$M/map_device_hines.json --benchmark_out_format=json > $M/map_device_hines.txt 2>&1
stamp "map hines rc=$?"
xz -9 $M/map_device_hines.json $M/map_device_hines.txt
stamp done
