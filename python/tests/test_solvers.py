"""The solvers on numpy arrays, each against numpy.linalg.solve on the assembled matrix."""
import numpy as np
import pytest

import hinesbatch as hb
from conftest import (hines_dense, hines_inputs, random_hines_tree, tolerance,
                      tridiagonal_dense)

DTYPES = [np.float64, np.float32]


def reference_hines(parent, u, l, d, rhs):
    return np.array([np.linalg.solve(hines_dense(parent, u[s], l[s], d[s]), rhs[s].astype(np.float64))
                     for s in range(len(rhs))])


def to_layout(x, layout):
    # 'interleaved' takes (n, N) arrays: node i of every system contiguous.
    return np.ascontiguousarray(x.T) if layout == "interleaved" else x.copy()


def from_layout(x, layout):
    return x.T if layout == "interleaved" else x


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["flat", "interleaved"])
@pytest.mark.parametrize("schedule", ["auto", "per_system", "team", "warp", "on_chip", "block",
                                      "staged", "split"])
def test_hines_matches_dense_solve(rng, dtype, layout, schedule):
    n, num_systems = int(rng.integers(1, 40)), int(rng.integers(1, 50))
    parent = random_hines_tree(rng, n)
    u, l, d, rhs = hines_inputs(rng, parent, num_systems, dtype)
    want = reference_hines(parent, u, l, d, rhs)
    args = [to_layout(x, layout) for x in (u, l, d, rhs)]
    out = hb.solve_hines(parent, *args, layout=layout, schedule=schedule)
    assert out is args[3]
    got = from_layout(args[3], layout)
    # every element must have been written: the rhs values are far from the solution
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=tolerance(dtype), atol=tolerance(dtype))
    # u, l and d are only read, under every schedule (d is solved on a copy)
    np.testing.assert_array_equal(from_layout(args[0], layout), u)
    np.testing.assert_array_equal(from_layout(args[1], layout), l)
    np.testing.assert_array_equal(from_layout(args[2], layout), d)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["flat", "interleaved"])
def test_hines_simd_tiles_solve_any_number_of_systems(rng, dtype, layout):
    # tiles of consecutive systems: any count, a last tile partly filled
    n, num_systems = int(rng.integers(1, 40)), int(rng.integers(1, 70))
    parent = random_hines_tree(rng, n)
    u, l, d, rhs = hines_inputs(rng, parent, num_systems, dtype)
    want = reference_hines(parent, u, l, d, rhs)
    args = [to_layout(x, layout) for x in (u, l, d, rhs)]
    hb.solve_hines(parent, *args, layout=layout, schedule="simd_tiles")
    got = from_layout(args[3], layout)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, want, rtol=tolerance(dtype), atol=tolerance(dtype))


@pytest.mark.parametrize("layout", ["flat", "interleaved"])
def test_hines_solves_numpy_memory_in_place(rng, layout):
    parent = random_hines_tree(rng, 17)
    u, l, d, rhs = [to_layout(x, layout) for x in hines_inputs(rng, parent, 33, np.float64)]
    hb.solve_hines(parent, u, l, d, rhs, layout=layout, schedule="per_system", overwrite_d=True)
    if not hb.kokkos_config()["zero_copy"]:
        pytest.skip("device backend: arrays are copied to device memory by design")
    views = hb._last_views()
    for name, arr in zip(("u", "l", "d", "rhs"), (u, l, d, rhs)):
        assert views[name] == arr.ctypes.data, name
    # without overwrite_d, d is a copy and the caller's d stays as it was
    d_before = d.copy()
    hb.solve_hines(parent, u, l, d, rhs, layout=layout, schedule="per_system")
    views = hb._last_views()
    assert views["d"] != d.ctypes.data and views["rhs"] == rhs.ctypes.data
    np.testing.assert_array_equal(d, d_before)


def test_hines_copies_and_writes_back_strided_arrays(rng):
    """Non-contiguous arrays are copied in and out; only the viewed elements change."""
    parent = random_hines_tree(rng, 9)
    u, l, d, rhs = hines_inputs(rng, parent, 12, np.float64)
    want = reference_hines(parent, u, l, d, rhs)
    big = np.full((12, 2 * 9), np.nan)  # poisoned: the solution goes into every other column
    big[:, ::2] = rhs
    strided = big[:, ::2]
    hb.solve_hines(parent, np.asfortranarray(u), l, d.copy(), strided)
    if hb.kokkos_config()["zero_copy"]:
        assert hb._last_views()["rhs"] != strided.ctypes.data  # a copy was solved
    np.testing.assert_allclose(big[:, ::2], want, rtol=1e-10, atol=1e-12)
    assert np.all(np.isnan(big[:, 1::2]))


