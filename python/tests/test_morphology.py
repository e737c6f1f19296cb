"""read_swc on the shared NeuroMorpho files: points against the file itself, sections
against NEURON's own Import3d when NEURON is installed (python3-neuron), parents usable by
the solvers, and malformed files as InputError(file, line, value)."""
import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import hinesbatch as hb
from conftest import hines_dense, hines_inputs, morphology_dir, morphology_files

FILES = morphology_files()
needs_files = pytest.mark.skipif(not FILES, reason="no morphologies in %s" % morphology_dir())


def file_points(path):
    """id -> (type, x, y, z, r, parent) parsed here, independently of the library."""
    pts = {}
    with open(path, encoding="utf-8-sig") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            v = line.split()
            pts[int(float(v[0]))] = (int(float(v[1])), *map(float, v[2:6]), int(float(v[6])))
    return pts


@needs_files
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_points_and_tree_match_the_file(path):
    m = hb.read_swc(str(path))
    pts = file_points(path)
    assert len(m) == len(pts)
    ids, parent = m.ids, m.parent
    assert parent[0] == -1 and np.all(parent[1:] < np.arange(1, len(m)))
    assert sorted(ids.tolist()) == sorted(pts)
    xyzr = m.points
    for k, i in enumerate(ids):
        t, x, y, z, r, p = pts[int(i)]
        assert m.types[k] == t
        np.testing.assert_allclose(xyzr[k], (x, y, z, r))
        if k:
            assert ids[parent[k]] == p
        else:
            assert p < 0
    secs = m.sections
    assert secs[0].parent == -1
    assert all(s.pt3d.shape[0] >= 2 and s.pt3d.shape[1] == 4 for s in secs)
    assert all(-1 <= s.parent < len(secs) for s in secs)


NEURON_SCRIPT = r"""
import json, os, sys
os.environ.setdefault("NEURON_MODULE_OPTIONS", "-nogui")
from neuron import h
h.load_file("stdrun.hoc"); h.load_file("import3d.hoc")
r = h.Import3d_SWC_read(); r.quiet = 1; r.input(sys.argv[1])
g = h.Import3d_GUI(r, 0); g.instantiate(None)
out = []
lst = g.swc.sections
names = {1: "soma", 2: "axon", 3: "dend", 4: "apic"}
for k in range(int(lst.count())):
    s = lst.o(k)
    if s.is_subsidiary:
        continue
    t = int(s.type)
    name = names.get(t, "minus_%d" % -t if t < 0 else "dend_%d" % t)
    sec = getattr(h, name)[int(s.nameindex)]
    ref = h.SectionRef(sec=sec)
    parent = ref.parent.name() if ref.has_parent() else None
    px = sec.parentseg().x if ref.has_parent() else None
    pts = [[sec.x3d(i), sec.y3d(i), sec.z3d(i), sec.diam3d(i)] for i in range(sec.n3d())]
    out.append({"name": sec.name(), "parent": parent, "parent_x": px, "pt3d": pts})
print(json.dumps(out))
"""


def neuron_available():
    try:
        r = subprocess.run([sys.executable, "-c", "import neuron"], capture_output=True,
                           timeout=60)
        return r.returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@needs_files
@pytest.mark.skipif(not neuron_available(), reason="NEURON (python3-neuron) not installed")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_sections_match_neuron_import3d(path):
    m = hb.read_swc(str(path))
    if m.depth_first_reread:
        pytest.skip("ids not increasing along the tree: HinesBatch keeps the correct reading")
    r = subprocess.run([sys.executable, "-c", NEURON_SCRIPT, str(path)], capture_output=True,
                       text=True, timeout=300, env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert r.returncode == 0, r.stderr
    want = json.loads(r.stdout.strip().splitlines()[-1])
    secs = m.sections
    assert [s.name for s in secs] == [w["name"] for w in want]
    min_diam = 2 * 0.01  # kMinRadiusUm: HinesBatch raises thinner diameters
    for w in want:
        pts = w["pt3d"]
        if len(pts) == 3 and all(p == pts[1] for p in pts) and pts[1][3] < min_diam:
            # Import3d's sphere (x - d/2, x, x + d/2) of a zero diameter collapses to a point:
            # HinesBatch reads it as the sphere of min_diam (sections.hpp)
            x, y, z, _ = pts[1]
            w["pt3d"] = [[x + dx, y, z, min_diam] for dx in (-min_diam / 2, 0.0, min_diam / 2)]
    for s, w in zip(secs, want):
        if w["parent"] is None:
            assert s.parent == -1
        else:
            assert secs[s.parent].name == w["parent"], s.name
            assert s.parent_x == pytest.approx(w["parent_x"]), s.name
        ref = np.array(w["pt3d"])
        assert s.pt3d.shape == ref.shape, s.name
        np.testing.assert_allclose(s.pt3d[:, :3], ref[:, :3], rtol=1e-5, atol=1e-3)
        np.testing.assert_allclose(s.pt3d[:, 3], np.maximum(ref[:, 3], min_diam), rtol=1e-5,
                                   atol=1e-3)


@needs_files
def test_a_morphology_tree_feeds_the_solver(rng):
    m = hb.read_swc(str(FILES[0]))
    parent = m.parent
    u, l, d, rhs = hines_inputs(rng, parent, 3, np.float64)
    want = np.array([np.linalg.solve(hines_dense(parent, u[s], l[s], d[s]), rhs[s]) for s in range(3)])
    x = rhs.copy()
    hb.solve_hines(m, u, l, d, x)
    np.testing.assert_allclose(x, want, rtol=1e-9, atol=1e-12)
    batch = hb.MultiBatch([m.parent, [-1, 0, 0]])
    assert batch.num_nodes == len(m) + 3


def test_malformed_swc_is_an_input_error_with_file_line_and_value(tmp_path):
    bad = tmp_path / "bad.swc"
    bad.write_text("# a comment\n1 1 0 0 0 5 -1\n2 3 0 1.5e 0 1 1\n")
    with pytest.raises(hb.InputError) as info:
        hb.read_swc(str(bad))
    e = info.value
    assert isinstance(e, ValueError)
    assert (e.file, e.line, e.value) == (str(bad), 3, "1.5e")
    assert str(bad) in str(e) and ":3:" in str(e)
    with pytest.raises(hb.InputError) as info:
        hb.read_swc(str(tmp_path / "missing.swc"))
    assert info.value.file == str(tmp_path / "missing.swc")
    with pytest.raises(hb.InputError) as info:
        hb.parse_swc("1 1 0 0 0 1 -1\n2 3 0 0 1 1 7\n", "orphan.swc")
    assert (info.value.file, info.value.line) == ("orphan.swc", 2)
