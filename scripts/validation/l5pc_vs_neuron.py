#!/usr/bin/python3
"""The L5PC mechanisms on a real pyramidal cell: hinesbatch-sim built with them against
NEURON 8.2 running the same .mod files on the same cell read by its own Import3d.

  l5pc_vs_neuron.py --sim BUILD/tools/nmodl/hinesbatch-sim-l5pc [--shared DIR]
                    [--workdir DIR] [--files cnic_004.CNG.swc,96ML.CNG.swc] [--cases a,b]
                    [--schedule cells|tiles|on_chip] [--copies N] [-v]

The model: the 12 mechanisms of <shared>/mechanisms/l5pc with the distributions of Hay et
al. (2011, L5PCbiophys3): soma, basal and apical densities, Ih growing exponentially with
the normalised path distance along the apical tree, the Ca_HVA and Ca_LVAst hot zone 685 to
885 um from the soma, CaDynamics_E2 writing cai (so eca follows Nernst), ek -85 and ena 50
mV, pas everywhere (e -90 mV); 34 C, Ra 100 ohm cm, cm 1 uF/cm2 and 2 in the basal and
apical dendrites, nseg by d_lambda 0.1 with each section's cm. Differences from Hay's model:
his nseg is computed before cm is set (cm 1 everywhere for it), distances are from the
middle of the soma (Hay: its 0 end), the hot zone is
at the same fraction of the apical tree (the trees here are shorter than Hay's), and the
cells are of ../shared/morphologies: cnic_004 (a pyramidal cell: soma, basal and apical
dendrites) and 96ML (soma, axon, basal and apical dendrites).

The model is written once, as a hinesbatch-sim config (cell.mechanisms with "parameters",
cell.ions); this script builds the same model in NEURON from that config: the SWC file
through Import3d_SWC_read + Import3d_GUI (import3d_run.py), the same nseg rule, each entry
inserted in the sections of its region with its parameters set per segment from
h.distance(soma(0.5), seg), ions set through eX and the X_ion globals; usetable_* = 0.
Both run finitialize(v_init) and fixed steps of 0.025 ms (secondorder 0).

Cases: subthreshold (a small current step; no spike) and spiking (a current step that fires
the cell repeatedly). Compared: the number of sections and each one's nseg and length
(hinesbatch-sim --export-model against NEURON), the voltage at the soma, a basal and two
apical sites at every step, cai and ica at the soma (recorded with "variable" against
NEURON's _ref_cai and _ref_ica), and the spike times at the soma. Tolerances (measured and
explained in docs/MECHANISMS.md): below threshold max |dV| <= 1e-3 mV, cai and ica within
1e-8 and 1e-6 of their peaks; spiking: the same spikes, each in the same step, max |dV| <=
0.05 mV, cai and ica within 1e-5 and 1e-4 of their peaks.

Exit status: 0 pass, 1 a case fails, 2 usage, 77 (ctest SKIP_RETURN_CODE) when NEURON,
nrnivmodl, the L5PC files or the morphology are missing.
"""
import argparse
import json
import math
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import nmodl_vs_neuron  # noqa: E402
from validate_import3d import check_structure  # noqa: E402
from import3d_run import in_region  # noqa: E402
from validate_neuron import run_logged, tail  # noqa: E402

