#!/usr/bin/python3
"""Call D: the on-chip sweep with its swept rows per lane (before: binS47bmap, ffa7984) and in step (binS47c), A-B-B-A,
Full-Interleaved ThomasVBatch not computing the padding, m_max 64-512; best of each pair.

    docs/results/2026-12-06-session47/callD/compare.py   (reads map.tar beside it)
"""
import json, lzma, math, os, re, tarfile

here = os.path.dirname(os.path.abspath(__file__))
runs = {}
with tarfile.open(os.path.join(here, "map.tar")) as t:
    for r in ("before_a", "before_b", "after_a", "after_b"):
        out = {}
        for b in json.load(lzma.open(t.extractfile(f"map/map_{r}.json.xz"), "rt"))["benchmarks"]:
            m = re.match(r"ThomasV/Device/FullInterleaved/([^/]+)/ncp-(\w+)/m:(\d+)/total:(\d+)/", b["name"])
            if m and not b.get("error_occurred"):
                s, sp, mm, tt = m.groups()
                out[(s, int(mm), sp, int(tt))] = (b["nodes_per_s"] / 1e9, b.get("floor_frac", 0))
        runs[r] = out
best = lambda k, pair: max(runs[r][k][0] for r in pair if k in runs[r])
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
keys = sorted(runs["after_a"])
print("schedule m_max spread 2^t | before after (G real rows/s) | after/before | both after runs ahead of both before")
by_sched = {}
for k in keys:
    bef, aft = best(k, ("before_a", "before_b")), best(k, ("after_a", "after_b"))
    worst_aft = min(runs[r][k][0] for r in ("after_a", "after_b"))
    best_bef = best(k, ("before_a", "before_b"))
    by_sched.setdefault(k[0], []).append((k, aft / bef, worst_aft > best_bef))
    print(f"{k[0]} {k[1]} {k[2]} {k[3]} | {bef:.1f} {aft:.1f} | {aft/bef:.2f} | {'yes' if worst_aft > best_bef else ''}")
print()
for s, v in sorted(by_sched.items()):
    r = [x[1] for x in v]
    print(f"{s}: {len(v)} points, after/before geometric mean {g(r):.3f}, range {min(r):.2f}-{max(r):.2f}, "
          f"both after ahead at {sum(x[2] for x in v)}")
    for mm in (64, 100, 129, 200, 256, 300, 512):
        rr = [x[1] for x in v if x[0][1] == mm]
        if rr:
            print(f"    m_max {mm}: geometric mean {g(rr):.3f}, range {min(rr):.2f}-{max(rr):.2f}")
# Auto against the fastest schedule of the same build
print()
for pair, name in ((("after_a", "after_b"), "after"), (("before_a", "before_b"), "before")):
    pts = sorted({k[1:] for k in runs[pair[0]]})
    ratio = []
    for p in pts:
        sched = {s: best((s,) + p, pair) for s in ("PerSystem", "PerSystemOnChip", "WarpPerSystem") if (s,) + p in runs[pair[0]]}
        ratio.append((best(("Auto",) + p, pair) / max(sched.values()), p, max(sched, key=sched.get)))
    worst = sorted(ratio)[:5]
    print(f"{name}: Auto / fastest schedule, median {sorted(r[0] for r in ratio)[len(ratio)//2]:.3f}; "
          f"more than 10% behind at {sum(r[0] < 0.9 for r in ratio)}; worst {[(round(r[0],2),) + r[1] + (r[2],) for r in worst]}")
