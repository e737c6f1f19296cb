#!/usr/bin/python3
"""Call A part 3: the host's tridiagonal SimdTiles at 2^24 rows on the 16 cores against the
system size m, Full-Interleaved and Flat, two runs (host.tar beside this file): each run's
fraction of its own copy floor, and a Full-Interleaved 32-lane tile's footprint (4 arrays x
32 lanes x 8 B x m) against the core's 2 MiB L2.

    docs/results/2026-12-06-session47/callA/knee.py
"""
import json, lzma, os, re, tarfile

here = os.path.dirname(os.path.abspath(__file__))
runs = {}
with tarfile.open(os.path.join(here, "host.tar")) as t:
    for r in ("a", "b"):
        for b in json.load(lzma.open(t.extractfile(f"host/knee_{r}.json.xz"), "rt"))["benchmarks"]:
            m = re.match(r"Thomas/Host/(\w+)/SimdTiles/m:(\d+)/", b["name"])
            if m:
                runs.setdefault((m[1], int(m[2])), {})[r] = b["floor_frac"]
print("m | tile footprint (MiB) | Full-Interleaved a, b | Flat a, b")
for mm in sorted({k[1] for k in runs}):
    fi, fl = runs[("FullInterleaved", mm)], runs[("Flat", mm)]
    print(f"{mm} | {4 * 32 * 8 * mm / 2**20:.2f} | {fi['a']:.2f} {fi['b']:.2f} | {fl['a']:.2f} {fl['b']:.2f}")
