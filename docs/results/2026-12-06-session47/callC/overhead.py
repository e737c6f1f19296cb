#!/usr/bin/python3
"""Call C part 3: ThomasVBatch Flat computing the padding at 2^20-2^22 padded rows, three runs:
Auto against the same schedule asked by name in the same run (Auto's label names what it
resolved to), to see how far Auto's own launch (its table lookup and checks before the
kernel) trails it.

    docs/results/2026-12-06-session47/callC/overhead.py   (reads map.tar beside it)
"""
import json, lzma, math, os, re, statistics, tarfile

here = os.path.dirname(os.path.abspath(__file__))
ratios = {}
with tarfile.open(os.path.join(here, "map.tar")) as t:
    for r in "abc":
        pts = {}
        for b in json.load(lzma.open(t.extractfile(f"map/vflat_{r}.json.xz"), "rt"))["benchmarks"]:
            m = re.match(r"ThomasV/Device/Flat/(\w+)/cp-(\w+)/m:(\d+)/total:(\d+)/", b["name"])
            if m and not b.get("error_occurred"):
                pts[(m[1], m[2], int(m[3]), int(m[4]))] = (b["nodes_per_s"], b.get("label", ""))
        for (s, sp, mm, tt), (rate, label) in pts.items():
            if s != "Auto":
                continue
            named = pts.get((label.split("@")[0], sp, mm, tt))
            if named:
                ratios.setdefault((sp, mm, tt, label), []).append(rate / named[0])
g = lambda v: math.exp(sum(map(math.log, v)) / len(v))
allr = [x for v in ratios.values() for x in v]
print(f"{len(ratios)} points x 3 runs: Auto / the same schedule named, geometric mean {g(allr):.3f}, "
      f"median {statistics.median(allr):.3f}, range {min(allr):.2f}-{max(allr):.2f}")
per_point = {k: g(v) for k, v in ratios.items()}
print(f"per point (geometric mean of the 3 runs): median {statistics.median(per_point.values()):.3f}, "
      f"below 0.9 at {sum(v < 0.9 for v in per_point.values())}, below 0.95 at {sum(v < 0.95 for v in per_point.values())}")
for tt in sorted({k[2] for k in ratios}):
    v = [x for k, vv in ratios.items() if k[2] == tt for x in vv]
    print(f"  2^{tt}: geometric mean {g(v):.3f}, range {min(v):.2f}-{max(v):.2f}")
for k, v in sorted(per_point.items(), key=lambda x: x[1])[:6]:
    print("  lowest:", k, f"{v:.2f}", [round(x, 2) for x in ratios[k]])
