#!/usr/bin/env bash
# CuPy and PyTorch arrays solved in place on the GPU by the solvers' C interface (a CUDA
# build of libhinesbatch_c, loaded with ctypes by python/hinesbatch/capi.py from the GPU
# machine's own Python, whatever its version), proved by the data pointers the solver ran
# on, checked against numpy.linalg.solve. Output: $OUT/python_zero_copy.txt.
#
# Here (CUDA 11.8, Kokkos 3.4; the GPU machine's nvcc 13 cannot build Kokkos 3.4):
#   scripts/bootstrap.sh cuda-h100
#   cmake --preset cuda-h100 -DHINESBATCH_C_API=ON && cmake --build build/cuda-h100 --target hinesbatch_c
#   scripts/gpu/python-zero-copy.sh pack       # into .devcarry/lib and .devcarry/python
# On the GPU machine (.devcarry carried):
#   bash scripts/gpu/python-zero-copy.sh run
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
c=.devcarry
case ${1:-run} in
pack)
  lib=${HINESBATCH_BUILD_ROOT:-build}/${PRESET:-cuda-h100}/python/hinesbatch/libhinesbatch_c.so
  [ -f "$lib" ] || { echo "python-zero-copy: $lib missing (build the hinesbatch_c target)" >&2; exit 1; }
  mkdir -p $c/lib $c/python
  cp "$lib" $c/lib/ && strip $c/lib/libhinesbatch_c.so
  cp python/hinesbatch/capi.py $c/python/
  ls -l $c/lib/libhinesbatch_c.so $c/python/capi.py
  ;;
run)
  out=${OUT:-/tmp/hinesbatch-out}
  mkdir -p "$out"
  export LD_LIBRARY_PATH=$PWD/$c/lib:${LD_LIBRARY_PATH:-}
  HINESBATCH_C_LIBRARY=$PWD/$c/lib/libhinesbatch_c.so python3 - "$c/python/capi.py" <<'PY' 2>&1 | tee "$out/python_zero_copy.txt"
import importlib.util, os, sys
import numpy as np
spec = importlib.util.spec_from_file_location("hb_capi", sys.argv[1])
capi = importlib.util.module_from_spec(spec); spec.loader.exec_module(capi)
lib = capi.Library(os.environ["HINESBATCH_C_LIBRARY"])
print("python", sys.version.split()[0], "library", lib.version, "backend", lib.backend,
      "host memory", lib.host_memory)
assert lib.backend == "Cuda" and not lib.host_memory, "not a CUDA build of libhinesbatch_c"

rng = np.random.default_rng(7)
n, N = 64, 4096
parent = np.array([-1] + [int(rng.integers(0, i)) for i in range(1, n)])
u = rng.uniform(-1, -0.1, (N, n)); l = rng.uniform(-1, -0.1, (N, n)); u[:, 0] = l[:, 0] = 0
row = np.abs(l).copy()
for i in range(1, n):
    row[:, parent[i]] += np.abs(u[:, i])
d = row + rng.uniform(1, 2, (N, n)); rhs = rng.uniform(-1, 1, (N, n))
def dense(s):
    a = np.diag(d[s])
    for i in range(1, n):
        a[parent[i], i] = u[s, i]; a[i, parent[i]] = l[s, i]
    return a
check = range(0, N, 97)
want = {s: np.linalg.solve(dense(s), rhs[s]) for s in check}
failures = 0

def verify(name, x_host, d_host, pointers, arrays):
    global failures
    err = max(np.abs(x_host[s] - want[s]).max() for s in check)
    same = [p == a for p, a in zip(pointers, arrays)]
    ok = err < 1e-9 and same == [True, True, False, True] and np.array_equal(d_host, d)
    failures += not ok
    print("%-8s %s: max |x - numpy| %.2e, pointers solved on (u, l, d, rhs) = caller's: %s "
          "(d on a copy, left unchanged: %s)" % (name, "ok" if ok else "FAIL", err, same,
                                                 np.array_equal(d_host, d)))

try:
    import cupy as cp
    cu = [cp.asarray(x) for x in (u, l, d, rhs)]
    lib.solve_hines(parent, *cu)
    verify("cupy", cp.asnumpy(cu[3]), cp.asnumpy(cu[2]), lib.last_pointers(),
           [x.data.ptr for x in cu])
except ImportError as e:
    print("cupy: not available:", e)
try:
    import torch
    tt = [torch.from_numpy(x).cuda() for x in (u, l, d, rhs)]
    lib.solve_hines(parent, *tt)
    verify("torch", tt[3].cpu().numpy(), tt[2].cpu().numpy(), lib.last_pointers(),
           [x.data_ptr() for x in tt])
    try:
        lib.solve_hines(parent, *tt[:3], tt[3].t())  # a transposed view: not C-contiguous
        print("torch non-contiguous: FAIL (accepted)"); failures += 1
    except ValueError as e:
        print("torch non-contiguous refused: ok:", e)
except ImportError as e:
    print("torch: not available:", e)
try:
    lib.solve_hines(parent, u, l, d, rhs.copy())  # host memory on a CUDA build
    print("numpy on a CUDA build: FAIL (accepted)"); failures += 1
except ValueError as e:
    print("numpy on a CUDA build refused: ok:", e)
print("FAILURES", failures)
sys.exit(1 if failures else 0)
PY
  ;;
*)
  echo "usage: scripts/gpu/python-zero-copy.sh pack|run" >&2
  exit 2
  ;;
esac
