#include <algorithm>
#include <cstdio>
#include <string>
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"
using namespace hinesbatch;
int choose(const Tree& t, long long systems, int most) {
  const double wanted = 132 * 2048;
  if (t.size() < 64) return 1;
  auto time = [&](int lanes, int steps) { return steps * std::max(1.0, wanted / (double(systems) * lanes)); };
  int best = 1; double bt = time(1, t.size());
  for (int l = 2; l <= most && systems * l / 2 < wanted; l *= 2) {
    double x = time(l, SplitTreePlan::build(t, l).modelled_steps());
    if (x > 0.9 * bt) break;
    best = l; bt = x;
  }
  return best;
}
int main(int argc, char** argv) {
  for (long long cells : {6400LL, 25600LL, 102400LL}) {
    int most = cells * 16 < 132 * 2048 ? 16 : 8;
    std::printf("cells %lld (most %d):", cells, most);
    for (int a = 1; a < argc; ++a) {
      Tree t = read_swc(argv[a]).tree();
      int k = choose(t, cells, most);
      std::printf(" %d:K%d/%d", t.size(), k, SplitTreePlan::build(t, k).modelled_steps());
    }
    std::printf("\n");
  }
}
