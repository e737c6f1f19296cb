#!/usr/bin/env python3
"""Build one SWC cell in NEURON 8.2 with NEURON's own reader and run it.

  import3d_run.py SPEC.json [--describe OUT.json]

NEURON reads the SWC file itself: Import3d_SWC_read().input(file) and
Import3d_GUI(reader, 0).instantiate(None), nothing from HinesBatch. SPEC (written by
validate_import3d.py) gives the file, the nseg rule, Ra, cm, the mechanisms, the stimulus,
the recordings and the run:

  {"swc": PATH, "nseg_rule": {"max_segment_length_um": 20} | {"d_lambda": 0.1},
   "Ra": 100, "cm": 1 (each a number or [{"region", "value"}, ...] as in a hinesbatch-sim
   cell, with "section_lists"), "mechanism": "pas" | "hh", "pas": {"g": .., "e": ..},
   "iclamp": {"section": K, "x": X, "del": .., "dur": .., "amp": ..},
   "detector": {"section": K, "x": X, "threshold": 10} (optional),
   "record": [[K, X], ...], "dt": .., "tstop": .., "v_init": .., "celsius": ..,
   "traces": OUT.csv, "spikes": OUT.txt, "min_diam": D (optional)}

Section K is the K-th section of Import3d's list (Import3d_GUI.swc.sections after
instantiate, whose chk_valid drops degenerate sections), i.e. NEURON's <type>[nameindex]
named by that list's K-th entry. nseg: smallest odd >= L / max_segment_length_um for every
section, or NEURON's d_lambda rule (stdlib.hoc lambda_f at 100 Hz, the geom_nseg formula).
With min_diam, 3-D diameters below D are raised to D and a zero-diameter sphere becomes
the sphere of diameter D (HinesBatch's reading; NEURON's own zero-area soma gives NaN).
Fixed-step implicit Euler: finitialize(v_init) and round(tstop/dt) fadvance() calls; hh with
exact rates (usetable_hh = 0). --describe writes {"sections": [{"name", "type", "L", "nseg",
"area"}], "total_area": ..} and runs nothing.
"""

import json
import math
import os
import sys


def load():
    os.environ.setdefault("NEURON_MODULE_OPTIONS", "-nogui")
    from neuron import h
    h.load_file("stdrun.hoc")
    h.load_file("import3d.hoc")
    return h


def type_name(t):
    return {1: "soma", 2: "axon", 3: "dend", 4: "apic"}.get(t, "minus_%d" % -t if t < 0 else "dend_%d" % t)


def in_region(region, swc_type, index=None, section_lists=None):
    """HinesBatch's regions (mechanisms.hpp), written again: by SWC type, or a section list."""
    if section_lists and region in section_lists:
        return index in section_lists[region]
    return {"soma": swc_type == 1, "axon": swc_type == 2, "dend": swc_type not in (1, 2),
            "apic": swc_type == 4, "basal": swc_type == 3, "all": True}[region]


def by_region(value, swc_type, index, section_lists=None, default=None):
    """A number, or [{"region", "value"}, ...] applied in order (cell.cm and cell.Ra)."""
    if not isinstance(value, list):
        return float(value)
    out = default
    for e in value:
        if in_region(e.get("region", "all"), swc_type, index, section_lists):
            out = float(e["value"])
    return out


