#!/usr/bin/python3
"""The solver performance map from one run's raw files: heat maps and tables.

    scripts/solver_map.py RESULTS_DIR [--figures docs/figures] [--tables FILE.md]

RESULTS_DIR holds what scripts/gpu/solver-map.sh wrote:
  map_device.json, map_host.json   Google Benchmark JSON of hinesbatch_solver_map
  peers_map.json                   cusparse_tridiagonal --pairs (cuSPARSE, cuThomasBatch)
  hines_peers_map.json             hines_peers --classes map_trees.bin --totals
  map_trees.txt                    the classK -> tree name table of map_trees.bin

Writes one figure per (family, backend, layout), solver_map_<family>_<backend>_<layout>.png,
three panels over (size x batch total): Auto's fraction of the copy floor; Auto against the
best schedule of the library at that point; Auto against the best peer there. Writes
Markdown tables (--tables) of the same, with the points that miss the targets listed, and
a TSV of every point (points.tsv in RESULTS_DIR). Needs matplotlib (Debian's).
"""
import argparse
import collections
import json
import math
import os
import re
import sys

Point = collections.namedtuple(
    "Point", "family backend layout schedule size tree total systems rate frac resolved error")

NAME = re.compile(r"^(Thomas|Hines)/(Device|Host)/(Flat|FullInterleaved)/(\w+)/"
                  r"(?:(?P<tree>[^/]+)/n:(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")


def load_map(path):
    with open(path) as f:
        doc = json.load(f)
    points = []
    for b in doc.get("benchmarks", []):
        m = NAME.match(b["name"])
        if not m:
            continue
        family, backend, layout, schedule = m.group(1, 2, 3, 4)
        size = int(m.group("n") or m.group("m"))
        tree = m.group("tree") or ""
        err = b.get("error_message", "") if b.get("error_occurred") else ""
        points.append(Point(family, backend, layout, schedule, size, tree, int(m.group("t")),
                            int(b.get("systems", 0)), b.get("nodes_per_s", 0.0),
                            b.get("floor_frac", 0.0), b.get("label", ""), err))
    return doc.get("context", {}), points


def load_peers(results):
    """{(family, layout, size, total or N): (best rate, method)} for the device."""
    best = {}

    def keep(key, rate, method):
        if rate and (key not in best or rate > best[key][0]):
            best[key] = (rate, method)

    p = os.path.join(results, "peers_map.json")
    if os.path.exists(p):
        for r in json.load(open(p))["results"]:
            if r.get("status") != "ok":
                continue
            # cuSPARSE's strided solver reads Flat storage; the interleaved ones (and
            # cuThomasBatch) Full-Interleaved storage.
            layout = "Flat" if "Strided" in r["method"] else "FullInterleaved"
            keep(("Thomas", layout, r["m"], r["N"]), r["grows_per_s"] * 1e9, r["method"])
    names = {}
    t = os.path.join(results, "map_trees.txt")
    if os.path.exists(t):
        for line in open(t):
            k, name, n = line.split()
            names[k] = (name, int(n))
    p = os.path.join(results, "hines_peers_map.json")
    if os.path.exists(p):
        for r in json.load(open(p))["results"]:
            if r.get("status", "ok") != "ok" or r.get("type", "f64") != "f64":
                continue
            cls = r.get("input", "")
            if cls not in names or r.get("method") != "cuHinesBatch_FullInterleaved":
                continue
            rate = r.get("gnodes_per_s") or 0
            keep(("Hines", "FullInterleaved", names[cls][1], r["N"]), rate * 1e9, r["method"])
    return best


def tree_key(p):
    return (p.size, p.tree)


def grid(points, family, backend, layout):
    sel = [p for p in points if (p.family, p.backend, p.layout) == (family, backend, layout)]
    cols = sorted({tree_key(p) for p in sel})
    rows = sorted({p.total for p in sel})
    by = collections.defaultdict(dict)
    for p in sel:
        by[(tree_key(p), p.total)][p.schedule] = p
    return cols, rows, by


def best_schedule(cell):
    ok = [p for s, p in cell.items() if s != "Auto" and not p.error and p.rate > 0]
    return max(ok, key=lambda p: p.rate) if ok else None


