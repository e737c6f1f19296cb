#!/usr/bin/env python3
"""Run a HinesBatch MODEL.json ("hinesbatch-model-1") in NEURON 8.2.

  neuron_run.py MODEL.json --spikes OUT.txt --traces OUT.csv [--quiet]

Fixed-step implicit Euler (secondorder 0, no CVode): h.finitialize(v_init) and then
exactly round(tstop/dt) calls of h.fadvance(). hh uses the exact rate functions
(usetable_hh = 0). A synapse is NEURON's ExpSyn (tau, e), or where the model names one
("mechanism": {"name", "parameters"}) that point process of NEURON's (Exp2Syn, ...).

Outputs (same formats as hinesbatch-sim):
  spikes: one line per spike "gid time" (time "%.6f"), sorted by (time, gid)
  traces: CSV, header "t,g<gid>_s<section>_x<x>" (x with %g), N+1 rows (t=0 included),
          values "%.9g"
"""

import argparse
import json
import os
import sys
import time


def load_neuron():
    # NEURON prints a DISPLAY warning on import without X; keep stdout clean.
    os.environ.setdefault("NEURON_MODULE_OPTIONS", "-nogui")
    from neuron import h
    h.load_file("stdrun.hoc")
    # Mechanisms of .mod files (nrnivmodl's libnrnmech.so) where the model's point processes
    # are not NEURON's built-ins.
    lib = os.environ.get("HINESBATCH_NRNMECH")
    if lib:
        h.nrn_load_dll(lib)
    return h


def build(h, model):
    dt = float(model["dt"])
    h.celsius = float(model.get("celsius", 6.3))
    h.secondorder = 0
    # Exact hh rates, as HinesBatch computes them; NEURON_USETABLE_HH=1 keeps NEURON's rate
    # tables (its default, faster and slightly different), for timing against NEURON as
    # users run it.
    if hasattr(h, "usetable_hh"):
        h.usetable_hh = 1 if os.environ.get("NEURON_USETABLE_HH") == "1" else 0
    cv = h.CVode()
    cv.active(0)
    for key in ("Ra", "cm"):
        if key not in model:
            sys.stderr.write("neuron_run: WARNING: model has no top-level %r, using NEURON's default\n" % key)
    Ra = float(model.get("Ra", 35.4))
    cm = float(model.get("cm", 1.0))
    ena = model.get("ena")
    ek = model.get("ek")

    keep = []  # python references that must outlive the run
    cells = {}
    for cell in model["cells"]:
        gid = int(cell["gid"])
        morph = model["morphologies"][int(cell["morphology"])]
        secs = []
        for k, sd in enumerate(morph["sections"]):
            if int(sd.get("id", k)) != k:
                raise ValueError("morphology %s: section ids must be 0..n-1 in order" % cell["morphology"])
            sec = h.Section(name="g%d_s%d" % (gid, k))
            h.pt3dclear(sec=sec)
            for p in sd["pt3d"]:
                h.pt3dadd(float(p[0]), float(p[1]), float(p[2]), float(p[3]), sec=sec)
            secs.append(sec)
        for k, sd in enumerate(morph["sections"]):
            par = int(sd["parent"])
            if par >= 0:
                secs[k].connect(secs[par](float(sd["parent_x"])), 0.0)
        for k, sd in enumerate(morph["sections"]):
            secs[k].nseg = int(sd["nseg"])
            secs[k].Ra = float(sd.get("Ra", Ra))  # per section where the model gives it
            secs[k].cm = float(sd.get("cm", cm))
        for dm in cell.get("density", []):
            name = dm["mechanism"]
            params = {kk: vv for kk, vv in dm.items() if kk not in ("mechanism", "sections")}
            for sid in dm["sections"]:
                sec = secs[int(sid)]
                sec.insert(name)
                for pname, val in params.items():
                    if isinstance(val, bool) or not isinstance(val, (int, float)):
                        sys.stderr.write("neuron_run: ignoring non-numeric %s.%s = %r\n" % (name, pname, val))
                        continue
                    if not hasattr(sec(0.5), "%s_%s" % (pname, name)):
                        raise ValueError("mechanism %s has no parameter %r" % (name, pname))
                    setattr(sec, "%s_%s" % (pname, name), float(val))
                if name == "hh":
                    if ena is not None:
                        sec.ena = float(ena)
                    if ek is not None:
                        sec.ek = float(ek)
        iclamps = []
        for ic in cell.get("iclamps", []):
            stim = h.IClamp(secs[int(ic["section"])](float(ic["x"])))
            stim.delay = float(ic["del"])
            stim.dur = float(ic["dur"])
            stim.amp = float(ic["amp"])
            iclamps.append(stim)
        syns = []
        for sy in cell.get("synapses", []):
            seg = secs[int(sy["section"])](float(sy["x"]))
            mech = sy.get("mechanism")
            if mech is None:
                s = h.ExpSyn(seg)
                s.tau = float(sy.get("tau", 2.0))
                s.e = float(sy.get("e", 0.0))
            else:
                # A point process by name (NEURON's own built-in Exp2Syn, ExpSyn, ...) with
                # its parameters.
                s = getattr(h, mech["name"])(seg)
                for pname, val in mech.get("parameters", {}).items():
                    if not hasattr(s, pname):
                        raise ValueError("point process %s has no parameter %r" % (mech["name"], pname))
                    setattr(s, pname, float(val))
            syns.append(s)
        det = cell.get("detector")
        cells[gid] = {"secs": secs, "iclamps": iclamps, "syns": syns, "detector": det}
    return cells, keep


