#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
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

// A cut of the tree into pieces: piece_of[u] (a piece is connected, its root the only node
// whose parent lies in another piece), piece_root[q], and level[q] (higher than the level
// of every piece hanging from q).
struct Cut {
  std::vector<int> piece_of, piece_root, level;
};

int entry(int node, int kind) { return node * CellLanePlan::kNodeScale + kind; }

// Work for one lane at one level: its entries, in the order the lane runs them. `merged`:
// a plain piece, whose entries a lane interleaves with those of its other plain pieces by
// node (decreasing; a pull ordered by the node it pulls), as the elimination's order
// within each piece allows; otherwise the entries stay as they are, after the lane's plain
// pieces.
struct Work {
  int level = 0;
  bool merged = true;
  std::vector<int> entries;
};

// The key that orders a plain piece's entries: the node, or the pulled node.
int order_key(int e) { return CellLanePlan::node_of(e); }

// The nodes whose d, rhs or fill an entry at lanes[q] reads or writes, in the elimination
// (up) or the substitution: its node and the node it steps into. A split spine's kFillEnd
// also writes the B above its segment (`above`: the parent of the list's last kFill), and a
// kFillInto steps into the node the next entry reads.
template <class Touch>
void touched_by_list(const std::vector<int>& parent, const CellLanePlan& plan, int b, int e,
                     bool up, const Touch& touch) {
  int above = -1;
  for (int q = b; q < e; ++q) {
    const int x = plan.entries[q], i = CellLanePlan::node_of(x), kind = CellLanePlan::kind_of(x);
    switch (kind) {
      case CellLanePlan::kFillStart:
        break;
      case CellLanePlan::kFillEnd:
        touch(i);
        if (up && above >= 0) touch(above);
        break;
      case CellLanePlan::kPieceRoot:
        touch(i);
        if (!up && i > 0) touch(parent[i]);
        break;
      case CellLanePlan::kPull:
        if (up) {
          touch(i);
          touch(parent[i]);
        }
        break;
      case CellLanePlan::kFillInto:
        touch(i);
        if (up && q + 1 < e) {
          const int next = plan.entries[q + 1];
          touch(CellLanePlan::kind_of(next) == CellLanePlan::kPull
                    ? parent[CellLanePlan::node_of(next)]
                    : CellLanePlan::node_of(next));
        }
        break;
      default:  // kNode, kFill
        touch(i);
        if (i > 0) touch(parent[i]);
        if (kind == CellLanePlan::kFill) above = parent[i];
    }
  }
}

// Which waits must hold the whole team: the elimination's levels up, then the
// substitution's down, are one sequence of steps; a node touched by lanes of two warps
// since the last wait of the whole team needs one between them, placed as late as it can
// be (after the step before the second touch), which places the fewest. Teams of one warp
// or less, of a part of one, or of more than 32 warps wait as a team everywhere.
void mark_waits(const std::vector<int>& parent, CellLanePlan& plan) {
  const int levels = plan.levels, lanes = plan.lanes, warps = lanes / CellLanePlan::kWarpLanes;
  plan.waits.assign(levels, CellLanePlan::kTeamWaitUp | CellLanePlan::kTeamWaitDown);
  if (warps < 2 || warps > 32 || lanes % CellLanePlan::kWarpLanes != 0) return;
  plan.waits.assign(levels, 0);
  const int n = static_cast<int>(parent.size());
  // Per node, the warps that touched it since the team last waited (valid where step_of is
  // past that wait).
  std::vector<std::uint32_t> warps_of(n, 0);
  std::vector<int> step_of(n, -1);
  int last_team = -1;  // the step after which the whole team last waited
  const int steps = 2 * levels;
  std::vector<std::pair<int, int>> touched;  // node, warp
  for (int step = 0; step < steps; ++step) {
    const bool up = step < levels;
    const int v = up ? step : steps - 1 - step;
    touched.clear();
    bool conflict = false;
    for (int k = 0; k < lanes; ++k) {
      const int w = k / CellLanePlan::kWarpLanes;
      touched_by_list(parent, plan, plan.begin[v * lanes + k], plan.begin[v * lanes + k + 1], up,
                      [&](int i) {
                        touched.push_back({i, w});
                        if (step_of[i] > last_team && (warps_of[i] & ~(1u << w)) != 0)
                          conflict = true;
                      });
    }
    if (conflict) {
      if (step - 1 < levels)
        plan.waits[step - 1] |= CellLanePlan::kTeamWaitUp;
      else
        plan.waits[steps - step] |= CellLanePlan::kTeamWaitDown;
      last_team = step - 1;
    }
    for (const auto& [i, w] : touched) {
      if (step_of[i] <= last_team) warps_of[i] = 0;
      warps_of[i] |= 1u << w;
      step_of[i] = step;
    }
  }
}

