#!/usr/bin/env bash
# Packs what the GPU machine needs into .devcarry/ (git-ignored, carried by the device
# tool): the CUDA build's binaries, Google Benchmark's shared library, and the
# NeuroMorpho files from ../shared (transport only: never committed). Keeps what
# build-peers.sh (peers/) and pack-mpi.sh (mpi/) put there.
#   scripts/gpu/pack.sh [preset]      (default cuda-h100)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
preset=${1:-cuda-h100}
dst=.devcarry
rm -rf "$dst/bin" "$dst/lib" "$dst/shared" && mkdir -p "$dst/bin" "$dst/lib"
for b in unit_tests/hinesbatch_unit_tests perf_tests/hinesbatch_perf_tests \
  examples/hinesbatch-paper-classes examples/hinesbatch-export-cells \
  perf_tests/hinesbatch_solver_map perf_tests/multi_gpu/hinesbatch_multi_gpu \
  tools/hinesbatch-sim/hinesbatch-sim; do
  [ -f "${HINESBATCH_BUILD_ROOT:-build}/$preset/$b" ] && cp "${HINESBATCH_BUILD_ROOT:-build}/$preset/$b" "$dst/bin/"
done
strip "$dst"/bin/* 2>/dev/null || true
for l in libbenchmark.so.1debian libgomp.so.1 libstdc++.so.6; do cp -L /usr/lib/x86_64-linux-gnu/$l "$dst/lib/"; done
[ -d ../shared/morphologies ] && mkdir -p "$dst/shared" && cp -r ../shared/morphologies "$dst/shared/"
du -sh "$dst" "$dst"/*
