"""The simulator from Python: the example network's raster identical to hinesbatch-sim's on
the same network written as JSON, run_config from a dict and a file, traces, mpi4py runs,
and bad models as errors."""
import csv
import json
import os
import pathlib
import shutil
import subprocess
import sys

import numpy as np
import pytest

import hinesbatch as hb

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "examples" / "python"))
import small_network  # noqa: E402  (the example script)


def tool():
    binary = pathlib.Path(os.environ.get("HINESBATCH_BINARY_DIR", ROOT / "build" / "openmp"))
    binary = binary / "tools" / "hinesbatch-sim" / "hinesbatch-sim"
    return binary if binary.exists() else None


needs_tool = pytest.mark.skipif(tool() is None, reason="hinesbatch-sim not built")


@pytest.fixture(scope="module")
def example_run():
    net = small_network.build_network()
    return net, net.run(small_network.TSTOP)


@needs_tool
def test_example_raster_and_traces_identical_to_hinesbatch_sim(example_run, tmp_path):
    net, result = example_run
    config = tmp_path / "small_network.json"
    config.write_text(json.dumps(net.to_config(small_network.TSTOP)))
    spikes, traces = tmp_path / "spikes.txt", tmp_path / "v.csv"
    r = subprocess.run([str(tool()), str(config), "--spikes", str(spikes), "--traces",
                        str(traces), "--quiet"], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, OMP_PROC_BIND="false"))
    assert r.returncode == 0, r.stderr
    assert len(result.spike_gids) > 20  # the ring keeps firing: a real comparison
    assert spikes.read_text().splitlines() == result.raster_lines()
    with open(traces) as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["t"] + ["g%d_s%d_x%g" % rec[:3] for rec in result.records]
    table = np.array(rows[1:], dtype=float)
    np.testing.assert_allclose(table[:, 0], result.times, atol=1e-9)
    # the tool prints voltages with limited digits
    np.testing.assert_allclose(table[:, 1:].T, result.traces, rtol=1e-6, atol=1e-6)


def test_record_dt_samples_the_every_step_traces(example_run, tmp_path):
    net, result = example_run
    k = 8
    sampled = net.run(small_network.TSTOP, record_dt=k * net.params["dt"],
                      output={"traces": str(tmp_path / "v.csv")})
    assert sampled.raster_lines() == result.raster_lines()
    assert len(sampled.times) == (len(result.times) - 1) // k + 1
    np.testing.assert_allclose(sampled.times, result.times[::k], atol=1e-9)
    np.testing.assert_array_equal(sampled.traces, result.traces[:, ::k])
    table = np.loadtxt(tmp_path / "v.csv", delimiter=",", skiprows=1)
    np.testing.assert_allclose(table[:, 0], sampled.times, atol=1e-9)
    with pytest.raises(hb.InputError, match="record_dt"):
        net.run(small_network.TSTOP, record_dt=0.6 * net.params["dt"])


def test_the_ring_propagates(example_run):
    net, result = example_run
    gids, times = result.spikes
    assert np.all(np.diff(times) >= 0)
    first = {g: times[gids == g].min() for g in range(10) if np.any(gids == g)}
    # cell 0 is clamped at 2 ms; each cell then fires after its predecessor
    assert [first[g] < first[g + 1] for g in range(5)] == [True] * 5
    assert result.times[0] == 0 and result.times[-1] == pytest.approx(small_network.TSTOP)
    assert len(result.times) == round(small_network.TSTOP / 0.025) + 1
    assert np.all(result.traces[:, 0] == -65.0)
    assert result.traces.shape == (3, len(result.times))
    assert result.trace(0).max() > 0  # an action potential at the soma of cell 0


def test_run_config_dict_and_file_give_the_python_network_s_raster(example_run, tmp_path):
    net, result = example_run
    config = net.to_config(small_network.TSTOP)
    from_dict = hb.run_config(config)
    assert from_dict.raster_lines() == result.raster_lines()
    path = tmp_path / "net.json"
    path.write_text(json.dumps(config))
    from_file = hb.run_config(path, overrides=["tstop=50"])
    assert from_file.raster_lines() == [l for l in result.raster_lines()
                                        if float(l.split()[1]) < 50]


