#!/usr/bin/env python3
"""Strong and weak scaling tables and figures from hinesbatch-sim metrics.

  scripts/plot_scaling.py --out docs/figures DIR... > tables.md

Reads the metrics JSON files that scripts/gpu/sim-scaling.sh writes, named
<network>_<weak|strong><cells>_<g|p><ranks>[_suffix] (network p3syn or ring; weak: cells
per rank, strong: cells in all; g: GPUs, p: CPU ranks), and prints Markdown tables:
wall time of the run loop, compartment-steps/s, speed-up and parallel efficiency against
one rank, compute time, exposed communication fraction, load balance, spikes and events
delivered. Writes sim_scaling_gpu.png and sim_scaling_cpu.png into --out (Debian's
python3-matplotlib). Runs of other names are listed under "Other runs".
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


NAME = re.compile(r"(p3syn|ring)_(weak|strong)(\d+)_([gp])(\d+)")
NETWORK = {"p3syn": "P3 cells, synaptic drive", "ring": "Arbor busyring"}


def series(runs, kind, unit):
    """{(network, cells): {ranks: metrics}} of the runs of that kind on that unit."""
    out = {}
    for name, m in runs.items():
        r = NAME.fullmatch(name)
        if r and r.group(2) == kind and r.group(4) == unit:
            out.setdefault((r.group(1), int(r.group(3))), {})[int(r.group(5))] = m
    return out


def table(title, data, weak, unit):
    print("\n### %s\n" % title)
    print("| network | %s | %s | wall s | compartment-steps/s | %s | efficiency | compute max s |"
          " exposed comm | load balance | spikes | events delivered (rank 0) |"
          % ("cells per " + unit[:-1] if weak else "cells", unit,
             "scaled speed-up" if weak else "speed-up"))
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for key in sorted(data):
        net, n = key
        base = data[key].get(1)
        for p in sorted(data[key]):
            m = data[key][p]
            ratio = base["wall_s"] / m["wall_s"] if base else float("nan")
            eff = ratio if weak else ratio / p
            print("| {} | {:,} | {} | {:.2f} | {:.3g} | {:.2f} | {:.0%} | {:.2f} | {:.2%} | {:.2f} |"
                  " {:,} | {:,} |".format(
                      NETWORK[net], n, p, m["wall_s"], m["compartment_steps_per_s"],
                      p * eff if weak else ratio, eff, m["compute_max_s"],
                      m["exposed_comm_fraction"], m["load_balance"], m["spikes"],
                      m.get("events_delivered_rank0", 0)))


def figure(path, strong, weak, label):
    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for n in sorted(strong):
        d = strong[n]
        if 1 not in d:
            continue
        ps = sorted(d)
        ax[0].plot(ps, [d[1]["wall_s"] / d[p]["wall_s"] for p in ps], "o-", label="%s cells" % n)
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
        ax[1].plot(ps, [d[1]["wall_s"] / d[p]["wall_s"] for p in ps], "o-", label="%s cells per rank" % per)
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
    for unit, words, label in (("g", "GPUs", "GPUs (one MPI rank each)"),
                               ("p", "ranks", "MPI ranks (1 core each)")):
        strong, weak = series(runs, "strong", unit), series(runs, "weak", unit)
        # A strong series starts from the weak run of the same cells on one rank.
        for (net, n), d in weak.items():
            if (net, n) in strong and 1 in d:
                strong[(net, n)].setdefault(1, d[1])
        if not strong and not weak:
            continue
        where = "GPUs (one rank per GPU)" if unit == "g" else "CPU ranks (1 core each)"
        if weak:
            table("%s, weak scaling (efficiency = T1 / TP)" % where, weak, True, words)
        if strong:
            table("%s, strong scaling" % where, strong, False, words)
        figure(os.path.join(a.out, "sim_scaling_%s.png" % ("gpu" if unit == "g" else "cpu")),
               {"%s %s" % (k[0], format(k[1], ",")): v for k, v in strong.items()},
               {"%s %s" % (k[0], format(k[1], ",")): v for k, v in weak.items()}, label)
    extra = sorted(k for k in runs if not NAME.fullmatch(k))
    if extra:
        print("\n### Other runs\n")
        print("| run | ranks | wall s | compartment-steps/s | setup s | connections s | exposed comm |"
              " spikes |")
        print("|---|---|---|---|---|---|---|---|")
        for k in extra:
            m = runs[k]
            print("| {} | {} | {:.2f} | {:.3g} | {:.2f} | {:.2f} | {:.2%} | {:,} |".format(
                k, m["ranks"], m["wall_s"], m["compartment_steps_per_s"], m["setup_s"],
                m["setup_connections_s"], m["exposed_comm_fraction"], m["spikes"]))


if __name__ == "__main__":
    main()
