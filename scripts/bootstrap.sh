#!/usr/bin/env bash
# Installs what HinesBatch needs on a fresh Debian 12 machine and builds Kokkos +
# Kokkos Kernels 3.4.01 (from Debian's trilinos 13.2 source package, with every
# cmake/patches/*.patch applied in name order) once per backend; .deps/install/<backend>,
# which the CMake presets point at, links to that install.
#
#   scripts/bootstrap.sh [openmp|cuda-h100|cuda-k80]...    (default: openmp)
#
# The installs live outside the clone, in $HINESBATCH_CACHE_DIR/kokkos (scripts/cache-env.sh;
# default /var/cache/hinesbatch), one per backend and key: a hash of everything that
# changes the install (backend, trilinos source version, the patches' names and contents,
# compiler and CMake versions, CXXFLAGS/CPPFLAGS/LDFLAGS, and the text of build_backend
# below with its flags). Every clone on the machine shares them; a key no install has yet
# is built from scratch. An install is built in a folder of its own and published by
# renaming a link onto it once complete, so a killed build never leaves an entry that
# looks finished. Re-running is cheap: nothing is rebuilt while the key stays the same.
# Users with their own Kokkos (Spack, a site install) skip this and pass -DKokkos_ROOT.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
deps=${HINESBATCH_DEPS_DIR:-$root/.deps}
jobs=${HINESBATCH_JOBS:-$(nproc)}
backends=("$@")
[ ${#backends[@]} -gt 0 ] || backends=(openmp)
# shellcheck source=scripts/cache-env.sh
. "$root/scripts/cache-env.sh"

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
# multi-GPU benchmark; NEURON 8.2: the validation tests (scripts/validation/); ccache:
# the compiler cache CI uses (.ci/run, scripts/cache-env.sh).
packages=(cmake ninja-build g++ libgtest-dev libbenchmark-dev dpkg-dev nlohmann-json3-dev
  openmpi-bin libopenmpi-dev neuron python3-neuron ccache)
[ $need_cuda = 1 ] && packages+=(nvidia-cuda-toolkit g++-11)
# clang 14 with its runtime (libFuzzer, ASan/UBSan) and OpenMP: scripts/fuzz.sh.
packages+=(clang libclang-rt-14-dev libomp-dev)
# CLI11: hinesbatch-sim's command line.
packages+=(libcli11-dev)
# NMODL mechanisms (tools/nmodl/): Blue Brain's NMODL framework parses the .mod files
# (used from /usr/bin/python3), and NEURON's nrnivmodl (neuron-dev) compiles the same
# files for the validation tests.
packages+=(nmodl python3-nmodl neuron-dev)
# The Python module (python/), its tests and its example.
packages+=(python3-dev pybind11-dev python3-numpy python3-pytest python3-matplotlib python3-mpi4py)
# pip install . into a venv, offline (pyproject.toml: setuptools and wheel from Debian);
# SONATA spike reports (HDF5 through pkg-config) and h5py, which reads them in the tests.
packages+=(python3-venv python3-setuptools python3-wheel pkg-config libhdf5-dev python3-h5py)
# tqdm: the progress bar the notebook tests hand to a run.
packages+=(python3-tqdm)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# The deb-src entries also give the trilinos version that is part of every install's key.
ensure_apt_sources
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

# Debian's nrnivmodl looks for its makefile in /usr/bin, where neuron-dev does not put it
# (scripts/validation/nmodl_vs_neuron.py compiles .mod files with it).
if [ ! -e /usr/bin/nrnmech_makefile ] && [ -e /usr/lib/nrn/nrnmech_makefile ]; then
  log "linking /usr/bin/nrnmech_makefile to /usr/lib/nrn/nrnmech_makefile (for nrnivmodl)"
  as_root ln -sf /usr/lib/nrn/nrnmech_makefile /usr/bin/nrnmech_makefile
fi

# --- what an install depends on -----------------------------------------------------
trilinos_version=$(apt-cache showsrc trilinos 2>/dev/null | awk '/^Version:/ { print $2 }' |
  sort -V | tail -n1)
[ -n "$trilinos_version" ] || {
  echo "bootstrap.sh: apt-cache showsrc trilinos finds no source package (deb-src entries?)" >&2
  exit 1
}
# Every patch in cmake/patches, in name order (byte order, whatever the locale).
mapfile -t patches < <(find "$root/cmake/patches" -maxdepth 1 -type f -name '*.patch' | LC_ALL=C sort)
patches_id() {
  local p
  for p in "${patches[@]}"; do
    printf 'patch %s %s\n' "$(basename "$p")" "$(sha256sum <"$p" | cut -d' ' -f1)"
  done
}

# --- Kokkos and Kokkos Kernels sources (only when an install has to be built) ---------
# .deps/src/.sources names the trilinos version and patches the tree was made from; any
# other tree is fetched and patched again.
ensure_sources() {
  local want
  want=$(printf 'trilinos %s\n%s\n' "$trilinos_version" "$(patches_id)")
  [ -d "$deps/src/kokkos" ] && [ "$(cat "$deps/src/.sources" 2>/dev/null)" = "$want" ] && return 0
  log "fetching Debian's trilinos $trilinos_version source package (Kokkos and Kokkos Kernels 3.4.01)"
  rm -rf "$deps/src" "$deps/dl"
  mkdir -p "$deps/dl" "$deps/src"
  (cd "$deps/dl" && apt-get source --download-only -q "trilinos=$trilinos_version" 2>&1 |
    grep -v "unsandboxed" >&2 || true)
  ls "$deps"/dl/trilinos_*.orig.tar.gz >/dev/null
  tarball=$(ls "$deps"/dl/trilinos_*.orig.tar.gz | head -n1)
  tar -xzf "$tarball" -C "$deps/dl" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
  mv "$deps"/dl/Trilinos-*/packages/kokkos "$deps/src/kokkos"
  mv "$deps"/dl/Trilinos-*/packages/kokkos-kernels "$deps/src/kokkos-kernels"
  rm -rf "$deps"/dl
  local p
  for p in "${patches[@]}"; do
    log "applying $(basename "$p")"
    (cd "$deps/src/kokkos" && patch -p1 -s --no-backup-if-mismatch <"$p")
  done
  printf '%s\n' "$want" >"$deps/src/.sources"
}

# --- one Kokkos build per backend ---------------------------------------------------
# Builds into PREFIX, a new empty folder. Its text (flags included) is part of the key.
build_backend() {
  local name=$1 prefix=$2
  # Position-independent code, so that the Python module (a shared object) can hold Kokkos.
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
}

# The text the key of backend NAME is the hash of (also kept in the install as .key).
key_text() {
  local name=$1
  printf 'backend %s\ntrilinos %s\n%s\n' "$name" "$trilinos_version" "$(patches_id)"
  printf 'cmake %s\n' "$(cmake --version | head -n1)"
  printf 'c++ %s: %s\n' "$(readlink -f "$(command -v c++)")" "$(c++ --version | head -n1)"
  printf 'g++ %s: %s\n' "$(readlink -f "$(command -v g++)")" "$(g++ --version | head -n1)"
  case $name in
  cuda-*)
    printf 'nvcc %s\n' "$(/usr/bin/nvcc --version | tail -n2 | tr '\n' ' ')"
    printf 'g++-11 %s\n' "$(g++-11 --version | head -n1)"
    ;;
  esac
  printf 'env CXXFLAGS=%s CPPFLAGS=%s LDFLAGS=%s\n' "${CXXFLAGS-}" "${CPPFLAGS-}" "${LDFLAGS-}"
  # CMake's compiler when CXX names one (then the openmp build's compiler is that one).
  [ -z "${CXX-}" ] || printf 'env CXX=%s: %s\n' "$CXX" "$("$CXX" --version | head -n1)"
  declare -f build_backend
}

# $cache/kokkos/<backend>-<key> is a link to the install, a folder under
# $cache/kokkos/builds that keeps its name for good (Kokkos' CMake files hold their
# prefix). Builds run one at a time (flock), and each waits for one of the same key.
cache=$(hinesbatch_cache_dir)/kokkos
ensure_backend() {
  local name=$1 key entry real
  key=$(key_text "$name" | sha256sum | cut -c1-16)
  entry=$name-$key
  if [ ! -f "$cache/$entry/.complete" ]; then
    mkdir -p "$cache/builds"
    (
      flock 9
      [ -f "$cache/$entry/.complete" ] && exit 0
      # What a killed build left: folders of this entry no link points at.
      for d in "$cache/builds/$entry".*; do
        if [ -d "$d" ] && [ "$(readlink "$cache/$entry" 2>/dev/null)" != "builds/${d##*/}" ]; then
          rm -rf "$d"
        fi
      done
      ensure_sources
      real=$cache/builds/$entry.$(date -u +%Y%m%dT%H%M%S).$$
      mkdir "$real"
      build_backend "$name" "$real"
      key_text "$name" >"$real/.key"
      touch "$real/.complete"
      ln -sfn "builds/${real##*/}" "$cache/.$entry.$$"
      mv -T "$cache/.$entry.$$" "$cache/$entry"
      log "cached Kokkos for $name as $cache/$entry"
      # Installs of this backend under other keys that no run has used for 30 days go.
      # (if, not a chain of &&: a false test as the loop's last command would end this
      # subshell with its status and, under set -e, the bootstrap of a cold cache.)
      for l in "$cache/$name"-*; do
        if [ -L "$l" ] && [ "$l" != "$cache/$entry" ] &&
          [ -n "$(find -L "$l/.last-used" -mtime +30 2>/dev/null)" ]; then
          rm -rf "${cache:?}/$(readlink "$l")" "$l"
        fi
      done
    ) 9>"$cache/.lock"
  fi
  touch "$cache/$entry/.last-used" 2>/dev/null || true
  # .deps/install/<backend> -> the install (an install from before the cache, a real
  # folder there, is replaced).
  local dst=$deps/install/$name
  mkdir -p "$deps/install"
  if [ "$(readlink "$dst" 2>/dev/null)" != "$cache/$entry" ]; then
    if [ -e "$dst" ] && [ ! -L "$dst" ]; then
      log "replacing $dst (made before the install cache) by a link"
      rm -rf "$dst"
    fi
    ln -sfn "$cache/$entry" "$dst.$$"
    mv -T "$dst.$$" "$dst"
  fi
  log "$name: Kokkos $entry"
}

for b in "${backends[@]}"; do ensure_backend "$b"; done
log "ready: ${backends[*]} under $deps/install"
