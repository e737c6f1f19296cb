#pragma once
// The Python module's Kokkos runtime: Kokkos is initialised once per process (on first use,
// or by hinesbatch.initialize()) and finalised at interpreter exit. Every Python object that
// holds Kokkos Views derives from Resource: finalize() releases their Views first (Kokkos
// must not free memory after finalize), so objects that outlive it only raise on use.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <Kokkos_Core.hpp>
#include <string>

namespace hinesbatch {
namespace python {

namespace py = pybind11;

using ExecutionSpace = Kokkos::DefaultExecutionSpace;
using MemorySpace = ExecutionSpace::memory_space;
// Whether numpy (host) memory can be handed to the solvers as it is.
constexpr bool kHostAccessible =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible;

class Resource {
 public:
  Resource();
  virtual ~Resource();
  Resource(const Resource&) = delete;
  Resource& operator=(const Resource&) = delete;
  // Frees every Kokkos View the object holds.
  virtual void release() = 0;
};

// Initialises Kokkos with default settings if nobody has yet; throws if it was finalised.
void ensure_initialized();
// The execution space instance every binding enqueues on (initialises Kokkos).
ExecutionSpace exec();
// num_threads / device_id < 0: Kokkos' defaults. Throws if Kokkos is already running.
void initialize(int num_threads, int device_id);
// Releases every Resource, then finalises Kokkos (if this module initialised it).
void finalize();
bool is_initialized();
bool is_finalized();

// Python exception classes (hinesbatch.SolveError, hinesbatch.InputError), created in
// core.cpp; the translator of C++ exceptions raises them with their attributes.
void register_exceptions(py::module_& m);

void bind_core(py::module_& m);
void bind_solvers(py::module_& m);
void bind_morphology(py::module_& m);
void bind_simulation(py::module_& m);

}  // namespace python
}  // namespace hinesbatch
