#!/usr/bin/python3
"""Figures and tables shaped like the papers' from HinesBatch's benchmark output.

    scripts/plot_performance.py [--out docs/figures] FILE_OR_DIR...

Reads (directories are searched recursively for *.json):
  - Google Benchmark JSON of hinesbatch_perf_tests (Mono/..., BlockSize/..., ThomasBatch/...,
    ThomasVBatch/..., ThomasAccuracy/..., Multi/Fig6|Fig14|RealMixed/...);
  - peer programs' JSON ({"context": {"program": ...}, "results": [...]}): cusparse_tridiagonal
    (method, m, N, grows_per_s, error, workspace_bytes) and Hines peers (method, class or
    nodes, N, a G nodes/s field);
  - hinesbatch_multi_gpu JSON (ranks, layout, class, N, seconds, gnodes_per_s).
Writes PNG figures into --out and one Markdown file, TABLES.md, with the numbers of every
figure. A figure whose data is absent is skipped with a printed note. Needs only
matplotlib (Debian's python3-matplotlib).

Speed-up is over one sequential core (Mono/Sequential, ThomasBatch/Sequential), on the same
batch; where the sequential run is absent for a batch size (e.g. the multi-GPU sizes past
256,000) the sequential rate (nodes/s) of the largest batch measured is used, and the table
says so.
"""
import argparse
import collections
import glob
import json
import logging
import math
import os
import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

logging.getLogger("matplotlib.legend").setLevel(logging.ERROR)  # empty panels: no legend

CLASSES = ["small-low", "small-high", "medium-low", "medium-high", "big-low", "big-high"]
FIG3_CLASS = "medium-high"
MONO_METHODS = ["Sequential", "Multicore", "Flat", "FullInterleaved", "BlockInterleaved", "BlockShared"]
STYLE = {
    "Sequential": dict(color="black", marker="x"),
    "Multicore": dict(color="tab:gray", marker="s"),
    "Flat": dict(color="tab:blue", marker="v"),
    "FullInterleaved": dict(color="tab:red", marker="o"),
    "BlockInterleaved": dict(color="tab:orange", marker="^"),
    "BlockShared": dict(color="tab:purple", marker="D"),
    "cusparse_gtsv2StridedBatch": dict(color="tab:green", marker="P", linestyle="--"),
    "cusparse_gtsvInterleavedBatch_algo0": dict(color="tab:olive", marker="*", linestyle="--"),
    "cusparse_gtsvInterleavedBatch_algo1": dict(color="tab:cyan", marker="h", linestyle="--"),
    "cusparse_gtsvInterleavedBatch_algo2": dict(color="tab:pink", marker="p", linestyle="--"),
    "cuThomasBatch_reference": dict(color="tab:brown", marker="d", linestyle=":"),
}


def style(name, i=0):
    if name in STYLE:
        return dict(STYLE[name])
    cycle = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    markers = "os^vD<>phP*"
    return dict(color=cycle[i % len(cycle)], marker=markers[i % len(markers)])


def fmt(v, digits=3):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if isinstance(v, int):
        return f"{v:,}"
    if v != 0 and (abs(v) < 1e-3 or abs(v) >= 1e6):
        return f"{v:.2e}"
    return f"{v:.{digits}g}" if abs(v) < 1000 else f"{v:,.0f}"


class Data:
    def __init__(self):
        # Google Benchmark entries, keyed by a tuple; value: dict with t (s), rate (1/s), etc.
        self.mono = {}  # (method, class, N) -> {t, rate}
        self.blocksize = {}  # (layout, bs) -> {rate, actual_bs}
        self.thomas = {}  # (method, type, m, N) -> {t, rate, bytes_allocated}
        self.vbatch = {}  # (method, type, N) -> {rate}
        self.accuracy = {}  # (type, m) -> max_rel_error
        self.fig6 = {}  # (ratio, path) -> rate
        self.fig14 = {}  # (levels, N, path) -> rate
        self.real = {}  # (N, path) -> {rate, plan_seconds}
        self.peers = {}  # (method, type, m, N) -> result dict
        self.hines_peers = {}  # (method, class, N) -> rate
        self.multigpu = {}  # (ranks, layout, class, N) -> result dict
        self.sources = collections.OrderedDict()  # file -> description
        self.copy_bw = set()
        self.devices = set()


