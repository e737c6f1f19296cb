#!/usr/bin/env bash
# The evaluation (the papers' experiments, peers measured in the same run, a report with
# plots) in three steps: build and pack here, one device call, report.
#
#   scripts/evaluate.sh build          # here: CUDA build (perf tests, unit tests, examples,
#                                      # multi-GPU), pack.sh, build-peers.sh, pack-mpi.sh
#   scripts/evaluate.sh device [PARTS] # on the GPU machine: scripts/gpu/device-run.sh
#                                      # evaluation[:PARTS] (what the device call runs)
#   scripts/evaluate.sh report DIR...  # here: figures + TABLES.md from the returned JSON
#                                      # into docs/figures (--out elsewhere: FIGURES=dir)
#
# The device call (carry .devcarry; kind nvidia-h100-x1 for the one-GPU suite, or
# nvidia-h200-x2 for the multi-GPU speed-up; both fit one 10-minute call):
#   bash scripts/gpu/device-run.sh evaluation
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
step=${1:-}
shift || true
case $step in
build)
  preset=${PRESET:-cuda-h100}
  scripts/bootstrap.sh "$preset"
  cmake --preset "$preset" >/dev/null
  targets=(hinesbatch_perf_tests hinesbatch_unit_tests hinesbatch-paper-classes)
  if grep -q 'hinesbatch_multi_gpu' "build/$preset/build.ninja"; then
    targets+=(hinesbatch_multi_gpu)
  else
    echo "evaluate: CMake found no MPI: hinesbatch_multi_gpu not built (apt-get install libopenmpi-dev)" >&2
  fi
  cmake --build --preset "$preset" -j "${HINESBATCH_JOBS:-2}" --target "${targets[@]}"
  scripts/gpu/pack.sh "$preset"
  scripts/gpu/build-peers.sh
  scripts/gpu/pack-mpi.sh
  echo "evaluate: .devcarry ready:"
  du -sh .devcarry .devcarry/*
  echo "evaluate: device call: carry [\".devcarry\"], command 'bash scripts/gpu/device-run.sh evaluation'"
  ;;
device)
  exec bash scripts/gpu/device-run.sh "evaluation${1:+:$1}"
  ;;
report)
  [ $# -gt 0 ] || {
    echo "usage: scripts/evaluate.sh report DIR_OR_JSON..." >&2
    exit 2
  }
  /usr/bin/python3 scripts/plot_performance.py --out "${FIGURES:-docs/figures}" "$@"
  ;;
*)
  sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
  ;;
esac
