#!/usr/bin/env python3
"""Times hinesbatch.solve_hines on numpy arrays from Python: in place (flat, interleaved)
and through the copy path (Fortran-order arrays), with a numpy copy of the same arrays as
the memory-bandwidth peer. Each call includes building the tree's device plan.

    PYTHONPATH=build/openmp/python python3 examples/python/time_solve.py [SWC]
"""
import pathlib
import sys
import time

import numpy as np

import hinesbatch as hb

swc = sys.argv[1] if len(sys.argv) > 1 else str(
    pathlib.Path(__file__).resolve().parents[2] / ".." / "shared" / "morphologies" / "96ML.CNG.swc")
m = hb.read_swc(swc)
parent = m.parent; n = len(parent); N = 20000
rng = np.random.default_rng(0)
def inputs():
    u = rng.uniform(-1, -0.1, (N, n)); l = rng.uniform(-1, -0.1, (N, n))
    d = np.full((N, n), 2.0 + 2 * 1.0) + np.bincount(parent[1:], minlength=n)[None, :]  # dominant
    return u, l, d, rng.uniform(-1, 1, (N, n))
u, l, d, rhs = inputs()
cfg = hb.kokkos_config(); print(cfg["execution_space"], cfg["concurrency"], "threads; N =", N, "n =", n)
for layout in ("flat", "interleaved"):
    args = [x if layout == "flat" else np.ascontiguousarray(x.T) for x in (u, l, d, rhs)]
    best = 1e9
    for _ in range(5):
        a = [x.copy() for x in args]
        t = time.perf_counter(); hb.solve_hines(parent, *a, layout=layout, schedule="per_system"); best = min(best, time.perf_counter() - t)
    print("%-12s in place : %.2f ms  %.3f G nodes/s" % (layout, best * 1e3, N * n / best / 1e9))
best = 1e9
for _ in range(5):
    a = [np.asfortranarray(x) for x in (u, l, d, rhs)]
    t = time.perf_counter(); hb.solve_hines(parent, *a, layout="flat", schedule="per_system"); best = min(best, time.perf_counter() - t)
print("%-12s copied   : %.2f ms  %.3f G nodes/s (Fortran-order arrays: copy in and out)" % ("flat", best * 1e3, N * n / best / 1e9))
best = 1e9
for _ in range(5):
    t = time.perf_counter(); c = [x.copy() for x in (u, l, d, rhs)]; best = min(best, time.perf_counter() - t)
print("peer: numpy copy of the 4 arrays (one read + one write of each): %.2f ms" % (best * 1e3))