def analyse(points, peers):
    """Per point: Auto's floor fraction, Auto / best schedule, Auto / best peer."""
    rows = []
    for family in ("Thomas", "Hines"):
        for backend in ("Device", "Host"):
            for layout in ("Flat", "FullInterleaved"):
                cols, totals, by = grid(points, family, backend, layout)
                for c in cols:
                    for t in totals:
                        cell = by.get((c, t))
                        if not cell or "Auto" not in cell:
                            continue
                        auto = cell["Auto"]
                        best = best_schedule(cell)
                        systems = auto.systems
                        peer = peers.get((family, layout, c[0], systems)) if backend == "Device" else None
                        rows.append(dict(
                            family=family, backend=backend, layout=layout, size=c[0], tree=c[1],
                            total=t, systems=systems, auto=auto, best=best,
                            auto_frac=auto.frac if not auto.error else float("nan"),
                            vs_best=(auto.rate / best.rate) if best and not auto.error else float("nan"),
                            peer=peer,
                            vs_peer=(auto.rate / peer[0]) if peer and not auto.error else float("nan")))
    return rows


def plot(rows, figures):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    os.makedirs(figures, exist_ok=True)
    written = []
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["family"], r["backend"], r["layout"])].append(r)
    for (family, backend, layout), rs in sorted(groups.items()):
        cols = sorted({(r["size"], r["tree"]) for r in rs})
        totals = sorted({r["total"] for r in rs})
        at = {((r["size"], r["tree"]), r["total"]): r for r in rs}
        panels = [("Auto / copy floor", "auto_frac", 0.0, 1.0, "viridis"),
                  ("Auto / best schedule", "vs_best", 0.5, 1.0, "RdYlGn")]
        if any(not math.isnan(r["vs_peer"]) for r in rs):
            panels.append(("Auto / best peer", "vs_peer", 0.5, 2.0, "RdYlGn"))
        fig, axes = plt.subplots(len(panels), 1, figsize=(max(8, 0.32 * len(cols) + 2),
                                                          1.0 + 1.6 * len(panels) * max(1, len(totals) / 4)),
                                 squeeze=False)
        for ax, (title, key, lo, hi, cmap) in zip(axes[:, 0], panels):
            z = np.full((len(totals), len(cols)), np.nan)
            for i, t in enumerate(totals):
                for j, c in enumerate(cols):
                    r = at.get((c, t))
                    if r is not None:
                        z[i, j] = r[key]
            im = ax.imshow(z, aspect="auto", origin="lower", cmap=cmap, vmin=lo, vmax=hi,
                           interpolation="nearest")
            for i in range(len(totals)):
                for j in range(len(cols)):
                    if not math.isnan(z[i, j]):
                        ax.text(j, i, f"{z[i, j]:.2f}", ha="center", va="center", fontsize=4.5)
            ax.set_yticks(range(len(totals)))
            ax.set_yticklabels([f"2^{t}" for t in totals], fontsize=6)
            ax.set_xticks(range(len(cols)))
            labels = [f"{c[0]}" if family == "Thomas" else f"{c[1]} {c[0]}" for c in cols]
            ax.set_xticklabels(labels, rotation=90, fontsize=5)
            ax.set_ylabel("rows/nodes per batch", fontsize=6)
            ax.set_title(f"{family} {backend} {layout}: {title}", fontsize=8)
            fig.colorbar(im, ax=ax, fraction=0.02, pad=0.01)
        axes[-1, 0].set_xlabel("rows per system (m)" if family == "Thomas" else "tree, nodes", fontsize=7)
        fig.tight_layout()
        name = f"solver_map_{family.lower()}_{backend.lower()}_{layout.lower()}.png"
        fig.savefig(os.path.join(figures, name), dpi=150)
        plt.close(fig)
        written.append(name)
    return written


