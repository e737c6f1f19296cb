#!/usr/bin/python3
"""Call C: the device maps of the code as merged (map.tar beside this file), by the regions of
docs/SOLVER_MAP.md's table of misses: Auto's fraction of the copy floor at 2^26-2^28 (Hines:
2^26), the points of >= 2^25 under 0.6, and Auto against the fastest schedule of the library
at each point (points more than 10% behind, and how many of those ran that same schedule).
Also writes tables.md's summary with scripts/solver_map.py (run from the repository root).

    docs/results/2026-12-06-session47/callC/regions.py
"""
import collections, importlib.util, json, lzma, os, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
spec = importlib.util.spec_from_file_location("solver_map", os.path.join(root, "scripts/solver_map.py"))
sm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(sm)
work = tempfile.mkdtemp()
points = []
with tarfile.open(os.path.join(here, "map.tar")) as t:
    for n in ("thomas", "hines"):
        p = os.path.join(work, f"map_{n}.json")
        json.dump(json.load(lzma.open(t.extractfile(f"map/map_{n}.json.xz"), "rt")), open(p, "w"))
        points += sm.load_map(p)[1]
REGIONS = {("Thomas", "Flat"): [(2, 31), (32, 256), (257, 8192), (8193, 10**6)],
           ("Thomas", "FullInterleaved"): [(2, 80), (81, 8192), (8193, 10**6)],
           ("Hines", "Flat"): [(1, 128), (129, 695), (696, 5000), (5001, 10**6)],
           ("Hines", "FullInterleaved"): [(1, 80), (81, 695), (696, 5000), (5001, 10**6)]}
cells = collections.defaultdict(dict)
for p in points:
    if p.backend == "Device" and not p.error and p.rate > 0:
        cells[(p.family, p.layout, p.size, p.tree, p.total)][p.schedule] = p
print("family layout, sizes | points | Auto / floor at the largest totals (min-max, median) | points >= 2^25 under 0.6 | > 10% behind the fastest (same schedule as Auto)")
for (fam, lay), ranges in REGIONS.items():
    for lo, hi in ranges:
        sel = {k: v for k, v in cells.items() if k[0] == fam and k[1] == lay and lo <= k[2] <= hi and "Auto" in v}
        if not sel:
            continue
        big = [v["Auto"].frac for k, v in sel.items() if k[4] >= 26]
        under = sum(v["Auto"].frac < 0.6 for k, v in sel.items() if k[4] >= 25)
        behind = same = 0
        for k, v in sel.items():
            best = max((s for s in v if s != "Auto"), key=lambda s: v[s].rate)
            if v["Auto"].rate < 0.9 * v[best].rate:
                behind += 1
                same += v["Auto"].resolved.split("@")[0] == best
        big.sort()
        print(f"{fam} {lay}, {lo}-{hi if hi < 10**6 else 'up'} | {len(sel)} | {big[0]:.2f}-{big[-1]:.2f}, {big[len(big)//2]:.2f} | "
              f"{under} of {sum(k[4] >= 25 for k in sel)} | {behind} ({same})")
