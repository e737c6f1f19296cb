#!/usr/bin/env bash
# Builds HinesBatch on the OpenMP backend (bootstrapping dependencies on first use) and
# runs the whole test suite. This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/bootstrap.sh openmp
cmake --preset openmp >/dev/null
cmake --build --preset openmp
# As many tests at once as cores (HINESBATCH_JOBS; a later -j in the arguments wins). OpenMP
# threads that wait sleep, so that the tests running at once share the cores: with spinning
# threads, the warp schedule's tests took 30 times as long two at a time as one at a time.
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive} OMP_PROC_BIND=${OMP_PROC_BIND:-false}
ctest --preset openmp -j "${HINESBATCH_JOBS:-$(nproc)}" "$@"
