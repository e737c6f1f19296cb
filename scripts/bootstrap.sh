#!/usr/bin/env bash
# Installs what HinesBatch needs on a fresh Debian 12 machine and builds Kokkos +
# Kokkos Kernels 3.4.01 (from Debian's trilinos 13.2 source package) once per backend
# into .deps/install/<backend>, which the CMake presets point at.
#
#   scripts/bootstrap.sh [openmp|cuda-h100|cuda-k80]...    (default: openmp)
#
# Re-running is cheap: a backend whose install prefix exists is not rebuilt.
# Users with their own Kokkos (Spack, a site install) skip this and pass -DKokkos_ROOT.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=${HINESBATCH_DEPS_DIR:-$root/.deps}
jobs=${HINESBATCH_JOBS:-$(nproc)}
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(openmp)

log() { printf '[bootstrap] %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

need_cuda=0
for b in "${backends[@]}"; do
  case $b in
  openmp) ;;
  cuda-h100 | cuda-k80) need_cuda=1 ;;
  *)
    echo "bootstrap.sh: unknown backend '$b' (openmp, cuda-h100, cuda-k80)" >&2
    exit 2
    ;;
  esac
done

# --- Debian packages --------------------------------------------------------------
# Source entries (for trilinos) and contrib/non-free (for nvidia-cuda-toolkit) are
# derived from the machine's own debian.sources, so no mirror is named here.
apt_sources=/etc/apt/sources.list.d/debian.sources
extra_sources=/etc/apt/sources.list.d/hinesbatch-extra.sources
ensure_apt_sources() {
  [ -f "$extra_sources" ] && return 0
  [ -f "$apt_sources" ] || {
    echo "bootstrap.sh: $apt_sources not found; add deb-src and non-free entries by hand" >&2
    exit 1
  }
  log "adding deb-src and contrib/non-free entries derived from $apt_sources"
  awk 'BEGIN { RS = ""; ORS = "\n\n" }
       { s = $0; gsub(/Types: deb/, "Types: deb-src", s); print s
         t = $0; gsub(/Components: main/, "Components: contrib non-free", t); print t }' \
    "$apt_sources" | as_root tee "$extra_sources" >/dev/null
  as_root apt-get update -q >/dev/null
}

# nlohmann-json: hinesbatch-sim's config; Open MPI: the network simulation and the
# multi-GPU benchmark; NEURON 8.2: the validation tests (scripts/validation/).
packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev dpkg-dev nlohmann-json3-dev
  openmpi-bin libopenmpi-dev neuron python3-neuron)
