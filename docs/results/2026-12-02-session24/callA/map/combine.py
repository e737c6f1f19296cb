#!/usr/bin/python3
"""map_device.json of this folder: the tridiagonal points of 2026-12-02-session20/callC (one
H200) and the Hines points of this call (one H200, with PerSystemStaged), from which
include/hinesbatch/solvers/impl's auto tables were made:
    python3 combine.py && xz -9 map_device.json
    scripts/solver_map.py docs/results/2026-12-02-session24/callA/map --figures DIR \\
        --tables docs/results/2026-12-02-session24/callA/map/tables.md \\
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables)."""
import json
import lzma
import os

here = os.path.dirname(os.path.abspath(__file__))
thomas = json.load(lzma.open(os.path.join(
    here, "../../../2026-12-02-session20/callC/map/map_thomas_device.json.xz"), "rt"))
hines = json.load(lzma.open(os.path.join(here, "map_device_hines.json.xz"), "rt"))
doc = dict(thomas)
doc["benchmarks"] = ([b for b in thomas["benchmarks"] if b["name"].startswith("Thomas/")] +
                     [b for b in hines["benchmarks"] if b["name"].startswith("Hines/")])
json.dump(doc, open(os.path.join(here, "map_device.json"), "w"))
