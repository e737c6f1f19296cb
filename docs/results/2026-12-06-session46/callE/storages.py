#!/usr/bin/python3
"""Call E: Full-Interleaved ThomasVBatch, Auto computing the padding (cp) against not (ncp), the
same run, at each m_max, spread and size (G real rows/s; the fraction of the copy floor).

    docs/results/2026-12-06-session46/callE/storages.py   (from this folder)
"""
import json, lzma, math, os, re, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
work = tempfile.mkdtemp()
with tarfile.open(os.path.join(here, "map.tar")) as t:
    t.extractall(work)
doc = json.load(lzma.open(os.path.join(work, "map", "map_fi_auto.json.xz"), "rt"))
pts = {}
for b in doc["benchmarks"]:
    m = re.match(r"ThomasV/Device/FullInterleaved/Auto/(cp|ncp)-(\w+)/m:(\d+)/total:(\d+)/", b["name"])
    if m and not b.get("error_occurred"):
        st, sp, mm, t = m.groups()
        pts[(st, int(mm), sp, int(t))] = (b["nodes_per_s"] / 1e9, b.get("floor_frac", 0), b.get("label", ""))
keys = sorted({k[1:] for k in pts})
ratios, big = [], []
print("m_max spread 2^t | cp G rows/s (floor) | ncp G rows/s (floor) | ncp / cp")
for k in keys:
    cp, ncp = pts[("cp",) + k], pts[("ncp",) + k]
    r = ncp[0] / cp[0]
    ratios.append(r)
    if k[2] >= 26:
        big.append(r)
    print(f"{k[0]} {k[1]} {k[2]} | {cp[0]:.1f} ({cp[1]:.2f}) | {ncp[0]:.1f} ({ncp[1]:.2f}) | {r:.2f}")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"\n{len(keys)} points: ncp / cp geometric mean {g(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f}); "
      f"ncp ahead at {sum(r > 1 for r in ratios)}; at 2^26-2^28 {g(big):.2f} ({min(big):.2f}-{max(big):.2f})")