def load_benchmark(d, path, j):
    ctx = j.get("context", {})
    bw = ctx.get("copy_bandwidth_GBps")
    if bw:
        d.copy_bw.add(f"{float(bw):.0f} GB/s ({ctx.get('execution_space', '?')})")
    n = 0
    for b in j.get("benchmarks", []):
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        name = re.sub(r"/(manual_time|iterations:\d+|real_time)$", "", b["name"])
        p = name.split("/")
        unit = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
        t = b.get("real_time", 0) * unit
        rate = b.get("nodes_per_s") or b.get("rows_per_s") or b.get("items_per_second")
        rec = dict(t=t, rate=rate, counters=b)
        try:
            if p[0] == "Mono":
                d.mono[(p[1], p[2], int(p[3]))] = rec
            elif p[0] == "BlockSize":
                d.blocksize[(p[1], int(p[2]))] = dict(rate=rate, actual=b.get("block_size"))
            elif p[0] == "ThomasBatch":
                d.thomas[(p[1], p[2], int(p[3]), int(p[4]))] = dict(
                    t=t, rate=rate, bytes_allocated=b.get("bytes_allocated"))
            elif p[0] == "ThomasVBatch":
                d.vbatch[(p[1], p[2], int(p[3]))] = dict(t=t, rate=rate)
            elif p[0] == "ThomasAccuracy":
                d.accuracy[(p[1], int(p[2]))] = b.get("max_rel_error")
            elif p[0] == "Multi" and p[1] == "Fig6":
                d.fig6[(int(p[2].replace("branch", "")), p[4])] = rate
            elif p[0] == "Multi" and p[1] == "Fig14":
                d.fig14[(int(p[2].replace("levels", "")), int(p[3]), p[4])] = rate
            elif p[0] == "Multi" and p[1] == "RealMixed":
                d.real[(int(p[2]), p[3])] = dict(rate=rate, plan=b.get("plan_seconds"))
            else:
                continue
            n += 1
        except (IndexError, ValueError):
            print(f"note: {path}: unrecognised benchmark name {b['name']}")
    return n


def gnodes_field(r):
    for k in ("gnodes_per_s", "g_nodes_per_s", "gnodes", "grows_per_s"):
        if isinstance(r.get(k), (int, float)):
            return r[k] * 1e9
    for k in ("nodes_per_s", "rows_per_s"):
        if isinstance(r.get(k), (int, float)):
            return r[k]
    return None


def load_results(d, path, j):
    ctx = j.get("context", {})
    prog = ctx.get("program", "")
    if ctx.get("device"):
        d.devices.add(str(ctx["device"]))
    n = 0
    for r in j.get("results", []):
        if r.get("status", "ok") != "ok":
            continue
        if prog == "hinesbatch_multi_gpu":
            d.multigpu[(int(r["ranks"]), r["layout"], r["class"], int(r["N"]))] = r
        elif "m" in r and "method" in r:
            ty = r.get("type", ctx.get("type", "f64"))
            d.peers[(r["method"], ty, int(r["m"]), int(r["N"]))] = r
        elif "method" in r and ("class" in r or "nodes" in r):
            rate = gnodes_field(r)
            cls = r.get("class", f"{r.get('nodes')} nodes")
            N = r.get("N", r.get("cells", r.get("systems")))
            if rate is None or N is None:
                continue
            d.hines_peers[(r["method"], cls, int(N))] = rate
        else:
            continue
        n += 1
    return n


def load(paths):
    d = Data()
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "**", "*.json"), recursive=True))
        else:
            files.append(p)
    for f in files:
        try:
            with open(f) as fh:
                text = fh.read()
            try:
                j = json.loads(text)
            except json.JSONDecodeError:
                # A benchmark run cut short by a time limit: keep its complete entries.
                cut = text.rfind("\n    }")
                if cut < 0 or '"benchmarks"' not in text:
                    raise
                j = json.loads(text[: cut + 6] + "\n  ]\n}\n")
                print(f"note: {f}: truncated JSON repaired (run cut short)")
        except (OSError, json.JSONDecodeError) as e:
            print(f"note: {f}: not read ({e.__class__.__name__})")
            continue
        if not isinstance(j, dict):
            continue
        if "benchmarks" in j:
            n = load_benchmark(d, f, j)
        elif "results" in j:
            n = load_results(d, f, j)
        else:
            n = 0
        if n:
            d.sources[f] = n
    return d


class Report:
    def __init__(self, out):
        self.out = out
        self.md = []
        self.made = []

    def note(self, msg):
        print(f"skipped: {msg}")
        self.md.append(f"*Skipped: {msg}*\n")

    def section(self, title, png=None):
        self.md.append(f"\n## {title}\n")
        if png:
            self.md.append(f"![{title}]({png})\n")

    def table(self, header, rows):
        self.md.append("| " + " | ".join(header) + " |")
        self.md.append("|" + "---|" * len(header))
        for r in rows:
            self.md.append("| " + " | ".join(fmt(v) if not isinstance(v, str) else v for v in r) + " |")
        self.md.append("")

    def save(self, fig, name):
        path = os.path.join(self.out, name)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        self.made.append(path)
        print(f"wrote {path}")


