#pragma once
// Shared by the perf tests: the device copy bandwidth measured once per run (every
// benchmark reports its effective bandwidth as a fraction of it), timing helpers.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <type_traits>

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
  return std::is_same<typename Exec::memory_space, Kokkos::HostSpace>::value ? host_copy_bandwidth()
                                                                             : copy_bandwidth();
}
template <class Exec>
double measure_copy_bandwidth(const Exec& exec, std::size_t bytes);

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
