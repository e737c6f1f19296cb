// Build: g++ -O2 -std=c++17 -I include -I .deps/install/openmp/include plan_timing.cpp -L build/openmp/src -lhinesbatch -L .deps/install/openmp/lib -lkokkoscore -fopenmp -ldl
#include <chrono>
#include <cstdio>
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/cell_lane_plan.hpp"
#include "hinesbatch/solvers/team_tree_plan.hpp"
using namespace hinesbatch;
int main() {
  std::vector<Tree> trees; for (int c = 0; c < 1000; ++c) trees.push_back(random_tree(512, 1000 + c, 0.1));
  auto t0 = std::chrono::steady_clock::now(); long s = 0;
  for (auto& t : trees) s += CellLanePlan::build(t.parents(), 32).levels;
  auto t1 = std::chrono::steady_clock::now();
  for (auto& t : trees) s += TeamTreePlan::build(t, 3).num_levels();
  auto t2 = std::chrono::steady_clock::now();
  printf("CellLanePlan %.3f ms/tree, TeamTreePlan %.3f ms/tree (%ld)\n", std::chrono::duration<double,std::milli>(t1-t0).count()/1000, std::chrono::duration<double,std::milli>(t2-t1).count()/1000, s);
}