// A plan from work items: per level, largest first to the least loaded lane (the
// lowest-numbered among equals, so that the levels near the root fill the first warp). A
// list's entry keeps its sums in registers where the next entry reads them.
CellLanePlan plan_from_work(const std::vector<int>& parent, std::vector<Work>& work, int levels,
                            int lanes) {
  CellLanePlan plan;
  plan.lanes = lanes;
  plan.levels = levels;
  std::vector<std::vector<int>> at(levels);
  for (int w = 0; w < static_cast<int>(work.size()); ++w) at[work[w].level].push_back(w);
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(levels) * lanes);
  std::vector<std::vector<int>> special(lists.size());
  for (int v = 0; v < levels; ++v) {
    std::stable_sort(at[v].begin(), at[v].end(),
                     [&](int a, int b) { return work[a].entries.size() > work[b].entries.size(); });
    LeastLoadedLanes least(lanes);
    for (int w : at[v]) {
      const int lane = least.give(static_cast<int>(work[w].entries.size())).first;
      auto& to = (work[w].merged ? lists : special)[static_cast<std::size_t>(v) * lanes + lane];
      to.insert(to.end(), work[w].entries.begin(), work[w].entries.end());
    }
  }
  plan.begin.push_back(0);
  for (std::size_t k = 0; k < lists.size(); ++k) {
    std::vector<int>& list = lists[k];
    std::stable_sort(list.begin(), list.end(),
                     [](int a, int b) { return order_key(a) > order_key(b); });
    list.insert(list.end(), special[k].begin(), special[k].end());
    // The node whose sums an entry updates (-1: none) and whose sums it reads first.
    auto target = [&](int e) {
      switch (CellLanePlan::kind_of(e)) {
        case CellLanePlan::kNode:
        case CellLanePlan::kPull:
        case CellLanePlan::kFill:
          return parent[CellLanePlan::node_of(e)];
        default:
          return -1;
      }
    };
    auto reads = [&](int e) {
      switch (CellLanePlan::kind_of(e)) {
        case CellLanePlan::kPull:
          return parent[CellLanePlan::node_of(e)];
        case CellLanePlan::kFillStart:
        case CellLanePlan::kFillEnd:
          return -1;
        default:
          return CellLanePlan::node_of(e);
      }
    };
    for (std::size_t e = 0; e + 1 < list.size(); ++e) {
      if (CellLanePlan::kind_of(list[e]) == CellLanePlan::kFillInto) {
        list[e] |= CellLanePlan::kKeep;  // its target is what the next entry reads
        continue;
      }
      const int t = target(list[e]);
      if (t >= 0 && t == reads(list[e + 1])) list[e] |= CellLanePlan::kKeep;
    }
    plan.entries.insert(plan.entries.end(), list.begin(), list.end());
    plan.begin.push_back(static_cast<int>(plan.entries.size()));
  }
  mark_waits(parent, plan);
  return plan;
}

// Each piece's entries: its nodes in decreasing order, with the pulls of the piece roots
// hanging from them (ordered by the pulled node, before their parent).
std::vector<std::vector<int>> piece_lists(const std::vector<int>& parent, const Cut& cut) {
  const int n = static_cast<int>(parent.size());
  std::vector<std::vector<int>> lists(cut.piece_root.size());
  for (int u = n - 1; u >= 0; --u) {
    const int q = cut.piece_of[u];
    const bool root = cut.piece_root[q] == u;
    lists[q].push_back(entry(u, root ? CellLanePlan::kPieceRoot : CellLanePlan::kNode));
    if (root && u > 0) lists[cut.piece_of[parent[u]]].push_back(entry(u, CellLanePlan::kPull));
  }
  return lists;
}

int levels_of(const Cut& cut) {
  return cut.level.empty() ? 0 : *std::max_element(cut.level.begin(), cut.level.end()) + 1;
}

CellLanePlan plan_from_cut(const std::vector<int>& parent, const Cut& cut, int lanes) {
  std::vector<std::vector<int>> lists = piece_lists(parent, cut);
  std::vector<Work> work(lists.size());
  for (std::size_t q = 0; q < lists.size(); ++q) {
    work[q].level = cut.level[q];
    work[q].entries = std::move(lists[q]);
  }
  return plan_from_work(parent, work, levels_of(cut), lanes);
}