SKIP = 77
DT = 0.025
MIN_DIAM = 0.02  # um: HinesBatch's smallest diameter (import3d_run.py's min_diam)
TOL_SUBTHRESHOLD = 1e-3  # mV
# Spiking: NEURON's single-precision pt3d shift a spike by ~1e-5 ms, which the upstroke
# (hundreds of mV/ms) makes ~1e-2 mV; between spikes the traces agree as below threshold.
TOL_SPIKING = 5e-2  # mV
# Ion values at the soma (recorded with "variable", against NEURON's soma(0.5)._ref_<name>),
# relative to their largest magnitude in NEURON's trace: (name, below threshold, spiking).
# Measured on both cells and both schedules: cai 8.3e-10 and 4.0e-7 (both sides integrate
# CaDynamics_E2 from the same summed ica; below threshold what differs is the voltages'
# rounding, 4e-7 mV; spiking, the upstrokes' spread, 7.6e-3 mV, changes ica during each
# spike and cai sums it over 7 spikes); ica 8.0e-8 and 8.3e-6 (the current follows v at
# once: its spread during an upstroke is the voltage's). The tolerances leave the same
# margin as the voltages' (about 10 to 25 times).
ION_RECORDS = [("cai", 1e-8, 1e-5), ("ica", 1e-6, 1e-4)]
# Hay's cm: 1 uF/cm2, 2 in the basal and apical dendrites (L5PCbiophys3's forsec basal and
# apical); nseg by d_lambda with each section's cm (Hay's template takes cm 1 for it).
HAY_CM = [{"region": "all", "value": 1.0}, {"region": "basal", "value": 2.0},
          {"region": "apic", "value": 2.0}]
HOT = (685.0 / 1300.0, 885.0 / 1300.0)  # Hay's Ca hot zone, as fractions of the apical tree
T_SAME_STEP = 1e-6


def skip(msg):
    print(f"SKIPPED: {msg}")
    sys.exit(SKIP)


def hay_mechanisms(has_axon):
    """L5PCbiophys3.hoc of Hay et al. (2011) as cell.mechanisms entries (regions: soma,
    basal = SWC type 3, apic = type 4, axon: pas only, as in Hay's axonal list)."""
    def m(name, region, **parameters):
        return {"name": name, "region": region, "parameters": parameters}
    soma = [
        m("Ca_LVAst", "soma", gCa_LVAstbar=0.00343), m("Ca_HVA", "soma", gCa_HVAbar=0.000992),
        m("SKv3_1", "soma", gSKv3_1bar=0.693), m("SK_E2", "soma", gSK_E2bar=0.0441),
        m("K_Tst", "soma", gK_Tstbar=0.0812), m("K_Pst", "soma", gK_Pstbar=0.00223),
        m("Nap_Et2", "soma", gNap_Et2bar=0.00172), m("NaTa_t", "soma", gNaTa_tbar=2.04),
        m("CaDynamics_E2", "soma", decay=460.0, gamma=0.000501), m("Ih", "soma", gIhbar=0.0002)]
    apic = [
        # distribute_channels("apic", "gIhbar_Ih", 2, -0.8696, 3.6161, 0.0, 2.0870, 0.0001)
        m("Ih", "apic", gIhbar={"distance": "exp", "a": -0.8696, "b": 3.6161, "c": 2.087,
                                "scale": 0.0001, "normalize": True}),
        m("SK_E2", "apic", gSK_E2bar=0.0012),
        # distribute_channels("apic", ..., 3, 1, 0.01 (0.1 for HVA), 685, 885, gbar): the
        # hot zone at the same fraction of the longest apical path as in Hay's cell (about
        # 1,300 um; the apical trees here end within 400 um)
        m("Ca_LVAst", "apic", gCa_LVAstbar={"distance": "window", "x0": HOT[0], "x1": HOT[1],
                                            "normalize": True, "inside": 1, "outside": 0.01,
                                            "scale": 0.187}),
        m("Ca_HVA", "apic", gCa_HVAbar={"distance": "window", "x0": HOT[0], "x1": HOT[1],
                                        "normalize": True, "inside": 1, "outside": 0.1,
                                        "scale": 0.000555}),
        m("SKv3_1", "apic", gSKv3_1bar=0.000261), m("NaTa_t", "apic", gNaTa_tbar=0.0213),
        m("Im", "apic", gImbar=0.0000675), m("CaDynamics_E2", "apic", decay=122.0, gamma=0.000509)]
    passive = [m("pas", "all", g=0.0000338, e=-90.0), m("pas", "apic", g=0.0000589),
               m("pas", "basal", g=0.0000467), m("Ih", "basal", gIhbar=0.0002)]
    if has_axon:
        passive.append(m("pas", "axon", g=0.0000325))
    return passive + soma + apic


