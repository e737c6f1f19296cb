#include "hinesbatch/solvers/impl/warp_tree_plan.hpp"

#include <algorithm>
#include <string>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

WarpTreePlan WarpTreePlan::build(const Tree& tree, int lanes) {
  if (lanes == 0) lanes = choose_lanes(tree);
  if (lanes < 1 || lanes > 32 || (lanes & (lanes - 1)) != 0)
    throw InputError(
        "WarpTreePlan: lanes per system must be 1, 2, 4, 8, 16 or 32, not " + std::to_string(lanes),
        {}, 0, std::to_string(lanes));
  WarpTreePlan plan;
  const int n = tree.size();
  plan.num_nodes = n;
  plan.lanes = lanes;
  plan.nodes_per_lane = std::max(1, (n + lanes - 1) / lanes);
  plan.lane_stride = plan.nodes_per_lane | 1;
  plan.lane_piece_begin.assign(lanes + 1, 0);
  plan.piece_begin = {0};
  plan.port_child_begin = {0};
  plan.port_cross_begin = {0};
  if (n == 0) return plan;
  const int R = plan.nodes_per_lane;
  auto lane_of = [R](int i) { return i / R; };

  // Kept: the subtree reaches past the end of the node's range (subtrees are not index
  // intervals in general, so the largest index of each subtree decides).
  std::vector<int> last(n);
  for (int i = 0; i < n; ++i) last[i] = i;
  for (int i = n - 1; i > 0; --i) last[tree.parent(i)] = std::max(last[tree.parent(i)], last[i]);
  std::vector<char> kept(n), port(n);
  for (int i = 0; i < n; ++i) kept[i] = i == 0 || last[i] >= (lane_of(i) + 1) * R;
  std::vector<int> kept_children(n, 0);
  port[0] = 1;
  for (int i = 1; i < n; ++i) {
    const int p = tree.parent(i);
    if (lane_of(p) != lane_of(i)) port[p] = 1;  // a parent in another range is kept
    if (kept[i] && lane_of(p) == lane_of(i) && ++kept_children[p] >= 2) port[p] = 1;
  }
  plan.kind.resize(n);
  plan.parent_slot.resize(n);
  for (int i = 0; i < n; ++i) {
    const int p = tree.parent(i);
    plan.kind[i] = kept[i] ? kKept : (lane_of(p) == lane_of(i) ? kLocal : kCross);
    plan.parent_slot[i] = p < 0 ? -1 : plan.slot_of(p);
  }

  // Pieces in increasing order of their bottom port (hence grouped by lane): from the
  // port up through kept non-port ancestors of the same range.
  std::vector<int> piece_of_port(n, -1), piece_top, path;
  for (int b = 0; b < n; ++b) {
    if (!port[b]) continue;
    path.assign(1, b);
    int top = b;
    while (top != 0) {
      const int p = tree.parent(top);
      if (lane_of(p) != lane_of(top) || port[p]) break;
      top = p;
      path.push_back(top);
    }
    piece_of_port[b] = plan.num_pieces();
    piece_top.push_back(top);
    for (auto it = path.rbegin(); it != path.rend(); ++it)
      plan.piece_slots.push_back(plan.slot_of(*it));
    plan.piece_begin.push_back(static_cast<int>(plan.piece_slots.size()));
    const int above = tree.parent(top);
    plan.piece_parent.push_back(above < 0 ? -1 : plan.slot_of(above));
    ++plan.lane_piece_begin[lane_of(b) + 1];
  }
  for (int k = 0; k < lanes; ++k) plan.lane_piece_begin[k + 1] += plan.lane_piece_begin[k];

  // The reduced tree: each port's child pieces and cross nodes.
  std::vector<std::vector<int>> child_pieces(n), cross(n);
  for (int i = 1; i < n; ++i) {
    const int p = tree.parent(i);
    if (plan.kind[i] == kCross) cross[p].push_back(i);
  }
  for (int q = 0; q < plan.num_pieces(); ++q)
    if (piece_top[q] != 0) child_pieces[tree.parent(piece_top[q])].push_back(q);
  for (int b = n - 1; b >= 0; --b) {
    if (!port[b]) continue;
    plan.port_piece.push_back(piece_of_port[b]);
    for (const int q : child_pieces[b]) {
      plan.child_piece.push_back(q);
      plan.child_bottom.push_back(plan.piece_slots[plan.piece_begin[q + 1] - 1]);
    }
    plan.port_child_begin.push_back(static_cast<int>(plan.child_piece.size()));
    for (const int i : cross[b]) plan.port_cross.push_back(plan.slot_of(i));
    plan.port_cross_begin.push_back(static_cast<int>(plan.port_cross.size()));
  }
  return plan;
}

int WarpTreePlan::choose_lanes(const Tree& tree) {
  // A model in cycles of one system's solve on an H100 SM: staging latency, two passes
  // over a warp lane's range, two over the ports (serial, each a division and dependent
  // scratch reads), and as many warps as 228 KB of shared memory (48 KB per team) and 32
  // teams per SM hold. It picks the best measured G (warp lanes per system) of the MonoLanes
  // benchmark for all six paper classes (docs/history/PERFORMANCE-log.md, "GPU: Hines trees
  // by lane ranges, several systems per warp").
  const int n = tree.size();
  if (n <= 1) return 1;
  int best = 32;
  double best_rate = -1;
  for (int lanes : {4, 8, 16, 32}) {
    const WarpTreePlan plan = build(tree, lanes);
    // As the solve does: fewer systems per warp while they do not fit in 48 KB.
    auto bytes_for = [&](int systems) {
      return 8.0 * systems * (4.0 * plan.num_slots() + 4.0 * plan.num_pieces() + 1);
    };
    int systems_per_warp = 32 / lanes;
    while (systems_per_warp > 1 && bytes_for(systems_per_warp) > 48 * 1024) systems_per_warp /= 2;
    const double bytes = bytes_for(systems_per_warp);
    const double time = 1500.0 + 2 * 60.0 * plan.nodes_per_lane + 2 * 150.0 * plan.num_ports();
    const double warps = std::min(32.0, std::max(1.0, 228.0 * 1024 / bytes));
    const double rate = warps * systems_per_warp * n / time;
    if (rate > best_rate) {
      best_rate = rate;
      best = lanes;
    }
  }
  return best;
}

}  // namespace hinesbatch
