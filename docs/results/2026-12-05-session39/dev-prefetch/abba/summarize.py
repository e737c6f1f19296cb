#!/usr/bin/env python3
"""run.sh's A-B-B-A points: solve rate (nodes or rows per s) without prefetch (f0) and with
4 rows ahead (f4), each the best of two, their ratio, and both runs' floor fractions."""
import glob, json, math, re
from collections import defaultdict
rate, frac = defaultdict(list), defaultdict(list)
for f in sorted(glob.glob("*_f[04]_*.json")):
    v = re.search(r"_(f[04])_\d\.json$", f).group(1)
    for b in json.load(open(f))["benchmarks"]:
        if "nodes_per_s" in b:
            k = b["name"].split("/iterations")[0]
            rate[(k, v)].append(b["nodes_per_s"])
            frac[(k, v)].append(b["floor_frac"])
names = sorted({k for k, _ in rate}, key=lambda k: (k.split("/")[0], k.split("/")[2], int(re.search(r"[nm]:(\d+)", k).group(1)), k))
print("| point | G/s, no prefetch | 4 rows ahead | ratio (best of two each) | floor fractions, no prefetch | 4 ahead |")
print("|---|---|---|---|---|---|")
for k in names:
    a, b = rate[(k, "f0")], rate[(k, "f4")]
    if not a or not b: continue
    print(f"| {k.replace('/Device', '').replace('/Auto', '')} | {' '.join('%.2f' % (x * 1e-9) for x in a)} | "
          f"{' '.join('%.2f' % (x * 1e-9) for x in b)} | **{max(b) / max(a):.2f}** | "
          f"{' '.join('%.2f' % x for x in frac[(k, 'f0')])} | {' '.join('%.2f' % x for x in frac[(k, 'f4')])} |")
