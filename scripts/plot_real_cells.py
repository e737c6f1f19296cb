#!/usr/bin/env python3
"""Compartment-steps/s of hinesbatch-sim on each shared morphology alone against
compartments per cell, one series per number of cells, each point labelled with the
on-chip launch the plan chose (W: a warp per cell; T<lanes>: a team in shared memory;
M<lanes>: a team with d and rhs in its own memory).
  plot_real_cells.py MAP.tsv OUT.png   (MAP.tsv: scripts/gpu/sim-real-cells.sh map)"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def shape(detail, lanes):
    kind = detail.split(" of ")[0]
    return {"warp_per_cell": "W", "team_per_cell": "T", "team_in_memory": "M"}.get(kind, "?") + (
        "" if kind == "warp_per_cell" else str(lanes))


def main(src, dst):
    rows = [r for r in csv.DictReader(open(src), delimiter="\t") if r["name"].startswith("map_")]
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for cells, marker in (("200", "v"), ("2000", "o"), ("20000", "s")):
        pts = sorted((int(r["nodes_per_cell"]), float(r["compartment_steps_per_s"]), r)
                     for r in rows if r["cells"] == cells)
        if not pts:
            continue
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker, label=f"{int(cells):,} cells")
        for n, rate, r in pts:
            ax.annotate(shape(r["detail"], r.get("team_lanes", r.get("cell_lanes"))), (n, rate), fontsize=6,
                        xytext=(3, 2), textcoords="offset points")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("compartments per cell (each shared morphology alone; d_lambda 0.1 and 10 um)")
    ax.set_ylabel("compartment-steps/s")
    ax.set_title("hinesbatch-sim on one H100: real cells alone, 10 ms (labels: launch chosen)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(dst, dpi=130)


if __name__ == "__main__":
    main(*sys.argv[1:3])
