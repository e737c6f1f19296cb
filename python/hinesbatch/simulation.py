"""Networks of multi-compartment cells from Python, run by the library's simulator (the
code hinesbatch-sim runs): cells from SWC files with NEURON's mechanisms, stimuli,
connections, recordings; results as numpy arrays.

Mechanisms, clamps, synapses and detectors are dicts shaped as in the JSON config
(docs/SIMULATION.md); the helpers below write them. Every dict goes to the library's own
config reader (through json.dumps), so that a typo or a bad value is the same InputError,
naming the config key, as in a hinesbatch-sim config.

Long runs: Ctrl-C (KeyboardInterrupt) stops a one-process run at the next epoch boundary
(output files are then not written; earlier files of their names stay); ``progress`` may be
a callable or a tqdm bar (see ``Network.run``).
"""
import json
import os
import sys

import numpy as np

from . import _hinesbatch


def location(section=0, x=0.5):
    return {"section": int(section), "x": float(x)}


def hh(region="all", **parameters):
    """NEURON's hh (exact rates): gnabar, gkbar, gl (S/cm2), el (mV)."""
    return {"name": "hh", "region": region, **parameters}


def pas(region="all", **parameters):
    """Passive leak: g (S/cm2), e (mV)."""
    return {"name": "pas", "region": region, **parameters}


def mechanism(name, region="all", **parameters):
    """A density mechanism of the catalogue compiled from NMODL into the library (the default
    one: hh, pas from mechanisms/default) in a region (soma, axon, dend, apic, basal, all).
    A parameter is a number or a function of the path distance from the soma, e.g.
    {"distance": "exp", "a": -0.8696, "b": 3.6161, "c": 2.087, "scale": 1e-4,
    "normalize": True} (docs/MECHANISMS.md)."""
    return {"name": name, "region": region, "parameters": parameters}


def iclamp(delay, dur, amp, section=0, x=0.5):
    """An IClamp: amp (nA) from delay for dur (ms)."""
    return {"location": location(section, x), "del": float(delay), "dur": float(dur),
            "amp": float(amp)}


def expsyn(section=0, x=0.5, tau=0.1, e=0.0):
    """An ExpSyn: tau (ms), reversal e (mV); connections and events name it by index."""
    return {"location": location(section, x), "tau": float(tau), "e": float(e)}


def point_synapse(name, section=0, x=0.5, **parameters):
    """A synapse that runs a point process of the catalogue (e.g. "Exp2Syn", tau1=0.5,
    tau2=5, e=0) instead of the built-in ExpSyn; connections and events name it by index,
    their weight (uS) goes to its NET_RECEIVE."""
    return {"location": location(section, x),
            "synapse": {"name": name,
                        "parameters": {k: float(v) for k, v in parameters.items()}}}


def point_process(name, section=0, x=0.5, **parameters):
    """A point process of the catalogue placed on the cell (NEURON's h.IClamp(sec(x)), a
    clamp or a tonic conductance of your own .mod files), with or without NET_RECEIVE, no
    ions; no connection reaches it. Network.record(gid, point_process=i, variable=...)
    records its variables."""
    return {"name": name, "location": location(section, x),
            "parameters": {k: float(v) for k, v in parameters.items()}}


def detector(section=0, x=0.5, threshold=10.0):
    """Where a cell's spikes are detected (NetCon's threshold, mV)."""
    return {"location": location(section, x), "threshold": float(threshold)}


def _by_region(value):
    """cm or Ra: a number for every section, or entries applied in order, each
    {"region": R, "value": x} or (R, x), R a region or a section list's name."""
    if isinstance(value, (int, float)):
        return float(value)
    return [{"region": str(e[0]), "value": float(e[1])} if isinstance(e, (tuple, list))
            else {"region": str(e["region"]), "value": float(e["value"])} for e in value]


