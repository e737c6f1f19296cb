#pragma once
// NEURON's pas: i = g (v - e), per node in absolute units (g in uS, i in nA). Device code.
#include <Kokkos_Core.hpp>

namespace hinesbatch::mechanisms {

// Adds the node's passive conductance to the diagonal and its current to the rhs
// (rhs holds -i: current into the node).
KOKKOS_INLINE_FUNCTION void pas_current(const double g, const double e, const double v, double& d,
                                        double& rhs) {
  d += g;
  rhs -= g * (v - e);
}

}  // namespace hinesbatch::mechanisms
