#pragma once
// NEURON's ExpSyn: i = g (v - e); an event adds its weight to g (uS), which decays with
// tau by cnexp, g *= exp(-dt / tau) per step (the factor precomputed per synapse).
// Device code.
#include <Kokkos_Core.hpp>

namespace hinesbatch::mechanisms {

KOKKOS_INLINE_FUNCTION void expsyn_current(const double g, const double e, const double v,
                                           double& d, double& rhs) {
  d += g;
  rhs -= g * (v - e);
}

KOKKOS_INLINE_FUNCTION void expsyn_decay(const double decay, double& g) { g *= decay; }

}  // namespace hinesbatch::mechanisms
