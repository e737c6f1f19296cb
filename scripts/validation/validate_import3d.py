#!/usr/bin/env python3
"""Every SWC file of <shared>/morphologies built by hinesbatch-sim and by NEURON 8.2's own
reader (Import3d), run passive and active, compared.

  validate_import3d.py --sim PATH/hinesbatch-sim [--shared DIR] [--workdir DIR]
                       [--files NAME[,NAME...]] [--python PY] [-v]

For each file F and each case:
  passive: pas everywhere (g 1e-4 S/cm2, e -65), nseg by NEURON's d_lambda rule (0.1 at 100 Hz),
           IClamp 0.1 nA from 1 to 21 ms, 30 ms;
  hh:      hh everywhere (NEURON's defaults), nseg = smallest odd >= L / 20 um,
           IClamp from 2 to 38 ms of 2e-4 nA per um2 of membrane, 40 ms; spikes detected at
           the stimulus site (threshold 0 mV);
both with Ra 100 ohm cm, cm 1 uF/cm2, dt 0.025 ms, v_init -65, 6.3 C. The stimulus sits at
section 0 (x 0.5), or at section 1 when section 0's middle segment has under 1 um2 of membrane
(v_e_purk2's soma of radius 0). Voltages recorded at section 0 (0.5), at section n/2 (0.5)
and at the end (x 1) of the last section.

  1. import3d_run.py --describe (NEURON): sections, L, nseg. hinesbatch-sim --export-model:
     the same number of sections, the same nseg, lengths within 1e-5 relative (NEURON keeps
     pt3d in single precision).
  2. hinesbatch-sim and import3d_run.py run the case; compare.py compares them:
     max |dV| <= VTOL at every step and site (both cases), same spike count, every spike in
     the same step (|dt| <= 1e-6 ms).
Exit status: 0 all pass, 1 any failure, 2 usage error, 77 (ctest SKIP_RETURN_CODE) when
NEURON is not importable or <shared>/morphologies is missing.
"""

import argparse
import glob
import json
import os
import sys
import tempfile
import time

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import compare  # noqa: E402
from validate_neuron import neuron_importable, run_logged, tail  # noqa: E402

SKIP = 77
VTOL = {"passive": 1e-5, "hh": 1e-2}  # mV; NEURON keeps pt3d in single precision (README)
MIN_DIAM = 0.02  # um: 2 kMinRadiusUm, HinesBatch's smallest diameter
T_SAME_STEP = 1e-6