def test_host_backend_and_no_overlap_give_the_same_raster(example_run):
    net, result = example_run
    other = net.run(small_network.TSTOP, backend="host", overlap=False)
    assert other.raster_lines() == result.raster_lines()
    for schedule in ("cells", "tiles"):  # both host schedules
        again = net.run(small_network.TSTOP, backend="host", host_schedule=schedule)
        assert again.raster_lines() == result.raster_lines()
    with pytest.raises(Exception, match="tiles or cells"):
        net.run(small_network.TSTOP, backend="host", host_schedule="lanes")
    for on_chip in ("on", "off"):  # the on-chip schedule forced on the host
        again = net.run(small_network.TSTOP, backend="host", on_chip=on_chip)
        assert again.raster_lines() == result.raster_lines()
    # pas, hh and ExpSyn hand-written instead of the catalogue's: the same raster.
    again = net.run(small_network.TSTOP, backend="host", mechanisms="builtin")
    assert again.raster_lines() == result.raster_lines()
    with pytest.raises(Exception, match="catalogue or builtin"):
        net.run(small_network.TSTOP, backend="host", mechanisms="neuron")
    with pytest.raises(Exception, match="auto, on or off"):
        net.run(small_network.TSTOP, backend="host", on_chip="yes")


def test_generated_mechanisms_give_the_builtins_raster():
    def run(mechanisms):
        cell = hb.CellTemplate("synthetic:ball-and-stick", nseg=5, Ra=100.0, mechanisms=mechanisms,
                               synapses=[hb.expsyn(tau=2.0)], detector=hb.detector(threshold=0.0))
        net = hb.Network(dt=0.025, celsius=16.0)
        cells = net.add_cells(cell, 3)
        for k, gid in enumerate(cells):
            net.connect(gid, cells[(k + 1) % 3], weight=0.05, delay=2.0)
        net.add_iclamp(cells[0], delay=1.0, dur=2.0, amp=1.0)
        net.record(cells[1])
        return net.run(40.0, backend="host")
    builtin = run([hb.hh(region="soma", gnabar=0.25), hb.pas(region="dend", g=2e-4, e=-65.0)])
    generated = run([hb.mechanism("hh", region="soma", gnabar=0.25),
                     hb.mechanism("pas", region="dend", g=2e-4, e=-65.0)])
    assert len(builtin.spike_gids) >= 3  # the ring carries the kick: a real comparison
    assert generated.raster_lines() == builtin.raster_lines()
    np.testing.assert_allclose(generated.traces, builtin.traces, rtol=0, atol=1e-8)
    assert generated.metrics["schedule"] == "tiles"  # the host default runs them too
    with pytest.raises(hb.InputError, match=r"cell.mechanisms\[0\].parameters.gbar': unknown parameter of hh"):
        hb.CellTemplate("synthetic:ball-and-stick", mechanisms=[hb.mechanism("hh", gbar=1.0)])
    with pytest.raises(hb.InputError, match=r"cell.ions.ca': unknown ion"):
        hb.CellTemplate("synthetic:ball-and-stick", mechanisms=[hb.mechanism("hh")],
                        ions={"ca": {"cai0": 1e-4}})


