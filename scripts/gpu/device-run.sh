#!/usr/bin/env bash
# Runs on the GPU machine over a packed .devcarry/: the unit tests on every backend,
# the main job and the perf tests; logs and JSON go to $OUT.
#   scripts/gpu/device-run.sh [tests] [main] [peers] [perf:NAME:REGEX]...
# perf:NAME:REGEX runs the benchmarks matching REGEX into $OUT/perf_NAME.{json,txt}.
# peers runs the standalone peer programs of .devcarry/peers (scripts/gpu/build-peers.sh,
# after pack.sh) into $OUT/peers_*.{json,txt} and $OUT/hines_peers.{json,txt}; the cell
# files hines_peers reads are written first by hinesbatch-export-cells (packed by pack.sh).
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
  peers)
    # Peers: the same arguments as the cuSPARSE runs of docs/PERFORMANCE.md (issue #3),
    # then the Hines peers on the trees our benchmarks use. About 60-90 s on an H100/H200.
    echo "=== peers"
    p=$c/peers
    for b in cusparse_tridiagonal hines_peers; do
      [ -x "$p/$b" ] || echo "peers: $p/$b missing: run scripts/gpu/build-peers.sh after pack.sh"
    done
    for run in "f64_a --type f64 --m 64,256,512 --n 256000" "f64_b --type f64 --m 1024,8192 --n 20000" \
      "f32 --type f32 --m 64,512 --n 256000"; do
      set -- $run
      tag=$1
      shift
      $p/cusparse_tridiagonal "$@" --repeat 10 --out "$out/peers_$tag.json" >"$out/peers_$tag.txt" 2>&1
      echo "cusparse_tridiagonal $tag rc=$? ($(grep -c -E '^(cusparse|cuThomas)' "$out/peers_$tag.txt") results)"
    done
    cells=$(mktemp -d /tmp/hinesbatch-cells.XXXXXX)
    {
      $c/bin/hinesbatch-export-cells "$cells/classes.bin" --mix classes &&
        $c/bin/hinesbatch-export-cells "$cells/real_25600.bin" --mix real --cells 25600 &&
        $c/bin/hinesbatch-export-cells "$cells/real_256000.bin" --mix real --cells 256000 &&
        for l in 2 3 4; do
          $c/bin/hinesbatch-export-cells "$cells/fig14_levels${l}_256000.bin" --mix fig14 --levels $l --cells 256000 || exit 1
        done
    } 2>&1 | tee "$out/export_cells.txt"
    $p/hines_peers --classes "$cells/classes.bin" --cells "$cells/real_25600.bin" \
      --cells "$cells/real_256000.bin" --cells "$cells/fig14_levels2_256000.bin" \
      --cells "$cells/fig14_levels3_256000.bin" --cells "$cells/fig14_levels4_256000.bin" \
      --type both --repeat 10 --out "$out/hines_peers.json" >"$out/hines_peers.txt" 2>&1
    echo "hines_peers rc=$? ($(grep -c -E '^(cuHinesBatch|CoreNEURON)' "$out/hines_peers.txt") results)"
    rm -rf "$cells"
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
