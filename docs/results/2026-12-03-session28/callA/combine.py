#!/usr/bin/python3
"""map/map_device.json.xz of this folder, from which include/hinesbatch/solvers/impl's auto
tables were made: the tridiagonal points of this call (one H200, map.tar: every schedule, the
two-pass block among them) and the Hines points of 2026-12-03-session26/callA (one H200),
with that call's map/map_trees.txt (the trees' heights) beside them:
    python3 combine.py
    scripts/solver_map.py docs/results/2026-12-03-session28/callA/map --figures /tmp/fig \\
        --tables docs/results/2026-12-03-session28/callA/tables.md \\
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables, and delete map/ again: map.tar holds this call's points)."""
import io
import json
import lzma
import os
import shutil
import tarfile

here = os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "..", "..")
with tarfile.open(os.path.join(here, "map.tar")) as t:
    thomas = json.load(lzma.open(io.BytesIO(t.extractfile("map/map_device.json.xz").read()), "rt"))
hines_call = os.path.join(res, "2026-12-03-session26", "callA")
with tarfile.open(os.path.join(hines_call, "map.tar")) as t:
    hines = json.load(lzma.open(io.BytesIO(t.extractfile("map/map_device_hines.json.xz").read()),
                                "rt"))
doc = dict(thomas)
doc["benchmarks"] = ([b for b in thomas["benchmarks"] if b["name"].startswith("Thomas/")] +
                     [b for b in hines["benchmarks"] if b["name"].startswith("Hines/")])
os.makedirs(os.path.join(here, "map"), exist_ok=True)
with lzma.open(os.path.join(here, "map", "map_device.json.xz"), "wt", preset=9) as f:
    json.dump(doc, f)
shutil.copy(os.path.join(hines_call, "map", "map_trees.txt"), os.path.join(here, "map"))
