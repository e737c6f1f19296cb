#pragma once
// The part of a cell's cable-equation matrix that is fixed for a run (NEURON's fixed step,
// in the simulation's units: uS, nA, mV): per node the capacitive term C/dt and the axial
// conductances of its edges on the diagonal, and -g_axial to its parent as the symmetric
// off-diagonal. A step adds the mechanisms' conductances to d0. The simulation
// (CellGroup) and the solver benchmarks on NEURON-discretised cells build their systems
// with this one function.
#include <vector>

#include "hinesbatch/morphology/neuron_compartments.hpp"

namespace hinesbatch {

struct CableMatrix {
  std::vector<double> d0;             // uS: C/dt + the sum of g_axial over the node's edges
  std::vector<double> minus_g_axial;  // uS: -g_axial to the parent (0 at the root)
  std::vector<double> c_dt;           // uS: C/dt alone (0 on NEURON's zero-area nodes)
  int size() const { return static_cast<int>(d0.size()); }
};

// cm in uF/cm2, dt in ms. Throws InputError for a non-positive or non-finite cm or dt.
CableMatrix cable_matrix(const NeuronCompartments& c, double cm_uF_cm2, double dt_ms);
// The same with each section's own cm (NEURON's sec.cm), indexed like c.first_centre.
CableMatrix cable_matrix(const NeuronCompartments& c, const std::vector<double>& cm_of_section,
                         double dt_ms);

// A membrane conductance density (S/cm2) on a node's area, in uS.
inline double membrane_uS(const NeuronCompartments& c, int node, double g_S_cm2) {
  return g_S_cm2 * (c.area_um2[node] * 1e-2);
}

}  // namespace hinesbatch