def test_cm_and_ra_by_region_and_section_lists():
    """cm and Ra by region (NEURON's sec.cm, sec.Ra) and a section list as a region: the same
    values written either way give the same run; other values another run; to_config keeps
    them."""
    def run(**membrane):
        cell = hb.CellTemplate("synthetic:ball-and-stick", nseg=5, mechanisms=[hb.hh(region="soma")],
                               detector=hb.detector(), **membrane)
        net = hb.Network(dt=0.025)
        net.add_cells(cell, 1)
        net.add_iclamp(0, delay=1.0, dur=5.0, amp=0.5)
        net.record(0, section=1, x=0.9)
        return net, net.run(15.0, backend="host")
    _, uniform = run(Ra=100.0, cm=1.0)
    _, as_list = run(Ra=[("all", 100.0)], cm=[{"region": "all", "value": 1.0}])
    np.testing.assert_array_equal(as_list.traces, uniform.traces)
    net, by_region = run(Ra=[("all", 100.0), ("tips", 300.0)], cm=[("dend", 2.0)],
                         section_lists={"tips": [1]})
    _, by_type = run(Ra=[("all", 100.0), ("dend", 300.0)], cm=[("all", 1.0), ("dend", 2.0)])
    np.testing.assert_array_equal(by_region.traces, by_type.traces)  # the list is the dendrite
    assert np.max(np.abs(by_region.traces - uniform.traces)) > 1.0
    config = net.to_config(15.0)
    assert config["cell"]["section_lists"] == {"tips": [1]}
    assert config["cell"]["Ra"] == [{"region": "all", "value": 100.0}, {"region": "tips", "value": 300.0}]
    with pytest.raises(hb.InputError, match=r"cell.cm\[0\].region': must be soma, axon, dend, apic, "
                                            r"basal, all or a section list of section_lists \(tips\)"):
        hb.CellTemplate("synthetic:ball-and-stick", cm=[("trunk", 2.0)], section_lists={"tips": [1]})


def test_point_process_synapses():
    def run(synapse, on_chip="off"):
        cell = hb.CellTemplate("synthetic:ball-and-stick", nseg=5, Ra=100.0,
                               mechanisms=[hb.hh(region="soma", gnabar=0.25),
                                           hb.pas(region="dend", g=2e-4, e=-65.0)],
                               synapses=[synapse], detector=hb.detector(threshold=0.0))
        net = hb.Network(dt=0.025)
        cells = net.add_cells(cell, 3)
        for k, gid in enumerate(cells):
            net.connect(gid, cells[(k + 1) % 3], weight=0.05, delay=2.0)
        net.add_iclamp(cells[0], delay=1.0, dur=2.0, amp=1.0)
        net.record(cells[1])
        return net.run(40.0, backend="host", on_chip=on_chip)
    builtin = run(hb.expsyn(section=1, x=0.5, tau=2.0))
    expsyn = run(hb.point_synapse("ExpSyn", section=1, x=0.5, tau=2.0))
    assert len(builtin.spike_gids) >= 3  # the ring carries the kick: a real comparison
    assert expsyn.raster_lines() == builtin.raster_lines()
    np.testing.assert_array_equal(expsyn.traces, builtin.traces)
    exp2syn = run(hb.point_synapse("Exp2Syn", section=1, x=0.5, tau1=0.5, tau2=4.0))
    assert exp2syn.raster_lines() != builtin.raster_lines()
    on_chip = run(hb.point_synapse("Exp2Syn", section=1, x=0.5, tau1=0.5, tau2=4.0), on_chip="on")
    assert on_chip.metrics["schedule"] == "on_chip"
    assert on_chip.raster_lines() == exp2syn.raster_lines()
    np.testing.assert_allclose(on_chip.traces, exp2syn.traces, rtol=0, atol=1e-8)
    with pytest.raises(hb.InputError, match=r"cell.synapses\[\].synapse.name': is a density mechanism"):
        hb.CellTemplate("synthetic:ball-and-stick", synapses=[hb.point_synapse("hh")])
    with pytest.raises(hb.InputError, match=r"cell.synapses\[\].synapse.parameters.tau': unknown parameter of Exp2Syn"):
        hb.CellTemplate("synthetic:ball-and-stick", synapses=[hb.point_synapse("Exp2Syn", tau=1.0)])