def _cell_json(settings, with_morphology):
    """A template's settings as the config's "cell" object, with its own "synapses"."""
    cell = {"Ra": settings["Ra"], "cm": settings["cm"], "mechanisms": settings["mechanisms"],
            "iclamp": settings["iclamps"], "synapses": settings["synapses"]}
    if settings["ions"]:
        cell["ions"] = settings["ions"]
    if settings["point_processes"]:
        cell["point_processes"] = settings["point_processes"]
    if settings["section_lists"]:
        cell["section_lists"] = settings["section_lists"]
    for key in ("nseg", "max_segment_length_um", "d_lambda"):
        if settings[key]:
            cell[key] = settings[key]
    if settings["detector"] is not None:
        cell["detector"] = settings["detector"]
    if with_morphology:
        cell["morphology"] = settings["morphology"]
    return cell


def _build_template(settings):
    morphology = settings["morphology"]
    given = None if isinstance(morphology, str) else morphology  # a Morphology (read_swc)
    text = json.dumps(_cell_json(settings, given is None), allow_nan=False)
    return _hinesbatch._CellTemplate(text, os.getcwd(), given)


class CellTemplate:
    """One kind of cell: a morphology (SWC path, Morphology from read_swc, or
    'synthetic:ball-and-stick' / 'synthetic:p3') cut into sections as NEURON's Import3d
    does, nseg by one rule (nseg, max_segment_length_um or d_lambda; default nseg = 1),
    Ra (ohm cm), cm (uF/cm2), density mechanisms, IClamps, synapses (expsyn, or
    point_synapse: a point process of the catalogue), point processes placed on the cell
    (point_process: no connection reaches them) and a spike detector. ions: initial
    concentrations and reversal potentials of the ions the catalogue's mechanisms use, e.g. {"ca": {"cai0": 5e-5, "cao0": 2}, "k": {"e": -85}}.
    Ra and cm may differ by region: a list applied in order over NEURON's defaults, e.g.
    cm=[("all", 1), ("dend", 2)]. section_lists: named lists of section indices, e.g.
    {"trunk": [4, 5, 6]}, which mechanisms, cm and Ra take as regions by name."""

    def __init__(self, morphology, nseg=0, max_segment_length_um=0.0, d_lambda=0.0, Ra=35.4,
                 cm=1.0, mechanisms=(), iclamps=(), synapses=(), detector=None, ions=None,
                 section_lists=None, point_processes=()):
        if isinstance(morphology, os.PathLike):
            morphology = os.fspath(morphology)
        self.settings = dict(morphology=morphology, nseg=int(nseg),
                             max_segment_length_um=float(max_segment_length_um),
                             d_lambda=float(d_lambda), Ra=_by_region(Ra), cm=_by_region(cm),
                             section_lists={str(k): [int(i) for i in v]
                                            for k, v in (section_lists or {}).items()},
                             mechanisms=[dict(m) for m in mechanisms],
                             iclamps=[dict(s) for s in iclamps],
                             synapses=[dict(s) for s in synapses],
                             point_processes=[dict(s) for s in point_processes],
                             detector=None if detector is None else dict(detector),
                             ions={} if ions is None else {k: dict(v) for k, v in ions.items()})
        self._built = _build_template(self.settings)

    num_sections = property(lambda self: self._built.num_sections)
    num_compartments = property(lambda self: self._built.num_compartments)
    num_synapses = property(lambda self: self._built.num_synapses,
                            doc="the synapses connections can reach (not the point processes)")
    num_point_processes = property(lambda self: len(self.settings["point_processes"]))
    parent = property(lambda self: self._built.parent,
                      doc="the compartment tree (Hines order) solved every step")

    def __repr__(self):
        return "<CellTemplate %s: %d sections, %d compartments, %d synapses>" % (
            self._built.source, self.num_sections, self.num_compartments, self.num_synapses)


def _record_entry(gid, section, x, variable, synapse):
    """A config's record entry: at a location, or of a synapse's variable."""
    if synapse is not None:
        return {"gid": gid, "synapse": synapse, "variable": variable}
    return {"gid": gid, "location": location(section, x), "variable": variable}