def seq_rate(d, cls, N):
    """Sequential nodes/s for (cls, N); falls back to the largest N measured."""
    r = d.mono.get(("Sequential", cls, N))
    if r:
        return r["rate"], False
    ns = sorted(n for (m, c, n) in d.mono if m == "Sequential" and c == cls)
    if not ns:
        return None, False
    return d.mono[("Sequential", cls, ns[-1])]["rate"], True


def speedup_axes(ax, title):
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("neurons (N)")
    ax.set_ylabel("speed-up over 1 sequential core")
    ax.set_title(title)
    ax.grid(True, which="both", alpha=0.3)


def fig3(d, rep):
    rep.section("P1 Fig. 3 — speed-up vs. neurons, " + FIG3_CLASS, "fig3_speedup_medium_high.png")
    methods = [m for m in MONO_METHODS[1:] if any(k[0] == m and k[1] == FIG3_CLASS for k in d.mono)]
    if not methods or not any(k[0] == "Sequential" for k in d.mono):
        return rep.note("Fig. 3: no Mono/* results with Mono/Sequential for " + FIG3_CLASS)
    fig, ax = plt.subplots(figsize=(7, 5))
    Ns = sorted({k[2] for k in d.mono if k[1] == FIG3_CLASS})
    rows = collections.OrderedDict((N, {}) for N in Ns)
    for i, m in enumerate(methods):
        xs, ys = [], []
        for N in Ns:
            r = d.mono.get((m, FIG3_CLASS, N))
            s, _ = seq_rate(d, FIG3_CLASS, N)
            if r and s:
                xs.append(N)
                ys.append(r["rate"] / s)
                rows[N][m] = r["rate"] / s
        ax.plot(xs, ys, label=m + (" (16 cores)" if m == "Multicore" else ", 1 GPU"), **style(m, i))
    extra = []
    ranks = sorted({k[0] for k in d.multigpu if k[2] == FIG3_CLASS})
    for i, R in enumerate(ranks):
        for lay in ("FullInterleaved", "Flat"):
            pts = sorted((k[3], v) for k, v in d.multigpu.items()
                         if k[0] == R and k[1] == lay and k[2] == FIG3_CLASS)
            xs, ys = [], []
            for N, v in pts:
                s, extrap = seq_rate(d, FIG3_CLASS, N)
                if s:
                    xs.append(N)
                    ys.append(v["gnodes_per_s"] * 1e9 / s)
                    rows.setdefault(N, {})[f"{lay} {R} GPU(s) (MPI)"] = ys[-1]
                    if extrap:
                        extra.append(N)
            if xs:
                st = style(lay, i)
                st["linestyle"] = "--" if R > 1 else "-."
                ax.plot(xs, ys, label=f"{lay}, {R} rank(s) (MPI)", **st)
    for (meth, cls, N), rate in d.hines_peers.items():
        if cls == FIG3_CLASS:
            s, _ = seq_rate(d, FIG3_CLASS, N)
            if s:
                rows.setdefault(N, {})[f"peer {meth}"] = rate / s
    for i, meth in enumerate(sorted({k[0] for k in d.hines_peers if k[1] == FIG3_CLASS})):
        pts = sorted((k[2], v) for k, v in d.hines_peers.items() if k[0] == meth and k[1] == FIG3_CLASS)
        xs = [N for N, v in pts if seq_rate(d, FIG3_CLASS, N)[0]]
        ys = [v / seq_rate(d, FIG3_CLASS, N)[0] for N, v in pts if seq_rate(d, FIG3_CLASS, N)[0]]
        ax.plot(xs, ys, label=f"peer: {meth}", linestyle=":", **{k: v for k, v in style(meth, i + 5).items() if k != "linestyle"})
    speedup_axes(ax, f"Mono-morphology, {FIG3_CLASS}, double")
    ax.legend(fontsize=8)
    rep.save(fig, "fig3_speedup_medium_high.png")
    cols = []
    for r in rows.values():
        cols += [c for c in r if c not in cols]
    rep.table(["N"] + cols, [[N] + [r.get(c) for c in cols] for N, r in sorted(rows.items())])
    if extra:
        rep.md.append(f"Sequential rate of the largest measured batch used for N = "
                      f"{', '.join(f'{n:,}' for n in sorted(set(extra)))}.\n")


