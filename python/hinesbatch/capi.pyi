from typing import Any, List, Optional, Sequence

class SolveError(RuntimeError):
    system: Optional[int]
    node: Optional[int]
    def __init__(self, message: str, system: Optional[int], node: Optional[int]) -> None: ...

class Library:
    backend: str
    version: str
    host_memory: bool
    def __init__(self, path: Optional[str] = None) -> None: ...
    def last_pointers(self) -> List[int]: ...
    def solve_hines(self, parent: Sequence[int], u: Any, l: Any, d: Any, rhs: Any,
                    layout: str = "flat", overwrite_d: bool = False) -> Any: ...
    def thomas_batch(self, a: Any, b: Any, c: Any, d: Any, layout: str = "flat",
                     overwrite_c: bool = False) -> Any: ...
