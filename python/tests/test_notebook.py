"""What a notebook user relies on: Ctrl-C stops a run at an epoch boundary and leaves no
partial output, progress reaches a Python callback or a tqdm-like bar, two threads solve at
once (each seeing its own diagnostics), the package's version and build, typed stubs that
match every public function, arrays of other libraries through DLPack, errors as Python
exceptions naming the system and node."""
import ast
import inspect
import os
import pathlib
import signal
import threading
import time

import numpy as np
import pytest

import hinesbatch as hb
from conftest import hines_dense, hines_inputs, random_hines_tree

PACKAGE = pathlib.Path(hb.__file__).resolve().parent


def ring(cells=20, with_records=True):
    cell = hb.CellTemplate("synthetic:ball-and-stick", max_segment_length_um=20.0,
                           mechanisms=[hb.hh(region="soma"), hb.pas(region="dend", g=1e-4, e=-65)],
                           synapses=[hb.expsyn(tau=2.0, e=0.0)], detector=hb.detector())
    net = hb.Network(dt=0.025)
    gids = net.add_cells(cell, cells)
    for g in gids:
        net.connect(g, (g + 1) % cells, weight=0.05, delay=1.0)
    net.add_iclamp(0, delay=1, dur=1, amp=1.0)
    if with_records:
        net.record(0)
    return net


def test_version_and_config():
    cmake = pathlib.Path(__file__).resolve().parents[2] / "CMakeLists.txt"
    assert hb.__version__ == cmake.read_text().split("project(HinesBatch VERSION ")[1].split()[0]
    c = hb.config()
    assert c["version"] == hb.__version__
    assert c["backend"] in c["backends"]
    assert c["kokkos_version"].count(".") == 2 and c["concurrency"] >= 1
    if c["backend"] in ("OpenMP", "Serial", "Threads"):
        assert c["device_count"] == 0 and c["device_id"] is None and c["zero_copy"]
    assert isinstance(c["hdf5"], bool)


def test_ctrl_c_stops_a_run_within_an_epoch_and_writes_no_partial_files(tmp_path):
    net = ring()
    seen = []
    spikes = tmp_path / "spikes.txt"
    spikes.write_text("earlier\n")  # an earlier file of that name must stay as it is
    traces = tmp_path / "v.csv"
    sent = []

    def interrupt():
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(0.5, interrupt)

    def progress(t, tstop):
        seen.append(t)
        if len(seen) == 1:
            timer.start()  # once the run is under way, whatever the machine's load

    try:
        with pytest.raises(KeyboardInterrupt):
            # 100 s of simulated time would take many minutes: only Ctrl-C ends it in time
            net.run(100000, progress=progress,
                    output={"spikes": str(spikes), "traces": str(traces)})
    finally:
        timer.cancel()
    assert sent and time.monotonic() - sent[0] < 20  # stopped soon after the signal
    # part way, at an epoch's end (on a loaded machine the signal may come before the
    # second epoch's progress call: one call is then all there is)
    assert len(seen) >= 1 and seen[-1] < 100000
    assert spikes.read_text() == "earlier\n"
    assert not traces.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".hb-")] == []
    # the module still works after the interrupt
    r = ring().run(20)
    assert len(r.spike_gids) > 0


def test_progress_reaches_a_callback_and_a_tqdm_like_bar():
    calls = []
    ring().run(20, progress=lambda t, tstop: calls.append((t, tstop)))
    assert len(calls) >= 2
    times = [t for t, _ in calls]
    assert times == sorted(times) and times[-1] == pytest.approx(20)
    assert all(tstop == pytest.approx(20) for _, tstop in calls)

    class Bar:  # tqdm's interface: total, update(n)
        total = None
        n = 0.0

        def update(self, k):
            assert k >= 0
            self.n += k

    bar = Bar()
    ring().run(20, progress=bar)
    assert bar.total == pytest.approx(20) and bar.n == pytest.approx(20)


def test_progress_drives_a_real_tqdm_bar():
    tqdm = pytest.importorskip("tqdm")
    import io
    out = io.StringIO()
    with tqdm.tqdm(unit="ms", file=out, mininterval=0) as bar:
        ring().run(20, progress=bar)
        assert bar.total == pytest.approx(20) and bar.n == pytest.approx(20)
    assert "20" in out.getvalue()


def test_an_exception_in_the_callback_stops_the_run():
    def fail(t, tstop):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        ring().run(20, progress=fail)


def kokkos_runs_on_any_thread():
    # Kokkos' OpenMP backend before 4.0 keeps its instance per thread: only the thread that
    # initialised it may launch kernels.
    c = hb.config()
    return not ("OpenMP" in c["backends"] and int(c["kokkos_version"].split(".")[0]) < 4)


