"""HinesBatch from Python: batched Hines and tridiagonal solvers on numpy arrays, SWC
morphologies read as NEURON's Import3d reads them, and the network simulator.

Kokkos (the backend the library was built with: OpenMP or CUDA) is initialised once per
process, on first use or by ``initialize(num_threads=..., device_id=...)``, and finalised at
interpreter exit. ``kokkos_config()`` tells which backend and how many threads.

Threads: solves and runs release the GIL; two Python threads may call them at once (each
on its own arrays). See docs/PYTHON.md.
"""
import atexit as _atexit

from ._hinesbatch import (  # noqa: F401
    __version__,
    InputError,
    Morphology,
    MultiBatch,
    Section,
    SolveError,
    finalize,
    initialize,
    is_finalized,
    is_initialized,
    kokkos_config,
    parse_swc,
    read_swc,
    solve_hines,
    thomas_batch,
    thomas_vbatch,
)
from . import _hinesbatch
from ._hinesbatch import _last_views  # noqa: F401  (diagnostics: tests prove zero-copy)
from .simulation import (  # noqa: F401
    CellTemplate,
    Network,
    SimulationResult,
    SpikeSource,
    detector,
    expsyn,
    point_synapse,
    point_process,
    hh,
    iclamp,
    location,
    mechanism,
    pas,
    run_config,
)



def config():
    """How this module was built and what it runs on: {'version' (hinesbatch), 'backend'
    (the execution space: 'OpenMP', 'Cuda', ...), 'backends' (Kokkos' enabled ones),
    'kokkos_version', 'memory_space', 'concurrency', 'device_count' and 'device_id' (GPUs;
    0 and None on host builds), 'zero_copy' (numpy arrays solved in place), 'hdf5' (SONATA
    spike reports)}. Initialises Kokkos if needed."""
    k = kokkos_config()
    return {"version": __version__, "backend": k["execution_space"], "backends": k["backends"],
            "kokkos_version": k["version"], "memory_space": k["memory_space"],
            "concurrency": k["concurrency"], "device_count": k["device_count"],
            "device_id": k["device_id"], "zero_copy": k["zero_copy"],
            "hdf5": _hinesbatch._have_hdf5()}


def catalogue():
    """The mechanisms this module runs: {'name', 'mechanisms'}. The library's default
    catalogue (hh, pas, ExpSyn, Exp2Syn, IClamp), or the one a module built by
    ``hinesbatch-build-sim --python`` was compiled with (your .mod files and the defaults)."""
    name, mechanisms = _hinesbatch._catalogue()
    return {"name": name, "mechanisms": list(mechanisms)}


__all__ = [
    "__version__",
    "catalogue",
    "config",
    "CellTemplate",
    "Network",
    "SimulationResult",
    "detector",
    "expsyn",
    "point_synapse",
    "point_process",
    "hh",
    "iclamp",
    "location",
    "mechanism",
    "pas",
    "run_config",
    "InputError",
    "Morphology",
    "MultiBatch",
    "Section",
    "SolveError",
    "finalize",
    "initialize",
    "is_finalized",
    "is_initialized",
    "kokkos_config",
    "parse_swc",
    "read_swc",
    "solve_hines",
    "thomas_batch",
    "thomas_vbatch",
]

# Finalise Kokkos before the interpreter tears modules down: finalize() first frees the
# Views of every live object of this module (Kokkos must not free memory after finalize).
_atexit.register(_hinesbatch.finalize)
