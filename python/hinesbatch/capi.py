"""The solvers through the C interface (python/capi/hinesbatch_c.h) and ctypes: for any
Python (no compiled extension of this interpreter's version is needed) and, on a CUDA build
of the library, for arrays in GPU memory (CuPy, PyTorch, JAX), solved in place.

Standalone: uses only the standard library, so a Python for which the pybind11 module was
not built loads it by path:

    spec = importlib.util.spec_from_file_location("hb_capi", "python/hinesbatch/capi.py")
    capi = importlib.util.module_from_spec(spec); spec.loader.exec_module(capi)
    lib = capi.Library("/path/to/libhinesbatch_c.so")
    lib.solve_hines(parent, u, l, d, rhs)        # torch.cuda / cupy arrays on a CUDA build

Arrays come through __cuda_array_interface__ (CuPy, PyTorch CUDA tensors, Numba) or
__array_interface__ (numpy): their pointer, shape, dtype and strides are read, nothing is
copied; an array in the wrong memory, of another dtype, or not C-contiguous is refused with
a ValueError naming it.
"""
import atexit
import ctypes
import os

_SIZE = 1024


class SolveError(RuntimeError):
    """A system could not be solved; system and node (None when unknown)."""

    def __init__(self, message, system, node):
        super().__init__(message)
        self.system, self.node = system, node


def _interface(name, array):
    """(pointer, shape, typestr, on_device) of an array, without a copy."""
    if hasattr(array, "__cuda_array_interface__"):
        info, device = array.__cuda_array_interface__, True
    elif hasattr(array, "__array_interface__"):
        info, device = array.__array_interface__, False
    else:
        raise ValueError("argument %r (%s) has neither __cuda_array_interface__ nor "
                         "__array_interface__" % (name, type(array).__name__))
    shape = tuple(int(x) for x in info["shape"])
    typestr = info["typestr"]
    if typestr[1:] not in ("f8", "f4") or typestr[0] not in "<|=":
        raise ValueError("argument %r has dtype %s; the solvers take float64 or float32"
                         % (name, typestr))
    strides = info.get("strides")
    if strides is not None:
        expected, item = [], int(typestr[2:])
        step = item
        for extent in reversed(shape):
            expected.insert(0, step)
            step *= extent
        if any(s != e and n > 1 for s, e, n in zip(strides, expected, shape)):
            raise ValueError("argument %r is not C-contiguous: it cannot be solved in place "
                             "without a copy (make it contiguous first)" % name)
    pointer, readonly = info["data"]
    if readonly and name in ("rhs", "d"):
        raise ValueError("argument %r is read-only; it is overwritten in place" % name)
    return int(pointer), shape, typestr[1:], device


def _beside_this_file():
    """libhinesbatch_c.so in this package's folder (the build tree's name, or pip's with the
    interpreter's suffix)."""
    here = os.path.dirname(os.path.abspath(__file__))
    names = sorted(n for n in os.listdir(here)
                   if n.startswith("libhinesbatch_c") and n.endswith(".so"))
    if not names:
        raise OSError("libhinesbatch_c.so not found beside %s: pass its path or set "
                      "HINESBATCH_C_LIBRARY" % __file__)
    return os.path.join(here, names[0])


