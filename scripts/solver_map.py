#!/usr/bin/python3
"""The solver performance map from one run's raw files: heat maps and tables.

    scripts/solver_map.py RESULTS_DIR [--figures docs/figures] [--tables FILE.md]

RESULTS_DIR holds what scripts/gpu/solver-map.sh wrote:
  map_device.json, map_host.json   Google Benchmark JSON of hinesbatch_solver_map
                                   (families Thomas, ThomasV and Hines)
  peers_map.json                   cusparse_tridiagonal --pairs (cuSPARSE, cuThomasBatch)
  hines_peers_map.json             hines_peers --classes map_trees.bin --totals
  map_trees.txt                    the classK -> tree name table of map_trees.bin (key, name,
                                   nodes, height: hinesbatch_solver_map --map-export's listing;
                                   the trees' heights where the map's JSON has none)

Writes one figure per (family, backend, layout), solver_map_<family>_<backend>_<layout>.png,
three panels over (size x batch total): Auto's fraction of the copy floor; Auto against the
best schedule of the library at that point; Auto against the best peer there. Writes
Markdown tables (--tables) of the same, with the points that miss the targets listed, and
a TSV of every point (points.tsv in RESULTS_DIR). Needs matplotlib (Debian's).
"""
import argparse
import collections
import json
import lzma
import math
import os
import re
import sys
import textwrap

# height: a Hines tree's nodes on its longest root-to-leaf path (0 for tridiagonal systems).
Point = collections.namedtuple(
    "Point", "family backend layout schedule size tree total systems rate frac resolved error height",
    defaults=(0,))

# ThomasV (ThomasVBatch) names its storage and spread of sizes where Hines names its tree
# ("cp-half/m:300"), and its largest size as m.
NAME = re.compile(r"^(Thomas|ThomasV|Hines)/(Device|Host)/(Flat|FullInterleaved)/(\w+)(?:@(?P<shape>\w+))?/"
                  r"(?:(?P<tree>[^/]+)/(?:n|m):(?P<n>\d+)|m:(?P<m>\d+))/total:(?P<t>\d+)")


def open_raw(path):
    """path, or path.xz as the results folders keep it."""
    if os.path.exists(path):
        return open(path)
    return lzma.open(path + ".xz", "rt")


def exists_raw(path):
    return os.path.exists(path) or os.path.exists(path + ".xz")


HOST_SPACES = ("OpenMP", "Serial", "Threads", "HPX")


def parse_benchmark_json(text, path):
    """Google Benchmark's JSON; a file cut short (a run stopped by its time limit) keeps its
    complete benchmarks."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        end = text.rfind("\n    }")
        if end < 0:
            raise
        print(f"solver_map.py: {path} was cut short; its complete benchmarks are kept",
              file=sys.stderr)
        return json.loads(text[:end + 6] + "\n  ]\n}")


def load_map(path, shapes=False):
    """(context, points); with shapes, also the staged schedule forced to a chunk shape
    (--map-staged-shapes), as schedule "PerSystemStaged@<shape>"."""
    with open_raw(path) as f:
        doc = parse_benchmark_json(f.read(), path)
    # A build without a GPU backend names its default (host) space "Device".
    host_build = doc.get("context", {}).get("execution_space", "") in HOST_SPACES
    points = []
    for b in doc.get("benchmarks", []):
        m = NAME.match(b["name"])
        if not m:
            continue
        family, backend, layout, schedule = m.group(1, 2, 3, 4)
        if m.group("shape"):
            if not shapes:
                continue
            schedule += "@" + m.group("shape")
        if host_build:
            backend = "Host"
        size = int(m.group("n") or m.group("m"))
        tree = m.group("tree") or ""
        err = b.get("error_message", "") if b.get("error_occurred") else ""
        points.append(Point(family, backend, layout, schedule, size, tree, int(m.group("t")),
                            int(b.get("systems", 0)), b.get("nodes_per_s", 0.0),
                            b.get("floor_frac", 0.0), b.get("label", ""), err,
                            int(b.get("height", 0))))
    heights = tree_heights(os.path.dirname(path))
    points = [p._replace(height=heights.get((p.tree, p.size), 0))
              if p.family == "Hines" and not p.height else p for p in points]
    return doc.get("context", {}), points


def tree_heights(results):
    """{(tree name, nodes): height} from map_trees.txt's fourth column, where it has one."""
    out = {}
    t = os.path.join(results, "map_trees.txt")
    if exists_raw(t):
        for line in open_raw(t):
            f = line.split()
            if len(f) >= 4:
                out[(f[1], int(f[2]))] = int(f[3])
    return out


