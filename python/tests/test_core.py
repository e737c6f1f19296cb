"""Kokkos' lifetime and settings as the module manages them. Lifetime cases run in fresh
interpreters (Kokkos is initialised once per process)."""
import os
import subprocess
import sys
import textwrap

import pytest

import hinesbatch as hb


def run_python(code):
    env = dict(os.environ)
    env.setdefault("OMP_PROC_BIND", "false")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, env=env, timeout=300)


def test_kokkos_config_names_the_backend():
    c = hb.kokkos_config()
    assert hb.is_initialized()
    assert c["execution_space"] in c["backends"] or c["execution_space"] in ("Cuda", "HIP")
    assert c["concurrency"] >= 1 and c["host_concurrency"] >= 1
    assert c["version"].startswith(("3.", "4.", "5."))
    assert "Kokkos" in c["configuration"]


def test_initialize_after_first_use_is_an_error():
    hb.kokkos_config()
    with pytest.raises(RuntimeError, match="already initialized"):
        hb.initialize(num_threads=1)


def test_initialize_sets_the_thread_count():
    r = run_python("""
        import hinesbatch as hb
        hb.initialize(num_threads=1)
        c = hb.kokkos_config()
        print(c["host_concurrency"])
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[-1] == "1"


def test_objects_alive_at_exit_do_not_crash_the_interpreter():
    # A batch held in a global outlives atexit: finalize() must free its Views first.
    r = run_python("""
        import numpy as np, hinesbatch as hb
        batch = hb.MultiBatch([[-1, 0, 1], [-1, 0]])
        x = np.ones(5)
        batch.solve(np.full(5, -0.1), np.full(5, -0.1), np.full(5, 2.0), x)
        keep = [batch, hb.read_swc.__doc__]
        print("done")
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "done"
    assert "Error" not in r.stderr and "error" not in r.stderr, r.stderr


def test_use_after_finalize_raises():
    r = run_python("""
        import numpy as np, hinesbatch as hb
        batch = hb.MultiBatch([[-1, 0]])
        hb.finalize()
        assert hb.is_finalized()
        for f in (lambda: batch.solve(*[np.ones(2)] * 4), hb.kokkos_config):
            try:
                f()
            except RuntimeError as e:
                print("raised", "finalized" in str(e))
    """)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["raised", "True", "raised", "True"]
