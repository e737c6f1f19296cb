#include <cstdio>
#include <vector>
#include "hinesbatch/morphology/tree.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"
using namespace hinesbatch;
// The split plans' modelled steps at K = 1-32 of the map's trees (hinesbatch_solver_map
// --map-families=hines --map-trees=all --map-export=map_trees.bin), one line a tree:
//   g++ -std=c++17 -O2 -Iinclude steps.cpp build/openmp/src/libhinesbatch.a -o steps
//   ./steps map_trees.bin   (steps.txt: the listing's names before each line)
int main(int argc, char** argv) {
  if (argc < 2) return 1;
  FILE* f = std::fopen(argv[1], "rb");
  int count; std::fread(&count, 4, 1, f);
  for (int i = 0; i < count; ++i) {
    int n; std::fread(&n, 4, 1, f);
    std::vector<int> p(n); std::fread(p.data(), 4, n, f);
    Tree t(p);
    std::printf("%d", n);
    for (int k = 1; k <= 32; k *= 2) std::printf(" %d", k == 1 ? n : SplitTreePlan::build(t, k).modelled_steps());
    std::printf("\n");
  }
}