def load_peers(results):
    """{(family, layout, size, total or N): (best rate, method)} for the device."""
    best = {}

    def keep(key, rate, method):
        if rate and (key not in best or rate > best[key][0]):
            best[key] = (rate, method)

    p = os.path.join(results, "peers_map.json")
    if exists_raw(p):
        for r in json.load(open_raw(p))["results"]:
            if r.get("status") != "ok":
                continue
            # cuSPARSE's strided solver reads Flat storage; the interleaved ones (and
            # cuThomasBatch) Full-Interleaved storage.
            layout = "Flat" if "Strided" in r["method"] else "FullInterleaved"
            keep(("Thomas", layout, r["m"], r["N"]), r["grows_per_s"] * 1e9, r["method"])
    names = {}
    t = os.path.join(results, "map_trees.txt")
    if exists_raw(t):
        for line in open_raw(t):
            k, name, n = line.split()[:3]
            names[k] = (name, int(n))
    p = os.path.join(results, "hines_peers_map.json")
    if exists_raw(p):
        for r in json.load(open_raw(p))["results"]:
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
    for family in ("Thomas", "ThomasV", "Hines"):
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
        # ThomasV's columns storage by storage (its "tree"), each by size.
        cols = sorted({(r["size"], r["tree"]) for r in rs},
                      key=lambda c: (c[1], c[0]) if family == "ThomasV" else c)
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
        axes[-1, 0].set_xlabel({"Thomas": "rows per system (m)",
                                "ThomasV": "storage-spread of sizes, largest rows (m_max)"}.get(
                                    family, "tree, nodes"), fontsize=7)
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


# The staged schedule's chunk shapes Auto may take, per layout (impl::solve_staged_shaped
# instantiates these on GPUs for double batches): the solver map's suffix -> (rows,
# asynchronous copies, L2 prefetch of the next chunk). "16" is the default shape, the plain
# schedule's. The prefetching shape only in Full-Interleaved storage: leaving each map tree
# out of the table in turn, it gained 1% there and nothing in Flat storage.
STAGED = "PerSystemStaged"
STAGED_SHAPES = {"Flat": {"16": (16, False, False), "32a": (32, True, False)},
                 "FullInterleaved": {"16": (16, False, False), "32a": (32, True, False),
                                     "16p": (16, False, True)}}


def staged_candidates(layout, cell):
    """cell ({schedule: point}) with the staged shapes Auto may not take left out, and the
    default shape's forced measurement (PerSystemStaged@16), where there is one, as the
    plain schedule."""
    out = {}
    for sched, p in cell.items():
        if "@" in sched:
            base, shape = sched.split("@", 1)
            if base != STAGED or shape not in STAGED_SHAPES.get(layout, {}):
                continue
            if shape == "16":
                sched = STAGED
        elif sched == STAGED and STAGED + "@16" in cell:
            continue
        out[sched] = p
    return out


def vbatch_table_point(p):
    """A ThomasV map point as Auto's ThomasVBatch tables see it: one table per layout and
    storage ("FlatCp", "FullInterleavedNcp", ...: computing the padding or not favour
    different schedules), looked up by the systems and their padded size m_max, so its total
    is the padded rows, log2 rounded; and one for packed storage ("Packed"), looked up before
    any pass over the offsets, by the mean size (the batch's rows over its systems) and the
    rows."""
    storage = p.tree.split("-")[0]
    if storage == "packed":
        return p._replace(layout="Packed", size=max(1, int(round(2 ** p.total / max(1, p.systems)))))
    return p._replace(layout=p.layout + storage.capitalize(),
                      total=int(round(math.log2(max(1, p.systems) * p.size))))


def auto_table(points, keep_within=0.95):
    """The schedule Auto should take at each measured device point (family, layout, size,
    height, batch total): over the systems measured there (trees of one size and height), the
    schedule with the best geometric mean of its rate relative to each system's fastest;
    the one Auto takes today is kept when it is within keep_within of that (noise must not
    flip choices). {(family, layout): [(size, height, total, schedule)]}."""
    cells = collections.defaultdict(lambda: collections.defaultdict(dict))
    for p in points:
        if p.backend != "Device" or p.error or p.rate <= 0:
            continue
        if p.family == "ThomasV":
            p = vbatch_table_point(p)
        if p.family == "Hines" and p.height <= 0:
            sys.exit(f"solver_map.py: no height for the tree {p.tree} of {p.size} nodes "
                     "(neither a 'height' counter in the map nor a map_trees.txt beside it)")
        cells[(p.family, p.layout, p.size, p.height, p.total)][p.tree][p.schedule] = p
    for (family, layout, size, height, total), trees in cells.items():
        for tree in trees:
            trees[tree] = staged_candidates(layout, trees[tree])
    table = collections.defaultdict(list)
    for (family, layout, size, height, total), trees in sorted(cells.items()):
        scheds = set.intersection(*[set(s) - {"Auto"} for s in trees.values()])
        if not scheds:
            continue

        def score(sched):
            return sum(math.log(t[sched].rate / max(t[x].rate for x in scheds))
                       for t in trees.values()) / len(trees)

        best = max(sorted(scheds), key=score)
        now = {t["Auto"].resolved for t in trees.values() if "Auto" in t}
        choice = best
        if len(now) == 1:
            cur = now.pop()
            if cur in scheds and score(cur) >= score(best) + math.log(keep_within):
                choice = cur
        table[(family, layout)].append((size, height, total, choice))
    return table


