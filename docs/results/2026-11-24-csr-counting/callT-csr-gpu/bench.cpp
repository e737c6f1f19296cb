#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <random>
#include "hinesbatch/simulation/device_events.hpp"
using clk = std::chrono::steady_clock;
double since(clk::time_point t) { return std::chrono::duration<double>(clk::now() - t).count(); }
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
    using E = Kokkos::DefaultExecutionSpace;
    const std::int64_t n = argc > 1 ? std::atoll(argv[1]) : 10000000, cells = argc > 2 ? std::atoll(argv[2]) : 100000;
    Kokkos::View<std::int64_t*> src("src", n);
    auto h = Kokkos::create_mirror_view(src);
    std::mt19937_64 g(1);
    for (std::int64_t i = 0; i < n; ++i) h(i) = g() % cells;
    Kokkos::deep_copy(src, h);
    for (int r = 0; r < 4; ++r) {
      Kokkos::fence(); auto t = clk::now();
      auto o = hinesbatch::impl::csr_by_counting(E(), src, cells - 1).order;
      Kokkos::fence(); double a = since(t); t = clk::now();
      auto o2 = hinesbatch::impl::csr_by_key(E(), src, cells - 1).order;
      Kokkos::fence(); double b = since(t);
      auto ho = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), o);
      auto ho2 = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), o2);
      long diff = 0; for (std::int64_t i = 0; i < n; ++i) diff += ho(i) != ho2(i);
      std::printf("counting %.3f s key %.3f s diff %ld\n", a, b, diff);
    }
  }
  Kokkos::finalize();
}
