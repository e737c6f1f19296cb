#pragma once
// Fresh random, diagonally dominant Hines systems for tests and benchmarks. u and l
// differ on purpose: a solver that swaps them fails.
#include <cstdint>
#include <random>
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch::test {

template <class T>
struct HostSystems {
  int num_systems = 0, num_nodes = 0;
  std::vector<T> u, l, d, rhs;  // [system][node]
  // Another set's systems after these (a batch of cells of different sizes: num_nodes is
  // then the first set's, and callers index by their own offsets).
  void append(const HostSystems& more) {
    u.insert(u.end(), more.u.begin(), more.u.end());
    l.insert(l.end(), more.l.begin(), more.l.end());
    d.insert(d.end(), more.d.begin(), more.d.end());
    rhs.insert(rhs.end(), more.rhs.begin(), more.rhs.end());
    if (num_systems == 0) num_nodes = more.num_nodes;
    num_systems += more.num_systems;
  }
};

// Row i holds d[i], l[i] (column p[i]) and u[c] for each child c; d[i] exceeds the sum
// of their magnitudes by a random margin in [margin, 2 margin].
template <class T>
HostSystems<T> random_systems(const Tree& tree, int num_systems, std::uint64_t seed,
                              double margin = 0.5) {
  HostSystems<T> h;
  const int n = tree.size();
  h.num_systems = num_systems;
  h.num_nodes = n;
  const std::size_t total = static_cast<std::size_t>(num_systems) * n;
  h.u.resize(total);
  h.l.resize(total);
  h.d.resize(total);
  h.rhs.resize(total);
  std::mt19937_64 gen(seed);
  auto unit = [&gen]() { return static_cast<double>(gen() >> 11) * 0x1.0p-53; };  // [0,1)
  std::vector<double> offsum(n);
  for (int s = 0; s < num_systems; ++s) {
    const std::size_t o = static_cast<std::size_t>(s) * n;
    std::fill(offsum.begin(), offsum.end(), 0.0);
    h.u[o] = h.l[o] = T(0);
    for (int i = 1; i < n; ++i) {
      const double u = -(0.1 + unit()), l = -(0.1 + unit());
      h.u[o + i] = static_cast<T>(u);
      h.l[o + i] = static_cast<T>(l);
      offsum[i] += -l;               // row i, column p[i]
      offsum[tree.parent(i)] += -u;  // row p[i], column i
    }
    for (int i = 0; i < n; ++i) {
      h.d[o + i] = static_cast<T>(offsum[i] + margin * (1.0 + unit()));
      h.rhs[o + i] = static_cast<T>(2.0 * unit() - 1.0);
    }
  }
  return h;
}

}  // namespace hinesbatch::test
