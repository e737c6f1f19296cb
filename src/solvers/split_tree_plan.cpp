#include "hinesbatch/solvers/impl/split_tree_plan.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <string>
#include <utility>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace {

// Deals the subtrees (sizes in `size`, roots in `roots`) to `lanes` lanes, largest first,
// each to the least loaded lane; returns the largest load and, when `lane_of_root` is given,
// each root's lane.
int deal(const std::vector<int>& roots, const std::vector<int>& size, int lanes,
         std::vector<int>* lane_of_root) {
  std::vector<int> order(roots);
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return size[a] != size[b] ? size[a] > size[b] : a < b; });
  using Load = std::pair<int, int>;  // (nodes, lane)
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> loads;
  for (int k = 0; k < lanes; ++k) loads.push({0, k});
  int most = 0;
  for (int r : order) {
    Load least = loads.top();
    loads.pop();
    least.first += size[r];
    most = std::max(most, least.first);
    if (lane_of_root) (*lane_of_root)[r] = least.second;
    loads.push(least);
  }
  return most;
}

}  // namespace

SplitTreePlan SplitTreePlan::build(const Tree& tree, int lanes) {
  if (lanes < 1 || lanes > 32)
    throw InputError(
        "SplitTreePlan: lanes per system must be 1 to 32, not " + std::to_string(lanes), {}, 0,
        std::to_string(lanes));
  SplitTreePlan plan;
  const int n = tree.size();
  plan.num_nodes = n;
  plan.lanes = lanes;
  if (n == 0) return plan;
  std::vector<int> size(n, 1);
  for (int i = n - 1; i > 0; --i) size[tree.parent(i)] += size[i];
  std::vector<std::vector<int>> children(n);
  for (int i = 1; i < n; ++i) children[tree.parent(i)].push_back(i);

  // Grow the junction from the root, the largest hanging subtree's root at a time; keep
  // the size with the least modelled time. Past the point where the largest subtree is
  // under a lane's share, growing only adds serial work; past the best time, the junction's
  // serial walk alone is longer.
  std::vector<int> hanging = children[0], grown;  // grown: junction nodes after the root
  int best_time = deal(hanging, size, lanes, nullptr) + 1 + static_cast<int>(hanging.size());
  std::size_t best_grown = 0;
  for (;;) {
    auto largest = std::max_element(hanging.begin(), hanging.end(),
                                    [&](int a, int b) { return size[a] < size[b]; });
    if (largest == hanging.end()) break;
    const int junction = 1 + static_cast<int>(grown.size());
    if (static_cast<long long>(size[*largest]) * lanes <= n - junction) break;
    if (junction + 1 >= best_time || junction > 4096) break;
    const int r = *largest;
    hanging.erase(largest);
    grown.push_back(r);
    hanging.insert(hanging.end(), children[r].begin(), children[r].end());
    const int time =
        deal(hanging, size, lanes, nullptr) + junction + 1 + static_cast<int>(hanging.size());
    if (time < best_time) {
      best_time = time;
      best_grown = grown.size();
    }
  }

  // The best junction again, and its subtrees dealt.
  std::vector<char> in_junction(n, 0);
  in_junction[0] = 1;
  for (std::size_t g = 0; g < best_grown; ++g) in_junction[grown[g]] = 1;
  std::vector<int> roots;
  for (int i = 1; i < n; ++i)
    if (!in_junction[i] && in_junction[tree.parent(i)]) roots.push_back(i);
  std::vector<int> lane_of(n, -1);
  deal(roots, size, lanes, &lane_of);
  for (int i = 1; i < n; ++i)
    if (!in_junction[i] && lane_of[i] < 0) lane_of[i] = lane_of[tree.parent(i)];
  std::vector<std::vector<int>> nodes(lanes);
  for (int i = n - 1; i > 0; --i)
    if (!in_junction[i]) nodes[lane_of[i]].push_back(i);
  for (const auto& v : nodes) plan.steps = std::max(plan.steps, static_cast<int>(v.size()));
  plan.lane_node.assign(static_cast<std::size_t>(lanes) * plan.steps, -1);
  plan.lane_parent.assign(plan.lane_node.size(), -1);
  for (int k = 0; k < lanes; ++k)
    for (std::size_t j = 0; j < nodes[k].size(); ++j) {
      const int i = nodes[k][j], p = tree.parent(i);
      plan.lane_node[k * plan.steps + j] = i;
      plan.lane_parent[k * plan.steps + j] = in_junction[p] ? -1 - p : p;
    }
  for (int i = n - 1; i >= 0; --i)
    if (in_junction[i]) plan.junction.push_back(i);
  plan.tops = roots;
  return plan;
}

}  // namespace hinesbatch
