#!/usr/bin/env python3
"""Compare HinesBatch and NEURON outputs (spike files and trace CSVs).

  compare.py --spikes OURS.txt NEURON.txt --traces OURS.csv NEURON.csv --dt 0.025
             [--vtol 0.1 | --no-vtol] [--label NAME] [--json RESULT.json]

Criteria (exit 0 when all hold, 1 otherwise):
  traces: same header (columns), same number of rows, same t column (|dt| <= 1e-6 ms), and
          max |V_ours - V_neuron| <= vtol (default 0.1 mV) at every step and location.
          Columns of other variables (g0_s0_x0.5_cai, g0_syn3_g) are reported apart, as
          max |x_ours - x_neuron| / max |x_neuron| over the column (max_rel_other), and
          judged by the caller.
          With --no-vtol the max |dV| is reported but not judged (active cells, where a spike
          shifted by one step gives tens of mV at that step: spikes are judged instead).
  spikes: same number of spikes per gid and, pairing the k-th spike of each gid,
          |t_ours - t_neuron| <= dt + 1e-9.
"""

import argparse
import json
import re
import sys

T_TOL = 1e-6
VOLTAGE_COLUMN = re.compile(r"^g\d+_s\d+_x[^_]+$")  # v; g0_s0_x0.5_cai is another variable


def read_spikes(path):
    by_gid = {}
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = line.split()
            if len(fields) != 2:
                raise ValueError("%s:%d: expected 'gid time'" % (path, lineno))
            by_gid.setdefault(int(fields[0]), []).append(float(fields[1]))
    for v in by_gid.values():
        v.sort()
    return by_gid


def read_traces(path):
    with open(path) as f:
        header = f.readline().strip().split(",")
        cols = [[] for _ in header]
        for lineno, line in enumerate(f, 2):
            line = line.strip()
            if not line:
                continue
            vals = line.split(",")
            if len(vals) != len(header):
                raise ValueError("%s:%d: %d values, header has %d" % (path, lineno, len(vals), len(header)))
            for c, v in zip(cols, vals):
                c.append(float(v))
    return header, cols


def compare_traces(ours_path, ref_path, vtol):
    res = {"ok": True, "messages": [], "max_dv": None, "where": None, "per_column": []}
    ho, co = read_traces(ours_path)
    hr, cr = read_traces(ref_path)
    if ho != hr:
        res["ok"] = False
        res["messages"].append("trace headers differ:\n    ours:   %s\n    NEURON: %s" % (",".join(ho), ",".join(hr)))
        return res
    if len(co[0]) != len(cr[0]):
        res["ok"] = False
        res["messages"].append("trace rows differ: ours %d, NEURON %d" % (len(co[0]), len(cr[0])))
        return res
    dt_max = max(abs(a - b) for a, b in zip(co[0], cr[0])) if co[0] else 0.0
    if dt_max > T_TOL:
        res["ok"] = False
        res["messages"].append("t columns differ by up to %g ms" % dt_max)
    overall = (0.0, None)
    res["max_rel_other"] = None
    for j in range(1, len(ho)):
        best = (0.0, 0)
        for i, (a, b) in enumerate(zip(co[j], cr[j])):
            d = abs(a - b)
            if d > best[0] or d != d:
                best = (d, i)
        d, i = best
        row = {"column": ho[j], "max_dv": d, "t": cr[0][i] if cr[0] else 0.0,
               "ours": co[j][i] if co[j] else None, "neuron": cr[j][i] if cr[j] else None}
        res["per_column"].append(row)
        if not VOLTAGE_COLUMN.match(ho[j]):  # another variable, in its own units
            peak = max((abs(b) for b in cr[j]), default=0.0)
            rel = d / peak if peak > 0 else d
            row["rel"] = rel
            if res["max_rel_other"] is None or rel > res["max_rel_other"] or rel != rel:
                res["max_rel_other"] = rel
            continue
        if d > overall[0] or d != d or overall[1] is None:
            overall = (d, row)
    if overall[1] is not None:
        res["max_dv"] = overall[0]
        res["where"] = "%s at t=%g" % (overall[1]["column"], overall[1]["t"])
        if vtol is not None and not (overall[0] <= vtol):
            res["ok"] = False
            res["messages"].append("max |dV| %.3g mV > %g mV (%s)" % (overall[0], vtol, res["where"]))
    return res


