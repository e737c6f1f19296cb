"""HinesBatch from Python: batched Hines and tridiagonal solvers on numpy arrays, SWC
morphologies read as NEURON's Import3d reads them, and the network simulator.

Kokkos (the backend the library was built with: OpenMP or CUDA) is initialised once per
process, on first use or by ``initialize(num_threads=..., device_id=...)``, and finalised at
interpreter exit. ``kokkos_config()`` tells which backend and how many threads.

See docs/PYTHON.md.
"""
import atexit as _atexit

from ._hinesbatch import (  # noqa: F401
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
    detector,
    expsyn,
    hh,
    iclamp,
    location,
    pas,
    run_config,
)

__all__ = [
    "CellTemplate",
    "Network",
    "SimulationResult",
    "detector",
    "expsyn",
    "hh",
    "iclamp",
    "location",
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