def fig4(d, rep):
    rep.section("P1 Fig. 4 — block size sweep (medium-high, 256,000 neurons)", "fig4_block_size.png")
    if not d.blocksize:
        return rep.note("Fig. 4: no BlockSize/* results")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    bss = sorted({k[1] for k in d.blocksize})
    for i, lay in enumerate(sorted({k[0] for k in d.blocksize})):
        pts = [(bs, d.blocksize[(lay, bs)]["rate"] * 1e-9) for bs in bss if (lay, bs) in d.blocksize]
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=lay, **style(lay, i))
    fi = d.mono.get(("FullInterleaved", FIG3_CLASS, 256000))
    if fi:
        ax.axhline(fi["rate"] * 1e-9, color=STYLE["FullInterleaved"]["color"], linestyle="--",
                   label="FullInterleaved")
    ax.set_xscale("log", base=2)
    ax.set_xticks(bss)
    ax.set_xticklabels([str(b) for b in bss])
    ax.set_xlabel("block size BS (requested)")
    ax.set_ylabel("G nodes/s")
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Block-Interleaved / Block-Shared, medium-high, N = 256,000, double")
    rep.save(fig, "fig4_block_size.png")
    lays = sorted({k[0] for k in d.blocksize})
    rep.table(["BS"] + [f"{l} G nodes/s (BS used)" for l in lays],
              [[bs] + [f"{fmt(d.blocksize[(l, bs)]['rate'] * 1e-9)} ({fmt(d.blocksize[(l, bs)]['actual'])})"
                       if (l, bs) in d.blocksize else "–" for l in lays] for bs in bss])
    if fi:
        rep.md.append(f"FullInterleaved at the same size: {fmt(fi['rate'] * 1e-9)} G nodes/s.\n")


def fig5(d, rep):
    rep.section("P1 Fig. 5 — the six morphology classes: speed-up vs. neurons", "fig5_classes_speedup.png")
    classes = [c for c in CLASSES if any(k[1] == c for k in d.mono)]
    if not classes or not any(k[0] == "Sequential" for k in d.mono):
        return rep.note("Fig. 5: no Mono/* results with Mono/Sequential")
    fig, axs = plt.subplots(2, 3, figsize=(13, 8), sharey=True)
    rows = []
    for ax, cls in zip(axs.flat, CLASSES):
        Ns = sorted({k[2] for k in d.mono if k[1] == cls})
        for i, m in enumerate(("Multicore", "FullInterleaved", "Flat", "BlockInterleaved")):
            xs, ys = [], []
            for N in Ns:
                r = d.mono.get((m, cls, N))
                s, _ = seq_rate(d, cls, N)
                if r and s:
                    xs.append(N)
                    ys.append(r["rate"] / s)
            if xs:
                ax.plot(xs, ys, label=m, **style(m, i))
        mg = sorted((k[3], v["gnodes_per_s"] * 1e9) for k, v in d.multigpu.items()
                    if k[2] == cls and k[1] == "FullInterleaved" and k[0] == max(
                        [kk[0] for kk in d.multigpu if kk[2] == cls] or [0]) and k[0] > 1)
        if mg and seq_rate(d, cls, mg[0][0])[0]:
            R = max(kk[0] for kk in d.multigpu if kk[2] == cls)
            ax.plot([p[0] for p in mg], [p[1] / seq_rate(d, cls, p[0])[0] for p in mg],
                    label=f"FullInterleaved, {R} GPUs", color="tab:red", linestyle="--", marker="o")
        speedup_axes(ax, cls)
        ax.legend(fontsize=7)
        for N in Ns:
            s, _ = seq_rate(d, cls, N)
            row = [cls, N, s * 1e-9 if s else None]
            for m in MONO_METHODS[1:]:
                r = d.mono.get((m, cls, N))
                row.append(r["rate"] / s if r and s else None)
            rows.append(row)
    rep.save(fig, "fig5_classes_speedup.png")
    rep.table(["class", "N", "Sequential G nodes/s"] + [f"{m} speed-up" for m in MONO_METHODS[1:]], rows)


def fig_class_bars(d, rep):
    N = max([k[2] for k in d.mono] or [0])
    rep.section(f"Six classes at N = {N:,}: G nodes/s per layout (bars)", "fig_classes_bars.png")
    if not d.mono:
        return rep.note("class bars: no Mono/* results")
    methods = [m for m in MONO_METHODS if any(k[0] == m and k[2] == N for k in d.mono)]
    fig, ax = plt.subplots(figsize=(11, 4.8))
    w = 0.8 / max(1, len(methods))
    for i, m in enumerate(methods):
        ys = [(d.mono.get((m, c, N)) or {}).get("rate") or 0 for c in CLASSES]
        ax.bar([x + i * w for x in range(len(CLASSES))], [y * 1e-9 for y in ys], w, label=m,
               color=style(m, i)["color"])
    ax.set_xticks([x + w * (len(methods) - 1) / 2 for x in range(len(CLASSES))])
    ax.set_xticklabels(CLASSES)
    ax.set_yscale("log")
    ax.set_ylabel("G nodes/s (log)")
    ax.set_title(f"Mono-morphology, N = {N:,}, double")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize=8, ncol=3)
    rep.save(fig, "fig_classes_bars.png")
    rep.table(["class"] + methods,
              [[c] + [((d.mono.get((m, c, N)) or {}).get("rate") or float("nan")) * 1e-9 for m in methods]
               for c in CLASSES])