def test_records_of_a_gate_and_an_ion_value(tmp_path):
    cell = hb.CellTemplate("synthetic:ball-and-stick", nseg=5, Ra=100.0,
                           mechanisms=[hb.mechanism("hh", region="soma"),
                                       hb.mechanism("pas", region="dend", g=2e-4, e=-65.0)])
    net = hb.Network(dt=0.025)
    gid = net.add_cells(cell)[0]
    net.add_iclamp(gid, delay=1.0, dur=20.0, amp=0.4)
    net.record(gid)
    net.record(gid, variable="m_hh")
    net.record(gid, variable="ena")
    result = net.run(20.0, backend="host", output={"traces": str(tmp_path / "t.csv")})
    assert result.records == [(0, 0, 0.5, "v"), (0, 0, 0.5, "m_hh"), (0, 0, 0.5, "ena")]
    m = result.trace(gid, variable="m_hh")
    assert result.trace(gid).max() > 0 and m.min() >= 0 and m.max() <= 1 and m.max() > 0.8
    assert np.all(result.trace(gid, variable="ena") == 50.0)
    with open(tmp_path / "t.csv") as f:
        assert next(csv.reader(f)) == ["t", "g0_s0_x0.5", "g0_s0_x0.5_m_hh", "g0_s0_x0.5_ena"]
    net.record(gid, variable="gna_hh")  # hh never reads gna back: not stored
    with pytest.raises(hb.InputError, match=r"record\[\].variable': gna of hh .* does not store it"):
        net.run(5.0, backend="host")


def test_records_of_a_synapse_s_variables(tmp_path):
    """g of gid 1's ExpSyn: zero until the first event, then a jump of the weight and the
    exact decay exp(-dt/tau) per step between events."""
    cell = hb.CellTemplate("synthetic:ball-and-stick", nseg=5, Ra=100.0,
                           mechanisms=[hb.hh(region="soma", gnabar=0.25),
                                       hb.pas(region="dend", g=2e-4, e=-65.0)],
                           synapses=[hb.point_synapse("ExpSyn", section=1, x=0.5, tau=2.0)],
                           detector=hb.detector(threshold=0.0))
    net = hb.Network(dt=0.025)
    cells = net.add_cells(cell, 2)
    net.connect(cells[0], cells[1], weight=0.05, delay=2.0)
    net.add_iclamp(cells[0], delay=1.0, dur=2.0, amp=1.0)
    net.record(cells[1], variable="g", synapse=0)
    net.record(cells[1], variable="tau", synapse=0)
    result = net.run(20.0, backend="host", output={"traces": str(tmp_path / "t.csv")})
    assert result.record_synapses == [0, 0]
    assert result.records[0][3] == "g" and result.records[0][1:3] == (1, 0.5)
    g = result.trace(cells[1], variable="g", synapse=0)
    assert np.all(result.trace(cells[1], variable="tau", synapse=0) == 2.0)
    first = int(np.argmax(g > 0))
    assert first > 0 and abs(g[first] - 0.05) < 1e-3  # the jump, decayed within its step
    after = g[first:first + 40]  # 1 ms: before any second event
    np.testing.assert_allclose(after[1:] / after[:-1], np.exp(-0.025 / 2.0), rtol=1e-12)
    with open(tmp_path / "t.csv") as f:
        assert next(csv.reader(f)) == ["t", "g1_syn0_g", "g1_syn0_tau"]
    net.record(cells[1], variable="i", synapse=0)  # ExpSyn never reads i back: not stored
    with pytest.raises(hb.InputError, match=r"record\[\].variable': i of ExpSyn .* does not store it"):
        net.run(5.0, backend="host")
    with pytest.raises(KeyError, match="synapse 2"):
        result.trace(cells[1], variable="g", synapse=2)