class SimulationResult:
    """spike_gids[i] fired at spike_times[i] (ms), sorted by (time, gid), every rank's;
    traces[k] is records[k] = (gid, section, x, variable) at `times` (variable "v": mV;
    otherwise an ion value or <variable>_<mechanism> in its own units; with MPI, the records
    this rank holds); record_synapses[k] is None, or the synapse whose variable record k is
    (section and x are then the synapse's); metrics: the run's timings and counts."""

    def __init__(self, raw):
        self.spike_gids = raw["spike_gids"]
        self.spike_times = raw["spike_times"]
        self.times = raw["times"]
        self.traces = raw["traces"]
        self.records = [tuple(r) for r in raw["records"]]
        self.record_synapses = list(raw.get("record_synapses", [None] * len(self.records)))
        self.metrics = raw["metrics"]
        self.backend = raw["backend"]
        self.cells = raw["cells"]

    @property
    def spikes(self):
        return self.spike_gids, self.spike_times

    def trace(self, gid, section=0, x=0.5, variable="v", synapse=None):
        """The trace of a record: of `variable` at gid's section(x), or with synapse=k of
        that synapse's variable (section and x are then not compared)."""
        for k, (g, s, xx, var) in enumerate(self.records):
            syn = self.record_synapses[k]
            if g != gid or var != variable or syn != synapse:
                continue
            if synapse is not None or (s == section and abs(xx - x) < 1e-12):
                return self.traces[k]
        if synapse is not None:
            raise KeyError("no record of %s of gid %d's synapse %d" % (variable, gid, synapse))
        raise KeyError("no record of %s of gid %d at section %d x %g" % (variable, gid, section, x))

    def raster_lines(self):
        """The spikes as hinesbatch-sim writes them: 'gid time' with 6 decimals."""
        return ["%d %.6f" % (g, t) for g, t in zip(self.spike_gids, self.spike_times)]

    def write_spikes(self, path):
        """The spikes as hinesbatch-sim's spikes file ('gid time' lines)."""
        _hinesbatch._write_spikes(os.fspath(path), self.spike_gids, self.spike_times, "")

    def write_sonata(self, path, population="hinesbatch"):
        """The spikes as a SONATA spike report (HDF5: /spikes/<population>/timestamps and
        node_ids, sorted by time), written by the library's writer as hinesbatch-sim's
        output.spikes_sonata."""
        if not population:
            raise ValueError("population must be a non-empty name")
        _hinesbatch._write_spikes(os.fspath(path), self.spike_gids, self.spike_times,
                                  str(population))

    def plot_raster(self, ax=None, **style):
        """A raster (matplotlib); see hinesbatch.plot.raster."""
        from . import plot
        return plot.raster(self, ax=ax, **style)

    def plot_traces(self, ax=None, **style):
        """The recorded voltages (matplotlib); see hinesbatch.plot.traces."""
        from . import plot
        return plot.traces(self, ax=ax, **style)

    def __repr__(self):
        return "<SimulationResult %d cells, %d spikes, %d traces of %d samples (%s)>" % (
            self.cells, len(self.spike_gids), len(self.traces), len(self.times), self.backend)


def _comm(comm):
    """comm=None: mpi4py's COMM_WORLD when mpi4py is already imported and the job has
    several ranks, else one process. False: one process. Otherwise an mpi4py communicator."""
    if comm is False:
        return None
    if comm is None:
        mpi = sys.modules.get("mpi4py.MPI")
        if mpi is not None and mpi.Is_initialized() and mpi.COMM_WORLD.Get_size() > 1:
            return mpi.COMM_WORLD
        return None
    return comm


def _progress(progress):
    """(seconds between stderr lines or -1 for the config's, Python callback or None).
    None: as configured (a config's run.progress_every_s; none for a Network); False: none;
    True: a line on stderr every second; a number: seconds between stderr lines; an object
    with update() (a tqdm bar): advanced in ms of simulated time, its total set to tstop;
    any other callable: called as progress(t_ms, tstop_ms) at every epoch's end."""
    if progress is None:
        return -1.0, None
    if progress is True or progress is False:
        return (1.0 if progress else 0.0), None
    if hasattr(progress, "update") and callable(progress.update):
        bar = progress
        done = [0.0]

        def advance(steps_done, steps, dt, spikes, wall_s):
            if getattr(bar, "total", None) is None:
                bar.total = steps * dt
            t = steps_done * dt
            bar.update(t - done[0])
            done[0] = t
        return 0.0, advance
    if callable(progress):
        def call(steps_done, steps, dt, spikes, wall_s):
            progress(steps_done * dt, steps * dt)
        return 0.0, call
    return float(progress), None


