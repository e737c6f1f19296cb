#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run of the unit suite on the OpenMP and
# Serial backends, and of hinesbatch-sim's bad-input cases. CI runs it.
#   scripts/sanitize.sh [GTEST_FILTER]
# Builds the openmp-asan preset (build/openmp-asan: gcc, -fsanitize=address,undefined,
# -fno-sanitize-recover: any report fails). Kokkos itself is not instrumented.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Left to scripts/test.sh (unsanitized), as their code runs here on smaller inputs: each
# real morphology alone through every schedule (RealCells.EachMorphologyAlone*; the mixed
# network covers the same code) and the 100,000-system Hines batches
# (HinesBatchSolve/*.HundredThousandSystems, the same kernels as the other batch sizes:
# under ASan 26-35 s a configuration, 480 s of the suite's 1,720 s).
filter=${1:-*:-RealCells.EachMorphologyAlone*:HinesBatchSolve/*.HundredThousandSystems}
scripts/bootstrap.sh openmp
cmake --preset openmp-asan >/dev/null
cmake --build --preset openmp-asan --target hinesbatch_unit_tests hinesbatch-sim \
  -j "${HINESBATCH_JOBS:-2}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Each shard keeps two OpenMP threads (the OpenMP backend's multi-thread paths stay covered);
# threads that wait sleep, so the shards share the cores. One process left a core idle
# while a Serial test ran: on the 2-core dev machine two shards took 60 s where one process
# took 92 s (a tenth of the suite).
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_PROC_BIND=false OMP_WAIT_POLICY=passive
shards=${HINESBATCH_SANITIZE_SHARDS:-${HINESBATCH_JOBS:-2}}
echo "=== ASan+UBSan: unit suite (OpenMP, Serial), $shards shards at once"
logs=build/openmp-asan/sanitize
mkdir -p "$logs"
pids=()
for ((k = 0; k < shards; ++k)); do
  GTEST_TOTAL_SHARDS=$shards GTEST_SHARD_INDEX=$k \
    build/openmp-asan/unit_tests/hinesbatch_unit_tests --gtest_filter="$filter" --gtest_brief=1 \
    >"$logs/shard_$k.txt" 2>&1 &
  pids+=($!)
done
failed=0
for ((k = 0; k < shards; ++k)); do
  rc=0
  wait "${pids[k]}" || rc=$?
  echo "--- shard $k of $shards (exit $rc)"
  cat "$logs/shard_$k.txt"
  [ "$rc" -eq 0 ] || failed=1
done
[ "$failed" -eq 0 ] || { echo "=== ASan+UBSan: a shard of the unit suite failed" >&2; exit 1; }
echo "=== ASan+UBSan: hinesbatch-sim bad inputs"
tools/hinesbatch-sim/tests/check_bad_inputs.sh build/openmp-asan/tools/hinesbatch-sim/hinesbatch-sim
