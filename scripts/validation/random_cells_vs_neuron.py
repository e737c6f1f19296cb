#!/usr/bin/python3
"""Artificial cells that draw random numbers, against NEURON 8.2 running the same .mod file.

  random_cells_vs_neuron.py --sim BUILD/tools/nmodl/hinesbatch-sim-l5pc [--workdir DIR]

noisystim (tools/nmodl/tests/mod/noisy_stim.mod: NEURON's NetStim rule written with
exprand) in three groups of CELLS cells, interval 10 ms, for TSTOP ms, in NEURON (its own
nrnivmodl build of the file) and in hinesbatch-sim (a catalogue compiled from the same
file). The streams differ (NEURON's generator against each cell's counter-based stream),
so the noisy trains are compared as distributions:
- noise 0: no draw; every spike time equal to NEURON's (1e-9 ms);
- noise 0.5 and 1: the interspike intervals pooled over the group, ours against NEURON's
  (two-sample Kolmogorov-Smirnov) and each against the exact law, (1 - noise) interval plus
  an exponential of mean noise interval (one-sample), every distance below the 0.001
  critical value (1.95 sqrt((n + m) / (n m)));
- power: ours with the Poisson group's interval 10% longer must fail against NEURON's.
Exit status: 0 pass, 1 fail, 77 (ctest's skip) without NEURON or nrnivmodl.
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
MOD = os.path.join(REPO, "tools", "nmodl", "tests", "mod", "noisy_stim.mod")
CELLS, TSTOP, INTERVAL, START = 300, 1000.0, 10.0, 5.0
GROUPS = [("regular", 0.0), ("half", 0.5), ("poisson", 1.0)]
C_001 = 1.95  # the Kolmogorov distribution's 0.999 quantile (1.949)


def skip(msg):
    print(f"SKIPPED: {msg}")
    sys.exit(77)


def neuron_trains(workdir):
    try:
        from neuron import h
    except ImportError as e:
        skip(f"NEURON not importable ({e})")
    if shutil.which("nrnivmodl") is None:
        skip("nrnivmodl not found (Debian: neuron-dev)")
    d = os.path.join(workdir, "neuron_mod")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    shutil.copy(MOD, d)
    r = subprocess.run(["nrnivmodl", "-loadflags", "-L/usr/lib/nrn -Wl,-rpath,/usr/lib/nrn", "."],
                       cwd=d, capture_output=True, text=True)
    lib = os.path.join(d, "x86_64", ".libs", "libnrnmech.so")
    if not os.path.exists(lib):
        print((r.stdout + r.stderr)[-1500:])
        return None
    h.nrn_load_dll(lib)
    h.load_file("stdrun.hoc")
    cells, netcons = [], []
    tvec, idvec = h.Vector(), h.Vector()
    for g, (_, noise) in enumerate(GROUPS):
        for i in range(CELLS):
            s = h.noisystim()
            s.interval, s.number, s.start, s.noise = INTERVAL, 1e9, START, noise
            nc = h.NetCon(s, None)
            nc.record(tvec, idvec, g * CELLS + i)
            cells.append(s)
            netcons.append(nc)
    h.dt = 0.025
    h.tstop = TSTOP
    h.finitialize(-65)
    h.continuerun(TSTOP)
    return trains(zip(idvec, tvec))


def trains(pairs):
    out = {}
    for gid, t in pairs:
        out.setdefault(int(gid), []).append(float(t))
    for v in out.values():
        v.sort()
    return out


def our_trains(sim, workdir, poisson_interval=INTERVAL):
    sources = [{"name": name, "count": CELLS, "mechanism": "noisystim", "seed": 11 + g,
                "parameters": {"interval": poisson_interval if noise == 1 else INTERVAL,
                               "number": 1e9, "start": START, "noise": noise}}
               for g, (name, noise) in enumerate(GROUPS)]
    config = {"dt": 0.025, "tstop": TSTOP, "cell": {"morphology": "synthetic:p3"},
              "sources": sources}
    path = os.path.join(workdir, "config_%g.json" % poisson_interval)
    with open(path, "w") as f:
        json.dump(config, f, indent=1)
    spikes = os.path.join(workdir, "spikes_%g.txt" % poisson_interval)
    r = subprocess.run([sim, path, "--quiet", "--spikes", spikes], capture_output=True, text=True)
    if r.returncode != 0:
        print(f"FAIL hinesbatch-sim exit {r.returncode}: {r.stderr.strip()[-800:]}")
        return None
    pairs = []
    with open(spikes) as f:
        for line in f:
            fields = line.split()
            if len(fields) == 2 and not line.startswith("#"):
                pairs.append((int(fields[0]) - 1, float(fields[1])))  # gid 0 is the cell
    return trains(p for p in pairs if p[0] >= 0)


def intervals(tr, g):
    out = []
    for gid in range(g * CELLS, (g + 1) * CELLS):
        t = tr.get(gid, [])
        out += [b - a for a, b in zip(t, t[1:])]
    return sorted(out)


def ks2(a, b):
    i = j = 0
    d = 0.0
    while i < len(a) and j < len(b):
        x = min(a[i], b[j])
        while i < len(a) and a[i] <= x:
            i += 1
        while j < len(b) and b[j] <= x:
            j += 1
        d = max(d, abs(i / len(a) - j / len(b)))
    return d


def ks1(a, cdf):
    n = len(a)
    return max(max(cdf(x) - k / n, (k + 1) / n - cdf(x)) for k, x in enumerate(a))


def compare(ours, ref, label):
    ok = True
    lines = []
    reg_ours = [ours.get(g, []) for g in range(CELLS)]
    reg_ref = [ref.get(g, []) for g in range(CELLS)]
    n = sum(len(t) for t in reg_ref)
    worst = max((abs(a - b) for x, y in zip(reg_ours, reg_ref) for a, b in zip(x, y)), default=0.0)
    same = all(len(x) == len(y) for x, y in zip(reg_ours, reg_ref)) and worst <= 1e-9
    ok &= same
    lines.append(f"{'ok  ' if same else 'FAIL'} regular (noise 0): {n} spikes, max |dt| {worst:.3g} ms")
    for g, (name, noise) in enumerate(GROUPS[1:], 1):
        a, b = intervals(ours, g), intervals(ref, g)
        d2 = ks2(a, b)
        c2 = C_001 * math.sqrt((len(a) + len(b)) / (len(a) * len(b)))
        lo, scale = (1 - noise) * INTERVAL, noise * INTERVAL

        def law(x):
            return 0.0 if x < lo else 1 - math.exp(-(x - lo) / scale)
        da, db = ks1(a, law), ks1(b, law)
        ca, cb = C_001 / math.sqrt(len(a)), C_001 / math.sqrt(len(b))
        good = d2 < c2 and da < ca and db < cb
        ok &= good
        mean = lambda v: sum(v) / len(v)
        lines.append(f"{'ok  ' if good else 'FAIL'} {name} (noise {noise}): {len(a)} intervals ours "
                     f"(mean {mean(a):.4f} ms), {len(b)} NEURON's (mean {mean(b):.4f}); KS ours-NEURON "
                     f"{d2:.4f} (< {c2:.4f}), ours-law {da:.4f} (< {ca:.4f}), NEURON-law {db:.4f} "
                     f"(< {cb:.4f})")
    print(f"{label}:")
    for line in lines:
        print("  " + line)
    return ok


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sim", required=True, help="a hinesbatch-sim whose catalogue has noisystim")
    p.add_argument("--workdir", default=None)
    args = p.parse_args()
    workdir = args.workdir or tempfile.mkdtemp(prefix="hb_random_cells_")
    os.makedirs(workdir, exist_ok=True)
    ref = neuron_trains(workdir)
    if ref is None:
        print("FAIL: nrnivmodl could not build noisy_stim.mod")
        return 1
    ours = our_trains(args.sim, workdir)
    if ours is None:
        return 1
    ok = compare(ours, ref, "ours against NEURON")
    longer = our_trains(args.sim, workdir, INTERVAL * 1.1)
    caught = longer is not None and not compare(longer, ref, "power: our Poisson group 10% slower")
    print(f"{'ok  ' if caught else 'FAIL'} the 10% slower Poisson group is told apart")
    print("PASS" if ok and caught else "FAIL")
    return 0 if ok and caught else 1


if __name__ == "__main__":
    sys.exit(main())
