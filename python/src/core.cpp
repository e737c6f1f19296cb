// Kokkos settings and lifetime, and the exception classes of the module.
#include <sstream>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include "hinesbatch/core/error.hpp"
#include "runtime.hpp"

namespace hinesbatch {
namespace python {

namespace {
PyObject* solve_error = nullptr;  // hinesbatch.SolveError(RuntimeError)
PyObject* input_error = nullptr;  // hinesbatch.InputError(ValueError)

py::object or_none(long long v) { return v >= 0 ? py::object(py::int_(v)) : py::none(); }

void raise(PyObject* cls, const char* message, const py::dict& attributes) {
  py::object instance = py::reinterpret_borrow<py::object>(cls)(message);
  for (auto item : attributes) instance.attr(item.first) = item.second;
  PyErr_SetObject(cls, instance.ptr());
}
}  // namespace

void register_exceptions(py::module_& m) {
  solve_error = PyErr_NewExceptionWithDoc(
      "hinesbatch.SolveError",
      "A system could not be solved (zero or non-finite pivot, non-finite solution). "
      "Attributes: system (system, cell or gid) and node (node or row), None when unknown.",
      PyExc_RuntimeError, nullptr);
  input_error = PyErr_NewExceptionWithDoc(
      "hinesbatch.InputError",
      "Input the library rejects (a malformed SWC file or configuration, a tree not in Hines "
      "order). Attributes: file, line (0 when unknown) and value (the offending text).",
      PyExc_ValueError, nullptr);
  m.add_object("SolveError", py::handle(solve_error));
  m.add_object("InputError", py::handle(input_error));
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const SolverError& e) {
      py::dict a;
      a["system"] = or_none(e.system());
      a["node"] = or_none(e.node());
      raise(solve_error, e.what(), a);
    } catch (const InputError& e) {
      py::dict a;
      a["file"] = e.file();
      a["line"] = e.line();
      a["value"] = e.value();
      raise(input_error, e.what(), a);
    }
  });
}

void bind_core(py::module_& m) {
  m.def(
      "initialize", [](int num_threads, int device_id) { initialize(num_threads, device_id); },
      py::arg("num_threads") = -1, py::arg("device_id") = -1,
      "Initialise Kokkos with these settings (-1: Kokkos' defaults and its environment, e.g. "
      "OMP_NUM_THREADS). Optional: the first solve initialises Kokkos with the defaults. Must "
      "come before anything else; Kokkos is finalised at interpreter exit.");
  m.def("finalize", &finalize,
        "Free every array the module's objects hold and finalise Kokkos (done at exit; "
        "Kokkos cannot be initialised again afterwards).");
  m.def("is_initialized", &is_initialized);
  m.def("is_finalized", &is_finalized);
  m.def(
      "kokkos_config",
      []() {
        const ExecutionSpace space = exec();
        py::dict c;
        c["version"] = std::to_string(KOKKOS_VERSION / 10000) + "." +
                       std::to_string(KOKKOS_VERSION / 100 % 100) + "." +
                       std::to_string(KOKKOS_VERSION % 100);
        c["execution_space"] = ExecutionSpace::name();
        c["memory_space"] = MemorySpace::name();
        c["host_execution_space"] = Kokkos::DefaultHostExecutionSpace::name();
        c["concurrency"] = space.concurrency();
        c["host_concurrency"] = Kokkos::DefaultHostExecutionSpace().concurrency();
        py::list backends;
#ifdef KOKKOS_ENABLE_CUDA
        backends.append("Cuda");
#endif
#ifdef KOKKOS_ENABLE_HIP
        backends.append("HIP");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
        backends.append("OpenMP");
#endif
#ifdef KOKKOS_ENABLE_THREADS
        backends.append("Threads");
#endif
#ifdef KOKKOS_ENABLE_SERIAL
        backends.append("Serial");
#endif
        c["backends"] = backends;
    // The GPUs this process sees and the one Kokkos runs on (none on host backends).
#ifdef KOKKOS_ENABLE_CUDA
        // The CUDA runtime's own calls: the same on every Kokkos version.
        int count = 0, id = -1;
        cudaGetDeviceCount(&count);
        cudaGetDevice(&id);
        c["device_count"] = count;
        c["device_id"] = id;
#else
        c["device_count"] = 0;
        c["device_id"] = py::none();
#endif
        // numpy arrays are solved in place when the memory space is host memory.
        c["zero_copy"] = kHostAccessible;
        std::ostringstream text;
        Kokkos::print_configuration(text, false);
        c["configuration"] = text.str();
        return c;
      },
      "Kokkos' version, backends, default execution and memory space, concurrency (threads "
      "or GPU concurrency), whether numpy arrays are solved in place, and Kokkos' own "
      "configuration text. Initialises Kokkos if needed.");
}

}  // namespace python
}  // namespace hinesbatch