def cases_for(desc):
    secs = desc["sections"]
    stim_sec = 0 if secs[0]["area_mid"] >= 1.0 else 1
    n = len(secs)
    record = [[0, 0.5], [n // 2, 0.5], [n - 1, 1.0]]
    base = {"Ra": 100.0, "cm": 1.0, "dt": 0.025, "v_init": -65.0, "celsius": 6.3, "record": record}
    passive = dict(base, name="passive", nseg_rule={"d_lambda": 0.1}, mechanism="pas",
                   pas={"g": 1e-4, "e": -65.0}, tstop=30.0,
                   iclamp={"section": stim_sec, "x": 0.5, "del": 1.0, "dur": 20.0, "amp": 0.1})
    amp = round(2e-4 * desc["total_area"], 4)
    hh = dict(base, name="hh", nseg_rule={"max_segment_length_um": 20.0}, mechanism="hh", tstop=40.0,
              iclamp={"section": stim_sec, "x": 0.5, "del": 2.0, "dur": 36.0, "amp": amp},
              detector={"section": stim_sec, "x": 0.5, "threshold": 0.0})
    return [passive, hh]


def sim_config(swc, case):
    loc = lambda k, x: {"section": int(k), "x": float(x)}  # noqa: E731
    cell = {"morphology": swc, "Ra": case["Ra"], "cm": case["cm"], "iclamp": [{
        "location": loc(case["iclamp"]["section"], case["iclamp"]["x"]), "del": case["iclamp"]["del"],
        "dur": case["iclamp"]["dur"], "amp": case["iclamp"]["amp"]}]}
    cell.update(case["nseg_rule"])
    if case["mechanism"] == "pas":
        cell["mechanisms"] = [{"name": "pas", "region": "all", "g": case["pas"]["g"], "e": case["pas"]["e"]}]
    else:
        cell["mechanisms"] = [{"name": "hh", "region": "all"}]
    if "detector" in case:
        d = case["detector"]
        cell["detector"] = {"location": loc(d["section"], d["x"]), "threshold": d["threshold"]}
    return {"dt": case["dt"], "tstop": case["tstop"], "v_init": case["v_init"], "celsius": case["celsius"],
            "cell": cell, "network": {"type": "single"},
            "record": [{"gid": 0, "location": loc(k, x)} for k, x in case["record"]]}


def check_structure(desc, model):
    errs = []
    ours = model["morphologies"][0]["sections"]
    ref = desc["sections"]
    if len(ours) != len(ref):
        return ["%d sections, NEURON %d" % (len(ours), len(ref))]
    for k, (a, b) in enumerate(zip(ours, ref)):
        L = sum(sum((p[i] - q[i]) ** 2 for i in range(3)) ** 0.5 for p, q in zip(a["pt3d"][1:], a["pt3d"][:-1]))
        if int(a["nseg"]) != int(b["nseg"]):
            errs.append("section %d (%s): nseg %d, NEURON %d" % (k, b["name"], a["nseg"], b["nseg"]))
        if abs(L - b["L"]) > 1e-4 + 1e-5 * b["L"]:  # single-precision coordinates
            errs.append("section %d (%s): L %.9g, NEURON %.9g" % (k, b["name"], L, b["L"]))
        if len(errs) > 5:
            break
    return errs


def run_case(swc, case, W, args, env):
    res = {"file": os.path.basename(swc), "case": case["name"], "ok": False, "notes": [], "max_dv": None,
           "where": None, "spikes": None, "max_dt": None}
    os.makedirs(W, exist_ok=True)
    cfg_path = os.path.join(W, "config.json")
    with open(cfg_path, "w") as f:
        json.dump(sim_config(swc, case), f, indent=1)
    spec = dict(case, swc=swc, min_diam=MIN_DIAM, traces=os.path.join(W, "neuron.csv"), spikes=os.path.join(W, "neuron_spikes.txt"))
    spec_path = os.path.join(W, "neuron_spec.json")
    with open(spec_path, "w") as f:
        json.dump(spec, f, indent=1)
    model_path = os.path.join(W, "model.json")
    cmd = [args.sim, cfg_path, "--export-model", model_path, "--spikes", os.path.join(W, "ours_spikes.txt"),
           "--traces", os.path.join(W, "ours.csv"), "--quiet"]
    rc, _ = run_logged(cmd, os.path.join(W, "ours.log"), env, args.timeout)
    if rc != 0:
        res["notes"].append("hinesbatch-sim failed (rc %s):\n%s" % (rc, tail(os.path.join(W, "ours.log"))))
        return res
    rc, _ = run_logged([args.python, os.path.join(HERE, "import3d_run.py"), spec_path, "--describe",
                        os.path.join(W, "neuron_sections.json")], os.path.join(W, "neuron_describe.log"), env,
                       args.timeout)
    if rc != 0:
        res["notes"].append("import3d_run.py --describe failed:\n%s" % tail(os.path.join(W, "neuron_describe.log")))
        return res
    with open(model_path) as f:
        model = json.load(f)
    with open(os.path.join(W, "neuron_sections.json")) as f:
        desc = json.load(f)
    errs = check_structure(desc, model)
    if errs:
        res["notes"].append("cells differ:\n    " + "\n    ".join(errs))
    rc, _ = run_logged([args.python, os.path.join(HERE, "import3d_run.py"), spec_path],
                       os.path.join(W, "neuron.log"), env, args.timeout)
    if rc != 0:
        res["notes"].append("import3d_run.py failed:\n%s" % tail(os.path.join(W, "neuron.log")))
        return res
    tr = compare.compare_traces(os.path.join(W, "ours.csv"), os.path.join(W, "neuron.csv"), VTOL[case["name"]])
    sp = compare.compare_spikes(os.path.join(W, "ours_spikes.txt"), os.path.join(W, "neuron_spikes.txt"),
                                T_SAME_STEP)
    with open(os.path.join(W, "compare.txt"), "w") as f:
        compare.print_report(res["file"] + ":" + case["name"], sp, tr, f)
    if args.verbose or not (tr["ok"] and sp["ok"]):
        compare.print_report(res["file"] + ":" + case["name"], sp, tr)
    res.update(max_dv=tr["max_dv"], where=tr["where"], spikes="%d/%d" % (sp["n_ours"], sp["n_neuron"]),
               max_dt=sp["max_dt"])
    res["ok"] = tr["ok"] and sp["ok"] and not res["notes"]
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True)
    ap.add_argument("--shared")
    ap.add_argument("--workdir")
    ap.add_argument("--files", action="append", help="SWC file names (comma separated); default all")
    ap.add_argument("--python")
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--verbose", "-v", action="store_true")
    args = ap.parse_args(argv)
    args.sim = os.path.abspath(args.sim)
    if not os.access(args.sim, os.X_OK):
        print("ERROR: %s is not an executable" % args.sim)
        return 2
    args.workdir = os.path.abspath(args.workdir or os.path.join(tempfile.gettempdir(), "hinesbatch-import3d"))
    shared = os.path.abspath(args.shared or os.environ.get("HINESBATCH_SHARED_DIR") or
                             os.path.join(os.path.dirname(REPO), "shared"))
    files = sorted(glob.glob(os.path.join(shared, "morphologies", "*.swc")))
    if not files:
        print("SKIPPED: no %s/morphologies/*.swc" % shared)
        return SKIP
    if args.files:
        wanted = {c.strip() for s in args.files for c in s.split(",") if c.strip()}
        files = [f for f in files if os.path.basename(f) in wanted]
    ok, outs = False, []
    for py in ([args.python] if args.python else [sys.executable, "/usr/bin/python3", "python3"]):
        ok, out = neuron_importable(py)
        if ok:
            args.python = py
            break
        outs.append("%s: %s" % (py, (out.strip().splitlines() or ["?"])[-1]))
    if not ok:
        print("SKIPPED: NEURON not importable (%s)" % "; ".join(outs))
        return SKIP
    env = dict(os.environ, NEURON_MODULE_OPTIONS="-nogui")
    t0 = time.time()
    results = []
    for swc in files:
        stem = os.path.basename(swc)
        W = os.path.join(args.workdir, stem)
        os.makedirs(W, exist_ok=True)
        probe = os.path.join(W, "probe_spec.json")
        with open(probe, "w") as f:
            json.dump({"swc": swc, "nseg_rule": {"nseg": 1}, "Ra": 100, "cm": 1, "min_diam": MIN_DIAM}, f)
        rc, _ = run_logged([args.python, os.path.join(HERE, "import3d_run.py"), probe, "--describe",
                            os.path.join(W, "probe.json")], os.path.join(W, "probe.log"), env, args.timeout)
        if rc != 0:
            results.append({"file": stem, "case": "-", "ok": False, "max_dv": None, "where": None, "spikes": None,
                            "max_dt": None, "notes": ["NEURON cannot read it:\n" + tail(os.path.join(W, "probe.log"))]})
            continue
        with open(os.path.join(W, "probe.json")) as f:
            desc = json.load(f)
        for case in cases_for(desc):
            try:
                r = run_case(swc, case, os.path.join(W, case["name"]), args, env)
            except Exception as e:  # one broken case must not hide the others
                r = {"file": stem, "case": case["name"], "ok": False, "max_dv": None, "where": None,
                     "spikes": None, "max_dt": None, "notes": ["%s: %s" % (type(e).__name__, e)]}
            for n in r["notes"]:
                print("  %s %s: %s" % (stem, case["name"], n))
            results.append(r)
    fmt = "%-28s %-8s %12s %-22s %10s %10s %s\n"
    sys.stdout.write(fmt % ("file", "case", "max|dV| mV", "(where)", "spikes", "max|dt|", "verdict"))
    for r in results:
        sys.stdout.write(fmt % (r["file"], r["case"], "-" if r["max_dv"] is None else "%.2e" % r["max_dv"],
                                (r["where"] or "")[:22], r["spikes"] or "-",
                                "-" if r["max_dt"] is None else "%.1e" % r["max_dt"],
                                "PASS" if r["ok"] else "FAIL"))
    nfail = sum(1 for r in results if not r["ok"])
    print("tolerances: max|dV| <= %g mV (passive), %g mV (hh); spikes in the same step" %
          (VTOL["passive"], VTOL["hh"]))
    print("%d case(s), %d failed, %.1f s; work files in %s" % (len(results), nfail, time.time() - t0, args.workdir))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
