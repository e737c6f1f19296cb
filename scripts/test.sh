#!/usr/bin/env bash
# Builds HinesBatch on the OpenMP backend (bootstrapping dependencies on first use) and
# runs the whole test suite. This is the README's test command; .ci/run calls it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
scripts/bootstrap.sh openmp
cmake --preset openmp >/dev/null
cmake --build --preset openmp
ctest --preset openmp "$@"
