"""The run's files from Python and from hinesbatch-sim, by the same writers: SONATA spike
reports (read back with h5py) equal to the text raster, traces on disk while the run goes,
run_config honouring the config's "output" section, the metrics with the tool's fields, and
the plot helpers."""
import csv
import json
import os
import subprocess

import numpy as np
import pytest

import hinesbatch as hb
from test_notebook import ring
from test_simulation import needs_tool, tool

h5py = pytest.importorskip("h5py")
needs_hdf5 = pytest.mark.skipif(not hb.config()["hdf5"], reason="built without HDF5")


def read_sonata(path, population="hinesbatch"):
    with h5py.File(path, "r") as f:
        assert list(f["spikes"].keys()) == [population]
        g = f["spikes"][population]
        sorting = h5py.check_enum_dtype(g.attrs.get_id("sorting").dtype)
        assert sorting == {"none": 0, "by_id": 1, "by_time": 2}
        assert g.attrs["sorting"] == 2  # by_time
        assert g["timestamps"].attrs["units"] == "ms"
        assert g["node_ids"].dtype == np.uint64 and g["timestamps"].dtype == np.float64
        return g["node_ids"][:], g["timestamps"][:]


def text_raster(path):
    rows = [line.split() for line in open(path).read().splitlines()]
    return np.array([int(r[0]) for r in rows]), np.array([float(r[1]) for r in rows])


@needs_hdf5
def test_python_sonata_report_matches_the_text_raster(tmp_path):
    r = ring().run(50, output={"spikes": str(tmp_path / "s.txt"),
                               "spikes_sonata": str(tmp_path / "s.h5"),
                               "sonata_population": "ring"})
    assert len(r.spike_gids) > 10
    ids, times = read_sonata(tmp_path / "s.h5", "ring")
    gids, text_times = text_raster(tmp_path / "s.txt")
    np.testing.assert_array_equal(ids, gids)
    np.testing.assert_allclose(times, text_times, atol=5e-7)  # the text has 6 decimals
    np.testing.assert_array_equal(times, r.spike_times)  # exact in HDF5
    assert np.all(np.diff(times) >= 0)
    r.write_sonata(tmp_path / "again.h5")  # the result's own writer
    ids2, times2 = read_sonata(tmp_path / "again.h5")
    np.testing.assert_array_equal(ids2, ids)
    np.testing.assert_array_equal(times2, times)
    r.write_spikes(tmp_path / "again.txt")
    assert (tmp_path / "again.txt").read_text() == (tmp_path / "s.txt").read_text()


@needs_tool
@needs_hdf5
def test_hinesbatch_sim_sonata_report_matches_its_text_raster_and_python(tmp_path):
    net = ring()
    config = tmp_path / "ring.json"
    config.write_text(json.dumps(dict(net.to_config(50), output={"spikes_sonata": "cfg.h5"})))
    p = subprocess.run([str(tool()), str(config), "--spikes", str(tmp_path / "s.txt"),
                        "--quiet"], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, OMP_PROC_BIND="false"))
    assert p.returncode == 0, p.stderr
    p = subprocess.run([str(tool()), str(config), "--spikes-sonata", str(tmp_path / "opt.h5"),
                        "--quiet"], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, OMP_PROC_BIND="false"))
    assert p.returncode == 0, p.stderr
    gids, times = text_raster(tmp_path / "s.txt")
    assert len(gids) > 10
    for name in ("cfg.h5", "opt.h5"):  # the config key (relative to the config) and the option
        ids, t = read_sonata(tmp_path / name)
        np.testing.assert_array_equal(ids, gids)
        np.testing.assert_allclose(t, times, atol=5e-7)
    r = net.run(50)
    ids, t = read_sonata(tmp_path / "opt.h5")
    np.testing.assert_array_equal(ids, r.spike_gids)
    np.testing.assert_array_equal(t, r.spike_times)


def test_traces_are_on_disk_while_the_run_goes(tmp_path):
    sizes = []

    def look(t, tstop):
        temporaries = [p for p in tmp_path.iterdir() if p.name.startswith(".hb-")]
        sizes.append(sum(p.stat().st_size for p in temporaries))

    net = ring()
    net.record(5)
    r = net.run(30, progress=look, output={"traces": str(tmp_path / "v.csv")})
    # epoch by epoch the temporary grows; renamed onto v.csv at the end
    assert len(sizes) >= 3 and sizes[0] > 0 and sizes[-2] > sizes[0]
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".hb-")]
    with open(tmp_path / "v.csv") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["t", "g0_s0_x0.5", "g5_s0_x0.5"]
    table = np.array(rows[1:], dtype=float)
    np.testing.assert_allclose(table[:, 0], r.times, atol=1e-9)
    np.testing.assert_allclose(table[:, 1:].T, r.traces, rtol=1e-7, atol=1e-6)


def test_run_config_honours_the_output_section(tmp_path):
    config = dict(ring().to_config(20), output={"spikes": "spikes.txt", "metrics": "m.json"})
    r = hb.run_config(config, base_dir=str(tmp_path))
    assert (tmp_path / "spikes.txt").read_text().splitlines() == r.raster_lines()
    metrics = json.loads((tmp_path / "m.json").read_text())
    # one serializer: the file's fields are the result's, with the same meanings
    assert set(metrics) == set(r.metrics)
    for key in ("spikes", "steps", "epochs", "cells", "compartments", "ranks", "exchange"):
        assert metrics[key] == r.metrics[key], key
    assert r.metrics["wall_s"] > 0 and r.metrics["spikes"] == len(r.spike_gids)
    (tmp_path / "spikes.txt").unlink()
    hb.run_config(config, base_dir=str(tmp_path), write_outputs=False)
    assert not (tmp_path / "spikes.txt").exists()
    with pytest.raises(hb.InputError, match="output.traces"):
        hb.run_config(dict(config, record=[], output={"traces": "v.csv"}), base_dir=str(tmp_path))


def test_plot_helpers_draw_the_raster_and_the_traces():
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import hinesbatch.plot as hbp
    net = ring()
    net.record(3)
    r = net.run(30)
    ax = hbp.raster(r)
    x, y = ax.lines[0].get_data()
    np.testing.assert_array_equal(x, r.spike_times)
    np.testing.assert_array_equal(y, r.spike_gids)
    ax = r.plot_traces()
    assert len(ax.lines) == 2
    np.testing.assert_array_equal(ax.lines[1].get_ydata(), r.trace(3))
    ax = hbp.raster(r, gids=[0])
    assert set(ax.lines[0].get_ydata()) == {0}
