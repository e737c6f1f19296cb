#!/usr/bin/env python3
"""Summarises run.sh's maps: Auto's fraction of the copy floor (best of the two runs) without
and with rows prefetched, and their ratio, per region and batch total; then every point."""
import glob, json, math, re, sys
from collections import defaultdict

def load(pattern):
    out = defaultdict(list)
    for f in sorted(glob.glob(pattern)):
        for b in json.load(open(f))["benchmarks"]:
            if "floor_frac" in b:
                out[b["name"].split("/iterations")[0]].append(b["floor_frac"])
    return out

def region(name):
    m = re.search(r"/m:(\d+)/", name)
    if m:
        r = int(m.group(1))
        return "tridiagonal, m = 2-257" if r <= 257 else "tridiagonal, m = 300-100,000"
    n = int(re.search(r"/n:(\d+)/", name).group(1))
    if n <= 200: return "Hines, trees of 16-200 nodes"
    if n < 1000: return "Hines, 305-998 nodes"
    return "Hines, 1,000-30,000 nodes"

for layout in ("fi", "flat"):
    a, b = load(f"{layout}_f0_r*.json"), load(f"{layout}_f4_r*.json")
    if not a: continue
    groups = defaultdict(list)
    for k in a:
        if k not in b: continue
        total = re.search(r"total:(\d+)", k).group(1)
        groups[(region(k), total)].append((max(a[k]), max(b[k]), k))
    print(f"## {layout}: Auto / floor (best of two runs), no prefetch -> 4 rows ahead; ratio range (geomean)")
    for (reg, total), pts in sorted(groups.items()):
        r = [y / x for x, y, _ in pts]
        g = math.exp(sum(map(math.log, r)) / len(r))
        print(f"| {reg} | 2^{total} | {min(p[0] for p in pts):.2f}-{max(p[0] for p in pts):.2f} | "
              f"{min(p[1] for p in pts):.2f}-{max(p[1] for p in pts):.2f} | {min(r):.2f}-{max(r):.2f} ({g:.2f}) | {len(pts)} |")
    if "--points" in sys.argv:
        for (reg, total), pts in sorted(groups.items()):
            for x, y, k in pts:
                print(f"{k:80s} {x:.3f} {y:.3f} {y / x:.2f}")
