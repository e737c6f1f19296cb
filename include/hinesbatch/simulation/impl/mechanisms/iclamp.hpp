#pragma once
// NEURON's IClamp: an electrode current amp (nA) into the node while del <= t < del + dur,
// t at mid-step (NEURON evaluates currents at t + dt/2). Device code.
#include <Kokkos_Core.hpp>

namespace hinesbatch::mechanisms {

KOKKOS_INLINE_FUNCTION void iclamp_current(const double t_mid, const double del, const double dur,
                                           const double amp, double& rhs) {
  if (t_mid >= del && t_mid < del + dur) rhs += amp;
}

}  // namespace hinesbatch::mechanisms