class Library:
    """The C interface of one build of the library (libhinesbatch_c.so)."""

    def __init__(self, path=None):
        path = path or os.environ.get("HINESBATCH_C_LIBRARY") or _beside_this_file()
        self.lib = ctypes.CDLL(path)
        L, P, I, C = ctypes.c_longlong, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p
        for name in ("hb_solve_hines_f64", "hb_solve_hines_f32"):
            f = getattr(self.lib, name)
            f.argtypes = [P, I, I, I, P, P, P, P, I, ctypes.POINTER(L), ctypes.POINTER(L), C, I]
            f.restype = I
        for name in ("hb_thomas_batch_f64", "hb_thomas_batch_f32"):
            f = getattr(self.lib, name)
            f.argtypes = [I, I, I, P, P, P, P, I, ctypes.POINTER(L), ctypes.POINTER(L), C, I]
            f.restype = I
        self.lib.hb_initialize.argtypes = [C, I]
        self.lib.hb_backend.restype = ctypes.c_char_p
        self.lib.hb_version.restype = ctypes.c_char_p
        self.lib.hb_last_pointers.argtypes = [ctypes.POINTER(P)]
        message = ctypes.create_string_buffer(_SIZE)
        if self.lib.hb_initialize(message, _SIZE) != 0:
            raise RuntimeError(message.value.decode(errors="replace"))
        atexit.register(self.lib.hb_finalize)  # the library's own Kokkos, at exit
        self.backend = self.lib.hb_backend().decode()
        self.version = self.lib.hb_version().decode()
        self.host_memory = bool(self.lib.hb_memory_is_host())

    def last_pointers(self):
        """The data pointers the last solve of this thread ran on (4 of them)."""
        out = (ctypes.c_void_p * 4)()
        self.lib.hb_last_pointers(out)
        return [p or 0 for p in out]

    def _arrays(self, names, arrays, expected_shape):
        got = [_interface(n, a) for n, a in zip(names, arrays)]
        for (pointer, shape, dtype, device), n in zip(got, names):
            if shape != expected_shape:
                raise ValueError("argument %r has shape %s, expected %s" % (n, shape,
                                                                            expected_shape))
            if dtype != got[-1][2]:
                raise ValueError("argument %r has dtype %s but the batch is %s" % (
                    n, dtype, got[-1][2]))
            if device == self.host_memory:
                raise ValueError(
                    "argument %r is in %s memory, but this build (%s) solves in %s memory"
                    % (n, "GPU" if device else "host", self.backend,
                       "host" if self.host_memory else "GPU"))
        return [g[0] for g in got], got[-1][2]

    def _check(self, rc, system, node, message):
        if rc == 0:
            return
        text = message.value.decode(errors="replace")
        if rc == 1:
            raise SolveError(text, None if system.value < 0 else system.value,
                             None if node.value < 0 else node.value)
        raise (ValueError if rc == 2 else RuntimeError)(text)

    def solve_hines(self, parent, u, l, d, rhs, layout="flat", overwrite_d=False):
        """As hinesbatch.solve_hines: rhs <- the solution; u, l, d left as they were unless
        overwrite_d. parent: a host sequence of ints (Hines order). Returns rhs."""
        parent = [int(p) for p in parent]
        n = len(parent)
        shape = tuple(_interface("rhs", rhs)[1])
        if len(shape) != 2:
            raise ValueError("argument 'rhs' must be 2-D, got shape %s" % (shape,))
        N = shape[0] if layout == "flat" else shape[1]
        want = (N, n) if layout == "flat" else (n, N)
        pointers, dtype = self._arrays(("u", "l", "d", "rhs"), (u, l, d, rhs), want)
        f = self.lib.hb_solve_hines_f64 if dtype == "f8" else self.lib.hb_solve_hines_f32
        system, node = ctypes.c_longlong(), ctypes.c_longlong()
        message = ctypes.create_string_buffer(_SIZE)
        rc = f((ctypes.c_int * n)(*parent), n, N, 0 if layout == "flat" else 1, *pointers,
               int(bool(overwrite_d)), ctypes.byref(system), ctypes.byref(node), message, _SIZE)
        self._check(rc, system, node, message)
        return rhs

    def thomas_batch(self, a, b, c, d, layout="flat", overwrite_c=False):
        """As hinesbatch.thomas_batch: d <- the solution; a, b, c left as they were unless
        overwrite_c. Returns d."""
        shape = tuple(_interface("d", d)[1])
        if len(shape) != 2:
            raise ValueError("argument 'd' must be 2-D, got shape %s" % (shape,))
        N, m = (shape[0], shape[1]) if layout == "flat" else (shape[1], shape[0])
        pointers, dtype = self._arrays(("a", "b", "c", "d"), (a, b, c, d), shape)
        f = self.lib.hb_thomas_batch_f64 if dtype == "f8" else self.lib.hb_thomas_batch_f32
        system, node = ctypes.c_longlong(), ctypes.c_longlong()
        message = ctypes.create_string_buffer(_SIZE)
        rc = f(N, m, 0 if layout == "flat" else 1, *pointers, int(bool(overwrite_c)),
               ctypes.byref(system), ctypes.byref(node), message, _SIZE)
        self._check(rc, system, node, message)
        return d