def config(swc, case, amp, records, has_axon):
    cell = {"morphology": swc, "d_lambda": 0.1, "Ra": 100.0, "cm": HAY_CM,
            "mechanisms": hay_mechanisms(has_axon),
            "ions": {"k": {"e": -85.0}, "na": {"e": 50.0}},
            "iclamp": [{"location": {"section": 0, "x": 0.5}, "del": case["del"],
                        "dur": case["dur"], "amp": amp}],
            "detector": {"location": {"section": 0, "x": 0.5}, "threshold": -20.0}}
    return {"dt": DT, "tstop": case["tstop"], "v_init": -80.0, "celsius": 34.0, "cell": cell,
            "network": {"type": "single"},
            "record": [{"gid": 0, "location": {"section": k, "x": x}} for k, x in records] +
                      [{"gid": 0, "location": {"section": 0, "x": 0.5}, "variable": name}
                       for name, _, _ in ION_RECORDS],
            "run": {"progress_every_s": 0}}


CASES = [
    {"name": "subthreshold", "del": 20.0, "dur": 100.0, "tstop": 150.0},
    {"name": "spiking", "del": 20.0, "dur": 100.0, "tstop": 150.0},
]
# The cells and the step (nA) of each case: cnic_004, a pyramidal cell (soma, basal and
# apical dendrites), and 96ML (with an axon).
AMPS = {"cnic_004.CNG.swc": {"subthreshold": 0.05, "spiking": 0.8},
        "96ML.CNG.swc": {"subthreshold": 0.01, "spiking": 0.2}}


# --- the NEURON side (run in its own process: --neuron SPEC.json) -------------------------

def distance_value(v, x):
    """mechanisms.hpp's ParameterValue::at, written again."""
    if not isinstance(v, dict):
        return float(v)
    kind, s = v["distance"], float(v.get("scale", 1.0))
    a, b, c = float(v.get("a", 0.0)), float(v.get("b", 0.0)), float(v.get("c", 0.0))
    x0, x1 = float(v.get("x0", 0.0)), float(v.get("x1", 0.0))
    if kind == "linear":
        return s * (a + b * x)
    if kind == "exp":
        return s * (a + c * math.exp(b * (x - x0)))
    if kind == "sigmoid":
        return s * (a + c / (1.0 + math.exp((x - x0) / b)))
    inside, outside = float(v.get("inside", 1.0)), float(v.get("outside", 0.0))
    return s * (inside if x0 < x < x1 else outside)


def build_neuron_cell(h, cfg):
    """The config's cell in NEURON: sections through Import3d, mechanisms and parameters
    per region and segment, ions, celsius and the IClamps. Returns (sections, stimuli)."""
    import import3d_run
    cell = cfg["cell"]
    types = []
    secs = import3d_run.build(h, {"swc": cell["morphology"], "nseg_rule": {"d_lambda": cell["d_lambda"]},
                                  "Ra": cell["Ra"], "cm": cell["cm"], "min_diam": MIN_DIAM}, types)
    origin = secs[0](0.5)
    for entry in cell["mechanisms"]:
        name = entry["name"]
        region = [s for s, t in zip(secs, types) if in_region(entry.get("region", "all"), t)]
        for s in region:
            s.insert(name)
        if hasattr(h, f"usetable_{name}"):
            setattr(h, f"usetable_{name}", 0)
        longest = max(h.distance(origin, s(1)) for s in region)
        for pname, value in entry.get("parameters", {}).items():
            attr = f"{pname}_{name}"
            if not hasattr(region[0](0.5), attr):  # a GLOBAL
                setattr(h, attr, float(value))
                continue
            for s in region:
                for seg in s:
                    x = h.distance(origin, seg)
                    if isinstance(value, dict) and value.get("normalize"):
                        x /= longest
                    setattr(seg, attr, distance_value(value, x))
    e_top = {"na": cfg.get("ena"), "k": cfg.get("ek")}
    for ion, fields in cell.get("ions", {}).items():
        for key, value in fields.items():
            if key in (f"{ion}i0", f"{ion}o0"):
                setattr(h, f"{key}_{ion}_ion", float(value))
        e = fields.get("e", e_top.get(ion))
        if e is not None:
            for s in secs:
                if h.ismembrane(f"{ion}_ion", sec=s):
                    setattr(s, f"e{ion}", float(e))
    h.celsius = float(cfg["celsius"])
    h.secondorder = 0
    h.CVode().active(0)
    stims = []
    for c in cell["iclamp"]:
        st = h.IClamp(secs[c["location"]["section"]](c["location"]["x"]))
        st.delay, st.dur, st.amp = c["del"], c["dur"], c["amp"]
        stims.append(st)
    return secs, stims


