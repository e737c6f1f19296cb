#!/usr/bin/python3
"""map/map_device.json.xz of this folder, from which include/hinesbatch/solvers/impl's auto
tables were made: the Full-Interleaved tridiagonal points of this call (one H200, map.tar:
every schedule of the landed build, whose two-pass block spreads its systems over the
shared-memory banks, session 32's calls E-F); the Flat tridiagonal points as session 29's
call A combined them (its combine.py: Flat's kernels are unchanged); and the Hines points of
2026-12-03-session26/callA (one H200), with that call's map/map_trees.txt beside them:
    python3 combine.py
    scripts/solver_map.py docs/results/2026-12-04-session34/callA/map --figures /tmp/fig \\
        --tables docs/results/2026-12-04-session34/callA/tables.md \\
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables, and delete map/ again: map.tar holds this call's points).
An argument names another call folder of this session whose Full-Interleaved points to take
(its map.tar) and where to write map/ (callB/combine.py)."""
import json
import lzma
import os
import shutil
import sys

here = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else \
    os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "..", "..")


def from_tar(tar, member):
    import io
    import tarfile
    with tarfile.open(tar) as t:
        return json.load(lzma.open(io.BytesIO(t.extractfile(member).read()), "rt"))


# Flat: session 29's call A, as its combine.py joined it (session 31's combine.py did the same).
SMS = 132


def two_pass_warps(m, num_systems, sms):
    """thomas_batch_impl.hpp's two_pass_warps()."""
    warps = 1 if m < 768 else 2 if m < 2000 else 4 if m <= 16384 else 8 if m <= 32768 else 16
    lane_rows = (m + 7) // 8
    while warps < 16 and num_systems * warps < 4 * sms and (lane_rows + 31) // 32 >= 2 * warps:
        warps *= 2
    return warps


def forced_join(benchmarks, forced, layout, rule):
    import re
    out = []
    for b in benchmarks:
        m = re.match(rf"Thomas/Device/{layout}/TeamPerSystemTwoPass/m:(\d+)/total:(\d+)", b["name"])
        if m:
            rows, total = int(m.group(1)), int(m.group(2))
            w = rule(rows, max(1, (1 << total) // rows), SMS)
            key = f"Thomas/Device/{layout}/TeamPerSystemTwoPass@{w}/m:{rows}/total:{total}"
            if key in forced:
                f = dict(forced[key])
                f["name"], f["run_name"], f["label"] = b["name"], b["run_name"], b["label"]
                b = f
        out.append(b)
    return out


s29 = os.path.join(res, "2026-12-03-session29", "callA")
flat_all = from_tar(os.path.join(s29, "map.tar"), "map/map_device.json.xz")
flat_shapes = from_tar(os.path.join(s29, "map.tar"), "map/map_two_pass_shapes.json.xz")
flat_forced = {b["name"].split("/iterations")[0]: b for b in flat_shapes["benchmarks"]}
flat = [b for b in flat_all["benchmarks"] if b["name"].startswith("Thomas/Device/Flat/")]
flat = forced_join(flat, flat_forced, "Flat", two_pass_warps)
# Full-Interleaved: this call (the two-pass block with the systems the rule picks).
this = from_tar(os.path.join(here, "map.tar"), "map/map_device.json.xz")
fi = [b for b in this["benchmarks"]
      if b["name"].startswith("Thomas/Device/FullInterleaved/") and "@" not in b["name"]]
hines_call = os.path.join(res, "2026-12-03-session26", "callA")
hines = from_tar(os.path.join(hines_call, "map.tar"), "map/map_device_hines.json.xz")
doc = dict(this)
doc["benchmarks"] = flat + fi + [b for b in hines["benchmarks"] if b["name"].startswith("Hines/")]
os.makedirs(os.path.join(here, "map"), exist_ok=True)
with lzma.open(os.path.join(here, "map", "map_device.json.xz"), "wt", preset=9) as f:
    json.dump(doc, f)
shutil.copy(os.path.join(hines_call, "map", "map_trees.txt"), os.path.join(here, "map"))
