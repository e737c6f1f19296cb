#!/usr/bin/python3
"""map_device.json of this folder: the tridiagonal points of the first solver map
(2026-11-26-solver-map/callA) and the Hines points of call B here, from which
include/hinesbatch/solvers/impl/auto_hines_table.hpp was made:
    python3 combine.py && xz -9 map_device.json
    scripts/solver_map.py docs/results/2026-11-26-block-schedule/map --figures docs/figures \
        --tables docs/results/2026-11-26-block-schedule/map/tables.md \
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables and keep auto_thomas_table.hpp as it was: same points)."""
import json
import lzma
import os

here = os.path.dirname(os.path.abspath(__file__))
old = json.load(lzma.open(os.path.join(here, "../../2026-11-26-solver-map/callA/map/map_device.json.xz"), "rt"))
new = json.load(lzma.open(os.path.join(here, "../callB/map/map_device_hines.json.xz"), "rt"))
doc = dict(new)
doc["benchmarks"] = ([b for b in old["benchmarks"] if b["name"].startswith("Thomas/")] +
                     [b for b in new["benchmarks"] if b["name"].startswith("Hines/")])
json.dump(doc, open(os.path.join(here, "map_device.json"), "w"))