[ $need_cuda = 1 ] && packages+=(nvidia-cuda-toolkit g++-11)
# clang 14 with its runtime (libFuzzer, ASan/UBSan) and OpenMP: scripts/fuzz.sh (issue #12).
packages+=(clang libclang-rt-14-dev libomp-dev)
# CLI11: hinesbatch-sim's command line (issue #29).
packages+=(libcli11-dev)
# The Python module (python/, issue #13), its tests and its example.
packages+=(python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib python3-mpi4py)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ! -d "$deps/src/kokkos" ] || [ ${#missing[@]} -gt 0 ]; then
  ensure_apt_sources
fi
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# --- Kokkos and Kokkos Kernels sources --------------------------------------------
if [ ! -d "$deps/src/kokkos" ]; then
  log "fetching Debian's trilinos source package (Kokkos and Kokkos Kernels 3.4.01)"
  mkdir -p "$deps/dl" "$deps/src"
  (cd "$deps/dl" && apt-get source --download-only -q trilinos 2>&1 | grep -v "unsandboxed" >&2 || true)
  ls "$deps"/dl/trilinos_*.orig.tar.gz >/dev/null
  tarball=$(ls "$deps"/dl/trilinos_*.orig.tar.gz | head -n1)
  tar -xzf "$tarball" -C "$deps/dl" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  mv "$deps"/dl/Trilinos-*/packages/kokkos "$deps/src/kokkos"
  mv "$deps"/dl/Trilinos-*/packages/kokkos-kernels "$deps/src/kokkos-kernels"
  rm -rf "$deps"/dl
  (cd "$deps/src/kokkos" && patch -p1 -s <"$root/cmake/patches/kokkos-3.4-hopper90.patch")
fi

# --- one Kokkos build per backend ---------------------------------------------------
build_backend() {
  local name=$1 prefix=$deps/install/$1
  # Position-independent code, so that the Python module (a shared object) can hold
  # Kokkos; an OpenMP install made before that (no .pic stamp) is rebuilt once.
  [ -f "$prefix/.complete" ] && { [ "$name" != openmp ] || [ -f "$prefix/.pic" ]; } && return 0
  local -a opts=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_STANDARD=17
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON
    -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON)
  local -a env_cuda=()
  case $name in
  cuda-h100 | cuda-k80)
    # Debian's CUDA 11.8 (/usr/bin/nvcc) with g++-11 as host compiler; /usr/local/cuda
    # (CUDA 13) is too new for Kokkos 3.4, so it is kept off the PATH here.
    env_cuda=(env "PATH=/usr/bin:$PATH" CUDA_ROOT=/usr NVCC_WRAPPER_DEFAULT_COMPILER=g++-11)
    opts+=(-DCMAKE_CXX_COMPILER="$deps/src/kokkos/bin/nvcc_wrapper" -DKokkos_ENABLE_CUDA=ON
      -DKokkos_ENABLE_CUDA_LAMBDA=ON -DCMAKE_CXX_FLAGS=-Wno-deprecated-gpu-targets)
    [ "$name" = cuda-h100 ] && opts+=(-DKokkos_ARCH_HOPPER90=ON) || opts+=(-DKokkos_ARCH_KEPLER37=ON)
    ;;
  esac
  log "building Kokkos 3.4.01 for $name into $prefix"
  local b=$deps/build/$name
  rm -rf "$b"
  mkdir -p "$b"
  "${env_cuda[@]}" cmake -S "$deps/src/kokkos" -B "$b/kokkos" "${opts[@]}" >"$b.kokkos.log" 2>&1 ||
    {
      tail -30 "$b.kokkos.log"
      exit 1
    }
  "${env_cuda[@]}" cmake --build "$b/kokkos" -j "$jobs" >>"$b.kokkos.log" 2>&1 &&
    "${env_cuda[@]}" cmake --install "$b/kokkos" >>"$b.kokkos.log" 2>&1 || {
    tail -30 "$b.kokkos.log"
    exit 1
  }
  # Kokkos Kernels without explicit instantiations: the few kernels HinesBatch uses
  # (CrsMatrix + spmv for device residuals) are instantiated in our own code.
  log "building Kokkos Kernels 3.4.01 for $name"
  local cxx=g++
  [ ${#env_cuda[@]} -gt 0 ] && cxx=$prefix/bin/nvcc_wrapper
  "${env_cuda[@]}" cmake -S "$deps/src/kokkos-kernels" -B "$b/kernels" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ROOT="$prefix" \
    -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DCMAKE_CXX_COMPILER="$cxx" -DKokkosKernels_ADD_DEFAULT_ETI=OFF \
    -DKokkosKernels_INST_DOUBLE=OFF -DKokkosKernels_INST_FLOAT=OFF \
    -DKokkosKernels_INST_COMPLEX_DOUBLE=OFF -DKokkosKernels_INST_COMPLEX_FLOAT=OFF \
    -DKokkosKernels_INST_OFFSET_SIZE_T=OFF -DKokkosKernels_INST_OFFSET_INT=OFF \
    -DKokkosKernels_INST_ORDINAL_INT=OFF -DKokkosKernels_INST_ORDINAL_INT64_T=OFF \
    -DKokkosKernels_ENABLE_TPL_CUSPARSE=OFF -DKokkosKernels_ENABLE_TPL_CUBLAS=OFF \
    -DKokkosKernels_ENABLE_TESTS=OFF -DKokkosKernels_ENABLE_EXAMPLES=OFF \
    >"$b.kernels.log" 2>&1 &&
    "${env_cuda[@]}" cmake --build "$b/kernels" -j "$jobs" >>"$b.kernels.log" 2>&1 &&
    "${env_cuda[@]}" cmake --install "$b/kernels" >>"$b.kernels.log" 2>&1 || {
    tail -30 "$b.kernels.log"
    exit 1
  }
  rm -rf "$b"
  touch "$prefix/.complete" "$prefix/.pic"
}

for b in "${backends[@]}"; do build_backend "$b"; done
log "ready: ${backends[*]} under $deps/install"
