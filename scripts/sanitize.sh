#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer run of the unit suite on the OpenMP and
# Serial backends, and of hinesbatch-sim's bad-input cases. CI runs it.
#   scripts/sanitize.sh [GTEST_FILTER]
# Builds the openmp-asan preset (build/openmp-asan: gcc, -fsanitize=address,undefined,
# -fno-sanitize-recover: any report fails). Kokkos itself is not instrumented.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# Each real morphology alone through every schedule (RealCells.EachMorphologyAlone*) runs
# in scripts/test.sh; under the sanitizers the mixed network covers the same code.
filter=${1:-*:-RealCells.EachMorphologyAlone*}
scripts/bootstrap.sh openmp
cmake --preset openmp-asan >/dev/null
cmake --build --preset openmp-asan --target hinesbatch_unit_tests hinesbatch-sim \
  -j "${HINESBATCH_JOBS:-2}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-2} OMP_PROC_BIND=false
echo "=== ASan+UBSan: unit suite (OpenMP, Serial)"
build/openmp-asan/unit_tests/hinesbatch_unit_tests --gtest_filter="$filter" --gtest_brief=1
echo "=== ASan+UBSan: hinesbatch-sim bad inputs"
tools/hinesbatch-sim/tests/check_bad_inputs.sh build/openmp-asan/tools/hinesbatch-sim/hinesbatch-sim
