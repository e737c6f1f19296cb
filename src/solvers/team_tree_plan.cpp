#include "hinesbatch/solvers/impl/team_tree_plan.hpp"

#include <algorithm>

namespace hinesbatch {

TeamTreePlan TeamTreePlan::build(const Tree& tree, int max_piece_length) {
  TeamTreePlan plan;
  const int n = tree.size();
  plan.num_nodes = n;
  if (max_piece_length <= 0) max_piece_length = kDefaultMaxPieceLength;
  plan.max_piece_length = max_piece_length;
  if (n == 0) {
    plan.piece_begin = {0};
    plan.child_begin = {0};
    plan.level_begin = {0};
    return plan;
  }
  const std::vector<int> child_count = tree.child_counts();

  // Pieces in discovery order: walk nodes in index order; a node starts a new piece unless
  // it is the only child of its parent and the parent's piece is not full. A parent's
  // index is smaller, so its piece exists when its child is visited.
  std::vector<int> piece_of(n, -1), length;
  std::vector<std::vector<int>> nodes;
  std::vector<int> parent_node;
  for (int i = 0; i < n; ++i) {
    const int p = tree.parent(i);
    if (p >= 0 && child_count[p] == 1) {
      const int q = piece_of[p];
      if (nodes[q].back() == p && static_cast<int>(nodes[q].size()) < max_piece_length) {
        nodes[q].push_back(i);
        piece_of[i] = q;
        continue;
      }
    }
    piece_of[i] = static_cast<int>(nodes.size());
    nodes.push_back({i});
    parent_node.push_back(p);
  }
  const int np = static_cast<int>(nodes.size());

  // Level of a piece: 0 without child pieces, else 1 + the deepest child. Children are
  // discovered after their parents, so a reverse walk sees every child first.
  std::vector<int> parent_piece(np, -1), level(np, 0);
  for (int q = 0; q < np; ++q)
    if (parent_node[q] >= 0) parent_piece[q] = piece_of[parent_node[q]];
  for (int q = np - 1; q > 0; --q)
    if (parent_piece[q] >= 0)
      level[parent_piece[q]] = std::max(level[parent_piece[q]], level[q] + 1);
  const int levels = np ? *std::max_element(level.begin(), level.end()) + 1 : 0;

  // Renumber pieces by level (stable: discovery order within a level).
  plan.level_begin.assign(levels + 1, 0);
  for (int q = 0; q < np; ++q) ++plan.level_begin[level[q] + 1];
  for (int l = 0; l < levels; ++l) plan.level_begin[l + 1] += plan.level_begin[l];
  std::vector<int> new_of(np), fill(plan.level_begin.begin(), plan.level_begin.end() - 1);
  for (int q = 0; q < np; ++q) new_of[q] = fill[level[q]]++;
  std::vector<int> old_of(np);
  for (int q = 0; q < np; ++q) old_of[new_of[q]] = q;

  plan.piece_begin.assign(np + 1, 0);
  plan.parent_node.resize(np);
  for (int k = 0; k < np; ++k) {
    const int q = old_of[k];
    plan.piece_begin[k + 1] = plan.piece_begin[k] + static_cast<int>(nodes[q].size());
    plan.parent_node[k] = parent_node[q];
    plan.piece_nodes.insert(plan.piece_nodes.end(), nodes[q].begin(), nodes[q].end());
  }
  plan.child_begin.assign(np + 1, 0);
  for (int q = 0; q < np; ++q)
    if (parent_piece[q] >= 0) ++plan.child_begin[new_of[parent_piece[q]] + 1];
  for (int k = 0; k < np; ++k) plan.child_begin[k + 1] += plan.child_begin[k];
  plan.children.resize(plan.child_begin[np]);
  std::vector<int> cursor(plan.child_begin.begin(), plan.child_begin.end() - 1);
  for (int k = 0; k < np; ++k) {  // in new order, so each child list is sorted
    const int q = old_of[k];
    if (parent_piece[q] >= 0) plan.children[cursor[new_of[parent_piece[q]]]++] = k;
  }
  return plan;
}

}  // namespace hinesbatch
