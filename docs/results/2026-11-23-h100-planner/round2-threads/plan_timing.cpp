#include <chrono>
#include <cstdio>
#include <Kokkos_Core.hpp>
#include "hinesbatch/layouts/branch_plan.hpp"
#include "shared_data.hpp"
using namespace hinesbatch;
int main(int argc, char** argv) {
  Kokkos::initialize(argc, argv);
  {
  const int n = atoi(argv[1]);
  const auto kinds = test::real_morphology_trees();
  std::vector<Tree> cells;
  for (int c = 0; c < n; ++c) cells.push_back(kinds[c % kinds.size()]);
  auto t0 = std::chrono::steady_clock::now();
  BranchPlan plan(cells);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  printf("threads %d cells %d nodes %lld branches %d storage %lld: %.3f s\n", Kokkos::DefaultHostExecutionSpace::concurrency(), n, (long long)plan.num_nodes(), plan.num_branches(), (long long)plan.storage_size(), s);
  }
  Kokkos::finalize();
}