def test_point_processes_placed_on_cells():
    """The catalogue's IClamp placed on every cell (point_processes) gives the raster and
    voltages of the same stimulus as an iclamp; a record names it by point_process index;
    no connection reaches it."""
    common = dict(nseg=5, Ra=100.0, mechanisms=[hb.hh(region="soma", gnabar=0.25),
                                                hb.pas(region="dend", g=2e-4, e=-65.0)],
                  synapses=[hb.expsyn(section=1, tau=2.0)], detector=hb.detector(threshold=0.0))
    clamp = dict(delay=1.0, dur=3.0, amp=0.8)

    def run(template, with_iclamp):
        net = hb.Network(dt=0.025)
        cells = net.add_cells(template, 2)
        net.connect(cells[0], cells[1], weight=0.05, delay=2.0)
        if with_iclamp:
            for gid in cells:
                net.add_iclamp(gid, **clamp)
        net.record(cells[1])
        if template.num_point_processes:
            net.record(cells[1], variable="amp", point_process=0)
        return net.run(15.0, backend="host"), net

    placed = hb.CellTemplate("synthetic:ball-and-stick", **common, point_processes=[
        hb.point_process("IClamp", section=0, x=0.5, amp=clamp["amp"], dur=clamp["dur"],
                         **{"del": clamp["delay"]})])
    assert placed.num_synapses == 1 and placed.num_point_processes == 1
    a, _ = run(hb.CellTemplate("synthetic:ball-and-stick", **common), True)
    b, net = run(placed, False)
    assert len(a.spike_gids) >= 2 and a.raster_lines() == b.raster_lines()
    np.testing.assert_array_equal(a.trace(1), b.trace(1))
    assert np.all(b.trace(1, variable="amp", synapse=1) == clamp["amp"])
    net.connect(0, 1, weight=0.1, synapse=1)  # synapse 1 is the placed IClamp
    with pytest.raises(hb.InputError, match=r"names synapse 1 but gid 1's template has 1 \(and 1 point processes"):
        net.run(5.0, backend="host")
    with pytest.raises(ValueError, match="template has 1 point processes, not 1"):
        net.record(1, variable="amp", point_process=1)
    with pytest.raises(hb.InputError, match=r"cell.point_processes\[\].name': is a density mechanism"):
        hb.CellTemplate("synthetic:ball-and-stick", point_processes=[hb.point_process("hh")])


def test_bad_models_are_errors():
    cell = hb.CellTemplate("synthetic:ball-and-stick", synapses=[hb.expsyn()],
                           mechanisms=[hb.hh(region="soma")], detector=hb.detector())
    net = hb.Network()
    net.add_cells(cell, 2)
    net.connect(0, 1, weight=0.1, synapse=3)  # the template has one synapse
    with pytest.raises(hb.InputError, match="synapse"):
        net.run(10)
    # the config reader's own message (one schema for configs and Python dicts)
    with pytest.raises(hb.InputError, match=r"config key 'cell.mechanisms\[0\].name': unknown mechanism"):
        hb.CellTemplate("synthetic:ball-and-stick", mechanisms=[{"name": "kdr"}])
    with pytest.raises(hb.InputError) as info:
        hb.run_config({"cell": {"morphology": "synthetic:ball-and-stick"}, "tsop": 10})
    assert "tsop" in str(info.value)


def mpi_works():
    if shutil.which("mpirun") is None:
        return False
    try:
        import mpi4py  # noqa: F401
    except ImportError:
        return False
    return True


MPI_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
from mpi4py import MPI
import small_network
net = small_network.build_network()
r = net.run(small_network.TSTOP)
if MPI.COMM_WORLD.Get_rank() == 0:
    print(r.metrics["exchange"], r.metrics["ranks"])
    print("\n".join(r.raster_lines()))