def test_threads_solve_at_once_with_their_own_views_or_get_a_clear_error(rng):
    parent = random_hines_tree(rng, 31)
    inputs = [hines_inputs(rng, parent, 500, np.float64) for _ in range(3)]
    wants = [np.array([np.linalg.solve(hines_dense(parent, u[s], l[s], d[s]), rhs[s])
                       for s in range(len(rhs))]) for u, l, d, rhs in inputs]
    results, errors = {}, []

    def work(k):
        try:
            u, l, d, rhs = [x.copy() for x in inputs[k]]
            for _ in range(20):
                x = rhs.copy()
                hb.solve_hines(parent, u, l, d, x)
                assert hb._last_views()["rhs"] == x.ctypes.data  # this thread's solve
                np.testing.assert_allclose(x, wants[k], rtol=1e-10, atol=1e-10)
            results[k] = True
        except Exception as e:  # reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    work(2)  # the main thread solves meanwhile
    for t in threads:
        t.join()
    assert results.get(2), errors
    if kokkos_runs_on_any_thread():
        assert not errors, errors
        assert results == {0: True, 1: True, 2: True}
    else:
        assert len(errors) == 2 and all(isinstance(e, RuntimeError) for e in errors)
        assert all("the thread that initialized Kokkos" in str(e) for e in errors), errors


def test_solve_error_names_system_and_node(rng):
    parent = random_hines_tree(rng, 12)
    u, l, d, rhs = hines_inputs(rng, parent, 40, np.float64)
    d[17, :] = 0.0
    u[17, :] = l[17, :] = 0.0  # system 17's first pivot (the last node) is exactly zero
    with pytest.raises(hb.SolveError) as info:
        hb.solve_hines(parent, u, l, d, rhs, schedule="per_system")
    assert info.value.system == 17 and info.value.node is not None
    assert "17" in str(info.value)


class Foreign:
    """An array of 'another library': only __dlpack__ and __dlpack_device__."""

    def __init__(self, array, device=(1, 0)):
        self.array, self.device = array, device

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.device


def test_dlpack_arrays_are_solved_in_place(rng):
    parent = random_hines_tree(rng, 15)
    u, l, d, rhs = hines_inputs(rng, parent, 25, np.float64)
    want = np.array([np.linalg.solve(hines_dense(parent, u[s], l[s], d[s]), rhs[s])
                     for s in range(len(rhs))])
    x = rhs.copy()
    out = hb.solve_hines(parent, Foreign(u), Foreign(l), Foreign(d), Foreign(x))
    assert isinstance(out, Foreign)
    np.testing.assert_allclose(x, want, rtol=1e-10, atol=1e-10)  # written through DLPack
    if hb.config()["zero_copy"]:
        assert hb._last_views()["rhs"] == x.ctypes.data


def test_arrays_that_need_a_copy_or_another_device_are_refused(rng):
    parent = random_hines_tree(rng, 6)
    u, l, d, rhs = hines_inputs(rng, parent, 4, np.float64)
    with pytest.raises(ValueError, match=r"'rhs' \(Foreign, through DLPack\) is not C-contiguous"):
        hb.solve_hines(parent, u, l, d, Foreign(np.asfortranarray(rhs)))
    if hb.config()["backend"] != "Cuda":
        with pytest.raises(ValueError, match=r"'rhs' \(Foreign, through DLPack\) lives on a CUDA GPU"):
            hb.solve_hines(parent, u, l, d, Foreign(rhs, device=(2, 0)))
    with pytest.raises(ValueError, match="read-only.*from_dlpack"):
        hb.solve_hines(parent, u, l, d, np.from_dlpack(rhs))


def parameters(node):
    a = node.args
    return [x.arg for x in a.args + ([a.vararg] if a.vararg else []) + a.kwonlyargs +
            ([a.kwarg] if a.kwarg else [])]


def stub_functions(path):
    tree = ast.parse(path.read_text())
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            out[node.name] = parameters(node)
        elif isinstance(node, ast.ClassDef):
            out[node.name] = {n.name: parameters(n) for n in node.body
                              if isinstance(n, ast.FunctionDef)}
    return out


def runtime_parameters(f):
    try:
        return list(inspect.signature(f).parameters)
    except (TypeError, ValueError):  # pybind11: "name(arg0: type, ...) -> type" first line
        head = f.__doc__.splitlines()[0]
        inside = head[head.index("(") + 1:head.rindex(")")]
        return [p.split(":")[0].strip() for p in inside.split(",") if p.strip()]


def test_stubs_cover_every_public_name_with_its_parameters():
    assert (PACKAGE / "py.typed").exists()
    stubs = stub_functions(PACKAGE / "__init__.pyi")
    stubs.update(stub_functions(PACKAGE / "simulation.pyi"))
    for name in hb.__all__:
        if name == "__version__":
            continue
        assert name in stubs, name
        obj = getattr(hb, name)
        if inspect.isclass(obj):
            continue
        assert stubs[name] == runtime_parameters(obj), name
    for cls in (hb.Network, hb.SimulationResult):
        for name, f in vars(cls).items():
            if callable(f) and not name.startswith("_"):
                assert stubs[cls.__name__][name] == runtime_parameters(f), (cls.__name__, name)
