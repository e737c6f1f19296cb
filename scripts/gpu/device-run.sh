#!/usr/bin/env bash
# Runs on the GPU machine over a packed .devcarry/: the unit tests on every backend,
# the main job and the perf tests; logs and JSON go to $OUT.
#   scripts/gpu/device-run.sh [tests] [main] [perf:NAME:REGEX]...
# perf:NAME:REGEX runs the benchmarks matching REGEX into $OUT/perf_NAME.{json,txt}.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=.devcarry
out=${OUT:-/tmp/hinesbatch-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$PWD/$c/shared
export OMP_PROC_BIND=spread OMP_PLACES=threads
steps=("$@")
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  lscpu | grep -E "Model name|^CPU\(s\)|Thread|Socket"
} 2>&1 | tee "$out/machine.txt"
for s in "${steps[@]}"; do
  case $s in
  tests)
    echo "=== unit tests (CUDA, OpenMP, Serial)"
    $c/bin/hinesbatch_unit_tests --gtest_output=xml:"$out/unit_tests.xml" >"$out/unit_tests.log" 2>&1
    echo "unit tests rc=$?"
    grep -E "^\[  (PASSED|FAILED|SKIPPED) " "$out/unit_tests.log" | sort | uniq -c | head -20
    ;;
  tests:*)
    filter=${s#tests:}
    echo "=== unit tests ($filter)"
    $c/bin/hinesbatch_unit_tests --gtest_filter="$filter" >"$out/unit_tests_filtered.log" 2>&1
    echo "unit tests rc=$?"
    grep -E "^\[  (PASSED|FAILED) " "$out/unit_tests_filtered.log"
    ;;
  main)
    echo "=== main job, default (CUDA) space"
    $c/bin/hinesbatch-paper-classes --systems 25600 2>&1 | tee "$out/paper_classes_25600.txt"
    ;;
  perf:*)
    name=$(echo "$s" | cut -d: -f2)
    filter=$(echo "$s" | cut -d: -f3-)
    echo "=== perf tests $name ($filter)"
    $c/bin/hinesbatch_perf_tests --benchmark_filter="$filter" --benchmark_min_time=0.1 \
      --benchmark_out="$out/perf_$name.json" --benchmark_out_format=json >"$out/perf_$name.txt" 2>&1
    echo "perf $name rc=$? ($(grep -c manual_time "$out/perf_$name.txt") results)"
    ;;
  esac
done