// The most loaded lane after handing out `loads` (largest first) to `lanes` lanes.
int most_loaded(std::vector<int> loads, int lanes) {
  std::sort(loads.begin(), loads.end(), std::greater<int>());
  LeastLoadedLanes least(lanes);
  int most = 0;
  for (int w : loads) most = std::max(most, least.give(w).second);
  return most;
}

// Long pieces split along their spine (from the root, the child with the most work below
// it) by partitioned elimination. From the bottom up, the spine is cut into segments by
// pairs of interface nodes A (above) and B (its child). The lowest segment is eliminated
// as usual, its top stepping into its B. Each other segment eliminates its spine with
// fill towards the A below it: it ends with its top step into the B above it, a coupling
// between that B and the A below (fill, in a third scratch array), and the A's own
// update. A segment writes only its nodes, the B above and the A below, so the segments
// of a piece run on different lanes at the piece's level. The interface nodes form a
// chain, eliminated at a new level just above by one lane (kFillInto across a segment,
// kNode from a B to its A), whose top is the piece's root. Side branches of interface
// nodes become pieces of their own, pulled by that lane. Per level, the segments' size is
// chosen to shorten the level and the new one together; levels where that does not pay
// stay as they are.
class SpineSplitter {
 public:
  SpineSplitter(const std::vector<int>& parent, const Cut& cut, int lanes)
      : parent_(parent), cut_(cut), lanes_(lanes), n_(static_cast<int>(parent.size())) {
    lists_ = piece_lists(parent, cut);
    work_.assign(n_, 0);
    child_begin_.assign(n_ + 1, 0);
    for (int u = 1; u < n_; ++u) ++child_begin_[parent[u] + 1];
    for (int u = 0; u < n_; ++u) child_begin_[u + 1] += child_begin_[u];
    children_.resize(std::max(0, n_ - 1));
    std::vector<int> fill = child_begin_;
    for (int u = 1; u < n_; ++u) children_[fill[parent[u]]++] = u;
    for (int u = n_ - 1; u >= 0; --u) {
      work_[u] += 1;
      if (u > 0) work_[parent[u]] += same_piece(u) ? work_[u] : 1;
    }
  }

  // The plan with the levels split where that shortens them.
  CellLanePlan plan() {
    const int levels = levels_of(cut_);
    const int np = static_cast<int>(cut_.piece_root.size());
    std::vector<std::vector<int>> at(levels);
    for (int q = 0; q < np; ++q) at[cut_.level[q]].push_back(q);
    std::vector<Work> out;
    int level = 0;
    for (int v = 0; v < levels; ++v) {
      std::vector<int> loads;
      for (int q : at[v]) loads.push_back(static_cast<int>(lists_[q].size()));
      const int plain = most_loaded(loads, lanes_);
      long long total = 0;
      for (int w : loads) total += w;
      // Segment sizes tried: from the level's even share up to its longest list.
      int best_size = 0, best_cost = plain;
      for (int size = std::max<int>(8, static_cast<int>((total + lanes_ - 1) / lanes_));
           size < plain; size = std::max(size + 1, size * 5 / 4)) {
        std::vector<int> level_loads, chain_loads;
        for (int q : at[v]) {
          Split s = split(q, size);
          if (s.chain.empty()) {
            level_loads.push_back(static_cast<int>(lists_[q].size()));
            continue;
          }
          for (const Work& w : s.pieces) level_loads.push_back(static_cast<int>(w.entries.size()));
          chain_loads.push_back(static_cast<int>(s.chain.size()));
        }
        if (chain_loads.empty()) continue;
        const int cost = most_loaded(level_loads, lanes_) + most_loaded(chain_loads, lanes_) +
                         CellLanePlan::kBarrierSteps;
        if (cost < best_cost) {
          best_cost = cost;
          best_size = size;
        }
      }
      bool chains = false;
      for (int q : at[v]) {
        Split s = best_size > 0 ? split(q, best_size) : Split{};
        if (s.chain.empty()) {
          out.push_back({level, true, lists_[q]});
          continue;
        }
        chains = true;
        for (Work& w : s.pieces) {
          w.level = level;
          out.push_back(std::move(w));
        }
        out.push_back({level + 1, false, std::move(s.chain)});
      }
      level += chains ? 2 : 1;
    }
    return plan_from_work(parent_, out, level, lanes_);
  }

 private:
  struct Split {
    std::vector<Work> pieces;  // at the piece's level
    std::vector<int> chain;    // the interface nodes' list, at the new level
  };

  bool same_piece(int u) const { return cut_.piece_of[parent_[u]] == cut_.piece_of[u]; }

