"""Plots of a SimulationResult with matplotlib: a spike raster and the recorded voltages.

    import hinesbatch.plot as hbp
    ax = hbp.raster(result)               # a new figure, or ax=... to draw into one
    hbp.traces(result, gids=[0, 3])
"""
import numpy as np


def _axes(ax, figsize):
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt
    _, ax = plt.subplots(figsize=figsize)
    return ax


def raster(result, ax=None, gids=None, figsize=(7, 3), **style):
    """Spike times (x, ms) against gids (y): one tick per spike. gids: only these cells.
    Extra keyword arguments go to Axes.plot (defaults: black '|' ticks). Returns the Axes."""
    ax = _axes(ax, figsize)
    g = np.asarray(result.spike_gids)
    t = np.asarray(result.spike_times)
    if gids is not None:
        keep = np.isin(g, np.asarray(list(gids)))
        g, t = g[keep], t[keep]
    style = dict(dict(linestyle="none", marker="|", markersize=8, color="k"), **style)
    ax.plot(t, g, **style)
    tstop = result.times[-1] if len(result.times) else (t.max() if len(t) else 1.0)
    ax.set(xlabel="time (ms)", ylabel="gid", xlim=(0, tstop))
    return ax


def traces(result, ax=None, gids=None, figsize=(7, 3), legend=True, **style):
    """The recorded traces against time (ms), one line per record (gid, section, x,
    variable); gids: only records of these cells. Returns the Axes."""
    ax = _axes(ax, figsize)
    wanted = None if gids is None else set(int(x) for x in gids)
    variables = set()
    for (gid, section, x, var), v in zip(result.records, result.traces):
        if wanted is None or gid in wanted:
            label = "gid %d, section %d(%g)" % (gid, section, x)
            ax.plot(result.times, v, label=label if var == "v" else label + " " + var, **style)
            variables.add(var)
    ax.set(xlabel="time (ms)",
           ylabel="membrane potential (mV)" if variables <= {"v"} else "recorded value")
    if legend and result.records:
        ax.legend(loc="upper right", fontsize=8)
    return ax