def run_neuron(spec):
    import import3d_run
    h = import3d_run.load()
    h.nrn_load_dll(spec["lib"])
    cfg = spec["config"]
    cell = cfg["cell"]
    secs, stims = build_neuron_cell(h, cfg)
    tv = h.Vector()
    tv.record(h._ref_t)
    header, recs = ["t"], []
    for r in cfg["record"]:
        k, x = r["location"]["section"], r["location"]["x"]
        var = r.get("variable", "v")
        v = h.Vector()
        v.record(getattr(secs[k](x), "_ref_" + var))
        recs.append(v)
        header.append("g0_s%d_x%s" % (k, "%g" % x) + ("" if var == "v" else "_" + var))
    d = cell["detector"]
    dsec = secs[d["location"]["section"]]
    spikes = h.Vector()
    nc = h.NetCon(dsec(d["location"]["x"])._ref_v, None, sec=dsec)
    nc.threshold = d["threshold"]
    nc.record(spikes)
    h.dt = DT
    h.steps_per_ms = 1.0 / DT
    h.finitialize(float(cfg["v_init"]))
    for _ in range(int(round(float(cfg["tstop"]) / DT))):
        h.fadvance()
    with open(spec["traces"], "w") as f:
        f.write(",".join(header) + "\n")
        for i in range(len(tv)):
            f.write(",".join("%.17g" % c[i] for c in [tv] + recs) + "\n")
    with open(spec["spikes"], "w") as f:
        for t in spikes:
            f.write("0 %.6f\n" % t)
    del nc, stims
    return 0


# --- the comparison ----------------------------------------------------------------------