class SpikeSource:
    """One artificial spike source of a Network (NEURON's NetStim): its gid follows every
    cell's (num_cells + its index among the sources), so it is known once all cells are
    added; connect() and the results take it wherever they take a gid."""

    def __init__(self, network, index):
        self._network = network
        self.index = index

    @property
    def gid(self):
        return self._network.num_cells + self.index

    def __int__(self):
        return self.gid

    def __index__(self):
        return self.gid

    def __repr__(self):
        return "SpikeSource(index=%d, gid=%d)" % (self.index, self.gid)


class Network:
    """Cells, connections, external events, IClamps and recordings listed by hand (the
    config's 'explicit' network). gids count from 0 in the order cells are added; spike
    sources (add_sources) come after every cell. Cells of different templates (different
    morphologies and biophysics) mix freely."""

    def __init__(self, dt=0.025, v_init=-65.0, celsius=6.3, ena=50.0, ek=-77.0):
        self.params = dict(dt=float(dt), v_init=float(v_init), celsius=float(celsius),
                           ena=float(ena), ek=float(ek))
        self.templates = []
        self.template_of = []
        self.connections = []
        self.events = []
        self.iclamps = []
        self.records = []
        self.sources = []  # the config's "sources" entries

    @property
    def num_cells(self):
        return len(self.template_of)

    def add_cells(self, template, count=1):
        """Adds `count` cells of `template`; returns their gids."""
        for k, t in enumerate(self.templates):
            if t is template:
                index = k
                break
        else:
            self.templates.append(template)
            index = len(self.templates) - 1
        first = len(self.template_of)
        self.template_of.extend([index] * int(count))
        return list(range(first, first + int(count)))

    @property
    def num_sources(self):
        return sum(s["count"] for s in self.sources)

    def add_sources(self, count=1, type="regular", start=0.0, interval=None, rate=None,
                    number=None, seed=None, name=None):
        """Adds `count` spike sources (NEURON's NetStim): 'regular' (start, start + interval,
        ...) or 'poisson' (exponential intervals of mean `interval` ms, or `rate` Hz), at most
        `number` spikes each (default: no limit), drawn from (seed, gid) alone: the same on
        every rank and backend. Returns their SpikeSource handles (gids after the cells');
        connect() them to cells. Their spikes are in the results, as NetStim's are
        recordable."""
        entry = {"name": str(name) if name is not None else "sources%d" % len(self.sources),
                 "count": int(count), "type": str(type), "start": float(start)}
        if interval is not None:
            entry["interval"] = float(interval)
        if rate is not None:
            entry["rate"] = float(rate)
        if number is not None:
            entry["number"] = int(number)
        if seed is not None:
            entry["seed"] = int(seed)
        first = self.num_sources
        self.sources.append(entry)
        return [SpikeSource(self, first + k) for k in range(int(count))]

    def add_artificial_cells(self, mechanism, count=1, parameters=None, name=None, seed=None):
        """Adds `count` artificial cells (NEURON's ARTIFICIAL_CELL: an event-driven spike
        source written in NMODL, e.g. IntervalFire) of the catalogue's `mechanism`, each with
        `parameters` (its PARAMETERs by name). They spike when their NET_RECEIVE says
        (net_event), at exact times, and receive events: connect() cells or other sources to
        them (synapse 0) and add_event() to them. A mechanism's random numbers (exprand,
        normrand, scop_random) come from each cell's own stream, seeded by `seed` (default:
        the network's). Returns their SpikeSource handles (gids after the cells', as
        add_sources' are)."""
        entry = {"name": str(name) if name is not None else "sources%d" % len(self.sources),
                 "count": int(count), "mechanism": str(mechanism),
                 "parameters": {str(k): float(v) for k, v in (parameters or {}).items()}}
        if seed is not None:
            entry["seed"] = int(seed)
        first = self.num_sources
        self.sources.append(entry)
        return [SpikeSource(self, first + k) for k in range(int(count))]

    def _gid(self, x):
        return x.gid if isinstance(x, SpikeSource) else int(x)

    def _gid_or_source(self, x):
        # a SpikeSource's gid is known once every cell is added: kept as given until then
        return x if isinstance(x, SpikeSource) else int(x)

    def connect(self, source, target, weight, delay=1.0, synapse=0):
        """source's spikes (a cell's gid or a SpikeSource) reach target's synapse (an index
        into its template's synapses; an artificial cell's SpikeSource: synapse 0) after
        delay (ms) with weight (uS; an artificial cell's NET_RECEIVE weight)."""
        self.connections.append((source, self._gid_or_source(target), int(synapse),
                                 float(weight), float(delay)))

    def add_event(self, gid, time, weight, synapse=0):
        """An event from outside the network on gid's synapse (a cell's gid, or an
        artificial cell's SpikeSource) at time (ms)."""
        self.events.append((self._gid_or_source(gid), int(synapse), float(time),
                            float(weight)))

    def add_iclamp(self, gid, delay, dur, amp, section=0, x=0.5):
        self.iclamps.append(dict(iclamp(delay, dur, amp, section, x), gid=int(gid)))

    def record(self, gid, section=0, x=0.5, variable="v", synapse=None, point_process=None):
        """Records `variable` of gid at section(x) every step, or every record_dt of run():
        "v" (the membrane potential),
        an ion value ("cai", "eca", "ica") or a generated mechanism's variable as NEURON
        names it ("m_hh"). With synapse=k, a variable of gid's synapse k by its point
        process's own name ("g" of ExpSyn, NEURON's syn._ref_g); section and x are unused.
        With point_process=i, a variable of the template's point_processes[i] ("i" of IClamp).
        gid an artificial cell's SpikeSource: a variable of its mechanism ("m" of
        IntervalFire, NEURON's ivf._ref_m); section and x are unused."""
        gid = self._gid_or_source(gid)
        if point_process is not None:
            if synapse is not None:
                raise ValueError("record: give synapse or point_process, not both")
            if isinstance(gid, SpikeSource) or not 0 <= gid < len(self.template_of):
                raise ValueError("record: point_process=%r needs the gid of a cell, got %r"
                                 % (point_process, gid))
            t = self.templates[self.template_of[gid]]
            if not 0 <= int(point_process) < t.num_point_processes:
                raise ValueError("record: gid %d's template has %d point processes, not %r"
                                 % (gid, t.num_point_processes, point_process))
            synapse = t.num_synapses + int(point_process)
        self.records.append((gid, int(section), float(x), str(variable),
                             None if synapse is None else int(synapse)))

    def run(self, tstop, progress=False, backend="device", overlap=False, epoch_steps=0,
            partition="contiguous", comm=None, host_schedule="tiles", on_chip="auto",
            output=None, mechanisms="catalogue", record_dt=None):
        """Simulates from 0 to tstop (ms). progress: False, True (a line on stderr every
        second), seconds between such lines, a callable progress(t_ms, tstop_ms) or a tqdm
        bar, called at every epoch's end. backend: 'device' (Kokkos' default space) or
        'host'. host_schedule: 'tiles' (tiles of cells, vectorised) or 'cells' (one cell per
        work item) on a host backend; same results.
        on_chip: 'auto' (on GPUs, a warp per cell runs each epoch with the cell in shared
        memory when the largest cell fits), 'on' (on every backend; an error if a cell
        does not fit) or 'off'; same raster, voltages equal to rounding.
        mechanisms: 'catalogue' (pas, hh and ExpSyn from the catalogue's .mod files) or
        'builtin' (the hand-written ones the generated code is tested against); same raster.
        output: a dict as the config's "output" section (spikes, spikes_sonata,
        sonata_population, traces, metrics; relative paths against the current folder),
        written as hinesbatch-sim writes them (traces as the run goes).
        record_dt: ms between the records' samples (a whole number of steps; None: every
        step), as NEURON's Vector.record(ref, Dt); result.times follow it.
        comm: see _comm (mpi4py). Ctrl-C stops a one-process run at the next epoch's end
        with KeyboardInterrupt. Returns a SimulationResult."""
        seconds, callback = _progress(progress)
        config = self._model(tstop)
        if record_dt is not None:
            config["record_dt"] = float(record_dt)
        config["run"] = dict(overlap=bool(overlap), epoch_steps=int(epoch_steps),
                             partition=str(partition), host_schedule=str(host_schedule),
                             on_chip=str(on_chip), mechanisms=str(mechanisms))
        if output:
            config["output"] = dict(output)
        raw = _hinesbatch._run_model(
            json.dumps(config, allow_nan=False), os.getcwd(), [t._built for t in self.templates],
            backend, _comm(comm), max(seconds, 0.0), callback, True)
        return SimulationResult(raw)

    def _model(self, tstop):
        """The network as a config without its "cell" section (the templates are given)."""
        if not self.templates:
            raise ValueError("the network has no cells")
        network = {"type": "explicit", "cells": self.num_cells, "templates": self.template_of,
                   "connections": [[self._gid(c[0]), self._gid(c[1])] + list(c[2:])
                                   for c in self.connections],
                   "events": [[self._gid(e[0])] + list(e[1:]) for e in self.events],
                   "iclamps": [dict(s) for s in self.iclamps]}
        model = dict(self.params, tstop=float(tstop), network=network,
                     record=[{"gid": r[0].gid, "variable": r[3]} if isinstance(r[0], SpikeSource)
                             else _record_entry(*r) for r in self.records])
        if self.sources:
            model["sources"] = [dict(s) for s in self.sources]
        return model

    def to_config(self, tstop):
        """The same network as a hinesbatch-sim config (dict; json.dump it to a file).
        The config has one 'cell' block: templates may differ only in their morphology
        (an SWC path or synthetic:<name>) and all synapses must be equal."""
        if not self.templates:
            raise ValueError("the network has no cells")
        first = self.templates[0].settings
        for t in self.templates:
            s = t.settings
            if not isinstance(s["morphology"], str):
                raise ValueError("to_config needs morphologies given as paths or synthetic:<name>")
            for key in ("nseg", "max_segment_length_um", "d_lambda", "Ra", "cm", "mechanisms",
                        "iclamps", "point_processes", "detector", "ions", "section_lists"):
                if s[key] != first[key]:
                    raise ValueError("templates differ in %s: the config's cell block holds one" % key)
        synapses = [syn for t in self.templates for syn in t.settings["synapses"]]
        if any(syn != synapses[0] for syn in synapses):
            raise ValueError("to_config needs every synapse equal (the config's network.tau, "
                             "network.e or network.synapse, and network.synapse_location)")
        cell = {"morphology": [os.path.abspath(t.settings["morphology"])
                               if not t.settings["morphology"].startswith("synthetic:")
                               else t.settings["morphology"] for t in self.templates],
                "Ra": first["Ra"], "cm": first["cm"], "mechanisms": first["mechanisms"],
                "iclamp": first["iclamps"]}
        for key in ("nseg", "max_segment_length_um", "d_lambda"):
            if first[key]:
                cell[key] = first[key]
        if first["detector"] is not None:
            cell["detector"] = first["detector"]
        for key in ("ions", "section_lists", "point_processes"):
            if first[key]:
                cell[key] = first[key]
        config = self._model(tstop)
        if synapses and "synapse" in synapses[0]:
            config["network"].update(synapse=synapses[0]["synapse"],
                                     synapse_location=synapses[0]["location"])
        elif synapses:
            config["network"].update(tau=synapses[0]["tau"], e=synapses[0]["e"],
                                     synapse_location=synapses[0]["location"])
        return dict(config, cell=cell)


def run_config(config, overrides=(), backend="device", progress=None, comm=None, base_dir=None,
               write_outputs=True):
    """Runs a hinesbatch-sim config: a dict (through json.dumps; relative paths resolve
    against base_dir, default the current folder) or the path of a JSON file. overrides:
    "key.path=value" strings as hinesbatch-sim's --set. write_outputs: write the files the
    config's "output" section names, as hinesbatch-sim does (False: none). progress: see
    Network.run. Returns a SimulationResult."""
    seconds, callback = _progress(progress)
    if isinstance(config, dict):
        raw = _hinesbatch._run_config_text(json.dumps(config, allow_nan=False), "<dict>",
                                           base_dir if base_dir is not None else os.getcwd(),
                                           list(overrides), backend, _comm(comm), seconds,
                                           callback, bool(write_outputs))
    else:
        raw = _hinesbatch._run_config_file(os.fspath(config), list(overrides), backend,
                                           _comm(comm), seconds, callback, bool(write_outputs))
    return SimulationResult(raw)