def fmt(x, digits=2):
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def tables(rows, context, peers_present):
    out = []
    out.append(f"Copy floor: device {float(context.get('copy_bandwidth_GBps', 0)):.0f} GB/s, "
               f"host {float(context.get('host_copy_bandwidth_GBps', 0)):.0f} GB/s "
               f"({context.get('host_concurrency', '?')} host threads).\n")
    groups = collections.defaultdict(list)
    for r in rows:
        groups[(r["family"], r["backend"], r["layout"])].append(r)
    out.append("| family | backend | layout | points | Auto / floor, median (min) | "
               "points >= 2^25 under 0.6 | Auto / best schedule, min | points > 10% behind "
               "the best schedule | Auto / best peer, min (points behind) |")
    out.append("|---|---|---|---|---|---|---|---|---|")
    for (family, backend, layout), rs in sorted(groups.items()):
        fr = sorted(r["auto_frac"] for r in rs if not math.isnan(r["auto_frac"]))
        big_low = [r for r in rs if r["total"] >= 25 and not (r["auto_frac"] >= 0.6)]
        vb = [r["vs_best"] for r in rs if not math.isnan(r["vs_best"])]
        behind = [r for r in rs if r["vs_best"] < 0.9]
        vp = [r["vs_peer"] for r in rs if not math.isnan(r["vs_peer"])]
        peer_behind = sum(1 for x in vp if x < 1)
        out.append(f"| {family} | {backend} | {layout} | {len(rs)} | "
                   f"{fmt(fr[len(fr) // 2]) if fr else ''} ({fmt(fr[0]) if fr else ''}) | "
                   f"{len(big_low)} | {fmt(min(vb)) if vb else ''} | {len(behind)} | "
                   f"{(fmt(min(vp)) + f' ({peer_behind})') if vp else ''} |")
    out.append("")
    out.append("Points where Auto is more than 10% behind another schedule of the library "
               "(Auto's choice, the faster one):\n")
    out.append("| family | backend | layout | size | tree | total | Auto ran | Auto G/s | best | best G/s | ratio |")
    out.append("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in sorted(rows, key=lambda r: (r["family"], r["backend"], r["layout"], r["size"], r["total"])):
        if r["vs_best"] < 0.9:
            out.append(f"| {r['family']} | {r['backend']} | {r['layout']} | {r['size']} | {r['tree']} | "
                       f"2^{r['total']} | {r['auto'].resolved} | {fmt(r['auto'].rate * 1e-9, 1)} | "
                       f"{r['best'].schedule} | {fmt(r['best'].rate * 1e-9, 1)} | {fmt(r['vs_best'])} |")
    out.append("")
    return "\n".join(out)


def auto_table(rows, keep_within=0.95):
    """The schedule Auto should take at each measured device point: the one it takes now
    when that is within keep_within of the fastest there (noise must not flip choices),
    else the fastest. {(family, layout): [(size, total, schedule)]}."""
    table = collections.defaultdict(list)
    for r in rows:
        if r["backend"] != "Device" or r["best"] is None:
            continue
        auto, best = r["auto"], r["best"]
        keep = not auto.error and auto.rate >= keep_within * best.rate and auto.resolved
        choice = auto.resolved if keep else best.schedule
        table[(r["family"], r["layout"])].append((r["size"], r["total"], choice))
    for k in table:
        table[k] = sorted(set(table[k]))
    return table


def emit_auto_table(table, path, source, context):
    enum = {"Thomas": "ThomasSchedule", "Hines": "HinesSchedule"}
    lines = ["#pragma once",
             "// Generated by scripts/solver_map.py --emit-auto-table from the solver map in",
             f"// {source} ({context.get('device', 'GPU')}, fp64): at each measured point (system size,",
             "// log2 of the rows or nodes in the batch), the schedule Auto takes on GPUs. Regenerate",
             "// it from a new map; do not edit it by hand.",
             "#include \"hinesbatch/solvers/impl/auto_schedule_point.hpp\"",
             "",
             "namespace hinesbatch::impl {", ""]
    for (family, layout), pts in sorted(table.items()):
        e = enum[family]
        name = f"k{family}Auto{layout}"
        lines.append(f"inline constexpr AutoSchedulePoint<{e}> {name}[] = {{")
        for size, total, sched in pts:
            lines.append(f"    {{{size}, {total}, {e}::{sched}}},")
        lines.append("};")
        lines.append("")
    lines.append("}  // namespace hinesbatch::impl")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--figures", default="docs/figures")
    ap.add_argument("--tables", default=None)
    ap.add_argument("--emit-auto-table", default=None,
                    help="write the C++ table Auto reads on GPUs (solvers/impl/auto_schedule_table.hpp)")
    a = ap.parse_args()
    points, context = [], {}
    for f in ("map_device.json", "map_host.json"):
        p = os.path.join(a.results, f)
        if os.path.exists(p):
            ctx, pts = load_map(p)
            context = context or ctx
            points += pts
    if not points:
        sys.exit(f"solver_map.py: no map_device.json / map_host.json points in {a.results}")
    peers = load_peers(a.results)
    with open(os.path.join(a.results, "points.tsv"), "w") as f:
        f.write("family\tbackend\tlayout\tschedule\tresolved\tsize\ttree\ttotal_log2\tsystems\t"
                "items_per_s\tfloor_frac\terror\n")
        for p in points:
            f.write(f"{p.family}\t{p.backend}\t{p.layout}\t{p.schedule}\t{p.resolved}\t{p.size}\t"
                    f"{p.tree}\t{p.total}\t{p.systems}\t{p.rate:.6g}\t{p.frac:.4f}\t{p.error}\n")
    rows = analyse(points, peers)
    written = plot(rows, a.figures)
    text = tables(rows, context, bool(peers))
    if a.tables:
        with open(a.tables, "w") as f:
            f.write(text)
    else:
        print(text)
    print("figures:", ", ".join(written), file=sys.stderr)
    if a.emit_auto_table:
        emit_auto_table(auto_table(rows), a.emit_auto_table, os.path.normpath(a.results), context)


if __name__ == "__main__":
    main()
