#!/usr/bin/python3
"""map_device.json of this folder: the tridiagonal points of call C (one H200, the warp
schedule with groups of 2 and 4 lanes and 10 and 12 rows per lane) and the Hines points of
2026-11-26-block-schedule/callB (one H100), from which include/hinesbatch/solvers/impl's
auto tables were made:
    python3 combine.py && xz -9 map_device.json
    scripts/solver_map.py docs/results/2026-12-02-session20/callC/map --figures docs/figures \\
        --tables docs/results/2026-12-02-session20/callC/map/tables.md \\
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables; auto_hines_table.hpp comes out with the same points)."""
import json
import lzma
import os

here = os.path.dirname(os.path.abspath(__file__))
thomas = json.load(lzma.open(os.path.join(here, "map_thomas_device.json.xz"), "rt"))
hines = json.load(lzma.open(os.path.join(
    here, "../../../2026-11-26-block-schedule/callB/map/map_device_hines.json.xz"), "rt"))
doc = dict(thomas)
doc["benchmarks"] = ([b for b in thomas["benchmarks"] if b["name"].startswith("Thomas/")] +
                     [b for b in hines["benchmarks"] if b["name"].startswith("Hines/")])
json.dump(doc, open(os.path.join(here, "map_device.json"), "w"))
