#!/usr/bin/python3
"""Call C: the one-thread-per-system solve before (binS45map) and after (binS48) the in-step
change, and Auto from the remade table, against call B's fastest schedule of each point
(Full-Interleaved ThomasVBatch not computing the padding; best of each A-B-B-A pair).

    docs/results/2026-12-06-session46/callC/compare.py   (from this folder, map.tar unpacked)
"""
import collections, json, lzma, math, re, statistics, tarfile, os

def load(path):
    out = {}
    for b in json.load(lzma.open(path, "rt"))["benchmarks"]:
        m = re.match(r"ThomasV/Device/FullInterleaved/([^/]+)/ncp-(\w+)/m:(\d+)/total:(\d+)/", b["name"])
        if m and not b.get("error_occurred"):
            s, sp, mm, t = m.groups()
            out[(s, int(mm), sp, int(t))] = (b["nodes_per_s"] / 1e9, b.get("floor_frac", 0))
    return out

here = os.path.dirname(os.path.abspath(__file__))
runs = {r: load(os.path.join(here, "map", f"map_{r}.json.xz")) for r in ("old_a", "old_b", "new_a", "new_b")}
with tarfile.open(os.path.join(here, "../callB/map.tar")) as t:
    t.extract("map/map_device_fi_ncp.json.xz", "/tmp/s46callB")
b = load("/tmp/s46callB/map/map_device_fi_ncp.json.xz")
best = lambda k, pair: max(runs[r][k][0] for r in pair if k in runs[r])
pts = sorted({k[1:] for k in runs["new_a"]})
print("m_max spread 2^t | PerSystem before, after (G real rows/s), after/before | Auto now (floor) | call B: Auto before, fastest schedule | Auto now / fastest")
gain, auto_gain, auto_vs_best, behind = [], [], [], []
for p in pts:
    old = best(("PerSystem",) + p, ("old_a", "old_b"))
    new = best(("PerSystem",) + p, ("new_a", "new_b"))
    auto = best(("Auto",) + p, ("new_a", "new_b"))
    frac = max(runs[r][("Auto",) + p][1] for r in ("new_a", "new_b"))
    bsched = {s: v[0] for (s, *q), v in b.items() if tuple(q) == p}
    fastest = max(bsched.values()); fname = max(bsched, key=bsched.get)
    gain.append(new / old); auto_gain.append(auto / bsched["Auto"]); auto_vs_best.append(auto / fastest)
    if auto / fastest < 0.9:
        behind.append(p)
    print(f"{p[0]} {p[1]} {p[2]} | {old:.1f} {new:.1f} {new/old:.2f} | {auto:.1f} ({frac:.2f}) | {bsched['Auto']:.1f} {fastest:.1f} {fname} | {auto/fastest:.2f}")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
print(f"\n{len(pts)} points. PerSystem after/before: geometric mean {g(gain):.2f}, range {min(gain):.2f}-{max(gain):.2f}")
print(f"Auto now / call B's Auto (the table before): geometric mean {g(auto_gain):.2f}, range {min(auto_gain):.2f}-{max(auto_gain):.2f}")
print(f"Auto now / call B's fastest: median {statistics.median(auto_vs_best):.3f}, min {min(auto_vs_best):.2f}; {len(behind)} points more than 10% behind: {behind}")
big = [i for i, p in enumerate(pts) if p[2] >= 26]
print(f"at 2^26-2^28: Auto now / call B's Auto geometric mean {g([auto_gain[i] for i in big]):.2f}, range {min(auto_gain[i] for i in big):.2f}-{max(auto_gain[i] for i in big):.2f}")