"""


@pytest.mark.skipif(not mpi_works(), reason="mpirun or mpi4py missing")
def test_mpi4py_run_on_two_ranks_gives_the_same_raster(example_run, tmp_path):
    _, result = example_run
    script = tmp_path / "mpi_run.py"
    script.write_text(MPI_SCRIPT)
    cmd = ["mpirun", "-np", "2", "--oversubscribe"]
    if os.geteuid() == 0:
        cmd.append("--allow-run-as-root")
    r = subprocess.run(cmd + [sys.executable, str(script), str(ROOT / "examples" / "python")],
                       capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false"))
    assert r.returncode == 0, r.stderr
    lines = r.stdout.strip().splitlines()
    assert lines[0] == "mpi4py-allgatherv 2"
    assert lines[1:] == result.raster_lines()


def test_example_script_writes_its_plots(tmp_path):
    pytest.importorskip("matplotlib")
    r = subprocess.run([sys.executable, str(ROOT / "examples" / "python" / "small_network.py"),
                        "--out", str(tmp_path)], capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, OMP_PROC_BIND="false"))
    assert r.returncode == 0, r.stderr
    for name in ("raster.png", "voltage.png", "spikes.txt", "small_network.json"):
        assert (tmp_path / name).stat().st_size > 0, name
    assert (tmp_path / "raster.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_two_templates_and_spike_sources():
    # A passive and an hh template in one network, driven only by sources: a regular clock
    # whose spike times are exact, and Poisson sources whose trains depend on the seed only.
    passive = hb.CellTemplate("synthetic:ball-and-stick", nseg=3,
                              mechanisms=[hb.pas(g=0.001, e=-65.0)],
                              synapses=[hb.expsyn(tau=2.0)], detector=hb.detector())
    active = hb.CellTemplate("synthetic:ball-and-stick", nseg=3,
                             mechanisms=[hb.hh(region="soma"), hb.pas(region="dend")],
                             synapses=[hb.expsyn(tau=2.0), hb.expsyn(tau=5.0, e=-80.0)],
                             detector=hb.detector())

    def run(seed, **options):
        net = hb.Network()
        quiet = net.add_cells(passive, 2)
        firing = net.add_cells(active, 2)
        clock = net.add_sources(1, start=5.0, interval=20.0, number=3, name="clock")
        noise = net.add_sources(5, type="poisson", rate=50.0, seed=seed)
        for gid in quiet + firing:
            net.connect(clock[0], gid, weight=0.1, delay=1.0)
        for k, gid in enumerate(firing):
            net.connect(noise[k], gid, weight=0.0001, delay=2.0, synapse=1)
        assert clock[0].gid == 4 and noise[0].gid == 5 and net.num_sources == 6
        return net.run(70.0, **options)

    r = run(3)
    gids, times = r.spikes
    assert list(times[gids == 4]) == [5.0, 25.0, 45.0]
    assert not np.any(gids < 2)  # the passive template never fires
    for gid in (2, 3):
        assert np.count_nonzero(gids == gid) == 3  # the hh one answers every clock spike
    assert np.count_nonzero(gids >= 5) > 0
    again = run(3, backend="host", host_schedule="cells")
    assert again.raster_lines() == r.raster_lines()
    other = run(4)
    assert other.raster_lines() != r.raster_lines()
    assert [line for line in other.raster_lines() if line.startswith("4 ")] == \
        [line for line in r.raster_lines() if line.startswith("4 ")]


def test_artificial_cells_are_sources_that_receive():
    """add_artificial_cells: the config's artificial sources, whose gids (after every cell's)
    connections and events into them resolve when the network runs; the library's own
    catalogue has none, and says so (a module built with an ARTIFICIAL_CELL runs them:
    ctest consumer_builds_its_python_module)."""
    cell = hb.CellTemplate("synthetic:ball-and-stick", nseg=3, mechanisms=[hb.pas()],
                           synapses=[hb.expsyn()], detector=hb.detector())
    net = hb.Network()
    net.add_cells(cell, 1)
    pacer = net.add_artificial_cells("driftfire", 2, parameters={"period": 7}, name="pace")
    net.connect(0, pacer[1], weight=0.4, delay=1.5)
    net.add_event(pacer[0], 2.0, 0.9)
    net.record(pacer[1], variable="m")
    net.add_cells(cell, 1)  # the sources' gids move after it
    net.connect(pacer[0], 1, weight=0.01, delay=1.0)
    model = net._model(10.0)
    assert model["sources"] == [{"name": "pace", "count": 2, "mechanism": "driftfire",
                                 "parameters": {"period": 7.0}}]
    assert model["network"]["connections"] == [[0, 3, 0, 0.4, 1.5], [2, 1, 0, 0.01, 1.0]]
    assert model["network"]["events"] == [[2, 0, 2.0, 0.9]]
    assert model["record"] == [{"gid": 3, "variable": "m"}]
    with pytest.raises(hb.InputError) as e:
        net.run(10.0, backend="host")
    assert "sources[0].mechanism" in str(e.value) and "'defaults' are none" in str(e.value)
    # Their random streams' seed, where given, goes with the entry.
    net.add_artificial_cells("noisystim", 3, parameters={"noise": 1}, name="noise", seed=7)
    assert net._model(10.0)["sources"][1] == {"name": "noise", "count": 3, "mechanism": "noisystim",
                                              "parameters": {"noise": 1.0}, "seed": 7}