@pytest.mark.parametrize("schedule", ["per_system", "team", "warp", "on_chip", "block", "staged", "split"])
def test_hines_zero_pivot_raises_solve_error_with_system_and_node(rng, schedule):
    parent = np.array([-1, 0, 1, 1, 0, 4, 5])
    leaves = [2, 3, 6]
    u, l, d, rhs = hines_inputs(rng, parent, 20, np.float64)
    system, node = int(rng.integers(0, 20)), int(rng.choice(leaves))
    d[system, node] = 0.0  # a leaf's pivot is its own diagonal
    with pytest.raises(hb.SolveError) as info:
        hb.solve_hines(parent, u, l, d, rhs, schedule=schedule)
    assert info.value.system == system
    assert info.value.node == node
    assert isinstance(info.value, RuntimeError)
    assert "system %d, node %d" % (system, node) in str(info.value)


def test_hines_nan_raises_solve_error(rng):
    parent = random_hines_tree(rng, 8)
    u, l, d, rhs = hines_inputs(rng, parent, 5, np.float64)
    rhs[3, 7] = np.nan
    with pytest.raises(hb.SolveError) as info:
        hb.solve_hines(parent, u, l, d, rhs, schedule="per_system")
    assert info.value.system == 3


def test_bad_arguments_raise_value_errors_naming_them(rng):
    parent = random_hines_tree(rng, 6)
    u, l, d, rhs = hines_inputs(rng, parent, 4, np.float64)
    with pytest.raises(ValueError, match=r"'l' has shape \(4, 5\), expected \(4, 6\)"):
        hb.solve_hines(parent, u, l[:, :5].copy(), d, rhs)
    with pytest.raises(ValueError, match=r"'d' has dtype float32 but the batch is float64"):
        hb.solve_hines(parent, u, l, d.astype(np.float32), rhs)
    with pytest.raises(ValueError, match=r"'rhs' has dtype int64"):
        hb.solve_hines(parent, u, l, d, rhs.astype(np.int64))
    with pytest.raises(ValueError, match=r"'rhs' must be a numpy.ndarray"):
        hb.solve_hines(parent, u, l, d, rhs.tolist())
    ro = rhs.copy()
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=r"'rhs' is read-only"):
        hb.solve_hines(parent, u, l, d, ro)
    with pytest.raises(ValueError, match=r"'d' and 'rhs' share memory"):
        hb.solve_hines(parent, u, l, rhs, rhs)
    with pytest.raises(ValueError, match=r"layout must be"):
        hb.solve_hines(parent, u, l, d, rhs, layout="tiled")
    with pytest.raises(hb.InputError):  # not Hines numbering: parent[2] = 3 > 2
        hb.solve_hines([-1, 0, 3, 1, 0, 0], u, l, d, rhs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("layout", ["flat", "interleaved"])
@pytest.mark.parametrize("schedule", ["auto", "per_system", "team", "warp", "on_chip",
                                      "team_in_memory", "simd_tiles", "team_two_pass"])
def test_thomas_batch_matches_dense_solve(rng, dtype, layout, schedule):
    num_systems, m = int(rng.integers(1, 60)), int(rng.integers(1, 50))
    a = rng.uniform(-1, 1, (num_systems, m))
    c = rng.uniform(-1, 1, (num_systems, m))
    b = np.abs(a) + np.abs(c) + rng.uniform(1, 2, (num_systems, m))
    d = rng.uniform(-1, 1, (num_systems, m))
    a, b, c, d = [x.astype(dtype) for x in (a, b, c, d)]
    want = np.array([np.linalg.solve(tridiagonal_dense(a[s], b[s], c[s]), d[s].astype(np.float64))
                     for s in range(num_systems)])
    args = [to_layout(x, layout) for x in (a, b, c, d)]
    out = hb.thomas_batch(*args, layout=layout, schedule=schedule)
    assert out is args[3]
    np.testing.assert_allclose(from_layout(args[3], layout), want, rtol=tolerance(dtype),
                               atol=tolerance(dtype))
    # a, b and c are only read, under every schedule (c is solved on a copy)
    for k, x in enumerate((a, b, c)):
        np.testing.assert_array_equal(from_layout(args[k], layout), x)
    if hb.kokkos_config()["zero_copy"]:
        assert hb._last_views()["d"] == args[3].ctypes.data
        hb.thomas_batch(*args, layout=layout, schedule=schedule, overwrite_c=True)
        assert hb._last_views()["c"] == args[2].ctypes.data  # no copy when c may be scratch


def test_thomas_zero_pivot_names_system_and_row(rng):
    a = rng.uniform(-1, 1, (10, 8))
    c = rng.uniform(-1, 1, (10, 8))
    b = np.abs(a) + np.abs(c) + 1
    d = rng.uniform(-1, 1, (10, 8))
    system, row = int(rng.integers(0, 10)), int(rng.integers(0, 8))
    a[system, row] = b[system, row] = 0.0  # the pivot of that row is exactly 0
    with pytest.raises(hb.SolveError) as info:
        hb.thomas_batch(a, b, c, d, schedule="per_system")
    assert (info.value.system, info.value.node) == (system, row)


@pytest.mark.parametrize("computing_padding", [False, True])
@pytest.mark.parametrize("layout", ["flat", "interleaved"])
def test_thomas_vbatch_matches_dense_solve_and_keeps_padding(rng, computing_padding, layout):
    num_systems, m_max = 23, 17
    sizes = rng.integers(1, m_max + 1, num_systems)
    a = rng.uniform(-1, 1, (num_systems, m_max))
    c = rng.uniform(-1, 1, (num_systems, m_max))
    b = np.abs(a) + np.abs(c) + 1
    d = rng.uniform(-1, 1, (num_systems, m_max))
    want = [np.linalg.solve(tridiagonal_dense(a[s, :k], b[s, :k], c[s, :k]), d[s, :k])
            for s, k in enumerate(sizes)]
    pad = np.arange(m_max)[None, :] >= sizes[:, None]
    d_in = d.copy()
    d_in[pad] = np.nan  # padding poisoned: untouched without computing padding
    args = [to_layout(x, layout) for x in (a, b, c, d_in)]
    hb.thomas_vbatch(*args, sizes, layout=layout, computing_padding=computing_padding)
    got = from_layout(args[3], layout)
    for s, k in enumerate(sizes):
        np.testing.assert_allclose(got[s, :k], want[s], rtol=1e-10, atol=1e-12)
    if computing_padding:
        assert np.all(got[pad] == 0)  # identity rows with d = 0
    else:
        assert np.all(np.isnan(got[pad]))


def test_thomas_vbatch_bad_size_is_an_input_error(rng):
    a, b, c, d = [np.ones((3, 4)) for _ in range(4)]
    with pytest.raises(hb.InputError, match="system 1"):
        hb.thomas_vbatch(a, b * 3, c, d, [2, 5, 1])
    with pytest.raises(ValueError, match="'sizes' has 2 entries"):
        hb.thomas_vbatch(a, b * 3, c, d, [2, 3])


@pytest.mark.parametrize("dtype", DTYPES)
def test_multi_batch_matches_dense_solve(rng, dtype):
    trees = [random_hines_tree(rng, int(rng.integers(1, 30))) for _ in range(12)]
    trees += [trees[0], trees[1]]  # cells sharing a tree share a plan
    batch = hb.MultiBatch(trees, dtype=dtype)
    assert batch.num_cells == len(trees)
    offsets = batch.offsets
    assert list(np.diff(offsets)) == [len(t) for t in trees]
    parts = [hines_inputs(rng, t, 1, dtype) for t in trees]
    u, l, d, rhs = [np.concatenate([p[k][0] for p in parts]) for k in range(4)]
    want = np.concatenate([reference_hines(t, *p)[0] for t, p in zip(trees, parts)])
    for _ in range(2):  # planned once, solved twice
        x = rhs.copy()
        assert batch.solve(u, l, d, x) is x
        np.testing.assert_allclose(x, want, rtol=tolerance(dtype), atol=tolerance(dtype))
    cell = 5
    node = len(trees[cell]) - 1  # the last node is a leaf
    d_bad = d.copy()
    d_bad[offsets[cell] + node] = 0
    with pytest.raises(hb.SolveError) as info:
        batch.solve(u, l, d_bad, rhs.copy())
    assert (info.value.system, info.value.node) == (cell, node)
    with pytest.raises(ValueError, match=r"'u' has shape"):
        batch.solve(u[:-1].copy(), l, d, rhs.copy())
