"""The solvers' C interface through ctypes (python/hinesbatch/capi.py, loaded by path as a
Python without the compiled module would): solved in place (pointers), d and c left as they
were, SolveError with system and node, arrays in the wrong memory or not contiguous refused.
On the GPU machine scripts/gpu/python-zero-copy.sh runs the same with CuPy and PyTorch."""
import importlib.util
import os
import pathlib

import numpy as np
import pytest

from conftest import hines_dense, hines_inputs, random_hines_tree, tridiagonal_dense

LIBRARY = os.environ.get("HINESBATCH_C_LIBRARY")
pytestmark = pytest.mark.skipif(not LIBRARY, reason="libhinesbatch_c not built")


@pytest.fixture(scope="module")
def lib():
    path = pathlib.Path(__file__).resolve().parents[1] / "hinesbatch" / "capi.py"
    spec = importlib.util.spec_from_file_location("hb_capi", path)
    capi = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(capi)
    return capi.Library(LIBRARY)


def test_hines_in_place_with_d_kept(lib, rng):
    if not lib.host_memory:
        pytest.skip("a device build: numpy arrays are refused (scripts/gpu/python-zero-copy.sh)")
    parent = random_hines_tree(rng, 23)
    for dtype, tol in ((np.float64, 1e-10), (np.float32, 2e-4)):
        u, l, d, rhs = hines_inputs(rng, parent, 40, dtype)
        want = np.array([np.linalg.solve(hines_dense(parent, u[s], l[s], d[s]), rhs[s])
                         for s in range(len(rhs))])
        d0 = d.copy()
        for layout in ("flat", "interleaved"):
            args = [x.copy() if layout == "flat" else np.ascontiguousarray(x.T)
                    for x in (u, l, d, rhs)]
            out = lib.solve_hines(parent, *args, layout=layout)
            assert out is args[3]
            got = args[3] if layout == "flat" else args[3].T
            np.testing.assert_allclose(got, want, rtol=tol, atol=tol)
            np.testing.assert_array_equal(args[2] if layout == "flat" else args[2].T, d0)
            pointers = lib.last_pointers()
            assert pointers[3] == args[3].ctypes.data and pointers[0] == args[0].ctypes.data
            assert pointers[2] != args[2].ctypes.data  # d solved on a copy
            lib.solve_hines(parent, *args[:3], args[3].copy(), layout=layout, overwrite_d=True)
            assert lib.last_pointers()[2] == args[2].ctypes.data


def test_thomas_in_place(lib, rng):
    if not lib.host_memory:
        pytest.skip("a device build")
    a, c = rng.uniform(-1, 1, (30, 12)), rng.uniform(-1, 1, (30, 12))
    b = np.abs(a) + np.abs(c) + 1
    d = rng.uniform(-1, 1, (30, 12))
    want = np.array([np.linalg.solve(tridiagonal_dense(a[s], b[s], c[s]), d[s])
                     for s in range(30)])
    c0 = c.copy()
    lib.thomas_batch(a, b, c, d)
    np.testing.assert_allclose(d, want, rtol=1e-10, atol=1e-10)
    np.testing.assert_array_equal(c, c0)
    assert lib.last_pointers()[3] == d.ctypes.data


def test_errors(lib, rng):
    if not lib.host_memory:
        pytest.skip("a device build")
    parent = random_hines_tree(rng, 8)
    u, l, d, rhs = hines_inputs(rng, parent, 10, np.float64)
    u[4], l[4], d[4] = 0.0, 0.0, 0.0
    with pytest.raises(RuntimeError) as info:
        lib.solve_hines(parent, u, l, d, rhs)
    assert type(info.value).__name__ == "SolveError" and info.value.system == 4
    with pytest.raises(ValueError, match="'rhs' is not C-contiguous"):
        lib.solve_hines(parent, u, l, d, np.asfortranarray(rhs))

    class OnGpu:  # what CuPy and PyTorch CUDA tensors expose
        __cuda_array_interface__ = {"shape": rhs.shape, "typestr": "<f8",
                                    "data": (rhs.ctypes.data, False), "version": 3,
                                    "strides": None}
    with pytest.raises(ValueError, match="'rhs' is in GPU memory, but this build"):
        lib.solve_hines(parent, u, l, d, OnGpu())
    with pytest.raises(ValueError, match="float64 or float32"):
        lib.solve_hines(parent, u, l, d, rhs.astype(np.int64))