  // The entries of the nodes of piece q under `top` (itself included) that are not under
  // `stop` (excluded; -1: none), with the pulls into them; spine nodes (on_spine) as kFill
  // when `fill`, `top` as kNode (it steps into its parent, an interface node) unless
  // top_kind says otherwise.
  void collect(int top, int stop, int top_kind, bool fill, std::vector<int>& out) const {
    std::vector<int> nodes;
    std::vector<int> stack{top};
    while (!stack.empty()) {
      const int u = stack.back();
      stack.pop_back();
      nodes.push_back(u);
      for (int k = child_begin_[u]; k < child_begin_[u + 1]; ++k) {
        const int c = children_[k];
        if (c == stop) continue;
        if (same_piece(c))
          stack.push_back(c);
        else
          nodes.push_back(-1 - c);  // a pull of c
      }
    }
    std::sort(nodes.begin(), nodes.end(),
              [](int a, int b) { return (a < 0 ? -1 - a : a) > (b < 0 ? -1 - b : b); });
    for (int u : nodes) {
      if (u < 0) {
        out.push_back(entry(-1 - u, CellLanePlan::kPull));
      } else if (u == top) {
        out.push_back(entry(u, top_kind));
      } else {
        out.push_back(entry(u, fill && on_spine_[u] ? CellLanePlan::kFill : CellLanePlan::kNode));
      }
    }
  }

  // Piece q cut into segments of about `size` entries; an empty chain if it is not cut.
  Split split(int q, int size) {
    Split s;
    if (static_cast<int>(lists_[q].size()) <= size) return s;
    const int root = cut_.piece_root[q];
    std::vector<int> spine{root};
    for (int u = root;;) {
      int next = -1;
      for (int k = child_begin_[u]; k < child_begin_[u + 1]; ++k) {
        const int c = children_[k];
        if (same_piece(c) && (next < 0 || work_[c] > work_[next])) next = c;
      }
      if (next < 0) break;
      spine.push_back(next);
      u = next;
    }
    const int L = static_cast<int>(spine.size()) - 1;
    auto own = [&](int i) { return work_[spine[i]] - (i < L ? work_[spine[i + 1]] : 0); };
    // The lowest segment: spine[j..L] and what hangs from it.
    int j = L + 1, acc = 0;
    while (j - 1 >= 0 && acc + own(j - 1) <= size) acc += own(--j);
    j = std::min(j, L);   // at least the spine's last node
    if (j < 3) return s;  // fits, or leaves no room for a pair above it
    on_spine_.resize(n_, 0);
    for (int u : spine) on_spine_[u] = 1;
    std::vector<int> interfaces{spine[j - 1], spine[j - 2]};  // bottom up: B, A, B, A, ...
    {
      Work w;
      collect(spine[j], -1, CellLanePlan::kNode, false, w.entries);
      s.pieces.push_back(std::move(w));
    }
    int k = j - 2;  // the spine index of the last A
    while (k > 0) {
      if (k == 1) {  // the root is the B right above this A
        interfaces.push_back(spine[0]);
        break;
      }
      // A fill segment spine[a..k-1] between the B above it and the A = spine[k] below.
      int a = k - 1;
      acc = 2 + own(a);
      while (a - 1 >= 1 && acc + own(a - 1) <= size) acc += own(--a);
      Work w;
      w.merged = false;
      w.entries.push_back(entry(spine[k], CellLanePlan::kFillStart));
      collect(spine[a], spine[k], CellLanePlan::kFill, true, w.entries);
      w.entries.push_back(entry(spine[k], CellLanePlan::kFillEnd));
      s.pieces.push_back(std::move(w));
      if (a - 1 == 0) {
        interfaces.push_back(spine[0]);
        break;
      }
      interfaces.push_back(spine[a - 1]);
      interfaces.push_back(spine[a - 2]);
      k = a - 2;
    }
    for (int u : spine) on_spine_[u] = 0;
    // The interface nodes' side branches, pieces of their own; the chain with their pulls.
    const int m = static_cast<int>(interfaces.size());
    for (int i = 0; i < m; ++i) {
      const int u = interfaces[i];
      std::vector<int> pulls;
      for (int c = 0, kk = child_begin_[u]; kk < child_begin_[u + 1]; ++kk) {
        c = children_[kk];
        if (i > 0 && c == interfaces[i - 1]) continue;  // the chain's own step
        if (i == 0 && c == spine[j]) continue;          // the lowest segment's top step
        if (i > 0 && (i % 2 == 0) && parent_[interfaces[i - 1]] != u) {
          // u is a B above a fill segment: its spine child is that segment's top
          bool seg_top = false;
          for (int x = interfaces[i - 1]; x != u; x = parent_[x])
            if (parent_[x] == u) seg_top = x == c;
          if (seg_top) continue;
        }
        if (same_piece(c)) {
          Work w;
          collect(c, -1, CellLanePlan::kPieceRoot, false, w.entries);
          s.pieces.push_back(std::move(w));
        }
        pulls.push_back(c);
      }
      std::sort(pulls.begin(), pulls.end(), std::greater<int>());
      for (int c : pulls) s.chain.push_back(entry(c, CellLanePlan::kPull));
      int kind = CellLanePlan::kPieceRoot;
      if (i + 1 < m)
        kind = parent_[u] == interfaces[i + 1] ? CellLanePlan::kNode : CellLanePlan::kFillInto;
      s.chain.push_back(entry(u, kind));
    }
    return s;
  }

