#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace hinesbatch {

namespace {

CellLanePlan plan_with_limit(const std::vector<int>& parent, const std::vector<int>& size,
                             const std::vector<int>& big_children, int lanes, int limit) {
  const int n = static_cast<int>(parent.size());
  // Pieces, numbered in the order of their roots (parents' pieces first).
  std::vector<int> piece_of(n), piece_root, piece_size;
  for (int u = 0; u < n; ++u) {
    const int p = u > 0 ? parent[u] : -1;
    const bool big = size[u] > limit;
    const bool starts = p < 0 || (!big && size[p] > limit) || (big && big_children[p] != 1);
    if (starts) {
      piece_of[u] = static_cast<int>(piece_root.size());
      piece_root.push_back(u);
      piece_size.push_back(0);
    } else {
      piece_of[u] = piece_of[p];
    }
    ++piece_size[piece_of[u]];
  }
  const int np = static_cast<int>(piece_root.size());
  std::vector<int> level(np, 0), pulls(np, 0);
  for (int q = np - 1; q > 0; --q) {  // children pieces have larger numbers
    const int up = piece_of[parent[piece_root[q]]];
    level[up] = std::max(level[up], level[q] + 1);
    ++pulls[up];
  }
  CellLanePlan plan;
  plan.lanes = lanes;
  plan.levels = np ? *std::max_element(level.begin(), level.end()) + 1 : 0;
  // Per level, pieces largest first to the least loaded lane.
  std::vector<int> lane_of_piece(np);
  for (int v = 0; v < plan.levels; ++v) {
    std::vector<int> pieces;
    for (int q = 0; q < np; ++q)
      if (level[q] == v) pieces.push_back(q);
    std::stable_sort(pieces.begin(), pieces.end(), [&](int a, int b) {
      return piece_size[a] + pulls[a] > piece_size[b] + pulls[b];
    });
    std::vector<int> load(lanes, 0);
    for (int q : pieces) {
      const int k = static_cast<int>(std::min_element(load.begin(), load.end()) - load.begin());
      lane_of_piece[q] = k;
      load[k] += piece_size[q] + pulls[q];
    }
  }
  // Entries per (level, lane), in decreasing node order: own nodes, and pulls of the
  // piece roots hanging from them.
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(plan.levels) * lanes);
  auto list_of = [&](int q) -> std::vector<int>& {
    return lists[static_cast<std::size_t>(level[q]) * lanes + lane_of_piece[q]];
  };
  for (int u = n - 1; u >= 0; --u) {
    const int q = piece_of[u];
    const bool root = piece_root[q] == u;
    list_of(q).push_back(u * 8 + (root ? CellLanePlan::kPieceRoot : CellLanePlan::kNode));
    if (root && u > 0) list_of(piece_of[parent[u]]).push_back(u * 8 + CellLanePlan::kPull);
  }
  plan.begin.push_back(0);
  for (std::vector<int>& list : lists) {
    // Node order, pulls by the pulled node: a pull of c (> parent) comes before the
    // parent's own elimination, as a child's step does.
    for (std::size_t e = 0; e < list.size(); ++e) {
      const int kind = CellLanePlan::kind_of(list[e]);
      if (kind == CellLanePlan::kPieceRoot || e + 1 == list.size()) continue;
      const int target = parent[CellLanePlan::node_of(list[e])];
      const int next = list[e + 1];
      const int next_target = CellLanePlan::kind_of(next) == CellLanePlan::kPull
                                  ? parent[CellLanePlan::node_of(next)]
                                  : CellLanePlan::node_of(next);
      if (target == next_target) list[e] |= CellLanePlan::kKeep;
    }
    plan.entries.insert(plan.entries.end(), list.begin(), list.end());
    plan.begin.push_back(static_cast<int>(plan.entries.size()));
  }
  return plan;
}

}  // namespace

CellLanePlan CellLanePlan::build(const std::vector<int>& parent, int lanes) {
  const int n = static_cast<int>(parent.size());
  if (n < 1 || lanes < 1) throw std::invalid_argument("CellLanePlan: empty tree or no lanes");
  if (n >= (1 << 27)) throw std::invalid_argument("CellLanePlan: more than 2^27 nodes");
  std::vector<int> size(n, 1);
  for (int i = n - 1; i > 0; --i) {
    if (parent[i] < 0 || parent[i] >= i)
      throw std::invalid_argument("CellLanePlan: parent[i] must be in [0, i)");
    size[parent[i]] += size[i];
  }
  CellLanePlan best;
  for (int limit = n;;) {  // n: one piece (the only plan for one lane)
    std::vector<int> big_children(n, 0);
    for (int i = 1; i < n; ++i)
      if (size[i] > limit) ++big_children[parent[i]];
    CellLanePlan p = plan_with_limit(parent, size, big_children, lanes, limit);
    if (best.levels == 0 || p.critical_path() < best.critical_path()) best = std::move(p);
    if (lanes == 1 || limit <= 1) break;
    limit = std::max(1, limit * 3 / 4);
  }
  return best;
}

int CellLanePlan::critical_path() const {
  int total = 0;
  for (int v = 0; v < levels; ++v) {
    int most = 0;
    for (int k = 0; k < lanes; ++k)
      most = std::max(most, begin[v * lanes + k + 1] - begin[v * lanes + k]);
    total += most + kBarrierSteps;
  }
  return total;
}

int CellLanePlan::warp_levels_from(int warp_lanes) const {
  for (int v = levels - 1; v >= 0; --v)
    for (int k = warp_lanes; k < lanes; ++k)
      if (begin[v * lanes + k + 1] > begin[v * lanes + k]) return v + 1;
  return 0;
}

}  // namespace hinesbatch
