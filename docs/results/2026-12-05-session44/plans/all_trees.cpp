#include <cstdio>
#include <string>
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"
using namespace hinesbatch;
int main(int argc, char** argv) {
  for (int a = 1; a < argc; ++a) {
    Tree t = read_swc(argv[a]).tree();
    std::string n = argv[a]; n = n.substr(n.rfind('/') + 1);
    std::printf("%-28s %6d:", n.c_str(), t.size());
    for (int k : {1, 2, 4, 8, 16, 32}) {
      auto p = SplitTreePlan::build(t, k);
      std::printf(" K%d=%d(%d+%zu+%zu)", k, p.modelled_steps(), p.steps, p.junction.size(), p.tops.size());
    }
    std::printf("\n");
  }
}
