#!/usr/bin/python3
"""map/map_device.json.xz of this folder, from which include/hinesbatch/solvers/impl's auto
tables were made: the tridiagonal points of this call (one H200, map.tar: every schedule),
where each Flat point of the two-pass block (TeamPerSystemTwoPass) is replaced by the forced
shape that two_pass_warps() (thomas_batch_impl.hpp) picks there, measured in the same run
(map_two_pass_shapes: the same kernel with that many warps a block); and the Hines points of
2026-12-03-session26/callA (one H200), with that call's map/map_trees.txt beside them:
    python3 combine.py
    scripts/solver_map.py docs/results/2026-12-03-session29/callA/map --figures /tmp/fig \\
        --tables docs/results/2026-12-03-session29/callA/tables.md \\
        --emit-auto-tables include/hinesbatch/solvers/impl
(then clang-format -i the tables, and delete map/ again: map.tar holds this call's points).
The H200 has 132 SMs."""
import io
import json
import lzma
import os
import re
import shutil
import tarfile

SMS = 132


def two_pass_warps(m, num_systems, sms):
    """thomas_batch_impl.hpp's two_pass_warps()."""
    warps = 1 if m < 768 else 2 if m < 2000 else 4 if m <= 16384 else 8 if m <= 32768 else 16
    lane_rows = (m + 7) // 8
    while warps < 16 and num_systems * warps < 4 * sms and (lane_rows + 31) // 32 >= 2 * warps:
        warps *= 2
    return warps


here = os.path.dirname(os.path.abspath(__file__))
res = os.path.join(here, "..", "..")


def from_tar(tar, member):
    with tarfile.open(tar) as t:
        return json.load(lzma.open(io.BytesIO(t.extractfile(member).read()), "rt"))


thomas = from_tar(os.path.join(here, "map.tar"), "map/map_device.json.xz")
shapes = from_tar(os.path.join(here, "map.tar"), "map/map_two_pass_shapes.json.xz")
forced = {b["name"].split("/iterations")[0]: b for b in shapes["benchmarks"]}
points = []
for b in thomas["benchmarks"]:
    m = re.match(r"Thomas/Device/Flat/TeamPerSystemTwoPass/m:(\d+)/total:(\d+)", b["name"])
    if m:
        rows, total = int(m.group(1)), int(m.group(2))
        w = two_pass_warps(rows, max(1, (1 << total) // rows), SMS)
        f = dict(forced[f"Thomas/Device/Flat/TeamPerSystemTwoPass@{w}/m:{rows}/total:{total}"])
        f["name"], f["run_name"], f["label"] = b["name"], b["run_name"], b["label"]
        b = f
    if b["name"].startswith("Thomas/"):
        points.append(b)
hines_call = os.path.join(res, "2026-12-03-session26", "callA")
hines = from_tar(os.path.join(hines_call, "map.tar"), "map/map_device_hines.json.xz")
doc = dict(thomas)
doc["benchmarks"] = points + [b for b in hines["benchmarks"] if b["name"].startswith("Hines/")]
os.makedirs(os.path.join(here, "map"), exist_ok=True)
with lzma.open(os.path.join(here, "map", "map_device.json.xz"), "wt", preset=9) as f:
    json.dump(doc, f)
shutil.copy(os.path.join(hines_call, "map", "map_trees.txt"), os.path.join(here, "map"))
