#!/usr/bin/env bash
# Builds HinesBatch on the OpenMP backend (bootstrapping dependencies on first use) and
# runs the main job: the six paper morphology classes in every layout and with the
# SIMD-tile schedule, with time, G nodes/s and speed-up over one sequential core. Extra
# arguments go to the program (--systems N, --repeat R, --block-size BS, --float).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/bootstrap.sh openmp
# The benchmark programs are built for this machine's vector width (the SIMD-tile row);
# the library and the tests stay generic. HINESBATCH_BENCH_ARCH_FLAGS="" builds generic.
cmake --preset openmp "-DHINESBATCH_BENCH_ARCH_FLAGS=${HINESBATCH_BENCH_ARCH_FLAGS--march=native}" \
  >/dev/null
cmake --build --preset openmp --target hinesbatch-paper-classes
OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads} \
  build/openmp/examples/hinesbatch-paper-classes "$@"