# Artificial cells spike at their events' exact times in both simulators: the spike files'
# 1e-6 ms resolution, with room for rounding, rather than a step.
EXACT_TOL = 2e-6


def compare_spikes(ours_path, ref_path, dt, exact_gids=()):
    """exact_gids: the artificial cells, judged with EXACT_TOL instead of dt."""
    res = {"ok": True, "messages": [], "per_gid": [], "n_ours": 0, "n_neuron": 0, "max_dt": None}
    so = read_spikes(ours_path)
    sr = read_spikes(ref_path)
    for gid in sorted(set(so) | set(sr)):
        tol = EXACT_TOL if gid in exact_gids else dt + 1e-9
        a, b = so.get(gid, []), sr.get(gid, [])
        res["n_ours"] += len(a)
        res["n_neuron"] += len(b)
        k = min(len(a), len(b))
        md = max([abs(a[i] - b[i]) for i in range(k)] or [0.0])
        row = {"gid": gid, "ours": len(a), "neuron": len(b), "max_dt": md if k else None, "ok": True}
        if len(a) != len(b):
            row["ok"] = False
            extra = a[k:] if len(a) > k else b[k:]
            res["messages"].append("gid %d: %d spikes ours, %d NEURON (first unmatched %s at t=%.6f)"
                                   % (gid, len(a), len(b), "ours" if len(a) > k else "NEURON", extra[0]))
        if k and md > tol:
            row["ok"] = False
            i = max(range(k), key=lambda i: abs(a[i] - b[i]))
            res["messages"].append("gid %d spike %d: ours %.6f, NEURON %.6f (|dt| %.6f > %g)"
                                   % (gid, i, a[i], b[i], md, tol))
        if k and (res["max_dt"] is None or md > res["max_dt"]):
            res["max_dt"] = md
        res["ok"] = res["ok"] and row["ok"]
        res["per_gid"].append(row)
    return res


def print_report(label, sp, tr, out=sys.stdout):
    w = out.write
    if label:
        w("== %s\n" % label)
    if tr is not None:
        w("  traces: %-32s %12s %10s %14s %14s\n" % ("column", "max|dV| mV", "at t", "ours", "NEURON"))
        for r in tr["per_column"]:
            w("          %-32s %12.4g %10g %14.6g %14.6g\n" % (r["column"], r["max_dv"], r["t"],
                                                             r["ours"], r["neuron"]))
    if sp is not None:
        w("  spikes: %6s %8s %8s %12s %s\n" % ("gid", "ours", "NEURON", "max|dt| ms", ""))
        for r in sp["per_gid"]:
            w("          %6d %8d %8d %12s %s\n" % (r["gid"], r["ours"], r["neuron"],
                                                 "-" if r["max_dt"] is None else "%.6f" % r["max_dt"],
                                                 "" if r["ok"] else "FAIL"))
        if not sp["per_gid"]:
            w("          (no spikes in either)\n")
    for res in (tr, sp):
        if res is not None:
            for m in res["messages"]:
                w("  FAIL: %s\n" % m)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spikes", nargs=2, metavar=("OURS", "NEURON"))
    ap.add_argument("--traces", nargs=2, metavar=("OURS", "NEURON"))
    ap.add_argument("--dt", type=float, default=0.025, help="time step (spike tolerance dt + 1e-9)")
    ap.add_argument("--vtol", type=float, default=0.1, help="max |dV| in mV (default 0.1)")
    ap.add_argument("--no-vtol", action="store_true", help="report max |dV| without judging it")
    ap.add_argument("--exact-gids", type=int, nargs="*", default=[],
                    help="gids of artificial cells: spike times within %g ms" % EXACT_TOL)
    ap.add_argument("--label", default="")
    ap.add_argument("--json", help="write the result as JSON here")
    a = ap.parse_args(argv)
    if not a.spikes and not a.traces:
        ap.error("nothing to compare: give --spikes and/or --traces")
    tr = compare_traces(a.traces[0], a.traces[1], None if a.no_vtol else a.vtol) if a.traces else None
    sp = compare_spikes(a.spikes[0], a.spikes[1], a.dt, set(a.exact_gids)) if a.spikes else None
    print_report(a.label, sp, tr)
    ok = all(r["ok"] for r in (tr, sp) if r is not None)
    print("  verdict: %s" % ("PASS" if ok else "FAIL"))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"ok": ok, "traces": tr, "spikes": sp}, f, indent=1)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