  const std::vector<int>& parent_;
  const Cut& cut_;
  int lanes_, n_;
  std::vector<std::vector<int>> lists_;
  std::vector<int> work_, child_begin_, children_;
  std::vector<char> on_spine_;
};

// The pieces of a subtree-size limit: a node whose subtree has at most `limit` nodes is
// small, the others big. A small node under a big parent starts a piece holding its whole
// subtree; a big node continues its parent's piece when it is the parent's only big child
// (chains between branch points) and starts one otherwise. A piece's level: one more than
// the highest level hanging from it.
Cut cut_with_limit(const std::vector<int>& parent, const std::vector<int>& size, int limit) {
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
  return {std::move(piece_of), std::move(piece_root), std::move(level)};
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

  Cut cut() const {
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
    return {std::move(piece_of), std::move(piece_root), std::move(level)};
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

CellLanePlan CellLanePlan::build(const std::vector<int>& parent, int lanes, bool fill) {
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
  std::vector<Cut> cuts;   // the best cut by subtree size, then the cut by height bands
  for (int limit = n;;) {  // n: one piece (the only plan for one lane)
    Cut c = cut_with_limit(parent, size, limit);
    CellLanePlan p = plan_from_cut(parent, c, lanes);
    if (best.levels == 0 || p.critical_path() < best.critical_path()) {
      best = std::move(p);
      cuts.assign(1, std::move(c));
    }
    if (lanes == 1 || limit <= 1) break;
    limit = std::max(1, limit * 3 / 4);
  }
  if (lanes > 1) {
    // Candidate cuts: every height of small trees; for large ones as many as keep the
    // search near 10^8 node visits.
    const int max_cuts = static_cast<int>(std::clamp(std::sqrt(2e8 / n), 16.0, 128.0));
    cuts.push_back(HeightBands(parent, lanes, max_cuts).cut());
    CellLanePlan p = plan_from_cut(parent, cuts.back(), lanes);
    if (p.critical_path() < best.critical_path()) best = std::move(p);
  }
  // A split plan costs a third scratch array, fewer teams per SM and more work per spine
  // node: kept where its path is at least a quarter shorter (on an H200, BlockPerSystem
  // over the shared SWC trees ran 0.85-0.95x where splitting saved 11-18% of the path,
  // 1.05-1.9x where it saved 27-61%).
  if (fill && lanes > 1) {
    const int plain = best.critical_path();
    for (const Cut& c : cuts) {
      CellLanePlan p = SpineSplitter(parent, c, lanes).plan();
      if (4 * p.critical_path() <= 3 * plain && p.critical_path() < best.critical_path())
        best = std::move(p);
    }
  }
  best.fill = false;
  for (int e : best.entries) best.fill = best.fill || kind_of(e) == kFill;
  return best;
}

int CellLanePlan::critical_path() const {
  const int warps = (lanes + kWarpLanes - 1) / kWarpLanes;
  std::vector<int> run(warps, 0);  // each warp's steps since the team last waited
  int total = 0;
  for (int v = 0; v < levels; ++v) {
    for (int w = 0; w < warps; ++w) {
      int most = 0;
      for (int k = w * kWarpLanes; k < std::min(lanes, (w + 1) * kWarpLanes); ++k)
        most = std::max(most, begin[v * lanes + k + 1] - begin[v * lanes + k]);
      run[w] += most;
    }
    total += kBarrierSteps;
    const bool team =
        v >= static_cast<int>(waits.size()) || (waits[v] & kTeamWaitUp) != 0 || v + 1 == levels;
    if (team) {
      total += *std::max_element(run.begin(), run.end());
      std::fill(run.begin(), run.end(), 0);
    }
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
