#pragma once
// Hines systems as the simulation assembles them (cable_matrix, the builder CellGroup
// uses, plus a passive membrane), for solver tests and benchmarks on cells discretised as
// NEURON does: u = l = -g_axial, d = d0 + g_pas on each node's area, rhs a random current
// per node (nA). Unlike random_systems, the diagonal dominance is the cable equation's
// (zero-area section ends have none at all).
#include <cstdint>
#include <random>
#include <vector>

#include "hinesbatch/morphology/cable_matrix.hpp"
#include "random_systems.hpp"

namespace hinesbatch::test {

template <class T>
HostSystems<T> cable_systems(const NeuronCompartments& c, int num_systems, std::uint64_t seed,
                             double dt_ms = 0.025, double cm_uF_cm2 = 1.0,
                             double g_pas_S_cm2 = 1e-4) {
  const CableMatrix m = cable_matrix(c, cm_uF_cm2, dt_ms);
  HostSystems<T> h;
  const int n = c.size();
  h.num_systems = num_systems;
  h.num_nodes = n;
  std::mt19937_64 gen(seed);
  auto unit = [&gen]() { return static_cast<double>(gen() >> 11) * 0x1.0p-53; };  // [0,1)
  for (int s = 0; s < num_systems; ++s)
    for (int i = 0; i < n; ++i) {
      h.u.push_back(static_cast<T>(m.minus_g_axial[i]));
      h.l.push_back(static_cast<T>(m.minus_g_axial[i]));
      h.d.push_back(static_cast<T>(m.d0[i] + membrane_uS(c, i, g_pas_S_cm2)));
      h.rhs.push_back(static_cast<T>(2.0 * unit() - 1.0));
    }
  return h;
}

}  // namespace hinesbatch::test
