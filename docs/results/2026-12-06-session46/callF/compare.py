#!/usr/bin/python3
"""Call F: Full-Interleaved ThomasVBatch not computing the padding, m_max 4-129, the on-chip
sweep in step (after, binS49) against e45a042 (before, binS48map), one run each (after first;
the before run stopped at the session's device time, at 211 of 240 points, so its JSON is cut
short and the text output is read). G real rows/s.

    docs/results/2026-12-06-session46/callF/compare.py   (from this folder)
"""
import lzma, math, re, statistics

def load(path):
    out = {}
    for l in lzma.open(path, "rt"):
        m = re.match(r"ThomasV/Device/FullInterleaved/(\w+)/ncp-(\w+)/m:(\d+)/total:(\d+)/\S+\s.*"
                     r"floor_frac=([\d.]+)/s items_per_second=([\d.]+)G/s.*\s(\w+)\s*$", l)
        if m:
            s, sp, mm, t, frac, rate, label = m.groups()
            out[(s, int(mm), sp, int(t))] = (float(rate), float(frac), label)
    return out

after, before = load("map/map_after.txt.xz"), load("map/map_before.txt.xz")
g = lambda v: math.exp(sum(map(math.log, v)) / len(v)) if v else float("nan")
for sched in ("PerSystemOnChip", "Auto", "PerSystem", "WarpPerSystem"):
    keys = sorted(k for k in after if k[0] == sched and k in before)
    r = [after[k][0] / before[k][0] for k in keys]
    print(f"{sched}: {len(keys)} points, after / before geometric mean {g(r):.2f}, range "
          f"{min(r):.2f}-{max(r):.2f}")
print()
print("m_max spread 2^t | on-chip before, after | Auto before (runs), after (runs) | after: fastest schedule")
for k in sorted(k for k in after if k[0] == "Auto"):
    p = k[1:]
    oc = ("PerSystemOnChip",) + p
    best = max((v[0], s) for (s, *q), v in after.items() if tuple(q) == p and s != "Auto")
    b_oc = before.get(oc, (float("nan"),))[0]
    b_auto = before.get(k, (float("nan"), 0, "-"))
    print(f"{p[0]} {p[1]} {p[2]} | {b_oc:.1f} {after[oc][0]:.1f} | {b_auto[0]:.1f} ({b_auto[2]}) "
          f"{after[k][0]:.1f} ({after[k][2]}) | {best[0]:.1f} {best[1]}")
