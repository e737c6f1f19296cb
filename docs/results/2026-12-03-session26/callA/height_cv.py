#!/usr/bin/python3
"""How well Auto's Hines table chooses for a tree it was not made from: each tree of call A's
map left out in turn, the table made from the other trees (at each point the schedule with
the best geometric mean over the trees there, from the schedules and shapes the table may
name), the left-out tree's points resolved by the nearest remaining point, and the rate
of that choice taken against the best the tree had there. Keyed by size and batch alone,
and by height as well at several weights (height's weight w: the squared log2 distance in
height, times w, added to the size's and a quarter of the batch's).
    python3 height_cv.py        (reads map.tar and map/map_trees.txt beside it)"""
import collections
import io
import json
import lzma
import math
import os
import re
import tarfile

here = os.path.dirname(os.path.abspath(__file__))
with tarfile.open(os.path.join(here, "map.tar")) as t:
    doc = json.load(lzma.open(io.BytesIO(t.extractfile("map/map_device_hines.json.xz").read()), "rt"))
height = {}
for line in open(os.path.join(here, "map", "map_trees.txt")):
    k, name, n, h = line.split()
    height[(name, int(n))] = int(h)
R = collections.defaultdict(dict)
for b in doc["benchmarks"]:
    m = re.match(r"Hines/Device/(\w+)/([\w@]+)/([^/]+)/n:(\d+)/total:(\d+)", b["name"])
    if m and not b.get("error_occurred"):
        lay, s, tree, n, tot = m.groups()
        R[(lay, tree, int(n), int(tot))][s] = b["nodes_per_s"]
C = ["PerSystem", "PerSystemOnChip", "TeamPerSystem", "WarpPerSystem", "BlockPerSystem",
     "PerSystemStaged", "PerSystemStaged@32a"]


def geo(x):
    return math.exp(sum(map(math.log, x)) / len(x))


def table(lay, leave_out, keyed_by_height):
    cells = collections.defaultdict(list)
    for (l, tree, n, tot), v in R.items():
        if l == lay and (tree, n) != leave_out:
            cells[(n, height[(tree, n)] if keyed_by_height else 0, tot)].append(v)
    return [(key, max(C, key=lambda s: sum(math.log(v[s] / max(v[x] for x in C)) for v in vs)))
            for key, vs in sorted(cells.items())]


def nearest(tab, n, h, tot, w):
    def d(entry):
        (sn, sh, st), _ = entry
        x = math.log2(n / sn) ** 2 + ((tot - st) / 2) ** 2
        return x + (w * math.log2(h / sh) ** 2 if sh else 0)
    return min(tab, key=d)[1]


trees = sorted({(k[1], k[2]) for k in R})
for lay in ("Flat", "FullInterleaved"):
    for keyed, w in ((False, 0), (True, 0.05), (True, 0.1), (True, 0.25), (True, 0.5), (True, 1)):
        r = []
        for tree in trees:
            tab = table(lay, tree, keyed)
            for tot in (20, 22, 24, 26, 28):
                v = R[(lay, tree[0], tree[1], tot)]
                r.append(v[nearest(tab, tree[1], height[tree], tot, w)] / max(v[c] for c in C))
        print(f"{lay:16s} {'size+height w=' + str(w) if keyed else 'size only':20s} "
              f"left-out trees' rate / their best: geo {geo(r):.3f}, min {min(r):.2f}, "
              f"{sum(x < 0.9 for x in r)} of {len(r)} points below 0.9")
