#pragma once
// NEURON's delivery rule on the device: an event of time te is delivered at the start of
// the first step from t with te <= t + dt/2 (events.hpp's delivery_step, the same arithmetic).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>

namespace hinesbatch {
namespace impl {

// The same arithmetic as delivery_step() in events.cpp, callable on the device.
KOKKOS_INLINE_FUNCTION std::int64_t delivery_step_of(double te, double dt) {
  const double x = te / dt - 0.5;
  const double ax = x < 0 ? -x : x;
  const double n = ceil(x - 1e-9 * (ax > 1.0 ? ax : 1.0));
  return n < 0 ? 0 : static_cast<std::int64_t>(n);
}

}  // namespace impl
}  // namespace hinesbatch
