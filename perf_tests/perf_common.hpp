#pragma once
// Shared by the perf tests: the device copy bandwidth measured once per run (every
// benchmark reports its effective bandwidth as a fraction of it), timing helpers.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <type_traits>

#include "hinesbatch/core/backend_traits.hpp"

namespace hinesbatch::perf {

// Bytes read + written per second by a large device-to-device copy on exec's memory
// space, measured at start-up.
double copy_bandwidth();
// The same for the host (Kokkos::DefaultHostExecutionSpace, all its threads): the floor
// of host-side benchmarks (Multicore, SIMD tiles) when the default space is a GPU. Equal to
// copy_bandwidth() when the default space is the host.
double host_copy_bandwidth();
// copy_bandwidth() or host_copy_bandwidth(), for a benchmark running on Exec.
template <class Exec>
double copy_bandwidth_of() {
  return hinesbatch::is_host_backend<Exec>() ? host_copy_bandwidth() : copy_bandwidth();
}
// Read + write bytes per second of a device-to-device copy of `bytes` (best of 9).
template <class Exec>
double measure_copy_bandwidth(const Exec& exec, std::size_t bytes) {
  const std::size_t n = bytes / sizeof(double);
  Kokkos::View<double*, typename Exec::memory_space> a("copy_a", n), b("copy_b", n);
  Kokkos::deep_copy(exec, a, 1.0);
  double best = 0;
  for (int r = 0; r < 10; ++r) {
    exec.fence();
    const auto t0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(exec, b, a);
    exec.fence();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (r > 0) best = std::max(best, 2.0 * n * sizeof(double) / t);  // read + write
  }
  return best;
}

// Counters every solver benchmark reports. byte_model_bytes: the bytes a solve must
// move at the least under the benchmark's stated byte model.
inline void set_counters(benchmark::State& state, double items_per_iteration,
                         double bytes_per_iteration) {
  using benchmark::Counter;
  state.counters["nodes_per_s"] =
      Counter(items_per_iteration, Counter::kIsIterationInvariantRate, Counter::kIs1000);
  state.counters["bytes_per_s"] =
      Counter(bytes_per_iteration, Counter::kIsIterationInvariantRate, Counter::kIs1024);
  state.SetItemsProcessed(static_cast<int64_t>(items_per_iteration * state.iterations()));
  state.SetBytesProcessed(static_cast<int64_t>(bytes_per_iteration * state.iterations()));
}

}  // namespace hinesbatch::perf
