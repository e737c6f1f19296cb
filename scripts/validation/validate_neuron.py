#!/usr/bin/env python3
"""Validate hinesbatch-sim against NEURON 8.2 on the cases in scripts/validation/cases/.

  validate_neuron.py --sim PATH/hinesbatch-sim [--shared DIR] [--workdir DIR]
                     [--cases NAME[,NAME...]] [--python PY] [--verbose]
                     [--case-dir DIR --mods FILE.mod ...] [--sim-args "ARGS"]

--case-dir takes the cases from another folder (cases_mod/: models whose point processes
are .mod files, run with a hinesbatch-sim whose catalogue holds them); --mods compiles
those files for NEURON with its own nrnivmodl, and neuron_run.py loads them. --sim-args
passes options to hinesbatch-sim (a schedule: "--host-schedule cells --on-chip off").

For each case CONFIG.json:
  1. SIM CONFIG.json --export-model W/model.json --spikes W/ours_spikes.txt --traces W/ours.csv --quiet
     (HINESBATCH_SHARED_DIR=<shared dir> in its environment)
  2. cross-checks the exported model: dt/tstop/v_init/celsius/Ra/cm and the mechanism
     regions against the config (the cells themselves are checked against NEURON's own
     reading of the SWC files by validate_import3d.py; this path checks the numerics)
  3. neuron_run.py W/model.json --spikes W/neuron_spikes.txt --traces W/neuron.csv
  4. compare.py criteria: passive cases (no hh anywhere) max |dV| <= 0.1 mV at every step;
     spikes: same count per gid, |dt| <= dt + 1e-9 per pair (artificial cells': 2e-6 ms, their
     exact times) (active cases: |dV| reported only, but for the STRICT ones: |dV| within their
     tolerance, every spike in the same step)

Exit status: 0 all pass, 1 any failure, 2 usage error, 77 (ctest SKIP_RETURN_CODE) when NEURON
is not importable or when every selected case needs ../shared/morphologies and it is missing.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
sys.dont_write_bytecode = True  # keep the source tree clean
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import compare  # noqa: E402

SKIP = 77
VTOL = 0.1
# Active cases judged strictly: voltages within this many mV at every step, and every
# spike in the same step (|dt| <= 1e-9 ms). exp2syn_random_p3: synapses as the default
# catalogue's Exp2Syn (compiled from NMODL) against NEURON's own built-in Exp2Syn.
# hh_96ML_membrane_by_region: cm and Ra by region and by section list, a section list as a
# mechanism region, nseg by d_lambda with each section's cm and Ra. hh_96ML_two_templates_cm:
# two templates ("cells") with different cm and Ra, each cell built with its own.
# Their records of other variables (exp2syn_random_p3: synapses' A and B, NEURON's
# syn._ref_A) within RTOL_OTHER of each column's peak.
RTOL_OTHER = 1e-4
# stdpsyn_random_p3 (cases_mod/): a synapse whose NET_RECEIVE keeps state per connection
# (NEURON's NetCon weight vector, with its INITIAL) and reads t, the event's own time.
# pulsesyn_*_cnic004 (cases_mod/): synapses that send themselves events (net_send).
# driftfire_explicit_cnic004 (cases_mod/): artificial cells (ARTIFICIAL_CELL) that drive
# cells and are driven by them and by each other; driftfire_connect_random: artificial
# cells connected by sources[].connect into a random network. pointprocs_explicit_cnic004:
# point processes placed on the cells (cell.point_processes), no NET_RECEIVE: a conductance
# that reads t (tonic_syn.mod) and the catalogue's IClamp against NEURON's own.
STRICT = {"exp2syn_random_p3": 1e-3, "hh_96ML_membrane_by_region": 1e-3,
          "hh_96ML_two_templates_cm": 1e-3, "stdpsyn_random_p3": 1e-3,
          "pulsesyn_random_cnic004": 1e-3, "pulsesyn_explicit_cnic004": 1e-3,
          "driftfire_explicit_cnic004": 1e-3, "driftfire_connect_random": 1e-3,
          "pointprocs_explicit_cnic004": 1e-3}


def neuron_importable(python):
    try:
        r = subprocess.run([python, "-c", "import neuron; from neuron import h; h.load_file('stdrun.hoc')"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120,
                           env=dict(os.environ, NEURON_MODULE_OPTIONS="-nogui"))
        return r.returncode == 0, r.stdout.decode(errors="replace")
    except (OSError, subprocess.TimeoutExpired) as e:
        return False, str(e)


def needs_shared(cfg_text):
    return "${HINESBATCH_SHARED_DIR}" in cfg_text


def region_ids(sections, region, section_lists=None):
    t = lambda s: int(s["swc_type"])  # noqa: E731
    if section_lists and region in section_lists:
        return {int(k) for k in section_lists[region]}
    if region == "apic":
        return {int(s["id"]) for s in sections if t(s) == 4}
    if region == "basal":
        return {int(s["id"]) for s in sections if t(s) == 3}
    if region == "all":
        return {int(s["id"]) for s in sections}
    if region == "soma":
        return {int(s["id"]) for s in sections if t(s) == 1}
    if region == "axon":
        return {int(s["id"]) for s in sections if t(s) == 2}
    if region == "dend":
        return {int(s["id"]) for s in sections if t(s) not in (1, 2)}
    return None


def template_cells(cfg):
    """The config's cell object of each template, in the model's morphology order: "cell"
    once per morphology it lists, or each "cells" entry once per morphology it lists."""
    out = []
    for e in cfg["cells"] if "cells" in cfg else [cfg.get("cell", {})]:
        morphs = e.get("morphology", [])
        out += [e] * (len(morphs) if isinstance(morphs, list) else 1)
    return out


def check_model(cfg, model):
    """Cross-checks of the exported model against the config. Returns a list of messages."""
    errs = []
    cells = template_cells(cfg)
    expect = {"dt": cfg.get("dt", 0.025), "tstop": cfg.get("tstop"), "v_init": cfg.get("v_init", -65.0),
              "celsius": cfg.get("celsius", 6.3)}
    # Ra and cm: each section's value in the model, from its template's number or entries by
    # region in order (over NEURON's defaults)
    for mi, morph in enumerate(model.get("morphologies", [])):
        cell = cells[mi] if mi < len(cells) else {}
        lists = cell.get("section_lists", {})
        secs = morph["sections"]
        for k, default in (("Ra", 35.4), ("cm", 1.0)):
            value = cell.get(k, default)
            want = {int(sd["id"]): float(default if isinstance(value, list) else value) for sd in secs}
            for e in value if isinstance(value, list) else []:
                for i in region_ids(secs, e.get("region", "all"), lists):
                    want[i] = float(e["value"])
            for sd in secs:
                if k in sd and abs(float(sd[k]) - want[int(sd["id"])]) > 1e-12 * want[int(sd["id"])]:
                    errs.append("morphology %d section %s: %s = %s, the config gives %s" % (
                        mi, sd["id"], k, sd[k], want[int(sd["id"])]))
    for k, v in expect.items():
        if v is None:
            continue
        if k not in model:
            errs.append("model has no top-level %r" % k)
        elif abs(float(model[k]) - float(v)) > 1e-12 * max(1.0, abs(float(v))):
            errs.append("model %s = %s, config %s" % (k, model[k], v))
    if model.get("format") != "hinesbatch-model-1":
        errs.append("model format %r" % model.get("format"))
    # mechanism regions (union of the template's regions per mechanism name)
    for c in model.get("cells", []):
        mi = int(c["morphology"])
        cell = cells[mi] if mi < len(cells) else {}
        secs = model["morphologies"][mi]["sections"]
        want = {}
        for m in cell.get("mechanisms", []):
            ids = region_ids(secs, m.get("region", "all"), cell.get("section_lists", {}))
            if ids is None:
                continue
            want.setdefault(m["name"], set()).update(ids)
        got = {}
        for d in c.get("density", []):
            got.setdefault(d["mechanism"], set()).update(int(s) for s in d["sections"])
        for name in set(want) | set(got):
            if want.get(name, set()) != got.get(name, set()):
                a, b = want.get(name, set()), got.get(name, set())
                errs.append("gid %s: %s on %d sections, config regions give %d (e.g. %s)" % (
                    c["gid"], name, len(b), len(a), sorted(a ^ b)[:5]))
        if len(errs) > 10:
            break
    return errs


def build_neuron_mechanisms(mods, workdir):
    """NEURON's nrnivmodl on copies of `mods` in workdir/neuron_mod: its libnrnmech.so, or
    None (printed SKIPPED) where nrnivmodl or its makefile is missing; exit 1 where it
    fails to build them."""
    import shutil
    from nmodl_vs_neuron import nrnivmodl
    if shutil.which("nrnivmodl") is None:
        print("SKIPPED: nrnivmodl not found (Debian: neuron-dev)")
        return None
    lib, tail = nrnivmodl(mods, os.path.join(workdir, "neuron_mod"))
    if lib is None:
        if not os.path.exists("/usr/bin/nrnmech_makefile"):
            print("SKIPPED: nrnivmodl needs /usr/bin/nrnmech_makefile (scripts/bootstrap.sh links "
                  "it to /usr/lib/nrn/nrnmech_makefile)")
            return None
        print(tail)
        print("FAIL: nrnivmodl did not build libnrnmech.so")
        sys.exit(1)
    return lib


def tail(path, n=15):
    try:
        with open(path, errors="replace") as f:
            lines = f.readlines()
        return "".join(lines[-n:])
    except OSError:
        return ""


def run_logged(cmd, log, env=None, timeout=600):
    t0 = time.time()
    with open(log, "w") as f:
        f.write("$ %s\n" % " ".join(cmd))
        f.flush()
        try:
            r = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, env=env, timeout=timeout)
            rc = r.returncode
        except subprocess.TimeoutExpired:
            rc = "timeout"
        except OSError as e:
            f.write("%s\n" % e)
            rc = "oserror"
    return rc, time.time() - t0


def run_case(name, cfg_path, args, env):
    res = {"case": name, "ok": False, "max_dv": None, "where": None, "ours": None, "neuron": None,
           "max_dt": None, "notes": [], "passive": None, "t_ours": None, "t_neuron": None}
    W = os.path.join(args.workdir, name)
    os.makedirs(W, exist_ok=True)
    for f in glob.glob(os.path.join(W, "*")):
        if os.path.isfile(f):
            os.remove(f)
    with open(cfg_path) as f:
        cfg = json.load(f)
    model_path = os.path.join(W, "model.json")
    cmd = [args.sim, cfg_path, "--export-model", model_path, "--spikes", os.path.join(W, "ours_spikes.txt"),
           "--traces", os.path.join(W, "ours.csv"), "--quiet"] + args.sim_args.split()
    rc, res["t_ours"] = run_logged(cmd, os.path.join(W, "ours.log"), env, args.timeout)
    if rc != 0:
        res["notes"].append("hinesbatch-sim failed (rc %s):\n%s" % (rc, tail(os.path.join(W, "ours.log"))))
        return res
    with open(model_path) as f:
        model = json.load(f)
    errs = check_model(cfg, model)
    if errs:
        res["notes"].append("exported model does not match the config / SWC:\n    " + "\n    ".join(errs))
    res["passive"] = not any(d["mechanism"] == "hh" for c in model["cells"] for d in c.get("density", []))

    cmd = [args.python, os.path.join(HERE, "neuron_run.py"), model_path,
           "--spikes", os.path.join(W, "neuron_spikes.txt"), "--traces", os.path.join(W, "neuron.csv")]
    rc, res["t_neuron"] = run_logged(cmd, os.path.join(W, "neuron.log"),
                                     dict(env, NEURON_MODULE_OPTIONS="-nogui"), args.timeout)
    if rc != 0:
        res["notes"].append("neuron_run.py failed (rc %s):\n%s" % (rc, tail(os.path.join(W, "neuron.log"))))
        return res
    dt = float(model["dt"])
    try:
        tr = compare.compare_traces(os.path.join(W, "ours.csv"), os.path.join(W, "neuron.csv"),
                                    VTOL if res["passive"] else None)
        artificial = {int(a["gid"]) for a in model.get("artificial_cells", [])}
        sp = compare.compare_spikes(os.path.join(W, "ours_spikes.txt"), os.path.join(W, "neuron_spikes.txt"), dt,
                                    artificial)
    except (OSError, ValueError) as e:
        res["notes"].append("cannot compare outputs: %s" % e)
        return res
    res.update(max_dv=tr["max_dv"], where=tr["where"], ours=sp["n_ours"], neuron=sp["n_neuron"],
               max_dt=sp["max_dt"])
    with open(os.path.join(W, "compare.txt"), "w") as f:
        compare.print_report(name, sp, tr, f)
    if args.verbose or not (tr["ok"] and sp["ok"]):
        compare.print_report(name, sp, tr)
    res["ok"] = tr["ok"] and sp["ok"] and not res["notes"]
    if name in STRICT:
        if tr["max_dv"] is None or not tr["max_dv"] <= STRICT[name]:
            res["notes"].append("max |dV| %s mV > %g mV" % (tr["max_dv"], STRICT[name]))
        if sp["max_dt"] is not None and sp["max_dt"] > 1e-9:
            res["notes"].append("a spike %.6f ms from NEURON's: not in the same step" % sp["max_dt"])
        rel = tr.get("max_rel_other")
        if rel is not None and not rel <= RTOL_OTHER:
            res["notes"].append("a recorded variable other than v differs by %.3g of its peak "
                                "(> %g)" % (rel, RTOL_OTHER))
        res["ok"] = res["ok"] and not res["notes"]
    return res


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", required=True, help="path of hinesbatch-sim")
    ap.add_argument("--shared", help="shared directory (default: $HINESBATCH_SHARED_DIR, else <repo>/../shared)")
    ap.add_argument("--workdir", default=None,
                    help="work directory (default: $TMPDIR/hinesbatch-neuron-validation)")
    ap.add_argument("--cases", action="append", help="case names (file stems), comma separated; default all")
    ap.add_argument("--python", default=None,
                    help="python with NEURON (default: the first of this python, /usr/bin/python3, "
                         "python3 that imports neuron)")
    ap.add_argument("--timeout", type=int, default=600, help="per-run timeout in seconds")
    ap.add_argument("--verbose", "-v", action="store_true", help="print the per-location/per-gid tables")
    ap.add_argument("--case-dir", default=os.path.join(HERE, "cases"), help="folder of the cases")
    ap.add_argument("--mods", nargs="*", default=[], help=".mod files NEURON compiles for the cases")
    ap.add_argument("--sim-args", default="", help="options for hinesbatch-sim")
    args = ap.parse_args(argv)
    args.sim = os.path.abspath(args.sim)
    if not os.access(args.sim, os.X_OK):
        print("ERROR: %s is not an executable" % args.sim)
        return 2
    args.workdir = os.path.abspath(args.workdir or os.path.join(tempfile.gettempdir(), "hinesbatch-neuron-validation"))
    shared = args.shared or os.environ.get("HINESBATCH_SHARED_DIR") or os.path.join(os.path.dirname(REPO), "shared")
    shared = os.path.abspath(shared)
    have_morph = os.path.isdir(os.path.join(shared, "morphologies"))

    candidates = [args.python] if args.python else [sys.executable, "/usr/bin/python3", "python3"]
    outs = []
    for py in candidates:
        ok, out = neuron_importable(py)
        if ok:
            args.python = py
            break
        outs.append("%s: %s" % (py, (out.strip().splitlines() or ["?"])[-1]))
    if not ok:
        print("SKIPPED: NEURON not importable (%s)" % "; ".join(outs))
        return SKIP

    if args.mods:
        lib = build_neuron_mechanisms(args.mods, args.workdir)
        if lib is None:
            return SKIP
        os.environ["HINESBATCH_NRNMECH"] = lib
    paths = sorted(glob.glob(os.path.join(args.case_dir, "*.json")))
    if args.cases:
        wanted = [c.strip() for s in args.cases for c in s.split(",") if c.strip()]
        by = {os.path.splitext(os.path.basename(p))[0]: p for p in paths}
        missing = [c for c in wanted if c not in by]
        if missing:
            print("ERROR: unknown case(s) %s; known: %s" % (", ".join(missing), ", ".join(sorted(by))))
            return 2
        paths = [by[c] for c in wanted]

    os.environ["HINESBATCH_SHARED_DIR"] = shared  # for hinesbatch-sim's ${HINESBATCH_SHARED_DIR}
    env = dict(os.environ)
    results, skipped = [], []
    for p in paths:
        name = os.path.splitext(os.path.basename(p))[0]
        with open(p) as f:
            text = f.read()
        if needs_shared(text) and not have_morph:
            skipped.append(name)
            continue
        sys.stdout.write("running %s ...\n" % name)
        sys.stdout.flush()
        try:
            r = run_case(name, p, args, env)
        except Exception as e:  # a broken case must not hide the others
            r = {"case": name, "ok": False, "max_dv": None, "where": None, "ours": None, "neuron": None,
                 "max_dt": None, "passive": None, "t_neuron": None,
                 "notes": ["%s: %s" % (type(e).__name__, e)]}
        for n in r["notes"]:
            print("  %s: %s" % (name, n))
        results.append(r)

    if not results:
        print("SKIPPED: %s/morphologies missing (cases %s need it)" % (shared, ", ".join(skipped)))
        return SKIP

    print()
    fmt = "%-20s %-8s %12s %-30s %12s %12s %8s\n"
    sys.stdout.write(fmt % ("case", "kind", "max|dV| mV", "(where)", "spikes ours/NRN", "max|dt| ms", "verdict"))
    for r in results:
        dv = "-" if r["max_dv"] is None else "%.3g%s" % (r["max_dv"], "" if r["passive"] else "*")
        sp = "-" if r["ours"] is None else "%d/%d" % (r["ours"], r["neuron"])
        mdt = "-" if r["max_dt"] is None else "%.6f" % r["max_dt"]
        kind = "-" if r["passive"] is None else ("passive" if r["passive"] else "active")
        sys.stdout.write(fmt % (r["case"], kind, dv, (r["where"] or "")[:30], sp, mdt,
                                "PASS" if r["ok"] else "FAIL"))
    print("(* active case: |dV| reported, not judged; passive tolerance %g mV; spike tolerance dt + 1e-9)" % VTOL)
    if skipped:
        print("skipped (no %s/morphologies): %s" % (shared, ", ".join(skipped)))
    nfail = sum(1 for r in results if not r["ok"])
    print("%d case(s) run, %d failed, %d skipped; work files in %s" % (len(results), nfail, len(skipped), args.workdir))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