def run(model, quiet=False):
    h = load_neuron()
    t0 = time.time()
    cells, keep = build(h, model)
    dt = float(model["dt"])
    tstop = float(model["tstop"])
    nsteps = int(round(tstop / dt))

    # spike detection: one NetCon per detector, recording (time, gid)
    spikes = []
    det_nc = {}
    for gid, c in cells.items():
        det = c["detector"]
        if not det:
            continue
        sec = c["secs"][int(det["section"])]
        nc = h.NetCon(sec(float(det["x"]))._ref_v, None, sec=sec)
        nc.threshold = float(det["threshold"])
        tv = h.Vector()
        nc.record(tv)
        det_nc[gid] = (nc, tv, sec, float(det["x"]), float(det["threshold"]))

    # artificial cells (ARTIFICIAL_CELL point processes of the compiled .mod files): no
    # section; their spikes recorded by a NetCon with no target
    artificial = {}
    for a in model.get("artificial_cells", []):
        gid = int(a["gid"])
        cell = getattr(h, a["mechanism"])()
        for name, value in a.get("parameters", {}).items():
            setattr(cell, name, float(value))
        nc = h.NetCon(cell, None)
        tv = h.Vector()
        nc.record(tv)
        artificial[gid] = (cell, nc, tv)

    def target(gid, syn):
        return artificial[gid][0] if gid in artificial else cells[gid]["syns"][syn]

    conns = []
    for cn in model.get("connections", []):
        src, dst = int(cn["src"]), int(cn["dst"])
        if src in artificial:
            nc = h.NetCon(artificial[src][0], target(dst, int(cn["syn"])))
        else:
            if src not in det_nc:
                raise ValueError("connection from gid %d which has no detector" % src)
            _, _, sec, x, thr = det_nc[src]
            nc = h.NetCon(sec(x)._ref_v, target(dst, int(cn["syn"])), sec=sec)
            nc.threshold = thr
        nc.delay = float(cn["delay"])
        nc.weight[0] = float(cn["weight"])
        conns.append(nc)

    ext = []
    for ev in model.get("events", []):
        syn = target(int(ev["dst"]), int(ev["syn"]))
        nc = h.NetCon(None, syn)
        nc.weight[0] = float(ev["weight"])
        nc.delay = 0
        ext.append((nc, float(ev["time"])))

    def queue_events():
        for nc, t in ext:
            nc.event(t)
    fih = h.FInitializeHandler(queue_events) if ext else None

    recs = []
    header = ["t"]
    # record_dt: NEURON's Vector.record(ref, Dt), samples at 0, Dt, 2 Dt, ...
    rec_dt = model.get("record_dt")
    tvec = h.Vector()
    tvec.record(h._ref_t, rec_dt) if rec_dt else tvec.record(h._ref_t)
    for r in model.get("record", []):
        gid = int(r["gid"])
        var = r.get("variable", "v")  # NEURON's own name: v, cai, m_hh
        v = h.Vector()
        if gid in artificial:  # a variable of an artificial cell: ivf._ref_m
            ref = getattr(artificial[gid][0], "_ref_" + var)
            header.append("g%d_%s" % (gid, var))
            v.record(ref, rec_dt) if rec_dt else v.record(ref)
            recs.append(v)
            continue
        sid, x = int(r["section"]), float(r["x"])
        if "synapse" in r:  # a variable of the cell's synapse: syn._ref_g
            ref = getattr(cells[gid]["syns"][int(r["synapse"])], "_ref_" + var)
            header.append("g%d_syn%d_%s" % (gid, int(r["synapse"]), var))
        else:
            ref = getattr(cells[gid]["secs"][sid](x), "_ref_" + var)
            header.append("g%d_s%d_x%s" % (gid, sid, "%g" % x) + ("" if var == "v" else "_" + var))
        v.record(ref, rec_dt) if rec_dt else v.record(ref)
        recs.append(v)

    h.dt = dt
    h.steps_per_ms = 1.0 / dt
    built = time.time() - t0
    t1 = time.time()
    h.finitialize(float(model.get("v_init", -65.0)))
    for _ in range(nsteps):
        h.fadvance()
    run_s = time.time() - t1
    elapsed = time.time() - t0

    for gid, (nc, tv, _, _, _) in det_nc.items():
        for t in tv:
            spikes.append((t, gid))
    for gid, (_, _, tv) in artificial.items():
        for t in tv:
            spikes.append((t, gid))
    spikes.sort()
    traces = [list(tvec)] + [list(v) for v in recs]
    nseg_total = sum(s.nseg for c in cells.values() for s in c["secs"])
    if not quiet:
        sys.stderr.write("neuron_run: %d cells, %d segments, %d steps, %d spikes, %.2f s "
                         "(build %.2f s, finitialize + fadvance loop %.3f s)\n"
                         % (len(cells), nseg_total, nsteps, len(spikes), elapsed, built, run_s))
    del fih, keep, conns, artificial
    return header, traces, spikes


def write_spikes(path, spikes):
    with open(path, "w") as f:
        for t, gid in spikes:
            f.write("%d %.6f\n" % (gid, t))


def write_traces(path, header, traces):
    with open(path, "w") as f:
        f.write(",".join(header) + "\n")
        n = len(traces[0])
        for i in range(n):
            f.write(",".join("%.9g" % col[i] for col in traces) + "\n")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--spikes", required=True)
    ap.add_argument("--traces", required=True)
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    with open(a.model) as f:
        model = json.load(f)
    fmt = model.get("format")
    if fmt != "hinesbatch-model-1":
        sys.stderr.write("neuron_run: unexpected format %r (expected hinesbatch-model-1)\n" % fmt)
        return 2
    header, traces, spikes = run(model, a.quiet)
    write_spikes(a.spikes, spikes)
    write_traces(a.traces, header, traces)
    return 0


if __name__ == "__main__":
    sys.exit(main())
