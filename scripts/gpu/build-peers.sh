#!/usr/bin/env bash
# Builds the standalone peer benchmarks into .devcarry/peers/ (git-ignored, carried to the
# GPU machine): cusparse_tridiagonal (cuSPARSE + cuThomasBatch) and hines_peers
# (cuHinesBatch Full-Interleaved, CoreNEURON-style sorted interleaved multi-morphology).
# Run it AFTER scripts/gpu/pack.sh, which empties .devcarry/. cuSPARSE is linked statically when the toolkit ships
# libcusparse_static.a; otherwise dynamically, with an rpath to the toolkit's lib64 (the GPU
# machine has the same CUDA 13 toolkit at /usr/local/cuda).
#   scripts/gpu/build-peers.sh            (CUDA=/path/to/cuda to override /usr/local/cuda)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
cuda=${CUDA:-/usr/local/cuda}
dst=.devcarry/peers
mkdir -p "$dst"
flags=(-O3 -std=c++17 -arch=sm_90 -lineinfo -Xcompiler -pthread)
if [ -f "$cuda/lib64/libcusparse_static.a" ]; then
  libs=(-L"$cuda/lib64" -lcusparse_static -lculibos)
  echo "build-peers: linking cuSPARSE statically ($cuda/lib64/libcusparse_static.a)"
else
  libs=(-L"$cuda/lib64" -lcusparse -Xlinker -rpath="$cuda/lib64")
  echo "build-peers: no libcusparse_static.a in $cuda/lib64: linking cuSPARSE dynamically" \
    "($(readlink -f "$cuda/lib64/libcusparse.so")); the run machine needs the same toolkit"
fi
"$cuda/bin/nvcc" "${flags[@]}" perf_tests/peers/cusparse_tridiagonal.cu -o "$dst/cusparse_tridiagonal" \
  "${libs[@]}"
"$cuda/bin/nvcc" "${flags[@]}" perf_tests/peers/hines_peers.cu -o "$dst/hines_peers"
echo "build-peers: built $dst/hines_peers"
echo "build-peers: built $dst/cusparse_tridiagonal ($("$cuda/bin/nvcc" --version | tail -1))"
