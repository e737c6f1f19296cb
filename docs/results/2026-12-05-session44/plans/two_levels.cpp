#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"
using namespace hinesbatch;
// Modelled path of a two-level split: the lanes' path, then the junction split again
// among the same K lanes (its tops' steps counted with the junction node they hang from:
// a junction node's weight is 1 + its tops), then the inner junction walked alone.
int main(int argc, char** argv) {
  std::printf("| tree (nodes) | K | one level: path | two levels: lanes + inner lanes (weighted) + inner junction and tops |\n|---|---|---|---|\n");
  for (int a = 1; a < argc; ++a) {
    Tree t = read_swc(argv[a]).tree();
    if (t.size() < 700) continue;
    std::string n = argv[a]; n = n.substr(n.rfind('/') + 1); n = n.substr(0, n.find(".CNG"));
    for (int k : {8, 16, 32}) {
      auto p = SplitTreePlan::build(t, k);
      // The junction as a tree of its own: nodes in increasing order, parents inside it.
      std::vector<int> j(p.junction.rbegin(), p.junction.rend());
      std::map<int, int> idx;
      for (size_t i = 0; i < j.size(); ++i) idx[j[i]] = i;
      std::vector<int> parents(j.size(), -1), weight(j.size(), 1);
      for (size_t i = 1; i < j.size(); ++i) parents[i] = idx.at(t.parent(j[i]));
      for (int top : p.tops) weight[idx.at(t.parent(top))] += 1;
      Tree jt(parents);
      auto q = SplitTreePlan::build(jt, k);
      // Weighted: the longest inner lane's nodes with their tops; the inner junction and tops with theirs.
      int longest = 0;
      for (int lane = 0; lane < k; ++lane) {
        int w = 0;
        for (int s = 0; s < q.steps; ++s) { int v = q.lane_node[lane * q.steps + s]; if (v >= 0) w += weight[v]; }
        longest = std::max(longest, w);
      }
      int serial = 0;
      for (int v : q.junction) serial += weight[v];
      serial += q.tops.size();
      std::printf("| %s (%d) | %d | %d | %d = %d + %d + %d |\n", n.c_str(), t.size(), k, p.modelled_steps(),
                  p.steps + longest + serial, p.steps, longest, serial);
    }
  }
}
