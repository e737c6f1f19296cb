#!/usr/bin/env bash
# Runs on the GPU machine over a packed .devcarry/: the unit tests on every backend,
# the main job and the perf tests; logs and JSON go to $OUT.
# sim:cpu|sim:gpu: hinesbatch-sim strong/weak scaling (scripts/gpu/sim-scaling.sh).
# peers runs the standalone peer programs of .devcarry/peers (scripts/gpu/build-peers.sh,
# after pack.sh) into $OUT/peers_*.{json,txt} and $OUT/hines_peers.{json,txt}; the cell
# files hines_peers reads are written first by hinesbatch-export-cells (packed by pack.sh).
#   scripts/gpu/device-run.sh [tests] [main] [perf:NAME:REGEX] [multigpu] [evaluation[:PART,...]]
#       [sanitize[:memcheck,racecheck,initcheck,synccheck]]...
# perf:NAME:REGEX runs the benchmarks matching REGEX into $OUT/perf_NAME.{json,txt}.
# multigpu: hinesbatch_multi_gpu with mpirun -np 1, then -np 2 (and -np 4) when that many
#   GPUs are visible, into $OUT/multigpu_np<R>.{json,txt} (needs .devcarry/mpi: pack-mpi.sh).
# evaluation: the whole suite (every perf family with its Sequential/Multicore baselines,
#   the cuSPARSE peers, multi-GPU with the GPUs there are) in parts, each under a time
#   limit, within EVAL_BUDGET_S (510) seconds; parts that do not fit are listed at the end
#   and run later with evaluation:PART,PART. EVAL_MIN_TIME (0.05) is --benchmark_min_time.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=.devcarry
out=${OUT:-/tmp/hinesbatch-out}
mkdir -p "$out"
export LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
export HINESBATCH_SHARED_DIR=$PWD/$c/shared
export OMP_PROC_BIND=spread OMP_PLACES=threads
steps=("$@")
t_start=$SECONDS
stamp() { printf '[%4ds]' $((SECONDS - t_start)); }
gpu_count() {
  if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
    echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c .
  else
    nvidia-smi -L 2>/dev/null | grep -c '^GPU'
  fi
}
# multigpu [program options]: -np 1, 2, 4 as far as GPUs go.
multigpu() {
  [ -x $c/bin/hinesbatch_multi_gpu ] || { echo "multigpu: $c/bin/hinesbatch_multi_gpu missing (built with MPI? packed?)"; return 1; }
  # shellcheck source=mpi-env.sh
  source scripts/gpu/mpi-env.sh || return 1
  local ngpu rc=0 end=$((SECONDS + ${EVAL_LIMIT:-100000}))
  ngpu=$(gpu_count)
  for np in 1 2 4; do
    if [ "$np" -gt 1 ] && [ "$np" -gt "$ngpu" ]; then
      [ "$np" = 2 ] && echo "multigpu: $ngpu GPU(s) visible: -np $np skipped"
      continue
    fi
    if [ $((end - SECONDS)) -lt 20 ]; then
      echo "multigpu: time limit: -np $np not run"
      rc=124
      continue
    fi
    echo "$(stamp) multigpu -np $np"
    # Unbound OpenMP: with OMP_PROC_BIND=spread every rank would pin its threads (and the
    # MPI progress) to the same cores.
    timeout -k 10 $((end - SECONDS)) env -u OMP_PLACES OMP_PROC_BIND=false \
      mpirun -np "$np" $c/bin/hinesbatch_multi_gpu \
      --json "$out/multigpu_np$np.json" "$@" >"$out/multigpu_np$np.txt" 2>&1 || rc=$?
    echo "   -np $np: rc=$rc, $(grep -c -E ' [0-9.e+-]+ *$' "$out/multigpu_np$np.txt") timed," \
      "$(grep -c 'skipped:' "$out/multigpu_np$np.txt") skipped -> multigpu_np$np.json"
  done
  return $rc
}
# evaluation: the parts, in order of importance (P1 Figs. 3-5, then P2, then peers, ...).
eval_parts() {
  local cls
  for cls in small-low small-high medium-low medium-high big-low big-high; do
    echo "mono_$cls|60|bench|^Mono/[A-Za-z]+/$cls/"
  done
  echo "blocksize|60|bench|^BlockSize/"
  echo "thomas_f64_small|90|bench|^ThomasBatch/[A-Za-z]+/f64/(64|128|256|512)/"
  echo "accuracy|30|bench|^ThomasAccuracy/"
  echo "vbatch_f64|60|bench|^ThomasVBatch/[A-Za-z0-9]+/f64/"
  echo "multi_fig14|90|bench|^Multi/Fig14/"
  echo "multi_fig6|60|bench|^Multi/Fig6/"
  echo "real_25600|60|bench|^Multi/RealMixed/25600/"
  echo "peers_f64|90|peers|f64"
  echo "multigpu|120|multigpu|"
  echo "thomas_f64_large|90|bench|^ThomasBatch/[A-Za-z]+/f64/(1024|2048|4096|8192)/"
  echo "thomas_f32_small|90|bench|^ThomasBatch/[A-Za-z]+/f32/(64|128|256|512)/"
  echo "peers_f32|90|peers|f32"
  echo "real_256000|120|bench|^Multi/RealMixed/256000/"
  echo "thomas_f32_large|90|bench|^ThomasBatch/[A-Za-z]+/f32/(1024|2048|4096|8192)/"
  echo "vbatch_f32|60|bench|^ThomasVBatch/[A-Za-z0-9]+/f32/"
}
evaluation() {
  local only=$1 budget=${EVAL_BUDGET_S:-510} mt=${EVAL_MIN_TIME:-0.05} t0=$SECONDS
  local name cap kind arg left lim rc tp skipped=() summary="$out/evaluation_timing.txt"
  echo "$(stamp) evaluation: budget ${budget}s, --benchmark_min_time=$mt, $(gpu_count) GPU(s), $(nproc) host cores" | tee -a "$summary"
  while IFS='|' read -r name cap kind arg; do
    if [ -n "$only" ] && ! [[ ",$only," == *",$name,"* ]]; then continue; fi
    left=$((budget - (SECONDS - t0)))
    lim=$((cap < left - 5 ? cap : left - 5))
    if [ "$lim" -lt 20 ]; then
      skipped+=("$name")
      echo "$(stamp) $name: skipped (budget spent)" | tee -a "$summary"
      continue
    fi
    echo "$(stamp) $name: start (limit ${lim}s)"
    tp=$SECONDS
    case $kind in
    bench)
      timeout -k 10 "$lim" $c/bin/hinesbatch_perf_tests --benchmark_filter="$arg" \
        --benchmark_min_time="$mt" --benchmark_out="$out/perf_$name.json" \
        --benchmark_out_format=json >"$out/perf_$name.txt" 2>&1
      rc=$?
      echo "   $(grep -E '^(Mono|BlockSize|Thomas|Multi)' "$out/perf_$name.txt" | grep -c -v ERROR) results," \
        "$(grep -c 'ERROR OCCURRED' "$out/perf_$name.txt") errors -> perf_$name.json"
      ;;
    peers)
      if [ -x $c/peers/cusparse_tridiagonal ]; then
        timeout -k 10 "$lim" $c/peers/cusparse_tridiagonal --type "$arg" --repeat 10 \
          --out "$out/peers_$arg.json" >"$out/peers_$arg.txt" 2>&1
        rc=$?
        echo "   $(grep -c -v -e '^#' -e '^method' "$out/peers_$arg.txt") results ($(grep -c failed "$out/peers_$arg.txt") failed) -> peers_$arg.json"
      else
        echo "   $c/peers/cusparse_tridiagonal missing (scripts/gpu/build-peers.sh)"
        rc=1
      fi
      ;;
    multigpu)
      EVAL_LIMIT=$lim multigpu --repeat 5
      rc=$?
      ;;
    esac
    [ "$rc" = 124 ] || [ "$rc" = 137 ] && skipped+=("$name")
    echo "$(stamp) $name: rc=$rc, $((SECONDS - tp)) s$([ "$rc" = 124 ] && echo ' (time limit: partial)')" | tee -a "$summary"
  done < <(eval_parts)
  echo "$(stamp) evaluation: $((SECONDS - t0)) s" | tee -a "$summary"
  [ ${#skipped[@]} -eq 0 ] || echo "not run or cut short: ${skipped[*]}; run them with: scripts/gpu/device-run.sh evaluation:$(IFS=,; echo "${skipped[*]}")" | tee -a "$summary"
}
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
  sanitize | sanitize:*)
    # compute-sanitizer over the CUDA unit suite: sanitize[:TOOL,...] with
    # TOOL in memcheck, racecheck, initcheck, synccheck (default all four). Each tool runs
    # the whole suite (SANITIZE_FILTER, default *) under SANITIZE_LIMIT_S (540) seconds;
    # logs in $OUT/compute-sanitizer/TOOL.{log,txt}. Any reported error fails the tool.
    tools=$(echo "$s" | cut -s -d: -f2 | tr ',' ' ')
    tools=${tools:-memcheck racecheck initcheck synccheck}
    cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
    mkdir -p "$out/compute-sanitizer"
    if [ -z "$cs" ]; then
      echo "sanitize: compute-sanitizer not found (PATH, /usr/local/cuda*/bin)"
    fi
    for tool in $tools; do
      [ -n "$cs" ] || break
      echo "=== compute-sanitizer --tool $tool ($("$cs" --version | tail -1))"
      extra=()
      [ "$tool" = memcheck ] && extra=(--leak-check full)
      [ "$tool" = racecheck ] && extra=(--racecheck-report all)
      timeout -k 10 "${SANITIZE_LIMIT_S:-540}" "$cs" --tool "$tool" "${extra[@]}" \
        --error-exitcode 99 --log-file "$out/compute-sanitizer/$tool.log" \
        $c/bin/hinesbatch_unit_tests --gtest_filter="${SANITIZE_FILTER:-*}" \
        >"$out/compute-sanitizer/$tool.txt" 2>&1
      rc=$?
      echo "$tool rc=$rc ($([ $rc = 99 ] && echo errors reported || ([ $rc = 124 ] && echo time limit) || echo ok))," \
        "$(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/compute-sanitizer/$tool.log" | tail -1)," \
        "$(grep -E '^\[  (PASSED|FAILED) ' "$out/compute-sanitizer/$tool.txt" | tr '\n' ' ')"
    done
    ;;
  main)
    echo "=== main job, default (CUDA) space"
    $c/bin/hinesbatch-paper-classes --systems 25600 2>&1 | tee "$out/paper_classes_25600.txt"
    ;;
  peers)
    # Peers: the same arguments as the cuSPARSE runs of docs/PERFORMANCE.md,
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
  sim:*)
    # Network simulation scaling: scripts/gpu/sim-scaling.sh cpu|gpu.
    echo "=== simulation scaling (${s#sim:})"
    bash scripts/gpu/sim-scaling.sh "${s#sim:}"
    ;;
  multigpu)
    echo "=== multi-GPU (P1 Fig. 3)"
    multigpu
    echo "multigpu rc=$?"
    cat "$out"/multigpu_np*.txt | grep -v -e '^Kokkos::OpenMP' -e '^  In general' -e '^  For '
    ;;
  evaluation | evaluation:*)
    echo "=== evaluation"
    evaluation "$(echo "$s" | cut -s -d: -f2)"
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
