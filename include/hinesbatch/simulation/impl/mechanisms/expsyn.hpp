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

// NET_RECEIVE for a step's events [begin, end) of (synapse, weight), sorted by synapse, as
// work item i of them: the first event of each run of equal synapses adds the whole run
// in order, so the sums are the same on every backend and schedule.
template <class Synapse, class Weight, class Conductance>
KOKKOS_INLINE_FUNCTION void expsyn_receive(const Synapse& synapse, const Weight& weight,
                                           const Conductance& g, const int i, const int begin,
                                           const int end) {
  const int syn = synapse(i);
  if (i > begin && syn == synapse(i - 1)) return;
  double sum = g(syn);
  for (int k = i; k < end && synapse(k) == syn; ++k) sum += weight(k);
  g(syn) = sum;
}

}  // namespace hinesbatch::mechanisms