def build(h, spec, types=None):
    """The sections in Import3d's order; `types`, when a list, gets each one's SWC type."""
    own_types = []
    reader = h.Import3d_SWC_read()
    reader.quiet = 1
    reader.input(spec["swc"])
    gui = h.Import3d_GUI(reader, 0)
    gui.instantiate(None)
    secs = []
    lst = gui.swc.sections
    for k in range(int(lst.count())):
        s = lst.o(k)
        if s.is_subsidiary:
            continue
        secs.append(getattr(h, type_name(int(s.type)))[int(s.nameindex)])
        own_types.append(int(s.type))
        if types is not None:
            types.append(int(s.type))
    min_diam = float(spec.get("min_diam", 0))
    if min_diam > 0:
        for sec in secs:
            pts = [(sec.x3d(i), sec.y3d(i), sec.z3d(i), sec.diam3d(i)) for i in range(sec.n3d())]
            if len(pts) == 3 and all(p == pts[1] for p in pts) and pts[1][3] < min_diam:
                # Import3d's sphere (x - d/2, x, x + d/2) of a zero diameter: the same sphere of
                # min_diam, as HinesBatch reads it (NEURON's own gives NaN voltages)
                x, y, z, _ = pts[1]
                for i, dx in enumerate((-min_diam / 2, 0.0, min_diam / 2)):
                    h.pt3dchange(i, x + dx, y, z, min_diam, sec=sec)
            else:
                for i, p in enumerate(pts):
                    if p[3] < min_diam:
                        h.pt3dchange(i, min_diam, sec=sec)
    rule = spec["nseg_rule"]
    lists = spec.get("section_lists")
    for k, sec in enumerate(secs):  # before nseg: lambda_f reads each section's Ra and cm
        sec.Ra = by_region(spec["Ra"], own_types[k], k, lists, 35.4)
        sec.cm = by_region(spec["cm"], own_types[k], k, lists, 1.0)
    for sec in secs:
        if "max_segment_length_um" in rule:
            n = max(int(math.ceil(sec.L / float(rule["max_segment_length_um"]) - 1e-9)), 1)
            sec.nseg = n + 1 if n % 2 == 0 else n
        elif "d_lambda" in rule:
            if min(sec.diam3d(i) for i in range(sec.n3d())) == 0:
                sec.nseg = 1  # lambda_f refuses a zero 3-D diameter (v_e_purk2's soma)
                continue
            lf = h.lambda_f(100.0, sec=sec)
            sec.nseg = int((sec.L / (float(rule["d_lambda"]) * lf) + 0.9) / 2) * 2 + 1
        else:
            sec.nseg = int(rule["nseg"])
    return secs


def describe(h, secs):
    out = {"sections": [], "total_area": 0.0}
    for sec in secs:
        area = sum(seg.area() for seg in sec)
        out["sections"].append({"name": sec.name(), "L": sec.L, "nseg": sec.nseg, "area": area,
                                "area_mid": sec(0.5).area()})
        out["total_area"] += area
    return out


def run(h, spec, secs):
    h.celsius = float(spec.get("celsius", 6.3))
    h.secondorder = 0
    h.CVode().active(0)
    mech = spec["mechanism"]
    for sec in secs:
        sec.insert(mech)
        if mech == "pas":
            sec.g_pas = float(spec["pas"]["g"])
            sec.e_pas = float(spec["pas"]["e"])
    if mech == "hh":
        h.usetable_hh = 0
    ic = spec["iclamp"]
    stim = h.IClamp(secs[int(ic["section"])](float(ic["x"])))
    stim.delay, stim.dur, stim.amp = float(ic["del"]), float(ic["dur"]), float(ic["amp"])
    tv = h.Vector()
    tv.record(h._ref_t)
    recs, header = [], ["t"]
    for k, x in spec["record"]:
        v = h.Vector()
        v.record(secs[int(k)](float(x))._ref_v)
        recs.append(v)
        header.append("g0_s%d_x%s" % (int(k), "%g" % float(x)))
    det = spec.get("detector")
    spikes = h.Vector()
    nc = None
    if det:
        sec = secs[int(det["section"])]
        nc = h.NetCon(sec(float(det["x"]))._ref_v, None, sec=sec)
        nc.threshold = float(det["threshold"])
        nc.record(spikes)
    h.dt = float(spec["dt"])
    h.steps_per_ms = 1.0 / h.dt
    h.finitialize(float(spec.get("v_init", -65.0)))
    for _ in range(int(round(float(spec["tstop"]) / h.dt))):
        h.fadvance()
    with open(spec["traces"], "w") as f:
        f.write(",".join(header) + "\n")
        for i in range(len(tv)):
            f.write(",".join("%.9g" % c[i] for c in [tv] + recs) + "\n")
    with open(spec["spikes"], "w") as f:
        for t in spikes:
            f.write("0 %.6f\n" % t)
    del nc, stim


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[0]) as f:
        spec = json.load(f)
    h = load()
    secs = build(h, spec)
    if len(argv) == 3 and argv[1] == "--describe":
        with open(argv[2], "w") as f:
            json.dump(describe(h, secs), f)
        return 0
    run(h, spec, secs)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
