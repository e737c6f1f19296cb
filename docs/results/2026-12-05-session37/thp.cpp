// Host Hines solves (Auto = SimdTiles) of one random tree, Full-Interleaved or Flat, with the
// batch's arrays on 4 KiB pages or asked for transparent huge pages (madvise before first touch).
#include <sys/mman.h>

#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"

using namespace hinesbatch;
using E = Kokkos::OpenMP;
using M = Kokkos::HostSpace;

template <class V>
V make(const char* name, int systems, int nodes, bool huge) {
  V v(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(name)), systems, nodes);
  if (huge) {
    const std::size_t page = 4096;
    auto p = reinterpret_cast<std::uintptr_t>(v.data());
    const std::uintptr_t a = (p + page - 1) / page * page;
    const std::size_t bytes = v.span() * sizeof(double) - (a - p);
    if (madvise(reinterpret_cast<void*>(a), bytes / page * page, MADV_HUGEPAGE) != 0)
      std::perror("madvise");
  }
  return v;
}

template <class L>
void run(const Tree& tree, int log2_total, bool huge, int reps) {
  using V = typename L::template view_type<double, M>;
  const int n = tree.size();
  const int systems = static_cast<int>((1ll << log2_total) / n);
  V u = make<V>("u", systems, n, huge), l = make<V>("l", systems, n, huge),
    d = make<V>("d", systems, n, huge), r = make<V>("r", systems, n, huge);
  V d0 = make<V>("d0", systems, n, huge), r0 = make<V>("r0", systems, n, huge);
  Kokkos::parallel_for(
      Kokkos::RangePolicy<E>(0, systems), KOKKOS_LAMBDA(int s) {
        for (int i = 0; i < n; ++i) {
          const double h = ((s * 131 + i * 17) % 97) / 97.0;
          u(s, i) = -0.3 - 0.1 * h;
          l(s, i) = -0.25 - 0.1 * h;
          d0(s, i) = 2.5 + h;
          r0(s, i) = h;
        }
      });
  Kokkos::fence();
  const DeviceTree<M> dt(E(), tree);
  const HinesBatch<double, L, M> batch(u, l, d, r);
  std::vector<double> t;
  double copy_best = 1e30;
  for (int k = 0; k < reps; ++k) {
    auto c0 = std::chrono::steady_clock::now();
    Kokkos::deep_copy(d, d0);
    Kokkos::deep_copy(r, r0);
    Kokkos::fence();
    auto c1 = std::chrono::steady_clock::now();
    copy_best = std::min(copy_best, std::chrono::duration<double>(c1 - c0).count());
    solve(E(), dt, batch, HinesSchedule::Auto);
    Kokkos::fence();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - c1).count());
  }
  std::sort(t.begin(), t.end());
  const double nodes = static_cast<double>(systems) * n;
  // copy: 2 arrays read + 2 written = 32 B per node
  std::printf(
      "%s n=%d 2^%d systems=%d huge=%d  solve best %.4f s median %.4f s  %.3f G nodes/s  copy %.1f "
      "GB/s  solve-floor-frac %.2f\n",
      L::name, n, log2_total, systems, huge, t[0], t[t.size() / 2], nodes / t[0] * 1e-9,
      32 * nodes / copy_best * 1e-9, (40 * nodes / t[0]) / (32 * nodes / copy_best));
  std::fflush(stdout);
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  const int n = argc > 1 ? std::atoi(argv[1]) : 3000;
  const int log2_total = argc > 2 ? std::atoi(argv[2]) : 24;
  const int reps = argc > 3 ? std::atoi(argv[3]) : 7;
  const std::string which = argc > 4 ? argv[4] : "both";
  const Tree tree = random_tree(n, 7 + n);
  for (int huge : {0, 1, 0, 1}) {
    if (which != "flat") run<layouts::FullInterleaved>(tree, log2_total, huge, reps);
    if (which != "fi") run<layouts::Flat>(tree, log2_total, huge, reps);
  }
}
