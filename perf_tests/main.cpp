// Perf-test driver: Kokkos up, the device copy bandwidth measured once (reported in the
// context and used for every benchmark's fraction-of-copy-bandwidth counter), then
// Google Benchmark.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <string>
#include <type_traits>

#include "perf_common.hpp"

namespace hinesbatch::perf {

namespace {
double g_copy_bandwidth = 0, g_host_copy_bandwidth = 0;
}

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

double copy_bandwidth() { return g_copy_bandwidth; }
double host_copy_bandwidth() { return g_host_copy_bandwidth; }

}  // namespace hinesbatch::perf

int main(int argc, char** argv) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  benchmark::Initialize(&argc, argv);
  using Exec = Kokkos::DefaultExecutionSpace;
  hinesbatch::perf::g_copy_bandwidth =
      hinesbatch::perf::measure_copy_bandwidth(Exec(), std::size_t(1) << 30);
  benchmark::AddCustomContext("execution_space", Exec::name());
  benchmark::AddCustomContext("copy_bandwidth_GBps",
                              std::to_string(hinesbatch::perf::g_copy_bandwidth * 1e-9));
  using Host = Kokkos::DefaultHostExecutionSpace;
  hinesbatch::perf::g_host_copy_bandwidth =
      std::is_same<Exec, Host>::value
          ? hinesbatch::perf::g_copy_bandwidth
          : hinesbatch::perf::measure_copy_bandwidth(Host(), std::size_t(1) << 30);
  benchmark::AddCustomContext("host_execution_space", Host::name());
  benchmark::AddCustomContext("host_copy_bandwidth_GBps",
                              std::to_string(hinesbatch::perf::g_host_copy_bandwidth * 1e-9));
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