def choose_records(desc):
    """Soma, a basal section's middle, the middle and the end of apical sections (the
    first apical section, and the last one in Import3d's order)."""
    secs = desc["sections"]
    kinds = [s["name"].split("[")[0] for s in secs]
    rec = [[0, 0.5]]
    basal = [k for k, n in enumerate(kinds) if n == "dend"]
    apic = [k for k, n in enumerate(kinds) if n == "apic"]
    if basal:
        rec.append([basal[len(basal) // 2], 0.5])
    if apic:
        rec.append([apic[0], 0.5])
        rec.append([apic[-1], 1.0])
    return rec


def entry(cfg, name, region):
    """The cell.mechanisms entry of `name` in `region`."""
    return next(e for e in cfg["cell"]["mechanisms"] if e["name"] == name and e["region"] == region)


# --self-test: changes of our side alone (the model NEURON runs stays Hay's); each must fail
# its cell's subthreshold or spiking case.
PERTURBATIONS = {
    "Ih exponent 1% larger": lambda c: entry(c, "Ih", "apic")["parameters"]["gIhbar"].update(
        b=3.6161 * 1.01),
    "hot zone from a tenth of the tree nearer": lambda c: entry(c, "Ca_LVAst", "apic")[
        "parameters"]["gCa_LVAstbar"].update(x0=HOT[0] - 0.1),
    "soma Ca decay 460 -> 470 ms": lambda c: entry(c, "CaDynamics_E2", "soma")["parameters"].update(
        decay=470.0),
    "ek -85 -> -84.99 mV": lambda c: c["cell"]["ions"]["k"].update(e=-84.99),
}


def run_case(args, env, lib, desc, swc, case, amp, records, has_axon, W, label, perturb=None):
    """One case on one cell: hinesbatch-sim, then NEURON, then the comparison. Returns
    (passed, the summary row). perturb: a change of our config alone."""
    os.makedirs(W, exist_ok=True)
    cfg = config(swc, case, amp, records, has_axon)
    ours = json.loads(json.dumps(cfg))
    if args.copies > 1:  # cell 0 (the one compared) in a tile of identical cells
        ours["network"] = {"type": "explicit", "cells": args.copies, "connections": []}
    if perturb:
        perturb(ours)
    cfg_path = os.path.join(W, "config.json")
    with open(cfg_path, "w") as f:
        json.dump(ours, f, indent=1)
    t0 = time.time()
    rc, _ = run_logged([args.sim, cfg_path, "--export-model", os.path.join(W, "model.json"),
                        "--spikes", os.path.join(W, "ours_spikes.txt"),
                        "--traces", os.path.join(W, "ours.csv"),
                        "--metrics", os.path.join(W, "metrics.json"), "--quiet",
                        "--host-schedule", "tiles" if args.schedule == "tiles" else "cells",
                        "--on-chip", "on" if args.schedule == "on_chip" else "off"],
                       os.path.join(W, "ours.log"), env)
    t_ours = time.time() - t0
    if rc != 0:
        print(f"FAIL {label}: hinesbatch-sim exit {rc}:\n{tail(os.path.join(W, 'ours.log'))}")
        return False, None
    spec = {"config": cfg, "lib": lib, "traces": os.path.join(W, "neuron.csv"),
            "spikes": os.path.join(W, "neuron_spikes.txt")}
    spec_path = os.path.join(W, "neuron_spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1)
    t0 = time.time()
    rc, _ = run_logged([sys.executable, os.path.abspath(__file__), "--neuron", spec_path],
                       os.path.join(W, "neuron.log"), env)
    t_neuron = time.time() - t0
    if rc != 0:
        print(f"FAIL {label}: NEURON failed:\n{tail(os.path.join(W, 'neuron.log'))}")
        return False, None
    with open(os.path.join(W, "model.json")) as f:
        errs = check_structure(desc, json.load(f))
    with open(os.path.join(W, "metrics.json")) as f:
        metrics = json.load(f)
    subthreshold = case["name"] == "subthreshold"
    tr = compare.compare_traces(os.path.join(W, "ours.csv"), os.path.join(W, "neuron.csv"),
                                TOL_SUBTHRESHOLD if subthreshold else TOL_SPIKING)
    ours_spikes = os.path.join(W, "ours_spikes.txt")
    if args.copies > 1:  # every copy spikes as cell 0, which is compared with NEURON
        by_gid = {}
        with open(ours_spikes) as f:
            for line in f:
                if line.strip():
                    gid, t = line.split()
                    by_gid.setdefault(int(gid), []).append(t)
        for gid in range(args.copies):
            if by_gid.get(gid, []) != by_gid.get(0, []):
                errs.append(f"copy {gid} spikes at {by_gid.get(gid, [])}, cell 0 at {by_gid.get(0, [])}")
        ours_spikes = os.path.join(W, "ours_spikes_cell0.txt")
        with open(ours_spikes, "w") as f:
            f.writelines(f"0 {t}\n" for t in by_gid.get(0, []))
    sp = compare.compare_spikes(ours_spikes, os.path.join(W, "neuron_spikes.txt"), T_SAME_STEP)
    # Ion values at the soma, relative to their largest magnitude in NEURON's trace.
    neuron_head, neuron_cols = compare.read_traces(os.path.join(W, "neuron.csv"))
    for name, tol_sub, tol_spiking in ION_RECORDS:
        col = next(c for c in tr["per_column"] if c["column"].endswith("_" + name))
        peak = max(abs(c) for c in neuron_cols[neuron_head.index(col["column"])])
        rel = col["max_dv"] / peak
        what = "%s at the soma: max |d%s| %.3g, %.3g of its peak %.3g (t=%g)" % (
            name, name, col["max_dv"], rel, peak, col["t"])
        if not (rel <= (tol_sub if subthreshold else tol_spiking)):
            errs.append(what)
        if args.verbose:
            print("  %s: %s" % (label, what))
    if metrics.get("schedule") != args.schedule:
        errs.append("schedule %s, not %s" % (metrics.get("schedule"), args.schedule))
    if subthreshold and sp["n_neuron"] > 0:
        errs.append("the subthreshold case fires in NEURON")
    if not subthreshold and sp["n_neuron"] < 2:
        errs.append("the spiking case fires %d times in NEURON" % sp["n_neuron"])
    ok = tr["ok"] and sp["ok"] and not errs
    with open(os.path.join(W, "compare.txt"), "w") as f:
        compare.print_report(label, sp, tr, f)
    if args.verbose or not ok:
        compare.print_report(label, sp, tr)
        for e in errs:
            print("  " + e)
    with open(os.path.join(W, "neuron_spikes.txt")) as f:
        times = [float(line.split()[1]) for line in f if line.strip()]
    return ok, (label, tr["max_dv"], tr["where"], sp["n_ours"], sp["n_neuron"], sp["max_dt"],
                times, metrics.get("compartments"), t_ours, t_neuron, ok)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sim", help="hinesbatch-sim built with the L5PC catalogue")
    p.add_argument("--shared", default=os.environ.get("HINESBATCH_SHARED_DIR",
                                                      os.path.join(REPO, "..", "shared")))
    p.add_argument("--workdir", default=None)
    p.add_argument("--files", default=",".join(AMPS),
                   help="comma-separated SWC files of <shared>/morphologies (of: %s)" % ", ".join(AMPS))
    p.add_argument("--cases", default=None, help="comma-separated case names (default: all)")
    p.add_argument("--self-test", action="store_true",
                   help="check that small changes of our side fail (%s)" % "; ".join(PERTURBATIONS))
    p.add_argument("--schedule", default="cells", choices=["cells", "tiles", "on_chip"],
                   help="our step schedule: cells (a thread per cell), lanes (a tile of cells "
                        "of one tree, the host default) or on_chip (a team per cell, the GPU "
                        "default)")
    p.add_argument("--copies", type=int, default=1,
                   help="our side runs this many copies of the cell (cell 0 is compared): "
                        "16 fill a tile of the tiles schedule")
    p.add_argument("--neuron", default=None, help=argparse.SUPPRESS)
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()
    if args.neuron:
        with open(args.neuron) as f:
            return run_neuron(json.load(f))
    if not args.sim or not os.access(args.sim, os.X_OK):
        print(f"ERROR: --sim {args.sim}: not an executable")
        return 2
    shared = os.path.abspath(args.shared)
    if not os.path.isdir(os.path.join(shared, "mechanisms", "l5pc")):
        skip(f"{shared}/mechanisms/l5pc missing")
    files = [f for f in args.files.split(",") if f]
    for f in files:
        if f not in AMPS:
            print(f"ERROR: --files {f}: not one of {', '.join(AMPS)}")
            return 2
        if not os.path.exists(os.path.join(shared, "morphologies", f)):
            skip(f"{shared}/morphologies/{f} missing")
    try:
        import neuron  # noqa: F401
    except ImportError as e:
        skip(f"NEURON not importable ({e}); Debian: python3-neuron")
    workdir = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="l5pc_vs_neuron."))
    os.makedirs(workdir, exist_ok=True)
    _, lib = nmodl_vs_neuron.build_neuron_mechanisms(shared, workdir)
    env = dict(os.environ, NEURON_MODULE_OPTIONS="-nogui",
               OMP_PROC_BIND=os.environ.get("OMP_PROC_BIND", "false"))
    selected = [c for c in CASES if not args.cases or c["name"] in args.cases.split(",")]
    failed = []
    rows = []
    for stem in files:
        swc = os.path.join(shared, "morphologies", stem)
        # NEURON's sections (for the recording sites and the structure check).
        probe = os.path.join(workdir, stem + ".probe.json")
        with open(probe, "w") as f:
            json.dump({"swc": swc, "nseg_rule": {"d_lambda": 0.1}, "Ra": 100.0, "cm": HAY_CM,
                       "min_diam": MIN_DIAM}, f)
        described = os.path.join(workdir, stem + ".sections.json")
        rc, _ = run_logged([sys.executable, os.path.join(HERE, "import3d_run.py"), probe,
                            "--describe", described], os.path.join(workdir, stem + ".describe.log"), env)
        if rc != 0:
            print(f"FAIL {stem}: NEURON cannot read the cell:\n" +
                  tail(os.path.join(workdir, stem + ".describe.log")))
            failed.append(stem)
            continue
        with open(described) as f:
            desc = json.load(f)
        records = choose_records(desc)
        has_axon = any(s["name"].startswith("axon") for s in desc["sections"])
        if args.self_test:
            for name, perturb in PERTURBATIONS.items():
                caught = []
                for case in selected:
                    label = f"{stem}:{case['name']} with {name}"
                    ok, _ = run_case(args, env, lib, desc, swc, case, AMPS[stem][case["name"]],
                                     records, has_axon,
                                     os.path.join(workdir, stem, "self_test", name.replace(" ", "_"),
                                                  case["name"]), label, perturb)
                    if not ok:
                        caught.append(case["name"])
                print(f"{'ok  ' if caught else 'FAIL'} {stem} with {name}: "
                      f"{', '.join(caught) if caught else 'no case'} fails")
                if not caught:
                    failed.append(f"{stem}: {name}")
            continue
        for case in selected:
            label = f"{stem}:{case['name']}"
            ok, row = run_case(args, env, lib, desc, swc, case, AMPS[stem][case["name"]], records,
                               has_axon, os.path.join(workdir, stem, case["name"]), label)
            if row:
                rows.append(row)
            if not ok:
                failed.append(label)
    if args.self_test:
        print(f"self-test: {len(files) * len(PERTURBATIONS) - len(failed)}/"
              f"{len(files) * len(PERTURBATIONS)} changes caught, as they must be")
        return 1 if failed else 0
    fmt = "%-30s %11s %-20s %7s %8s %5s %6s %8s %s"
    print(fmt % ("case", "max|dV| mV", "(where)", "spikes", "max|dt|", "nodes", "ours s",
                 "NEURON s", "verdict"))
    for label, dv, where, n_ours, n_neuron, max_dt, times, nodes, t_ours, t_neuron, ok in rows:
        print(fmt % (label, "-" if dv is None else "%.2e" % dv, (where or "")[:20],
                     f"{n_ours}/{n_neuron}", "-" if max_dt is None else "%.1e" % max_dt, nodes,
                     "%.1f" % t_ours, "%.1f" % t_neuron, "PASS" if ok else "FAIL"))
        if times:
            print("    NEURON spike times (ms): " + " ".join("%.3f" % t for t in times))
    total = len(files) * len(selected)
    print(f"{total - len(failed)}/{total} cases match NEURON (tolerances: max |dV| <= "
          f"{TOL_SUBTHRESHOLD} mV below threshold, {TOL_SPIKING} mV spiking; every spike in the "
          f"same step; " + ", ".join("%s within %g / %g of its peak" % r for r in ION_RECORDS) +
          f" at the soma); work files in {workdir}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
