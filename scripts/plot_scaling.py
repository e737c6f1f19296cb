#!/usr/bin/env python3
"""Strong and weak scaling tables and figures from hinesbatch-sim metrics (issue #5).

  scripts/plot_scaling.py --out docs/figures CPU_DIR GPU_DIR > tables.md

Reads the metrics JSON files that scripts/gpu/sim-scaling.sh writes (names
strong_n<N>_p<P>, weak_<per>_p<P>, gpu_strong_n<N>_g<G>, gpu_weak_<per>_g<G>, ...) and
prints Markdown tables: wall time, speed-up and parallel efficiency against one rank,
compute/exchange split, exposed communication fraction, load balance. Writes
sim_strong.png and sim_weak.png into --out (Debian's python3-matplotlib).
"""
import argparse
import glob
import json
import os
import re

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def load(dirs):
    runs = {}
    for d in dirs:
        for f in glob.glob(os.path.join(d, "*.json")):
            runs[os.path.basename(f)[:-5]] = json.load(open(f))
    return runs


def series(runs, pattern):
    out = {}
    for name, m in runs.items():
        r = re.fullmatch(pattern, name)
        if r:
            out.setdefault(int(r.group(1)), {})[int(r.group(2))] = m
    return out


def table(title, data, kind, unit):
    print("\n### %s\n" % title)
    sp_name = "speed-up" if kind.startswith("cells") else "scaled speed-up"
    print("| %s | %s | wall s | %s | efficiency | compute max s | exposed comm | load balance | spikes |" % (kind, unit, sp_name))
    print("|---|---|---|---|---|---|---|---|---|")
    for n in sorted(data):
        base = data[n].get(1)
        for p in sorted(data[n]):
            m = data[n][p]
            sp = base["wall_s"] / m["wall_s"] if base else float("nan")
            eff = sp / p if kind.startswith("cells") else (base["wall_s"] / m["wall_s"] if base else float("nan"))
            print("| {:,} | {} | {:.3f} | {:.2f} | {:.0%} | {:.3f} | {:.1%} | {:.2f} | {:,} |".format(
                n, p, m["wall_s"], sp if kind.startswith("cells") else p * eff, eff, m["compute_max_s"],
                m["exposed_comm_fraction"], m["load_balance"], m["spikes"]))


def figure(path, strong, weak, label):
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for n in sorted(strong):
        d = strong[n]
        if 1 not in d:
            continue
        ps = sorted(d)
        ax[0].plot(ps, [d[1]["wall_s"] / d[p]["wall_s"] for p in ps], "o-", label="%s cells" % format(n, ","))
    allp = sorted({p for d in strong.values() for p in d})
    if allp:
        ax[0].plot(allp, allp, "k:", label="ideal")
    ax[0].set_xscale("log", base=2)
    ax[0].set_yscale("log", base=2)
    ax[0].set_xlabel(label)
    ax[0].set_ylabel("speed-up over 1")
    ax[0].set_title("strong scaling")
    ax[0].legend(fontsize=8)
    for per in sorted(weak):
        d = weak[per]
        if 1 not in d:
            continue
        ps = sorted(d)
        ax[1].plot(ps, [d[1]["wall_s"] / d[p]["wall_s"] for p in ps], "o-", label="%s cells per rank" % format(per, ","))
    ax[1].axhline(1, color="k", ls=":")
    ax[1].set_xscale("log", base=2)
    ax[1].set_ylim(0, 1.2)
    ax[1].set_xlabel(label)
    ax[1].set_ylabel("weak-scaling efficiency")
    ax[1].set_title("weak scaling")
    ax[1].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="docs/figures")
    ap.add_argument("dirs", nargs="+")
    a = ap.parse_args()
    runs = load(a.dirs)
    os.makedirs(a.out, exist_ok=True)
    cs, cw = series(runs, r"strong_n(\d+)_p(\d+)"), series(runs, r"weak_(\d+)_p(\d+)")
    gs, gw = series(runs, r"gpu_strong_n(\d+)_g(\d+)"), series(runs, r"gpu_weak_(\d+)_g(\d+)")
    if cs:
        table("CPU ranks, strong scaling", cs, "cells", "ranks")
        table("CPU ranks, weak scaling (efficiency = T1 / TP)", cw, "per rank", "ranks")
        figure(os.path.join(a.out, "sim_scaling_cpu.png"), cs, cw, "MPI ranks (1 core each)")
    if gs:
        table("GPUs (one rank per GPU), strong scaling", gs, "cells", "GPUs")
        table("GPUs, weak scaling (efficiency = T1 / TP)", gw, "per GPU", "GPUs")
        figure(os.path.join(a.out, "sim_scaling_gpu.png"), gs, gw, "GPUs (one MPI rank each)")
    extra = sorted(k for k in runs if not re.match(r"(gpu_)?(strong|weak)_", k))
    if extra:
        print("\n### Other runs\n")
        print("| run | ranks | wall s | compute max s | exchange s (rank 0) | exposed comm | events s | spikes |")
        print("|---|---|---|---|---|---|---|---|")
        for k in extra:
            m = runs[k]
            print("| {} | {} | {:.3f} | {:.3f} | {:.3f} | {:.1%} | {:.3f} | {:,} |".format(
                k, m["ranks"], m["wall_s"], m["compute_max_s"], m["exchange_s_rank0"],
                m["exposed_comm_fraction"], m["events_s_rank0"], m["spikes"]))


if __name__ == "__main__":
    main()