def emit_auto_tables(table, folder, source):
    """auto_thomas_table.hpp, auto_thomas_vbatch_table.hpp and auto_hines_table.hpp in folder
    (src/solvers, compiled in the library by auto_tables.cpp), each where the map has that
    family's points."""
    written = []
    for family, enum, header in (("Thomas", "ThomasSchedule", "thomas_schedule.hpp"),
                                 ("ThomasV", "ThomasSchedule", "thomas_schedule.hpp"),
                                 ("Hines", "HinesSchedule", "hines_schedule.hpp")):
        # A map of some families only rewrites their tables.
        if not any(f == family for f, _ in table):
            continue
        point = f"AutoTreePoint<{enum}, StagedShape>" if family == "Hines" else \
            f"AutoSchedulePoint<{enum}>"
        shape_header = ["#include \"hinesbatch/solvers/impl/hines_staged_shape.hpp\""] \
            if family == "Hines" else []
        if family == "ThomasV":
            about = (f"the ThomasVBatch map in {source} (fp64): at each measured point (m_max and "
                     "log2 of the padded rows N * m_max; in packed storage the mean size and log2 "
                     "of the rows), the schedule Auto takes on GPUs for double ThomasVBatch solves "
                     "(docs/SOLVER_MAP.md).")
        else:
            about = (f"the solver map in {source} (fp64): at each measured point (size of a "
                     + ("system, its height, " if family == "Hines" else "system, ")
                     + "log2 of the rows or nodes in the batch), the schedule Auto takes on GPUs "
                     "for double Flat and Full-Interleaved batches (docs/SOLVER_MAP.md).")
        # Wrapped and the includes sorted as clang-format leaves them (100 columns).
        comment = textwrap.wrap("Generated by scripts/solver_map.py --emit-auto-tables from "
                                + about + " Regenerate it from a new map; do not edit it by hand.",
                                97, break_long_words=False, break_on_hyphens=False)
        includes = sorted(["#include \"hinesbatch/solvers/impl/auto_schedule_point.hpp\"",
                           *shape_header, f"#include \"hinesbatch/solvers/{header}\""])
        lines = ["#pragma once", *["// " + c for c in comment], *includes, "",
                 "namespace hinesbatch::impl {", ""]
        layouts = ("FlatCp", "FlatNcp", "FullInterleavedCp", "FullInterleavedNcp", "Packed") \
            if family == "ThomasV" else ("Flat", "FullInterleaved")
        for layout in layouts:
            pts = table.get((family, layout), [])
            if not pts:
                sys.exit(f"solver_map.py: no {family} {layout} device points for the Auto table")
            lines.append(f"inline constexpr {point} k{family}Auto{layout}[] = {{")
            for size, height, total, sched in pts:
                if family == "Hines":
                    base, _, shape = sched.partition("@")
                    rows, copies, prefetch = STAGED_SHAPES[layout][shape] if shape else \
                        (16, False, False)
                    flags = ", ".join("true" if f else "false" for f in (copies, prefetch))
                    sh = f", {{{rows}, {flags}}}" if base == STAGED else ""
                    lines.append(f"    {{{size}, {height}, {total}, {enum}::{base}{sh}}},")
                else:
                    lines.append(f"    {{{size}, {total}, {enum}::{sched}}},")
            lines.append("};")
            lines.append("")
        lines.append("}  // namespace hinesbatch::impl")
        name = "auto_thomas_vbatch_table.hpp" if family == "ThomasV" else \
            f"auto_{family.lower()}_table.hpp"
        with open(os.path.join(folder, name), "w") as f:
            f.write("\n".join(lines) + "\n")
        written.append(name)
    print("auto tables:", ", ".join(written) or "none", file=sys.stderr)


TABLE_LINE = re.compile(r"\{(\d+), (\d+), (\d+), HinesSchedule::(\w+)"
                        r"(?:, \{(\d+), (true|false), (true|false)\})?\},")


