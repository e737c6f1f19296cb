#!/usr/bin/env python3
"""A small network built in Python, run by HinesBatch, plotted with matplotlib.

Ten cells in a ring (each excites the next through an ExpSyn), two of them with the
reconstructed morphology of ../shared/morphologies/96ML.CNG.swc when that folder exists
(synthetic ball-and-stick cells otherwise), Hodgkin-Huxley soma and passive dendrites, a
current pulse into cell 0 and an external event into cell 5. Writes raster.png and
voltage.png, the spikes (spikes.txt, as hinesbatch-sim writes them) and the same network
as a hinesbatch-sim config (small_network.json):

    PYTHONPATH=build/openmp/python python3 examples/python/small_network.py --out /tmp/net
    build/openmp/tools/hinesbatch-sim/hinesbatch-sim /tmp/net/small_network.json --spikes s.txt
    # s.txt is identical to /tmp/net/spikes.txt (python/tests/test_simulation.py checks it)
"""
import argparse
import json
import os
import pathlib

import hinesbatch as hb

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_SWC = HERE.parents[1] / ".." / "shared" / "morphologies" / "96ML.CNG.swc"
TSTOP = 100.0  # ms


def build_network(swc=DEFAULT_SWC):
    common = dict(
        Ra=100.0, cm=1.0,
        mechanisms=[hb.hh(region="soma"), hb.pas(region="dend", g=1e-4, e=-65.0)],
        synapses=[hb.expsyn(section=0, x=0.5, tau=2.0, e=0.0)],
        detector=hb.detector(section=0, x=0.5, threshold=10.0))
    ball_and_stick = hb.CellTemplate("synthetic:ball-and-stick", max_segment_length_um=20.0, **common)
    templates = [ball_and_stick]
    if os.path.exists(swc):
        templates.append(hb.CellTemplate(os.path.abspath(swc), max_segment_length_um=20.0, **common))

    net = hb.Network(dt=0.025, v_init=-65.0)
    cells = []
    for k in range(10):
        # cells 3 and 7 are the reconstructed neuron (when available)
        template = templates[-1] if k in (3, 7) else templates[0]
        cells += net.add_cells(template)
    for k, gid in enumerate(cells):
        net.connect(gid, cells[(k + 1) % len(cells)], weight=0.03, delay=2.0 + 0.1 * k)
    net.connect(cells[2], cells[6], weight=0.01, delay=3.0)
    net.add_iclamp(cells[0], delay=2.0, dur=1.0, amp=1.0)
    net.add_event(cells[5], time=40.0, weight=0.05)
    for gid in (cells[0], cells[3], cells[5]):
        net.record(gid, section=0, x=0.5)
    return net


def plot(result, out):
    import matplotlib
    matplotlib.use("Agg")  # headless
    import matplotlib.pyplot as plt
    import hinesbatch.plot as hbp

    ax = hbp.raster(result, markersize=12)
    ax.set(title="Raster: a ring of 10 cells", yticks=range(result.cells))
    ax.figure.tight_layout()
    ax.figure.savefig(out / "raster.png", dpi=120)
    plt.close(ax.figure)

    ax = hbp.traces(result)
    ax.set(title="Soma voltages")
    ax.figure.tight_layout()
    ax.figure.savefig(out / "voltage.png", dpi=120)
    plt.close(ax.figure)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=pathlib.Path, default=pathlib.Path("."))
    parser.add_argument("--swc", type=pathlib.Path, default=DEFAULT_SWC)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    net = build_network(args.swc)
    result = net.run(TSTOP, progress=True)
    print(result)
    print("spikes per gid:", {g: int((result.spike_gids == g).sum()) for g in range(result.cells)})
    (args.out / "spikes.txt").write_text("".join(l + "\n" for l in result.raster_lines()))
    with open(args.out / "small_network.json", "w") as f:
        json.dump(net.to_config(TSTOP), f, indent=1)
    plot(result, args.out)
    print("wrote", ", ".join(str(args.out / f) for f in
                             ("raster.png", "voltage.png", "spikes.txt", "small_network.json")))


if __name__ == "__main__":
    main()
