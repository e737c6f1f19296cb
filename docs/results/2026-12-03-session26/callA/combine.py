#!/usr/bin/python3
"""map/map_device.json.xz of this folder, from which include/hinesbatch/solvers/impl's auto
tables were made: the tridiagonal points of 2026-12-02-session20/callC (one H200) and the
Hines points of this call (one H200, map.tar: every schedule, and the staged schedule's
shapes @32, @16p, @16a, @32a beside them), with map/map_trees.txt (the trees' heights,
from `hinesbatch_solver_map --map-trees=all --map-export=FILE`) beside it:
    python3 combine.py
    scripts/solver_map.py docs/results/2026-12-03-session26/callA/map --figures /tmp/fig \\
        --tables docs/results/2026-12-03-session26/callA/map/tables.md \\
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables)."""
import io
import json
import lzma
import os
import tarfile

here = os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "..", "..")
thomas = json.load(lzma.open(os.path.join(
    res, "2026-12-02-session20/callC/map/map_thomas_device.json.xz"), "rt"))
with tarfile.open(os.path.join(here, "map.tar")) as t:
    raw = t.extractfile("map/map_device_hines.json.xz").read()
hines = json.load(lzma.open(io.BytesIO(raw), "rt"))
doc = dict(thomas)
doc["benchmarks"] = ([b for b in thomas["benchmarks"] if b["name"].startswith("Thomas/")] +
                     [b for b in hines["benchmarks"] if b["name"].startswith("Hines/")])
os.makedirs(os.path.join(here, "map"), exist_ok=True)
with lzma.open(os.path.join(here, "map", "map_device.json.xz"), "wt", preset=9) as f:
    json.dump(doc, f)
