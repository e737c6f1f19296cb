#include "hinesbatch/layouts/branch_plan.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace {
// A cell's branches as flat arrays (no per-branch allocation: a plan may cover
// hundreds of thousands of cells). Branch b's nodes are node[first[b] .. first[b+1]).
struct CellBranches {
  std::vector<int> first, node, level, parent_node, parent_branch;
  std::vector<int> per_level;  // branch count at each level
  int count() const { return static_cast<int>(level.size()); }
  int length(int b) const { return first[b + 1] - first[b]; }
};

// Same decomposition as Tree::branches(): a branch starts at the root and at every
// child of a node with two or more children.
CellBranches split_into_branches(const Tree& tree) {
  const int n = tree.size();
  CellBranches cb;
  std::vector<int> children(n, 0), branch_of(n, -1), next_in_branch(n, -1);
  for (int i = 1; i < n; ++i) ++children[tree.parent(i)];
  std::vector<int> head;  // first node of each branch, in discovery order
  for (int i = 0; i < n; ++i) {
    const int p = tree.parent(i);
    if (p < 0 || children[p] >= 2) {
      const int b = static_cast<int>(head.size());
      head.push_back(i);
      branch_of[i] = b;
      cb.parent_node.push_back(p);
      cb.parent_branch.push_back(p < 0 ? -1 : branch_of[p]);
      cb.level.push_back(p < 0 ? 0 : cb.level[branch_of[p]] + 1);
    } else {
      branch_of[i] = branch_of[p];
      next_in_branch[p] = i;
    }
  }
  cb.first.assign(head.size() + 1, 0);
  cb.node.reserve(n);
  for (std::size_t b = 0; b < head.size(); ++b) {
    for (int v = head[b]; v != -1; v = next_in_branch[v]) cb.node.push_back(v);
    cb.first[b + 1] = static_cast<int>(cb.node.size());
  }
  for (int l : cb.level) {
    if (l >= static_cast<int>(cb.per_level.size())) cb.per_level.resize(l + 1, 0);
    ++cb.per_level[l];
  }
  return cb;
}
}  // namespace

