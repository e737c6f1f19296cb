#!/usr/bin/python3
"""Held-out trees (every shared cell in segments of at most 20 um, map/map_device_hines_seg20.json
of map.tar): at each point, the rate of Auto's choice under this build's table (size, height and
batch) and under the table before it (size and batch, commit bc1b4ab's auto_hines_table.hpp, its
choice looked up among the schedules measured at the same point), each against the best schedule
there (every schedule and the 32-row async shape). Auto's own timing is a separate measurement
of the same kernel; the choices are compared by the rates of the schedules they name, measured
in the same way (Auto's label), and Auto's own rate is shown beside.
    python3 heldout.py [map.tar] [old auto_hines_table.hpp]"""
import io
import json
import lzma
import math
import re
import subprocess
import sys
import tarfile
import os

here = os.path.dirname(os.path.abspath(__file__))
tar = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "map.tar")
with tarfile.open(tar) as t:
    doc = json.load(lzma.open(io.BytesIO(t.extractfile("map/map_device_hines_seg20.json.xz").read()), "rt"))
if len(sys.argv) > 2:
    old = open(sys.argv[2]).read()
else:
    old = subprocess.run(["git", "show", "bc1b4ab:include/hinesbatch/solvers/impl/auto_hines_table.hpp"],
                         capture_output=True, text=True, check=True).stdout
tables = {}
for lay, body in re.findall(r"kHinesAuto(\w+)\[\] = \{(.*?)\n\};", old, re.S):
    tables[lay] = [(int(a), int(b), s + ("@32a" if r == "32" else ""))
                   for a, b, s, r in re.findall(r"\{(\d+), (\d+), HinesSchedule::(\w+)(?:, \{(\d+), \w+\})?\}", body)]
R, auto, height = {}, {}, {}
for b in doc["benchmarks"]:
    m = re.match(r"Hines/Device/(\w+)/([\w@]+)/([^/]+)/n:(\d+)/total:(\d+)", b["name"])
    if not m or b.get("error_occurred"):
        continue
    lay, s, tree, n, tot = m.groups()
    key = (lay, tree, int(n), int(tot))
    R.setdefault(key, {})[s] = b["nodes_per_s"]
    height[tree] = int(b.get("height", 0))
    if s == "Auto":
        auto[key] = b.get("label", "")


def nearest_old(lay, n, tot):
    return min(tables[lay], key=lambda p: math.log2(n / p[0]) ** 2 + ((tot - p[1]) / 2) ** 2)[2]


def geo(x):
    return math.exp(sum(map(math.log, x)) / len(x))


for lay in ("Flat", "FullInterleaved"):
    new, prev, own, rows = [], [], [], []
    for key in sorted(k for k in R if k[0] == lay):
        v = R[key]
        best = max(r for s, r in v.items() if s != "Auto")
        o = nearest_old(lay, key[2], key[3])
        new.append(v[auto[key]] / best if auto[key] in v else float("nan"))
        own.append(v["Auto"] / best)
        prev.append(v[o] / best if o in v else float("nan"))
        rows.append((key[1], key[2], height[key[1]], key[3], auto[key], new[-1], o, prev[-1],
                     max((s for s in v if s != "Auto"), key=v.get), best / 1e9))
    print(f"{lay}: {len(new)} points; Auto's own timing / best geo {geo(own):.3f}; "
          f"Auto's choice (size+height) / best geo {geo(new):.3f} min {min(new):.2f}, "
          f"{sum(x < 0.9 for x in new)} below 0.9; size-only table's choice / best geo {geo(prev):.3f} "
          f"min {min(prev):.2f}, {sum(x < 0.9 for x in prev)} below 0.9")
    for r in rows:
        print("  %-28s n=%5d h=%4d 2^%d  Auto %-22s %.2f | old %-22s %.2f | best %-22s %.1f G/s" % r)
