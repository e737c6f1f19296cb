// The compiled part of the hinesbatch package (hinesbatch/__init__.py re-exports it).
#include "runtime.hpp"

PYBIND11_MODULE(_hinesbatch, m) {
  using namespace hinesbatch::python;
  m.doc() = "HinesBatch: batched Hines and tridiagonal solvers and a neuron network simulator";
  m.attr("__version__") = HINESBATCH_VERSION;
  register_exceptions(m);
  bind_core(m);
  bind_solvers(m);
  bind_morphology(m);
  bind_simulation(m);
}