BranchPlan::BranchPlan(const std::vector<Tree>& cells, const BranchPlanOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (options.cells_per_group < 1)
    throw InputError("BranchPlan: cells_per_group must be >= 1", {}, 0,
                     std::to_string(options.cells_per_group));
  const int num_cells = static_cast<int>(cells.size());
  cell_offset.assign(num_cells + 1, 0);
  for (int c = 0; c < num_cells; ++c) {
    if (cells[c].size() < 1)
      throw InputError("BranchPlan: cell " + std::to_string(c) + " has no nodes", {}, 0, "0");
    cell_offset[c + 1] = cell_offset[c] + cells[c].size();
  }

  std::vector<CellBranches> split(num_cells);
  for (int c = 0; c < num_cells; ++c) {
    split[c] = split_into_branches(cells[c]);
    num_levels_ = std::max(num_levels_, static_cast<int>(split[c].per_level.size()));
  }

  std::vector<int> order(num_cells);
  std::iota(order.begin(), order.end(), 0);
  if (options.sort_cells)
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      if (split[a].per_level.size() != split[b].per_level.size())
        return split[a].per_level.size() > split[b].per_level.size();
      return cells[a].size() > cells[b].size();
    });
  std::vector<std::vector<int>> groups;
  for (int k = 0; k < num_cells; ++k) {
    if (k % options.cells_per_group == 0) groups.emplace_back();
    groups.back().push_back(order[k]);
  }
  num_groups_ = static_cast<int>(groups.size());

  // Lay out each group's levels; ids follow (group, level, longest branch first).
  storage_of.assign(num_nodes(), -1);
  std::vector<std::vector<int>> global_id(num_cells);
  for (int c = 0; c < num_cells; ++c) global_id[c].assign(split[c].count(), -1);
  group_level_begin.assign(static_cast<std::size_t>(num_groups_) * (num_levels_ + 1), 0);
  std::vector<std::pair<int, int>> level_members;  // (cell, local branch)
  for (int g = 0; g < num_groups_; ++g) {
    for (int l = 0; l <= num_levels_; ++l) {
      group_level_begin[static_cast<std::size_t>(g) * (num_levels_ + 1) + l] = num_branches();
      if (l == num_levels_) break;
      level_members.clear();
      for (int c : groups[g])
        for (int b = 0; b < split[c].count(); ++b)
          if (split[c].level[b] == l) level_members.push_back({c, b});
      // Longest first: the threads of a warp then finish close together.
      std::stable_sort(level_members.begin(), level_members.end(), [&](auto x, auto y) {
        return split[x.first].length(x.second) > split[y.first].length(y.second);
      });
      const int width = static_cast<int>(level_members.size());
      int rows = 0;
      for (auto [c, b] : level_members) rows = std::max(rows, split[c].length(b));
      for (int j = 0; j < width; ++j) {
        const auto [c, b] = level_members[j];
        const CellBranches& cb = split[c];
        global_id[c][b] = num_branches();
        branch_offset.push_back(storage_size_ + j);
        branch_stride.push_back(width);
        branch_length.push_back(cb.length(b));
        branch_level.push_back(l);
        for (int k = 0; k < cb.length(b); ++k)
          storage_of[cell_offset[c] + cb.node[cb.first[b] + k]] =
              storage_size_ + j + static_cast<std::int64_t>(k) * width;
        // The parent's level was laid out before this one.
        branch_parent_index.push_back(
            cb.parent_node[b] < 0 ? -1 : storage_of[cell_offset[c] + cb.parent_node[b]]);
      }
      storage_size_ += static_cast<std::int64_t>(rows) * width;
    }
  }

  // Children of each branch (they all hang from its last node), as CSR.
  const int nb = num_branches();
  branch_child_begin.assign(nb, 0);
  branch_child_end.assign(nb, 0);
  std::vector<int> parent_id(nb, -1), count(nb, 0);
  for (int c = 0; c < num_cells; ++c)
    for (int b = 0; b < split[c].count(); ++b)
      if (split[c].parent_branch[b] >= 0) {
        const int id = global_id[c][b], pid = global_id[c][split[c].parent_branch[b]];
        parent_id[id] = pid;
        ++count[pid];
      }
  for (int b = 0, at = 0; b < nb; ++b) {
    branch_child_begin[b] = branch_child_end[b] = at;
    at += count[b];
  }
  children.assign(std::accumulate(count.begin(), count.end(), 0), -1);
  for (int id = 0; id < nb; ++id)
    if (parent_id[id] >= 0) children[branch_child_end[parent_id[id]]++] = id;

  // Per-level lists for the one-launch-per-level schedule.
  level_begin.assign(num_levels_ + 1, 0);
  level_branches.reserve(nb);
  for (int l = 0; l < num_levels_; ++l) {
    level_begin[l] = static_cast<int>(level_branches.size());
    for (int g = 0; g < num_groups_; ++g) {
      const std::size_t at = static_cast<std::size_t>(g) * (num_levels_ + 1) + l;
      for (int id = group_level_begin[at]; id < group_level_begin[at + 1]; ++id)
        level_branches.push_back(id);
    }
  }
  level_begin[num_levels_] = static_cast<int>(level_branches.size());

  canonical_of_storage_.assign(storage_size_, -1);
  for (std::int64_t k = 0; k < num_nodes(); ++k) canonical_of_storage_[storage_of[k]] = k;
  planning_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::pair<int, int> BranchPlan::cell_node_of_storage(std::int64_t storage_index) const {
  if (storage_index < 0 || storage_index >= storage_size_) return {-1, -1};
  const std::int64_t k = canonical_of_storage_[storage_index];
  if (k < 0) return {-1, -1};
  const int c = static_cast<int>(std::upper_bound(cell_offset.begin(), cell_offset.end(), k) -
                                 cell_offset.begin()) -
                1;
  return {c, static_cast<int>(k - cell_offset[c])};
}

}  // namespace hinesbatch
