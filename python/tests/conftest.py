"""Shared helpers of the Python tests: dense references assembled independently of the
library, random inputs, and where the shared morphologies are."""
import os
import pathlib

import numpy as np
import pytest


def random_hines_tree(rng, n):
    """A random tree in Hines numbering: parent[0] = -1, parent[i] uniform in [0, i)."""
    parent = np.empty(n, dtype=np.int64)
    parent[0] = -1
    for i in range(1, n):
        parent[i] = rng.integers(0, i)
    return parent


def hines_dense(parent, u, l, d):
    """The matrix of one Hines system: A[p][i] = u[i], A[i][p] = l[i], A[i][i] = d[i]."""
    n = len(parent)
    a = np.diag(np.asarray(d, dtype=np.float64))
    for i in range(1, n):
        a[parent[i], i] = u[i]
        a[i, parent[i]] = l[i]
    return a


def hines_inputs(rng, parent, num_systems, dtype):
    """Random strictly diagonally dominant systems on the tree `parent`, (N, n) arrays."""
    n = len(parent)
    u = rng.uniform(-1.0, -0.1, (num_systems, n))
    l = rng.uniform(-1.0, -0.1, (num_systems, n))
    u[:, 0] = l[:, 0] = 0.0
    row_sum = np.abs(l).copy()
    for i in range(1, n):
        row_sum[:, parent[i]] += np.abs(u[:, i])
    d = row_sum + rng.uniform(1.0, 2.0, (num_systems, n))
    rhs = rng.uniform(-1.0, 1.0, (num_systems, n))
    return [x.astype(dtype) for x in (u, l, d, rhs)]


def tridiagonal_dense(a, b, c):
    m = len(b)
    t = np.diag(np.asarray(b, dtype=np.float64))
    for i in range(1, m):
        t[i, i - 1] = a[i]
        t[i - 1, i] = c[i - 1]
    return t


def tolerance(dtype):
    return 1e-10 if np.dtype(dtype) == np.float64 else 2e-4


@pytest.fixture
def rng(request):
    # A fresh seed per test run (printed on failure through the test id), reproducible with
    # HINESBATCH_TEST_SEED.
    seed = int(os.environ.get("HINESBATCH_TEST_SEED", np.random.SeedSequence().entropy % 2**32))
    print("seed", seed)
    return np.random.default_rng(seed)


def morphology_dir():
    shared = os.environ.get("HINESBATCH_SHARED_DIR")
    base = pathlib.Path(shared) if shared else pathlib.Path(__file__).resolve().parents[2] / ".." / "shared"
    return base / "morphologies"


def morphology_files():
    folder = morphology_dir()
    return sorted(folder.glob("*.swc")) if folder.is_dir() else []
