from typing import Any, Iterable, Optional, Tuple

from .simulation import SimulationResult

def raster(result: SimulationResult, ax: Any = None, gids: Optional[Iterable[int]] = None,
           figsize: Tuple[float, float] = ..., **style: Any) -> Any: ...
def traces(result: SimulationResult, ax: Any = None, gids: Optional[Iterable[int]] = None,
           figsize: Tuple[float, float] = ..., legend: bool = True, **style: Any) -> Any: ...
