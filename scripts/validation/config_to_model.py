#!/usr/bin/env python3
"""Development helper: build a MODEL.json (hinesbatch-model-1) from a simulator case
config in Python, with swc_sections.py for the morphology.

  config_to_model.py CASE.json OUT_MODEL.json

This is NOT the reference for validation (hinesbatch-sim --export-model is what gets
validated); it exists so that NEURON can be run on the cases without our simulator
(validate_neuron.py --neuron-only), e.g. to choose stimulus amplitudes.  Differences:
ring delays are drawn with Python's random.Random(seed), not with our C++ generator, so
ring spike times differ from hinesbatch-sim's unless all delays are equal.
"""

import json
import os
import random
import re
import sys
sys.dont_write_bytecode = True  # keep the source tree clean

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import swc_sections  # noqa: E402

HH_DEFAULTS = {"gnabar": 0.12, "gkbar": 0.036, "gl": 0.0003, "el": -54.3}
PAS_DEFAULTS = {"g": 0.001, "e": -70.0}


def expand(s):
    def rep(m):
        name = m.group(1)
        if name not in os.environ:
            raise KeyError("environment variable %s is not set" % name)
        return os.environ[name]
    return re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}", rep, s)


def morphology_path(config_path, cfg):
    p = expand(cfg["cell"]["morphology"])
    if not os.path.isabs(p):
        p = os.path.join(os.path.dirname(os.path.abspath(config_path)), p)
    return os.path.abspath(p)


def region_sections(sections, region):
    if region == "all":
        return [s["id"] for s in sections]
    if region == "soma":
        return [s["id"] for s in sections if s["swc_type"] == 1]
    if region == "axon":
        return [s["id"] for s in sections if s["swc_type"] == 2]
    if region == "dend":
        return [s["id"] for s in sections if s["swc_type"] not in (1, 2)]
    raise ValueError("unknown region %r" % region)


def build_model(config_path):
    with open(config_path) as f:
        cfg = json.load(f)
    cell = cfg["cell"]
    swc = morphology_path(config_path, cfg)
    secs = swc_sections.build_sections(swc, cell.get("nseg"), cell.get("max_segment_length_um"))
    density = []
    for m in cell.get("mechanisms", []):
        name = m["name"]
        ids = region_sections(secs, m.get("region", "all"))
        if not ids:
            continue
        d = {"mechanism": name, "sections": ids}
        defaults = HH_DEFAULTS if name == "hh" else PAS_DEFAULTS if name == "pas" else {}
        for k, v in defaults.items():
            d[k] = float(m.get(k, v))
        density.append(d)

    def loc(l):
        return int(l["section"]), float(l["x"])

    iclamps = []
    for ic in cell.get("iclamp", []):
        s, x = loc(ic["location"])
        iclamps.append({"section": s, "x": x, "del": float(ic["del"]), "dur": float(ic["dur"]),
                        "amp": float(ic["amp"])})
    det = None
    if cell.get("detector"):
        s, x = loc(cell["detector"]["location"])
        det = {"section": s, "x": x, "threshold": float(cell["detector"]["threshold"])}

    net = cfg.get("network", {"type": "single"})
    ncells = 1
    synapses = []
    connections, events = [], []
    if net["type"] == "ring":
        ncells = int(net["cells"])
        R = int(net.get("ring_size", ncells))
        s, x = loc(net.get("synapse_location", {"section": 0, "x": 0.5}))
        for _ in range(1 + int(net.get("extra_synapses", 0))):
            synapses.append({"section": s, "x": x, "tau": float(net.get("tau", 2.0)),
                             "e": float(net.get("e", 0.0))})
        d = net.get("delay", 1.0)
        d0, d1 = (float(d[0]), float(d[1])) if isinstance(d, list) else (float(d), float(d))
        rng = random.Random(net.get("seed", 1))
        for g in range(ncells):
            r, i = divmod(g, R)
            size = min(R, ncells - r * R)
            src = r * R + (i - 1) % size
            connections.append({"src": src, "dst": g, "syn": 0, "weight": float(net["weight"]),
                                "delay": d0 + (d1 - d0) * rng.random()})
            if i == 0 and "kick" in net:
                events.append({"dst": g, "syn": 0, "time": float(net["kick"]["time"]),
                               "weight": float(net["kick"]["weight"])})
    elif net["type"] != "single":
        raise ValueError("unknown network type %r" % net["type"])

    cells = [{"gid": g, "morphology": 0, "density": density, "iclamps": iclamps,
              "synapses": synapses, "detector": det} for g in range(ncells)]
    record = [{"gid": int(r["gid"]), "section": loc(r["location"])[0], "x": loc(r["location"])[1]}
              for r in cfg.get("record", [])]
    return {"format": "hinesbatch-model-1", "dt": float(cfg.get("dt", 0.025)),
            "tstop": float(cfg["tstop"]), "v_init": float(cfg.get("v_init", -65.0)),
            "celsius": float(cfg.get("celsius", 6.3)), "ena": 50.0, "ek": -77.0,
            "Ra": float(cell.get("Ra", 35.4)), "cm": float(cell.get("cm", 1.0)),
            "morphologies": [{"source": swc, "sections": [
                {k: s[k] for k in ("id", "parent", "parent_x", "swc_type", "nseg", "pt3d")} for s in secs]}],
            "cells": cells, "connections": connections, "events": events, "record": record}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    model = build_model(argv[0])
    with open(argv[1], "w") as f:
        json.dump(model, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
