#pragma once
// NEURON's IClamp: an electrode current amp (nA) into the node while del <= t < del + dur,
// t at mid-step (NEURON evaluates currents at t + dt/2). Device code.
#include <Kokkos_Core.hpp>

namespace hinesbatch::mechanisms {

KOKKOS_INLINE_FUNCTION void iclamp_current(const double t_mid, const double del, const double dur,
                                           const double amp, double& rhs) {
  if (t_mid >= del && t_mid < del + dur) rhs += amp;
}

// The same current as a mechanism gives it: i (nA, outward positive) and di/dv g (uS), here
// -amp inside the pulse and 0. A schedule that adds g to d and -i (or g v - i) to rhs gets
// the bits of iclamp_current above.
KOKKOS_INLINE_FUNCTION void iclamp_current(const double t_mid, const double del, const double dur,
                                           const double amp, double& i, double& g) {
  double rhs = 0;
  iclamp_current(t_mid, del, dur, amp, rhs);
  i = -rhs;
  g = 0;
}

}  // namespace hinesbatch::mechanisms