def fig6(d, rep):
    rep.section("P2 Fig. 6 — multi-morphology: 25,600 cells of 512 nodes, branch ratio 10% / 50%",
                "fig6_multi_morphology.png")
    if not d.fig6:
        return rep.note("Fig. 6: no Multi/Fig6/* results")
    paths = [p for p in ("Mono", "Naive", "NaiveSorted", "LevelLaunches", "TeamLevels")
             if any(k[1] == p for k in d.fig6)]
    ratios = sorted({k[0] for k in d.fig6})
    fig, ax = plt.subplots(figsize=(8, 4.5))
    w = 0.8 / len(paths)
    for i, p in enumerate(paths):
        ax.bar([x + i * w for x in range(len(ratios))], [(d.fig6.get((r, p)) or 0) * 1e-9 for r in ratios],
               w, label=p)
    ax.set_xticks([x + w * (len(paths) - 1) / 2 for x in range(len(ratios))])
    ax.set_xticklabels([f"branch ratio {r}%" for r in ratios])
    ax.set_ylabel("G nodes/s")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title("Mono (one tree) vs. different trees, double")
    rep.save(fig, "fig6_multi_morphology.png")
    rep.table(["branch ratio"] + paths, [[f"{r}%"] + [(d.fig6.get((r, p)) or float("nan")) * 1e-9 for p in paths]
                                         for r in ratios])


def thomas_methods(d, ty):
    ours = [m for m in ("Sequential", "Multicore", "Flat", "FullInterleaved", "BlockInterleaved")
            if any(k[0] == m and k[1] == ty for k in d.thomas)]
    peers = sorted({k[0] for k in d.peers if k[1] == ty})
    return ours, peers


def thomas_rate(d, meth, ty, m, N):
    r = d.thomas.get((meth, ty, m, N))
    if r:
        return r["rate"]
    p = d.peers.get((meth, ty, m, N))
    return p["grows_per_s"] * 1e9 if p else None


def fig9_10(d, rep, ty, fignum):
    name = f"fig{fignum}_thomas_{ty}.png"
    rep.section(f"P2 Fig. {fignum} — ThomasBatch vs. cuSPARSE, {ty}: G rows/s vs. systems", name)
    ours, peers = thomas_methods(d, ty)
    ms = sorted({k[2] for k in d.thomas if k[1] == ty} | {k[2] for k in d.peers if k[1] == ty})
    if not ms:
        return rep.note(f"Fig. {fignum}: no ThomasBatch/*/{ty} or peer results")
    cols = min(4, len(ms))
    nrows = math.ceil(len(ms) / cols)
    fig, axs = plt.subplots(nrows, cols, figsize=(4 * cols, 3.6 * nrows), squeeze=False)
    rows = []
    for ax, m in zip(axs.flat, ms):
        Ns = sorted({k[3] for k in d.thomas if k[1] == ty and k[2] == m} |
                    {k[3] for k in d.peers if k[1] == ty and k[2] == m})
        for i, meth in enumerate(ours + peers):
            pts = [(N, thomas_rate(d, meth, ty, m, N)) for N in Ns]
            pts = [(N, r) for N, r in pts if r]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] * 1e-9 for p in pts],
                        label=meth.replace("cusparse_", "").replace("_reference", ""), **style(meth, i))
        for N in Ns:
            rows.append([m, N] + [(thomas_rate(d, meth, ty, m, N) or float("nan")) * 1e-9 for meth in ours + peers])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(f"m = {m}")
        ax.set_xlabel("systems (N)")
        ax.set_ylabel("G rows/s")
        ax.grid(True, which="both", alpha=0.3)
    for ax in list(axs.flat)[len(ms):]:
        ax.axis("off")
    axs.flat[0].legend(fontsize=6)
    fig.suptitle(f"Tridiagonal batches, {ty}" + (f" — peers on {', '.join(sorted(d.devices))}" if peers else ""))
    rep.save(fig, name)
    rep.table(["m", "N"] + [m.replace("cusparse_", "") for m in ours + peers], rows)