def read_hines_table(path):
    """(source, {layout: [(size, height, total, schedule)]}) of an auto_hines_table.hpp, the
    staged schedule's shape as emit_auto_tables writes it ("PerSystemStaged@32a")."""
    text = open(path).read()
    m = re.search(r"solver map in\s+(?://\s*)?(.*?) \(fp64\)", text, re.S)
    source = re.sub(r"\s*\n//\s*", " ", m.group(1)) if m else "an earlier map"
    table, layout = {}, None
    for line in text.splitlines():
        a = re.match(r"inline constexpr .* kHinesAuto(\w+)\[\]", line)
        if a:
            layout = a.group(1)
            table[layout] = []
            continue
        e = TABLE_LINE.search(line)
        if e and layout:
            size, height, total, sched = int(e[1]), int(e[2]), int(e[3]), e[4]
            if sched == STAGED and e[5]:
                shape = (int(e[5]), e[6] == "true", e[7] == "true")
                names = [k for k, v in STAGED_SHAPES[layout].items() if v == shape]
                if not names:
                    sys.exit(f"solver_map.py: {path}: no shape name for {shape} in {layout}")
                if names[0] != "16":
                    sched += "@" + names[0]
            table[layout].append((size, height, total, sched))
    return source, table


def admit_schedule(points, schedule, folder, results, keep_within=0.95):
    """Rewrites FOLDER/auto_hines_table.hpp with `schedule` admitted from a map that measured
    it beside Auto: at each point of the table that map has, the schedule replaces the
    table's choice where its geometric mean over the trees there is at least 1/keep_within of
    Auto's (measured in the same run); every other point keeps its choice. Returns the points
    changed."""
    path = os.path.join(folder, "auto_hines_table.hpp")
    source, old = read_hines_table(path)
    cells = collections.defaultdict(lambda: collections.defaultdict(dict))
    for p in points:
        if p.family == "Hines" and p.backend == "Device" and not p.error and p.rate > 0:
            cells[(p.layout, p.size, p.height, p.total)][p.tree][p.schedule] = p.rate
    table, changed = {}, []
    for layout, entries in old.items():
        rows = []
        for size, height, total, sched in entries:
            trees = cells.get((layout, size, height, total), {})
            pairs = [(t[schedule], t["Auto"]) for t in trees.values() if schedule in t and "Auto" in t]
            if pairs and len(pairs) == len(trees):
                gain = math.exp(sum(math.log(a / b) for a, b in pairs) / len(pairs))
                if gain >= 1 / keep_within and sched != schedule:
                    changed.append((layout, size, height, total, sched, gain))
                    sched = schedule
            rows.append((size, height, total, sched))
        table[("Hines", layout)] = rows
    # A map that moves no point leaves the table (and its record of sources) as it is.
    if changed:
        emit_auto_tables(table, folder,
                         f"{source}; {schedule} where it beat Auto by 5% in {os.path.normpath(results)}")
    return changed


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results")
    ap.add_argument("--figures", default="docs/figures")
    ap.add_argument("--tables", default=None)
    ap.add_argument("--emit-auto-tables", default=None, metavar="FOLDER",
                    help="write the C++ tables Auto reads on GPUs, auto_thomas_table.hpp, "
                         "auto_thomas_vbatch_table.hpp and auto_hines_table.hpp (those of the "
                         "families the map has), into FOLDER (src/solvers)")
    ap.add_argument("--admit", default=None, metavar="SCHEDULE",
                    help="with --emit-auto-tables, for a map that measured a Hines SCHEDULE "
                         "beside Auto at some points: keep FOLDER's auto_hines_table.hpp and "
                         "let SCHEDULE take the points where it beat Auto by 5%% or more")
    a = ap.parse_args()
    if a.admit:
        if not a.emit_auto_tables:
            sys.exit("solver_map.py: --admit needs --emit-auto-tables FOLDER")
        points = []
        for f in sorted(os.listdir(a.results)):
            if re.match(r"map.*\.json(\.xz)?$", f):
                points += load_map(os.path.join(a.results, re.sub(r"\.xz$", "", f)))[1]
        for c in admit_schedule(points, a.admit, a.emit_auto_tables, a.results):
            print("%s n=%d h=%d 2^%d: %s -> %s (%.2fx Auto)" % (c[0], c[1], c[2], c[3], c[4],
                                                               a.admit, c[5]))
        return
    points, context = [], {}
    for f in ("map_device.json", "map_host.json"):
        p = os.path.join(a.results, f)
        if exists_raw(p):
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
    if a.emit_auto_tables:
        shaped = []
        for f in ("map_device.json", "map_host.json"):
            p = os.path.join(a.results, f)
            if exists_raw(p):
                shaped += load_map(p, shapes=True)[1]
        emit_auto_tables(auto_table(shaped), a.emit_auto_tables, os.path.normpath(a.results))


if __name__ == "__main__":
    main()
