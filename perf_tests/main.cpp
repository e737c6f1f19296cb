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