def fig11(d, rep):
    rep.section("P2 Fig. 11 — ThomasBatch vs. cuSPARSE vs. system size m (largest N of each group)",
                "fig11_thomas_vs_m.png")
    types = sorted({k[1] for k in d.thomas} | {k[1] for k in d.peers})
    if not types:
        return rep.note("Fig. 11: no tridiagonal results")
    fig, axs = plt.subplots(1, len(types), figsize=(6.5 * len(types), 4.5), squeeze=False)
    rows = []
    for ax, ty in zip(axs.flat, types):
        ours, peers = thomas_methods(d, ty)
        ms = sorted({k[2] for k in d.thomas if k[1] == ty} | {k[2] for k in d.peers if k[1] == ty})
        bestN = {}
        for m in ms:
            Ns = {k[3] for k in d.thomas if k[1] == ty and k[2] == m} | {k[3] for k in d.peers if k[1] == ty and k[2] == m}
            bestN[m] = max(Ns)
        for i, meth in enumerate(ours + peers):
            pts = [(m, thomas_rate(d, meth, ty, m, bestN[m])) for m in ms]
            pts = [(m, r) for m, r in pts if r]
            if pts:
                ax.plot([p[0] for p in pts], [p[1] * 1e-9 for p in pts],
                        label=meth.replace("cusparse_", "").replace("_reference", ""), **style(meth, i))
        for m in ms:
            base = thomas_rate(d, "cusparse_gtsv2StridedBatch", ty, m, bestN[m])
            fi = thomas_rate(d, "FullInterleaved", ty, m, bestN[m])
            rows.append([ty, m, bestN[m], (fi or float("nan")) * 1e-9, (base or float("nan")) * 1e-9,
                         fi / base if fi and base else None])
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("system size m (N = 256,000 for m ≤ 512, 20,000 above)")
        ax.set_ylabel("G rows/s")
        ax.set_title(ty)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    rep.save(fig, "fig11_thomas_vs_m.png")
    rep.table(["type", "m", "N", "FullInterleaved G rows/s", "gtsv2StridedBatch G rows/s",
               "speed-up over gtsv2StridedBatch"], rows)


def fig12a(d, rep):
    rep.section("P2 Fig. 12a — accuracy: largest relative error vs. m", "fig12a_accuracy.png")
    if not d.accuracy and not d.peers:
        return rep.note("Fig. 12a: no ThomasAccuracy/* or peer results")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    rows = collections.defaultdict(dict)
    for i, ty in enumerate(sorted({k[0] for k in d.accuracy})):
        pts = sorted((m, e) for (t, m), e in d.accuracy.items() if t == ty)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], label=f"HinesBatch ThomasBatch {ty}",
                marker="o", color=["tab:red", "tab:orange"][i % 2])
        for m, e in pts:
            rows[(ty, m)]["HinesBatch"] = e
    for i, (meth, ty) in enumerate(sorted({(k[0], k[1]) for k in d.peers})):
        pts = {}
        for (mm, t, m, N), r in d.peers.items():
            if mm == meth and t == ty and r.get("error") is not None:
                pts[m] = max(pts.get(m, 0), r["error"])
        if pts:
            st = style(meth, i)
            ax.plot(sorted(pts), [pts[m] for m in sorted(pts)], label=f"{meth.replace('cusparse_', '')} {ty}",
                    **st)
            for m in pts:
                rows[(ty, m)][meth.replace("cusparse_", "")] = pts[m]
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("system size m")
    ax.set_ylabel("largest relative error")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)
    rep.save(fig, "fig12a_accuracy.png")
    cols = []
    for r in rows.values():
        cols += [c for c in r if c not in cols]
    rep.table(["type", "m"] + cols, [[t, m] + [rows[(t, m)].get(c) for c in cols] for (t, m) in sorted(rows)])


