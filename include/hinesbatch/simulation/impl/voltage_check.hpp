#pragma once
// A guard against physically meaningless results: radius 0 everywhere or an
// IClamp of 1e10 nA run without a solver error but give membrane potentials of 30,000 mV
// or 1e300 mV. After every epoch the driver checks that every voltage is finite and within
// kMaxAbsVoltageMv and stops the run with a SolverError naming gid, node and time.
// One reduction over the voltages per epoch (an epoch is many steps, each of which reads
// and writes every voltage several times), so the cost is small.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

// 10 V: two orders of magnitude beyond any membrane potential a cell can hold.
constexpr double kMaxAbsVoltageMv = 1e4;

namespace impl {

// Largest |v| over the real nodes of every cell slot; a non-finite v counts as 1e300.
template <class VoltageView, class SizeView>
struct LargestAbsVoltage {
  VoltageView v;  // (slot, node)
  SizeView size;  // nodes per slot
  KOKKOS_INLINE_FUNCTION void operator()(const int s, double& largest) const {
    for (int k = 0; k < size(s); ++k) {
      const double x = v(s, k);
      const double a = (x - x == 0) ? (x < 0 ? -x : x) : 1e300;  // x - x is NaN for NaN, inf
      if (a > largest) largest = a;
    }
  }
};

// The voltages on the host for the rare path (a View; cell_tiles.hpp's accessor is
// already host-readable and overloads this).
template <class View>
auto host_voltages(const View& v)
    -> decltype(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v)) {
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
}

}  // namespace impl

// Throws SolverError "membrane potential ... at gid G, node N, t = T ms" if a voltage of a
// slot is non-finite or beyond kMaxAbsVoltageMv. gid_of_slot maps a slot to its gid.
template <class ExecutionSpace, class VoltageView, class SizeView, class GidOfSlot>
void check_voltages(const ExecutionSpace& exec, const VoltageView& v, const SizeView& size,
                    int num_slots, double time_ms, const GidOfSlot& gid_of_slot) {
  if (num_slots == 0) return;
  double largest = 0;
  Kokkos::parallel_reduce(
      "hinesbatch::sim_check_voltages", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, num_slots),
      impl::LargestAbsVoltage<VoltageView, SizeView>{v, size}, Kokkos::Max<double>(largest));
  exec.fence();
  if (largest <= kMaxAbsVoltageMv) return;
  // Rare path: find the first offending (slot, node) on the host.
  using impl::host_voltages;  // and, by argument-dependent lookup, the accessors' own
  const auto hv = host_voltages(v);
  const auto hs = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), size);
  for (int s = 0; s < num_slots; ++s)
    for (int k = 0; k < hs(s); ++k) {
      const double x = hv(s, k);
      if (std::isfinite(x) && std::fabs(x) <= kMaxAbsVoltageMv) continue;
      throw SolverError("hinesbatch: membrane potential " + format_value(x) + " mV at gid " +
                        std::to_string(gid_of_slot(s)) + ", node " + std::to_string(k) +
                        ", t = " + format_value(time_ms) +
                        " ms is non-finite or beyond +-1e4 mV: the model is not physical "
                        "(check radii, Ra, stimulus amplitudes, conductances and dt)");
    }
}

}  // namespace hinesbatch
