#!/usr/bin/python3
"""Call B: Auto from the remade Full-Interleaved ThomasVBatch ncp table (binS47b), m_max 4-129,
both spreads, 2^20-2^28, two runs (map.tar beside this file); against call A's fastest
schedule of the same build's code (the in-step runs, callA/map.tar), against Auto before
(call A's before runs: main's table and sweep), and against computing the padding (cp, Auto,
the same runs). Best of each pair of runs.

    docs/results/2026-12-06-session47/callB/auto.py
"""
import json, lzma, math, os, re, statistics, tarfile

here = os.path.dirname(os.path.abspath(__file__))
def load(tar, names):
    out = {}
    with tarfile.open(tar) as t:
        for n in names:
            for b in json.load(lzma.open(t.extractfile(n), "rt"))["benchmarks"]:
                m = re.match(r"ThomasV/Device/FullInterleaved/([^/]+)/(cp|ncp)-(\w+)/m:(\d+)/total:(\d+)/", b["name"])
                if m and not b.get("error_occurred"):
                    k = (m[1], m[2], int(m[4]), m[3], int(m[5]))
                    out[k] = max(out.get(k, 0), b["nodes_per_s"] / 1e9)
    return out
b = load(os.path.join(here, "map.tar"), ["map/auto_a.json.xz", "map/auto_b.json.xz"])
a_after = load(os.path.join(here, "../callA/map.tar"), ["map/map_after_a.json.xz", "map/map_after_b.json.xz"])
a_before = load(os.path.join(here, "../callA/map.tar"), ["map/map_before_a.json.xz", "map/map_before_b.json.xz"])
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
pts = sorted({k[2:] for k in b if k[1] == "ncp"})
vs_best, vs_before, ncp_cp, behind = [], [], [], []
print("m_max spread 2^t | Auto ncp now (G real rows/s) | fastest schedule (call A) | Auto before | Auto cp now | now/fastest now/before ncp/cp")
for p in pts:
    now = b[("Auto", "ncp") + p]
    sched = {s: a_after[(s, "ncp") + p] for s in ("PerSystem", "PerSystemOnChip", "WarpPerSystem") if (s, "ncp") + p in a_after}
    fastest = max(sched.values())
    before = a_before[("Auto", "ncp") + p]
    cp = b[("Auto", "cp") + p]
    vs_best.append(now / fastest); vs_before.append(now / before); ncp_cp.append(now / cp)
    if now / fastest < 0.9:
        behind.append(p)
    print(f"{p[0]} {p[1]} {p[2]} | {now:.1f} | {fastest:.1f} {max(sched, key=sched.get)} | {before:.1f} | {cp:.1f} | {now/fastest:.2f} {now/before:.2f} {now/cp:.2f}")
print(f"\n{len(pts)} points. Auto now / call A's fastest schedule: median {statistics.median(vs_best):.3f}, min {min(vs_best):.2f}; "
      f"{len(behind)} more than 10% behind: {behind}")
print(f"Auto now / Auto before: geometric mean {g(vs_before):.2f}, range {min(vs_before):.2f}-{max(vs_before):.2f}")
for lo, hi in ((4, 4), (16, 64), (100, 129)):
    sel = [i for i, p in enumerate(pts) if lo <= p[0] <= hi]
    big = [i for i in sel if pts[i][2] >= 26]
    print(f"  m_max {lo}-{hi}: now/before {g([vs_before[i] for i in sel]):.2f} ({min(vs_before[i] for i in sel):.2f}-{max(vs_before[i] for i in sel):.2f}); "
          f"ncp/cp {g([ncp_cp[i] for i in sel]):.2f} ({min(ncp_cp[i] for i in sel):.2f}-{max(ncp_cp[i] for i in sel):.2f}), at 2^26-2^28 "
          f"{g([ncp_cp[i] for i in big]):.2f} ({min(ncp_cp[i] for i in big):.2f}-{max(ncp_cp[i] for i in big):.2f})")
print(f"ncp / cp (Auto both): geometric mean {g(ncp_cp):.2f}, range {min(ncp_cp):.2f}-{max(ncp_cp):.2f}, ncp ahead at {sum(r > 1 for r in ncp_cp)}")
