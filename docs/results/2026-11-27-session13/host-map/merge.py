#!/usr/bin/python3
"""map_host.json for scripts/solver_map.py: the default-build (generic x86-64) host runs of
session 13, Full-Interleaved from callA, Flat from callC (each unpacked into ../callX/map/)."""
import json, lzma, os, re, sys
here = os.path.dirname(os.path.abspath(__file__))
parts = [("callA", "thomas_fi_default.json", "FullInterleaved"),
         ("callA", "hines_fi_default.json", "FullInterleaved"),
         ("callC", "thomas_flat_default.json", "Flat"),
         ("callC", "hines_flat_default.json", "Flat")]
out = None
for call, name, layout in parts:
    doc = json.load(open(os.path.join(here, "..", call, "map", name)))
    keep = [b for b in doc["benchmarks"] if f"/{layout}/" in b["name"]]
    if out is None:
        out = {"context": doc["context"], "benchmarks": []}
    out["benchmarks"] += keep
with lzma.open(os.path.join(here, "map_host.json.xz"), "wt") as f:
    json.dump(out, f)
print(len(out["benchmarks"]), "points")
