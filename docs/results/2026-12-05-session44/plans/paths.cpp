#include <cstdio>
#include <string>
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"
using namespace hinesbatch;
int main(int argc, char** argv) {
  std::printf("| tree (nodes) | K=8: path (lanes + junction + tops), parallelism | K=16 | K=32 |\n|---|---|---|---|\n");
  for (int a = 1; a < argc; ++a) {
    Tree t = read_swc(argv[a]).tree();
    if (t.size() < 700 || t.size() > 5000) continue;
    std::string n = argv[a]; n = n.substr(n.rfind('/') + 1); n = n.substr(0, n.find(".CNG"));
    std::printf("| %s (%d) |", n.c_str(), t.size());
    for (int k : {8, 16, 32}) {
      auto p = SplitTreePlan::build(t, k);
      std::printf(" %d (%d + %zu + %zu), %.1f |", p.modelled_steps(), p.steps, p.junction.size(), p.tops.size(), double(t.size()) / p.modelled_steps());
    }
    std::printf("\n");
  }
}
