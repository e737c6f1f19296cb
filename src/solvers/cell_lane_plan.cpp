#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <stdexcept>
#include <utility>

namespace hinesbatch {

namespace {

// Hands out work to the least loaded of `lanes` lanes, the lowest-numbered among equals.
class LeastLoadedLanes {
 public:
  explicit LeastLoadedLanes(int lanes) {
    for (int k = 0; k < lanes; ++k) heap_.push({0, k});
  }
  // Gives w more work to the least loaded lane: that lane, and its load now.
  std::pair<int, int> give(int w) {
    auto [load, lane] = heap_.top();
    heap_.pop();
    heap_.push({load + w, lane});
    return {lane, load + w};
  }

 private:
  using Entry = std::pair<int, int>;  // load, lane
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> heap_;
};

// A plan from a cut of the tree into pieces: piece_of[u] (a piece is connected, its root
// the only node whose parent lies in another piece), piece_root[q], and level[q] (higher
// than the level of every piece hanging from q). Per level, pieces largest first to the
// least loaded lane (the lowest-numbered among equals, so that the levels near the root
// fill the first warp); the lists hold each lane's nodes in decreasing order and the pulls
// of the piece roots hanging from them.
CellLanePlan plan_from_pieces(const std::vector<int>& parent, const std::vector<int>& piece_of,
                              const std::vector<int>& piece_root, const std::vector<int>& level,
                              int lanes) {
  const int n = static_cast<int>(parent.size());
  const int np = static_cast<int>(piece_root.size());
  std::vector<int> load_of(np, 0);  // own nodes and pulls
  for (int u = 0; u < n; ++u) {
    ++load_of[piece_of[u]];
    if (u > 0 && piece_root[piece_of[u]] == u) ++load_of[piece_of[parent[u]]];
  }
  CellLanePlan plan;
  plan.lanes = lanes;
  plan.levels = np ? *std::max_element(level.begin(), level.end()) + 1 : 0;
  std::vector<std::vector<int>> pieces_at(plan.levels);
  for (int q = 0; q < np; ++q) pieces_at[level[q]].push_back(q);
  std::vector<int> lane_of_piece(np);
  for (std::vector<int>& pieces : pieces_at) {
    std::stable_sort(pieces.begin(), pieces.end(),
                     [&](int a, int b) { return load_of[a] > load_of[b]; });
    LeastLoadedLanes least(lanes);
    for (int q : pieces) lane_of_piece[q] = least.give(load_of[q]).first;
  }
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

// The pieces of a subtree-size limit: a node whose subtree has at most `limit` nodes is
// small, the others big. A small node under a big parent starts a piece holding its whole
// subtree; a big node continues its parent's piece when it is the parent's only big child
// (chains between branch points) and starts one otherwise. A piece's level: one more than
// the highest level hanging from it.
CellLanePlan plan_with_limit(const std::vector<int>& parent, const std::vector<int>& size,
                             int lanes, int limit) {
  const int n = static_cast<int>(parent.size());
  std::vector<int> big_children(n, 0);
  for (int i = 1; i < n; ++i)
    if (size[i] > limit) ++big_children[parent[i]];
  std::vector<int> piece_of(n), piece_root;
  for (int u = 0; u < n; ++u) {
    const int p = u > 0 ? parent[u] : -1;
    const bool big = size[u] > limit;
    const bool starts = p < 0 || (!big && size[p] > limit) || (big && big_children[p] != 1);
    if (starts) {
      piece_of[u] = static_cast<int>(piece_root.size());
      piece_root.push_back(u);
    } else {
      piece_of[u] = piece_of[p];
    }
  }
  const int np = static_cast<int>(piece_root.size());
  std::vector<int> level(np, 0);
  for (int q = np - 1; q > 0; --q) {  // children pieces have larger numbers
    const int up = piece_of[parent[piece_root[q]]];
    level[up] = std::max(level[up], level[q] + 1);
  }
  return plan_from_pieces(parent, piece_of, piece_root, level, lanes);
}

// The pieces of bands of height: a node's height is the longest path from it down to a
// leaf, so the nodes of one height never touch and a band of heights [lo, hi) falls apart
// into pieces that hang from higher bands only; band b is level b. Low bands hold many
// small subtrees that spread over every lane, high bands the trunk's few. The cuts are
// chosen by dynamic programming over the modelled critical path (per band, the most
// loaded lane after handing out its pieces, plus a barrier), among at most `max_cuts`
// candidate heights spread evenly.
class HeightBands {
 public:
  HeightBands(const std::vector<int>& parent, int lanes, int max_cuts)
      : parent_(parent), lanes_(lanes), height_(parent.size(), 0), piece_of_(parent.size(), -1) {
    const int n = static_cast<int>(parent.size());
    for (int i = n - 1; i > 0; --i)
      height_[parent[i]] = std::max(height_[parent[i]], height_[i] + 1);
    const int top = height_[0] + 1;  // heights 0 .. top - 1
    const int step = (top + max_cuts - 1) / std::max(1, max_cuts);
    for (int h = 0; h < top; h += step) cuts_.push_back(h);
    cuts_.push_back(top);
    // Nodes by height, and non-root nodes by their parent's height: a band's cost then
    // visits its own nodes and their children only.
    at_height_.assign(top + 1, 0);
    under_height_.assign(top + 1, 0);
    for (int u = 0; u < n; ++u) {
      ++at_height_[height_[u] + 1];
      if (u > 0) ++under_height_[height_[parent[u]] + 1];
    }
    for (int h = 0; h < top; ++h) {
      at_height_[h + 1] += at_height_[h];
      under_height_[h + 1] += under_height_[h];
    }
    by_height_.resize(n);
    by_parent_height_.resize(std::max(0, n - 1));
    std::vector<int> fill = at_height_, fill_under = under_height_;
    for (int u = 0; u < n; ++u) {
      by_height_[fill[height_[u]]++] = u;
      if (u > 0) by_parent_height_[fill_under[height_[parent[u]]]++] = u;
    }
  }

  CellLanePlan plan() const {
    const int nc = static_cast<int>(cuts_.size());
    // best[b]: the least critical path of the heights below cuts_[b]; from[b]: its last cut.
    std::vector<long long> best(nc, -1);
    std::vector<int> from(nc, 0);
    best[0] = 0;
    for (int b = 1; b < nc; ++b)
      for (int a = 0; a < b; ++a) {
        const long long c = best[a] + band_cost(cuts_[a], cuts_[b]);
        if (best[b] < 0 || c < best[b]) {
          best[b] = c;
          from[b] = a;
        }
      }
    std::vector<int> bounds;  // the chosen cuts, from the top down
    for (int b = nc - 1; b > 0; b = from[b]) bounds.push_back(cuts_[b]);
    bounds.push_back(0);
    std::reverse(bounds.begin(), bounds.end());
    const int n = static_cast<int>(parent_.size());
    std::vector<int> band_of_height(height_[0] + 1);
    for (std::size_t v = 0; v + 1 < bounds.size(); ++v)
      for (int h = bounds[v]; h < bounds[v + 1]; ++h) band_of_height[h] = static_cast<int>(v);
    std::vector<int> piece_of(n), piece_root, level;
    for (int u = 0; u < n; ++u) {
      const int v = band_of_height[height_[u]];
      if (u > 0 && band_of_height[height_[parent_[u]]] == v) {
        piece_of[u] = piece_of[parent_[u]];
      } else {
        piece_of[u] = static_cast<int>(piece_root.size());
        piece_root.push_back(u);
        level.push_back(v);
      }
    }
    return plan_from_pieces(parent_, piece_of, piece_root, level, lanes_);
  }

 private:
  // The modelled steps of the band of heights [lo, hi): its most loaded lane plus a barrier.
  long long band_cost(int lo, int hi) const {
    std::vector<int> load;
    // Highest first: a node's parent, higher, has its piece already.
    for (int h = hi - 1; h >= lo; --h)
      for (int k = at_height_[h]; k < at_height_[h + 1]; ++k) {
        const int u = by_height_[k];
        const int p = u > 0 ? parent_[u] : -1;
        if (p >= 0 && height_[p] < hi) {
          piece_of_[u] = piece_of_[p];
        } else {
          piece_of_[u] = static_cast<int>(load.size());
          load.push_back(0);
        }
        ++load[piece_of_[u]];
      }
    for (int h = lo; h < hi; ++h)  // the pulls of lower bands' piece roots
      for (int k = under_height_[h]; k < under_height_[h + 1]; ++k) {
        const int u = by_parent_height_[k];
        if (height_[u] < lo) ++load[piece_of_[parent_[u]]];
      }
    std::sort(load.begin(), load.end(), std::greater<int>());
    LeastLoadedLanes least(lanes_);
    int most = 0;
    for (int w : load) most = std::max(most, least.give(w).second);
    return most + CellLanePlan::kBarrierSteps;
  }

  const std::vector<int>& parent_;
  int lanes_;
  std::vector<int> height_, cuts_;
  std::vector<int> at_height_, by_height_, under_height_, by_parent_height_;
  mutable std::vector<int> piece_of_;  // band_cost's scratch
};

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
    CellLanePlan p = plan_with_limit(parent, size, lanes, limit);
    if (best.levels == 0 || p.critical_path() < best.critical_path()) best = std::move(p);
    if (lanes == 1 || limit <= 1) break;
    limit = std::max(1, limit * 3 / 4);
  }
  if (lanes > 1) {
    // Candidate cuts: every height of small trees; for large ones as many as keep the
    // search near 10^8 node visits.
    const int max_cuts = static_cast<int>(std::clamp(std::sqrt(2e8 / n), 16.0, 128.0));
    CellLanePlan p = HeightBands(parent, lanes, max_cuts).plan();
    if (p.critical_path() < best.critical_path()) best = std::move(p);
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
