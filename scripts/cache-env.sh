# Sourced (not run) by scripts/bootstrap.sh and .ci/run: where HinesBatch keeps what a
# machine may reuse between builds and between clones, outside any clone.
#
#   $HINESBATCH_CACHE_DIR   default /var/cache/hinesbatch (~/.cache/hinesbatch when that
#                           cannot be written)
#     kokkos/<backend>-<key>   one Kokkos + Kokkos Kernels install per backend, keyed by
#                              everything that changes it (scripts/bootstrap.sh)
#     ccache/                  the compiler cache (g++, clang++, nvcc through nvcc_wrapper)
#
# Deleting the folder is always safe: everything in it is rebuilt on the next run. A cold
# run (nothing reused) is HINESBATCH_CACHE_DIR=$(mktemp -d) .ci/run.

hinesbatch_cache_dir() {
  local d=${HINESBATCH_CACHE_DIR:-}
  if [ -z "$d" ]; then
    d=/var/cache/hinesbatch
    if ! mkdir -p "$d" 2>/dev/null || [ ! -w "$d" ]; then
      d=${XDG_CACHE_HOME:-$HOME/.cache}/hinesbatch
    fi
  fi
  mkdir -p "$d"
  (cd "$d" && pwd)
}

# Compiler cache for the builds that follow (CMake reads CMAKE_CXX_COMPILER_LAUNCHER from
# the environment when it first configures a build folder). CCACHE_BASEDIR makes the
# paths under the clone relative, so a clone in another folder hits the same entries;
# CCACHE_NOHASHDIR keeps the working directory out of the hash of -g builds (their debug
# info then names the clone that first compiled an object). Depend mode: the key is the
# command line, the source and every header the compiler's own dependency list names,
# never a preprocessed text (nvcc -E shows only the host side of CUDA code, so a change to
# device code alone could otherwise be a hit). The compiler is identified by its
# --version (through nvcc_wrapper, that of the nvcc first on PATH), and also by
# CCACHE_HOST_COMPILERS' versions (.ci/run: g++-11, nvcc's host compiler) when set.
#   hinesbatch_use_ccache CLONE_ROOT
hinesbatch_use_ccache() {
  command -v ccache >/dev/null || {
    echo "hinesbatch_use_ccache: ccache not installed (scripts/bootstrap.sh installs it)" >&2
    return 1
  }
  export CCACHE_DIR=${CCACHE_DIR:-$(hinesbatch_cache_dir)/ccache}
  export CCACHE_BASEDIR=$1
  export CCACHE_NOHASHDIR=1
  export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G}
  export CCACHE_DEPEND=1
  local check='%compiler% --version' c
  for c in ${CCACHE_HOST_COMPILERS:-}; do check+="; $c --version"; done
  export CCACHE_COMPILERCHECK=$check
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
}
