#!/usr/bin/env bash
# libFuzzer runs of the SWC reader and hinesbatch-sim's config loader (targets in
# tools/fuzz, built with clang, ASan and UBSan into build/fuzz).
#
#   scripts/fuzz.sh smoke [SECONDS]     bounded run for CI: SECONDS in all (default 60),
#                                       split between the two targets
#   scripts/fuzz.sh long RUNS [LOGDIR]  RUNS executions per target (>= 1e6 for the record
#                                       in docs/results/), logs written to LOGDIR
#
# Seed corpora are built at run time (never committed) under build/fuzz/corpus: the SWC
# files of ../shared/morphologies (when present) and small hand-made ones, and the JSON
# configs of examples/ and tools/hinesbatch-sim/tests. A finding leaves a crash-*/leak-*/
# timeout-* file in build/fuzz/findings and a non-zero exit; fix it with a regression test.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mode=${1:-smoke}
root=$PWD
B=$root/build/fuzz
scripts/bootstrap.sh openmp
if [[ ! -f $B/build.ninja ]]; then
  cmake -S . -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
    "-DCMAKE_CXX_FLAGS=-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined" \
    -DKokkos_ROOT="$root/.deps/install/openmp" -DHINESBATCH_ENABLE_KOKKOSKERNELS=OFF \
    -DHINESBATCH_ENABLE_TESTS=OFF -DHINESBATCH_ENABLE_PERF_TESTS=OFF \
    -DHINESBATCH_ENABLE_EXAMPLES=OFF -DHINESBATCH_ENABLE_TOOLS=ON -DHINESBATCH_ENABLE_MPI=OFF \
    -DHINESBATCH_ENABLE_FUZZ=ON -DHINESBATCH_PYTHON=OFF >/dev/null
fi
cmake --build "$B" --target fuzz_swc fuzz_config -j "${HINESBATCH_JOBS:-2}"

# --- seed corpora (run time only)
rm -rf "$B/corpus" && mkdir -p "$B/corpus/swc" "$B/corpus/config" "$B/findings"
shared=${HINESBATCH_SHARED_DIR:-$root/../shared}
if [[ -d $shared/morphologies ]]; then
  cp "$shared"/morphologies/*.swc "$B/corpus/swc/" 2>/dev/null || true
fi
printf '1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 20 0 0 1 2\n4 3 10 10 0 1 2\n' >"$B/corpus/swc/small.swc"
printf '# c\r1 1 0 0 0 5 -1\r2 2 0 -10 0 1 1\r' >"$B/corpus/swc/cr.swc"
for f in examples/sim/*.json tools/hinesbatch-sim/tests/*.json scripts/validation/cases/*.json; do
  [[ -f $f ]] && cp "$f" "$B/corpus/config/$(echo "$f" | tr / _)"
done
# Deep nesting (100,000 levels under an unknown key: the parser's depth limit) and huge
# inputs (a 1 MB morphology string, a 1 MB SWC token: bounded echo and reads).
python3 -c "print('{\"x\": ' + '[' * 100000 + ']' * 100000 + '}')" >"$B/corpus/config/deep_nesting.json"
python3 -c "print('{\"cell\": {\"morphology\": \"' + 'm' * 1000000 + '\"}}')" \
  >"$B/corpus/config/huge_string.json"
{ printf '1 1 0 0 0 1'; head -c 1000000 /dev/zero | tr '\0' '7'; printf ' -1\n'; } \
  >"$B/corpus/swc/huge_token.swc"

run() {  # run TARGET CORPUS LOG ARGS...
  local target=$1 corpus=$2 log=$3
  shift 3
  # -timeout: one input may take at most 10 s; -rss_limit_mb: 2 GB; ASan leak checks on;
  # -max_len (FUZZ_MAX_LEN, 2048 bytes): long enough for every structure of both formats,
  # short enough for thousands of SWC inputs a second (the real files are cut there).
  (cd "$B/findings" && "$B/tools/fuzz/$target" "$corpus" -timeout=10 -rss_limit_mb=2048 \
    -max_len="${FUZZ_MAX_LEN:-2048}" -print_final_stats=1 "$@") >"$log" 2>&1
  local rc=$?
  grep -E "^(stat::number_of_executed_units|#[0-9]+ +DONE)" "$log" | tail -2 || true
  return $rc
}

status=0
case $mode in
  smoke)
    total=${2:-60}
    half=$((total / 2))
    for t in swc config; do
      echo "=== fuzz smoke: fuzz_$t for ${half} s"
      run fuzz_$t "$B/corpus/$t" "$B/fuzz_$t.log" -max_total_time="$half" || {
        status=1
        tail -40 "$B/fuzz_$t.log"
      }
    done
    ;;
  long)
    runs=${2:?usage: fuzz.sh long RUNS [LOGDIR]}
    logs=${3:-$B/logs}
    mkdir -p "$logs"
    for t in swc config; do
      echo "=== fuzz long: fuzz_$t, $runs executions"
      start=$(date +%s)
      run fuzz_$t "$B/corpus/$t" "$logs/fuzz_$t.log" -runs="$runs" || status=1
      echo "fuzz_$t: $(($(date +%s) - start)) s, exit $status" | tee -a "$logs/summary.txt"
    done
    ;;
  *)
    echo "usage: scripts/fuzz.sh smoke [SECONDS] | long RUNS [LOGDIR]" >&2
    exit 2
    ;;
esac
ls "$B/findings" | grep -E '^(crash|leak|timeout|oom)-' && status=1 || true
exit $status
