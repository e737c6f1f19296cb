#!/usr/bin/python3
"""Call C (Auto from ThomasVBatch's tables) against call A (Auto before them): per layout and
storage, Auto against the fastest schedule of the same run and point (Flat: call C measured
Auto, PerSystem and WarpPerSystem only, so its fastest is also taken over call A's other
schedules), the points more than 10% behind, and Auto's rate over call A's. Writes compare.txt.

    docs/results/2026-12-04-session35/callC/compare.py [CALL]   (from the repository root)

CALL: the folder of the later call (default callC; callD measured the Flat map again), whose
map.tar is read and compare.txt written.
"""
import collections, json, lzma, os, sys, tarfile, tempfile

here = os.path.dirname(os.path.abspath(__file__))
if len(sys.argv) > 1:
    here = os.path.join(os.path.dirname(here), os.path.basename(os.path.normpath(sys.argv[1])))


def load(tar, names):
    work = tempfile.mkdtemp()
    with tarfile.open(tar) as t:
        t.extractall(work)
    cells = collections.defaultdict(dict)
    for n in names:
        path = os.path.join(work, "map", f"map_device_{n}.json.xz")
        if not os.path.exists(path):
            continue
        doc = json.load(lzma.open(path, "rt"))
        for b in doc["benchmarks"]:
            if b.get("error_occurred"):
                continue
            p = b["name"].split("/")
            key = (p[2], p[4], int(p[5].split(":")[1]), int(p[6].split(":")[1]))
            cells[key][p[3]] = (b["nodes_per_s"], b.get("label", ""), b.get("floor_frac", 0))
    return cells


A = load(os.path.join(here, "../callA/map.tar"), ["Flat", "FullInterleaved"])
C = load(os.path.join(here, "map.tar"), ["Flat", "FullInterleaved"])
groups = collections.defaultdict(list)
behind = []
for key, c in sorted(C.items()):
    if "Auto" not in c or key not in A:
        continue
    a = A[key]
    best_c = max(v[0] for s, v in c.items() if s != "Auto")
    best_a = max(v[0] for s, v in a.items() if s != "Auto")
    layout, kind = key[0], key[1]
    # Flat in call C: only PerSystem and WarpPerSystem beside Auto; the others from call A.
    best = max(best_c, best_a) if layout == "Flat" else best_c
    r_new = c["Auto"][0] / best
    r_old = a["Auto"][0] / best_a
    groups[(layout, kind.split("-")[0])].append((r_new, r_old, c["Auto"][0] / a["Auto"][0],
                                                 c["Auto"][2], a["Auto"][2], key[3]))
    if r_new < 0.9:
        behind.append((r_new, key, c["Auto"][1], c["Auto"][0] * 1e-9, best * 1e-9))
out = ["layout, storage: points; Auto / fastest (median, min, points > 10% behind) now | before;"
       " Auto now / Auto before (geometric mean, min, max); Auto / floor median now | before"]
for k, v in sorted(groups.items()):
    def med(xs):
        xs = sorted(xs)
        return xs[len(xs) // 2]
    import math
    gm = math.exp(sum(math.log(x[2]) for x in v) / len(v))
    out.append(f"{k[0]}, {k[1]}: {len(v)}; {med(x[0] for x in v):.3f} {min(x[0] for x in v):.2f} "
               f"{sum(x[0] < 0.9 for x in v)} | {med(x[1] for x in v):.3f} {min(x[1] for x in v):.2f} "
               f"{sum(x[1] < 0.9 for x in v)}; {gm:.3f} {min(x[2] for x in v):.2f} "
               f"{max(x[2] for x in v):.2f}; {med(x[3] for x in v):.2f} | {med(x[4] for x in v):.2f}")
out.append("")
out.append("points more than 10% behind now: ratio, (layout, storage-spread, m_max, total), Auto ran, Auto G/s, fastest G/s")
for b in sorted(behind):
    out.append(f"{b[0]:.2f} {b[1]} {b[2]} {b[3]:.1f} {b[4]:.1f}")
text = "\n".join(out) + "\n"
open(os.path.join(here, "compare.txt"), "w").write(text)
print(text)
