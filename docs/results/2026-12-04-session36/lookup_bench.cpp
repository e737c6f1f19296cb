#include <chrono>
#include <cstdio>
#include "hinesbatch/solvers/impl/auto_thomas_table.hpp"
#include "hinesbatch/solvers/impl/auto_thomas_vbatch_table.hpp"
#include "hinesbatch/solvers/impl/auto_hines_table.hpp"
using namespace hinesbatch::impl;
template <class P, std::size_t N>
void bench(const char* name, const P (&t)[N], int size, long long systems, int height = 0) {
  volatile int sink = 0;
  const int reps = 20000;
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) sink = sink + static_cast<int>(nearest_auto_point(t, size + (r & 1) * 0, systems, height).total_log2);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%-34s %4zu points: %.2f us per lookup\n", name, N, std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
}
int main() {
  bench("kThomasAutoFlat", kThomasAutoFlat, 128, 8192);
  bench("kThomasAutoFullInterleaved", kThomasAutoFullInterleaved, 128, 8192);
  bench("kThomasVAutoFlatCp", kThomasVAutoFlatCp, 128, 8192);
  bench("kThomasVAutoPacked", kThomasVAutoPacked, 64, 16384);
  bench("kHinesAutoFlat", kHinesAutoFlat, 998, 1024, 60);
  bench("kHinesAutoFullInterleaved", kHinesAutoFullInterleaved, 998, 1024, 60);
}
