#!/usr/bin/env python3
"""Two runs of one config: spikes (gid, time) and trace columns.

  compare_runs.py REF_SPIKES REF_TRACES SPIKES TRACES [V_TOL_MV]

Prints the spike counts, the largest spike-time difference of matched pairs, the largest
|dV| over the voltage columns and the largest difference of other columns relative to their
peak. Exit 0 when the spikes pair up within dt + 1e-9 ms and |dV| <= V_TOL_MV (default 1e-3).
Standard library only (the GPU machine's python3 has no numpy of ours)."""
import sys


def spikes(path, order=None):
    out = []
    with open(path) as f:
        for line in f:
            p = line.split()
            if len(p) >= 2:
                out.append((int(float(p[0])), float(p[1])))
    return sorted(out)


def traces(path):
    with open(path) as f:
        head = f.readline().strip().split(",")
        rows = [[float(x) for x in line.split(",")] for line in f if line.strip()]
    return head, rows


def main():
    ref_s, ref_t, s, t = sys.argv[1:5]
    tol = float(sys.argv[5]) if len(sys.argv) > 5 else 1e-3
    a, b = spikes(ref_s), spikes(s)
    ha, ra = traces(ref_t)
    hb, rb = traces(t)
    dt = ra[1][0] - ra[0][0] if len(ra) > 1 else 0.025
    ok = len(a) == len(b) and all(x[0] == y[0] for x, y in zip(a, b))
    dts = max((abs(x[1] - y[1]) for x, y in zip(a, b)), default=0.0)
    ok = ok and dts <= dt + 1e-9
    dv, other = 0.0, 0.0
    for k, name in enumerate(ha[1:], 1):
        j = hb.index(name) if name in hb else None
        if j is None:
            print(f"column {name} missing")
            ok = False
            continue
        n = min(len(ra), len(rb))
        d = max(abs(ra[i][k] - rb[i][j]) for i in range(n))
        if "syn" in name or name.count("_") > 2:
            peak = max(abs(ra[i][k]) for i in range(n)) or 1.0
            other = max(other, d / peak)
        else:
            dv = max(dv, d)
    ok = ok and dv <= tol
    print(f"spikes {len(b)} against {len(a)}, max |dt| {dts:.3g} ms; max |dV| {dv:.3g} mV; "
          f"other columns max {other:.3g} of peak: {'PASS' if ok else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
