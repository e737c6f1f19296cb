#!/usr/bin/env bash
# Generated NMODL mechanisms on CUDA: the unit tests (generated hh/pas/ExpSyn against the
# hand-written device functions, in CUDA kernels) and hinesbatch-nmodl-cell on the GPU
# against NEURON's traces saved on a machine that has NEURON.
#
#   1. here (NEURON and nmodl installed), NEURON's traces into the folder the GPU run reads:
#        /usr/bin/python3 scripts/validation/nmodl_vs_neuron.py \
#          --cell build/openmp/tools/nmodl/hinesbatch-nmodl-cell --workdir .devcarry/nmodl_ref
#   2. where the CUDA toolchain is (python3-nmodl for the code generation):
#        scripts/gpu/nmodl-cuda.sh build        cmake --preset cuda-h100, both targets
#   3. on the GPU machine (no NEURON needed; python3 with the standard library):
#        scripts/gpu/nmodl-cuda.sh run          logs into $OUT (default /tmp/hinesbatch-out)
#
# Exit status: that of the first failing step.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
out=${OUT:-/tmp/hinesbatch-out}
build=${NMODL_CUDA_BUILD:-build/cuda-h100}
case ${1:-run} in
build)
  cmake --preset cuda-h100
  cmake --build "$build" --target hinesbatch-nmodl-cell nmodl_unit_tests
  ;;
run)
  mkdir -p "$out"
  "$build/tools/nmodl/nmodl_unit_tests" 2>&1 | tee "$out/nmodl_unit_tests_cuda.txt"
  python3 scripts/validation/nmodl_vs_neuron.py --cell "$build/tools/nmodl/hinesbatch-nmodl-cell" \
    --reference-dir .devcarry/nmodl_ref --workdir "$out/nmodl_cuda" -v 2>&1 |
    tee "$out/nmodl_vs_neuron_cuda.txt"
  ;;
*)
  echo "usage: scripts/gpu/nmodl-cuda.sh build|run" >&2
  exit 2
  ;;
esac
