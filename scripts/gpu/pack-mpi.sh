#!/usr/bin/env bash
# Packs Debian 12's Open MPI 4.1.4 runtime (mpirun, libmpi, its plugins and the libraries
# they load) into .devcarry/mpi/ (git-ignored, carried to the GPU machine, whose image has
# no MPI): apt-get download (no root needed) + dpkg -x, docs/man/locale dropped. On the GPU
# machine `source scripts/gpu/mpi-env.sh` points OPAL_PREFIX, PATH and LD_LIBRARY_PATH at it.
#   scripts/gpu/pack-mpi.sh          (run after scripts/gpu/pack.sh, which keeps mpi/)
#
# The package set is the closure of `apt-cache depends --recurse --no-recommends` of
# openmpi-bin and libopenmpi3, less what any GPU image has (libc, libstdc++, zlib, ...)
# (zlib and libudev travel in fallback/, used only where the image lacks them)
# or what a single-host mpirun never loads (ssh and its Kerberos/PAM closure, hwloc's
# optional plugins with libxml2/ICU/X11/OpenCL, package-management tools).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
dst=$PWD/.devcarry/mpi
roots=(openmpi-bin libopenmpi3)
exclude='^(libc6|libgcc-s1|libstdc\+\+6|gcc-12-base|zlib1g|libzstd1|liblzma5|libbz2-1\.0|libssl3|libcrypt1|libtinfo6|libreadline8|readline-common|libmd0|libbsd0|libpcre2-8-0|libuuid1|libudev1|libselinux1|libsemanage.*|libsepol2|libaudit.*|libcap-ng0|libacl1|libdb5\.3|libpam.*|libcom-err2|libkeyutils1|libgssapi-krb5-2|libkrb5.*|libk5crypto3|libedit2|libfido2-1|libcbor0\.8|openssh-client|ssh-client|passwd|adduser|dpkg|tar|install-info|debconf|cdebconf|debconf-2\.0|libdebian-installer4|libnewt0\.52|libslang2|libtextwrap1|libhwloc-plugins|libxml2|libicu72|libx11-6|libx11-data|libxau6|libxcb1|libxdmcp6|libxext6|libxnvctrl0|libpciaccess0|libopencl1|ocl-icd-libopencl1|nvidia-libopencl1|libatomic1)$'
mapfile -t all < <(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
  --no-breaks --no-replaces --no-enhances "${roots[@]}" | grep -v '^ ' | grep -v '^<' | sort -u)
pkgs=() skipped=()
for p in "${all[@]}"; do
  if [[ $p =~ $exclude ]]; then skipped+=("$p"); else pkgs+=("$p"); fi
done
echo "pack-mpi: packing ${pkgs[*]}"
echo "pack-mpi: left out (on any image, or not loaded by a single-host run): ${skipped[*]}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 777 "$tmp"  # apt's _apt user downloads into it
(cd "$tmp" && apt-get download -q "${pkgs[@]}" 2>&1 | grep -v -e '^Get:' -e unsandboxed || true)
[ "$(ls "$tmp"/*.deb | wc -l)" -eq ${#pkgs[@]} ] || {
  echo "pack-mpi: expected ${#pkgs[@]} .debs, got $(ls "$tmp"/*.deb | wc -l)" >&2
  exit 1
}
rm -rf "$dst" && mkdir -p "$dst"
for f in "$tmp"/*.deb; do dpkg -x "$f" "$dst"; done
rm -rf "$dst"/usr/share/{doc,man,locale,lintian,bug} "$dst"/usr/share/openmpi/*.1 2>/dev/null || true
# Debian names the programs mpirun.openmpi etc. (update-alternatives): add the plain names.
for f in "$dst"/usr/bin/*.openmpi; do ln -sf "$(basename "$f")" "${f%.openmpi}"; done
# Symbolic links may not survive the carry: turn every link into a plain file. A shared
# library reached by one link only (its soname) is renamed to it; anything else is copied.
python3 - "$dst" <<'PY'
import os, sys, shutil, collections
root = sys.argv[1]
links = [os.path.join(d, f) for d, ds, fs in os.walk(root) for f in fs + ds
         if os.path.islink(os.path.join(d, f))]
by_target = collections.defaultdict(list)
for l in links:
    t = os.path.realpath(l)
    if not t.startswith(root + "/") or not os.path.isfile(t):
        os.remove(l)  # dangling or pointing outside the tree
        continue
    by_target[t].append(l)
for t, ls in by_target.items():
    for l in ls:
        os.remove(l)
    ls.sort()
    lib = ".so." in os.path.basename(t) and len(ls) == 1 and os.path.dirname(ls[0]) == os.path.dirname(t)
    for l in ls[:-1] if lib else ls:
        shutil.copy2(t, l)
    if lib:
        os.rename(t, ls[-1])
# Same content under two names in one folder (libfoo.so.1 and libfoo.so.1.2.3): keep the
# shorter name, the soname the loader asks for.
import hashlib
for d, ds, fs in os.walk(root):
    seen = {}
    for f in sorted(fs, key=len):
        p = os.path.join(d, f)
        if os.path.getsize(p) < 65536:
            continue
        h = hashlib.md5(open(p, "rb").read()).hexdigest()
        if h in seen and f.startswith(seen[h]):
            os.remove(p)
        else:
            seen.setdefault(h, f)
PY
# Not loaded by C/C++ MPI programs: OpenSHMEM, Fortran and Java bindings.
rm -f "$dst"/usr/lib/x86_64-linux-gnu/{liboshmem,libmpi_mpifh,libmpi_usempi,libmpi_java}* \
  "$dst"/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3/mca_{spml,sshmem,atomic,scoll,memheap}_*
[ -z "$(find "$dst" -type l)" ]
# libz and libudev (loaded by libhwloc/libopen-pal) are on most images; in case they are
# not, their Debian copies go to fallback/, which mpi-env.sh puts last on LD_LIBRARY_PATH.
mkdir -p "$tmp/fb" "$dst/fallback"
(cd "$tmp/fb" && apt-get download -q zlib1g libudev1 2>&1 | grep -v -e '^Get:' -e unsandboxed || true)
for f in "$tmp"/fb/*.deb; do dpkg -x "$f" "$tmp/fb/x"; done
for l in libz.so.1 libudev.so.1; do cp -L "$(find "$tmp/fb/x" -name "$l" | head -1)" "$dst/fallback/$l"; done
ls "$tmp"/*.deb | xargs -n1 basename >"$dst/PACKAGES"
du -sh "$dst"
