#!/usr/bin/python3
"""One core each: NEURON 8.2 against hinesbatch-sim with the L5PC mechanisms, on the model
of l5pc_vs_neuron.py (cnic_004 with Hay et al. 2011's densities, the spiking current step).

  l5pc_per_core.py --sim BUILD/tools/nmodl/hinesbatch-sim-l5pc [--shared DIR]
                   [--cells 16] [--tstop 50] [--repeats 3] [--out DIR]

NEURON runs one cell (its fastest case: one cell's arrays stay in cache; its cost grows
linearly with the cells), with its own nrnivmodl build of the same .mod files and
usetable_* = 0; the fadvance loop is timed. hinesbatch-sim runs --cells copies of the cell
(no connections) on the host backend with one OpenMP thread (the tiles schedule: --cells
16 fills a tile of AVX-512 doubles); its run loop is timed (metrics wall_s). Printed:
compartment-steps per second of each, their ratio, and whether cell 0's spikes are
NEURON's. Exit 0, 1 when they are not, or 77 when NEURON or the L5PC files are missing.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import l5pc_vs_neuron as l5pc  # noqa: E402
import nmodl_vs_neuron  # noqa: E402

STEM = "cnic_004.CNG.swc"


def neuron_rate(cfg, lib):
    import import3d_run
    h = import3d_run.load()
    h.nrn_load_dll(lib)
    secs, stims = l5pc.build_neuron_cell(h, cfg)  # usetable_* = 0 there; keep the IClamps
    d = cfg["cell"]["detector"]
    spikes = h.Vector()
    nc = h.NetCon(secs[d["location"]["section"]](d["location"]["x"])._ref_v, None,
                  sec=secs[d["location"]["section"]])
    nc.threshold = d["threshold"]
    nc.record(spikes)
    h.dt = l5pc.DT
    h.steps_per_ms = 1.0 / l5pc.DT
    steps = int(round(float(cfg["tstop"]) / l5pc.DT))
    h.finitialize(float(cfg["v_init"]))
    t0, c0 = time.perf_counter(), time.process_time()
    for _ in range(steps):
        h.fadvance()
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    del stims
    # NEURON's nodes as hinesbatch counts compartments: each section's segments and its
    # 1-end, and the root
    nodes = sum(int(s.nseg) + 1 for s in secs) + 1
    return nodes * steps / wall, wall, cpu, nodes, [round(t, 6) for t in spikes]


def ours_cpu(cmd, env):
    """CPU seconds (user + system) of one run of hinesbatch-sim."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, check=True, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sim", required=True)
    p.add_argument("--shared", default=os.environ.get("HINESBATCH_SHARED_DIR",
                                                      os.path.join(HERE, "..", "..", "..", "shared")))
    p.add_argument("--cells", type=int, default=16)
    p.add_argument("--tstop", type=float, default=50.0)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--out", default=None)
    args = p.parse_args()
    shared = os.path.abspath(args.shared)
    swc = os.path.join(shared, "morphologies", STEM)
    if not os.path.isdir(os.path.join(shared, "mechanisms", "l5pc")) or not os.path.exists(swc):
        l5pc.skip(f"{shared}: the L5PC mechanisms or {STEM} missing")
    try:
        import neuron  # noqa: F401
    except ImportError as e:
        l5pc.skip(f"NEURON not importable ({e})")
    out = os.path.abspath(args.out or tempfile.mkdtemp(prefix="l5pc_per_core."))
    os.makedirs(out, exist_ok=True)
    _, lib = nmodl_vs_neuron.build_neuron_mechanisms(shared, out)
    case = dict(next(c for c in l5pc.CASES if c["name"] == "spiking"), tstop=args.tstop)
    cfg = l5pc.config(swc, case, l5pc.AMPS[STEM]["spiking"], [], False)
    cfg["record"] = []
    ours = json.loads(json.dumps(cfg))
    ours["network"] = {"type": "explicit", "cells": args.cells, "connections": []}
    path = os.path.join(out, "config.json")
    with open(path, "w") as f:
        json.dump(ours, f, indent=1)
    env = dict(os.environ, OMP_NUM_THREADS="1", OMP_PROC_BIND="false")
    # Our set-up (reading, planning, initialisation): a run of no steps, subtracted from the
    # CPU time of each full run, so that both sides count their time-step loops alone.
    zero = dict(ours, tstop=0.0)
    zero_path = os.path.join(out, "config_setup_only.json")
    with open(zero_path, "w") as f:
        json.dump(zero, f, indent=1)
    setup_cpu = min(ours_cpu([args.sim, zero_path, "--backend", "host", "--quiet"], env)
                    for _ in range(args.repeats))
    steps = int(round(args.tstop / l5pc.DT))
    best = {"nrn_wall": 0.0, "nrn_cpu": 0.0, "ours_wall": 0.0, "ours_cpu": 0.0}
    rows, nrn_spikes, our_spikes = [], [], []
    for k in range(args.repeats):
        # NEURON in a process of its own each time (its sections are global)
        rate, wall, cpu, nodes, nrn_spikes = json.loads(subprocess.check_output(
            [sys.executable, __file__, "--neuron-only", json.dumps([cfg, lib])], env=env))
        nrn_cpu_rate = nodes * steps / cpu
        m = os.path.join(out, f"metrics{k}.json")
        spk = os.path.join(out, f"spikes{k}.txt")
        run_cpu = ours_cpu([args.sim, path, "--backend", "host", "--quiet", "--metrics", m,
                            "--spikes", spk], env)
        with open(m) as f:
            metrics = json.load(f)
        work = metrics["compartments"] * steps
        ours_cpu_rate = work / max(1e-9, run_cpu - setup_cpu)
        for key, v in (("nrn_wall", rate), ("nrn_cpu", nrn_cpu_rate),
                       ("ours_wall", metrics["compartment_steps_per_s"]),
                       ("ours_cpu", ours_cpu_rate)):
            best[key] = max(best[key], v)
        with open(spk) as f:
            our_spikes = [round(float(line.split()[1]), 6) for line in f
                          if line.strip() and line.split()[0] == "0"]
        rows.append(f"repeat {k}: NEURON {rate:.4g} by wall ({wall:.3f} s), {nrn_cpu_rate:.4g} by "
                    f"CPU ({cpu:.3f} s; one cell of {nodes} nodes); ours "
                    f"{metrics['compartment_steps_per_s']:.4g} by wall ({metrics['wall_s']:.3f} s), "
                    f"{ours_cpu_rate:.4g} by CPU ({run_cpu - setup_cpu:.3f} s; {metrics['cells']} "
                    f"cells)")
    same = "identical" if our_spikes == nrn_spikes else "DIFFERENT"
    load = open("/proc/loadavg").read().split()[:3]
    summary = [f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, "
               f"load {' '.join(load)}; compartment-steps/s on one core each, {args.tstop} ms"]
    summary += rows + [
        f"best by wall: NEURON {best['nrn_wall']:.4g}, ours {best['ours_wall']:.4g}: "
        f"{best['ours_wall'] / best['nrn_wall']:.1f}x",
        f"best by CPU time: NEURON {best['nrn_cpu']:.4g}, ours {best['ours_cpu']:.4g}: "
        f"{best['ours_cpu'] / best['nrn_cpu']:.1f}x",
        f"cell 0's spikes: {same} ({len(nrn_spikes)} in NEURON, {len(our_spikes)} ours)"]
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("\n".join(summary) + "\n")
    print("\n".join(summary))
    return 0 if same == "identical" else 1


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--neuron-only":
        cfg, lib = json.loads(sys.argv[2])
        print(json.dumps(neuron_rate(cfg, lib)))
        sys.exit(0)
    sys.exit(main())