def fig12b(d, rep):
    rep.section("P2 Fig. 12b — device memory per row (coefficients + workspace)", "fig12b_memory.png")
    pts = collections.defaultdict(dict)  # (ty) -> {method: {m: bytes/row}}
    for (meth, ty, m, N), r in d.thomas.items():
        if meth in ("FullInterleaved", "Flat") and r.get("bytes_allocated"):
            pts[ty].setdefault(f"HinesBatch {meth}", {})[m] = r["bytes_allocated"] / (m * N)
    for (meth, ty, m, N), r in d.peers.items():
        size = 8 if ty == "f64" else 4
        if r.get("workspace_bytes") is not None:
            pts[ty].setdefault(meth.replace("cusparse_", ""), {})[m] = 4 * size + r["workspace_bytes"] / (m * N)
    if not pts:
        return rep.note("Fig. 12b: no bytes_allocated / workspace data")
    fig, axs = plt.subplots(1, len(pts), figsize=(6.5 * len(pts), 4.5), squeeze=False)
    rows = []
    for ax, ty in zip(axs.flat, sorted(pts)):
        for i, (meth, v) in enumerate(sorted(pts[ty].items())):
            key = meth.replace("HinesBatch ", "")
            ax.plot(sorted(v), [v[m] for m in sorted(v)], label=meth,
                    **style("cusparse_" + key if "gtsv" in key else key, i))
            rows += [[ty, meth, m, v[m]] for m in sorted(v)]
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("system size m")
        ax.set_ylabel("bytes per row")
        ax.set_title(f"{ty} (a, b, c, d + workspace)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=6)
    rep.save(fig, "fig12b_memory.png")
    rep.table(["type", "method", "m", "bytes/row"], rows)


def fig13(d, rep):
    rep.section("P2 Fig. 13 — ThomasVBatch: sizes 256..512, padding strategies", "fig13_vbatch.png")
    if not d.vbatch:
        return rep.note("Fig. 13: no ThomasVBatch/* results")
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    meths = [m for m in ("ComputingPadding", "NoComputingPadding", "Packed", "Fixed256", "Fixed512")
             if any(k[0] == m for k in d.vbatch)]
    rows = []
    for ty, ls in (("f64", "-"), ("f32", "--")):
        for i, meth in enumerate(meths):
            pts = sorted((N, v["rate"]) for (m, t, N), v in d.vbatch.items() if m == meth and t == ty)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] * 1e-9 for p in pts], linestyle=ls, marker="os^vD"[i],
                        color=f"C{i}", label=f"{meth} {ty}")
        for N in sorted({k[2] for k in d.vbatch if k[1] == ty}):
            rows.append([ty, N] + [((d.vbatch.get((m, ty, N)) or {}).get("rate") or float("nan")) * 1e-9
                                   for m in meths])
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("systems (N)")
    ax.set_ylabel("G rows/s (real rows)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7)
    rep.save(fig, "fig13_vbatch.png")
    rep.table(["type", "N"] + meths, rows)


def fig14(d, rep):
    rep.section("P2 Fig. 14 — multi-morphology levels: 512-node binary trees of 2, 3, 4 levels",
                "fig14_levels.png")
    if not d.fig14:
        return rep.note("Fig. 14: no Multi/Fig14/* results")
    levels = sorted({k[0] for k in d.fig14})
    paths = [p for p in ("Mono", "Naive", "LevelLaunches", "TeamLevels") if any(k[2] == p for k in d.fig14)]
    fig, axs = plt.subplots(1, len(levels), figsize=(5 * len(levels), 4.3), squeeze=False, sharey=True)
    rows = []
    for ax, L in zip(axs.flat, levels):
        Ns = sorted({k[1] for k in d.fig14 if k[0] == L})
        for i, p in enumerate(paths):
            pts = [(N, d.fig14.get((L, N, p))) for N in Ns]
            pts = [x for x in pts if x[1]]
            ax.plot([x[0] for x in pts], [x[1] * 1e-9 for x in pts], label=p, marker="os^vD"[i], color=f"C{i}")
        mc = d.mono.get(("Multicore", FIG3_CLASS, 256000))
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("neurons (N)")
        ax.set_ylabel("G nodes/s")
        ax.set_title(f"{L} levels")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
        rows += [[L, N] + [(d.fig14.get((L, N, p)) or float("nan")) * 1e-9 for p in paths] for N in Ns]
    rep.save(fig, "fig14_levels.png")
    rep.table(["levels", "N"] + paths, rows)


def fig_real(d, rep):
    rep.section("Mixed real cells (NeuroMorpho files cycled): G nodes/s per path", "fig_real_mixed.png")
    if not d.real:
        return rep.note("real mixed: no Multi/RealMixed/* results")
    Ns = sorted({k[0] for k in d.real})
    paths = [p for p in ("Naive", "NaiveSorted", "LevelLaunches", "TeamLevels") if any(k[1] == p for k in d.real)]
    fig, ax = plt.subplots(figsize=(8, 4.5))
    w = 0.8 / len(paths)
    for i, p in enumerate(paths):
        ax.bar([x + i * w for x in range(len(Ns))], [((d.real.get((N, p)) or {}).get("rate") or 0) * 1e-9 for N in Ns],
               w, label=p)
    ax.set_xticks([x + w * (len(paths) - 1) / 2 for x in range(len(Ns))])
    ax.set_xticklabels([f"{N:,} cells" for N in Ns])
    ax.set_ylabel("G nodes/s")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    rep.save(fig, "fig_real_mixed.png")
    rows = []
    for N in Ns:
        plan = max([(d.real.get((N, p)) or {}).get("plan") or 0 for p in paths])
        rows.append([N] + [((d.real.get((N, p)) or {}).get("rate") or float("nan")) * 1e-9 for p in paths]
                    + [plan or None])
    rep.table(["cells"] + paths + ["planner s"], rows)


def fig_multigpu(d, rep):
    rep.section("Multi-GPU (P1 Fig. 3, 1 vs. 2 GPUs): G nodes/s and speed-up over 1 rank", "fig_multigpu.png")
    if not d.multigpu:
        return rep.note("multi-GPU: no hinesbatch_multi_gpu JSON")
    ranks = sorted({k[0] for k in d.multigpu})
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(13, 4.8))
    for i, R in enumerate(ranks):
        for lay, ls in (("FullInterleaved", "-"), ("BlockInterleaved", ":"), ("Flat", "--")):
            pts = sorted((k[3], v["gnodes_per_s"]) for k, v in d.multigpu.items()
                         if k[0] == R and k[1] == lay and k[2] == FIG3_CLASS)
            if pts:
                a1.plot([p[0] for p in pts], [p[1] for p in pts], linestyle=ls, marker="os^D"[i % 4],
                        color=f"C{i}", label=f"{lay}, {R} rank(s)")
    a1.set_xscale("log")
    a1.set_yscale("log")
    a1.set_xlabel("neurons (N)")
    a1.set_ylabel("G nodes/s")
    a1.set_title(f"{FIG3_CLASS}, double")
    a1.grid(True, which="both", alpha=0.3)
    a1.legend(fontsize=7)
    rows = []
    if 1 in ranks:
        for j, cls in enumerate(CLASSES):
            for R in ranks[1:]:
                pts = []
                for (r, lay, c, N), v in sorted(d.multigpu.items()):
                    base = d.multigpu.get((1, lay, c, N))
                    if r == R and c == cls and lay == "FullInterleaved" and base:
                        pts.append((N, base["seconds"] / v["seconds"]))
                if pts:
                    a2.plot([p[0] for p in pts], [p[1] for p in pts], marker="os^vD<"[j], color=f"C{j}",
                            linestyle="-" if R == 2 else "--", label=f"{cls}, {R} ranks")
        for (r, lay, c, N), v in sorted(d.multigpu.items(), key=lambda kv: (kv[0][1], CLASSES.index(kv[0][2])
                                                                            if kv[0][2] in CLASSES else 9, kv[0][3], kv[0][0])):
            base = d.multigpu.get((1, lay, c, N))
            rows.append([lay, c, N, r, v["seconds"] * 1e3, v["gnodes_per_s"],
                         base["seconds"] / v["seconds"] if base else None])
        for R in ranks[1:]:
            a2.axhline(R, color="gray", linestyle=":", linewidth=1)
        a2.set_xscale("log")
        a2.set_xlabel("neurons (N)")
        a2.set_ylabel("speed-up over 1 rank")
        a2.set_title("FullInterleaved: speed-up over one GPU")
        a2.grid(True, which="both", alpha=0.3)
        a2.legend(fontsize=6, ncol=2)
    else:
        a2.axis("off")
        rows = [[k[1], k[2], k[3], k[0], v["seconds"] * 1e3, v["gnodes_per_s"], None] for k, v in sorted(d.multigpu.items())]
    rep.save(fig, "fig_multigpu.png")
    rep.table(["layout", "class", "N", "ranks", "time ms", "G nodes/s", "speed-up over 1 rank"], rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="+", help="JSON files or folders (searched recursively)")
    ap.add_argument("--out", default="docs/figures", help="folder for PNGs and TABLES.md")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    d = load(a.inputs)
    if not d.sources:
        print("no benchmark, peer or multi-GPU JSON found in " + " ".join(a.inputs))
        return 1
    rep = Report(a.out)
    rep.md.append("# HinesBatch figures and tables\n")
    rep.md.append("Generated by `scripts/plot_performance.py` from:\n")
    for f, n in d.sources.items():
        rep.md.append(f"- `{os.path.relpath(f)}` ({n} results)")
    if d.copy_bw:
        rep.md.append(f"\nCopy bandwidth measured in the benchmark runs: {'; '.join(sorted(d.copy_bw))}.")
    if d.devices:
        rep.md.append(f"Peer devices: {'; '.join(sorted(d.devices))}.")
    rep.md.append("Accuracy (Fig. 12a): HinesBatch's error is the largest relative error of 64 "
                  "systems against a long-double Thomas solve; the peers' is theirs on up to 256 "
                  "sampled systems (see perf_tests/peers/README.md): comparable in size, not "
                  "identical definitions.")
    rep.md.append("Rates: G nodes/s (Hines) or G rows/s (tridiagonal) = elements solved per second / 1e9.\n")
    for f in (fig3, fig4, fig5, fig_class_bars, fig6, lambda d, r: fig9_10(d, r, "f64", 9),
              lambda d, r: fig9_10(d, r, "f32", 10), fig11, fig12a, fig12b, fig13, fig14, fig_real, fig_multigpu):
        f(d, rep)
    with open(os.path.join(a.out, "TABLES.md"), "w") as fh:
        fh.write("\n".join(rep.md) + "\n")
    print(f"wrote {os.path.join(a.out, 'TABLES.md')} ({len(rep.made)} figures)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
