#include "hinesbatch/layouts/branch_plan.hpp"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace {
struct CellBranches {
  std::vector<Tree::Branch> branches;
  std::vector<int> per_level;  // branch count at each level
};
}  // namespace

BranchPlan::BranchPlan(const std::vector<Tree>& cells, const BranchPlanOptions& options) {
  const auto t0 = std::chrono::steady_clock::now();
  if (options.branches_per_group < 1)
    throw InputError("BranchPlan: branches_per_group must be >= 1", {}, 0,
                     std::to_string(options.branches_per_group));
  const int num_cells = static_cast<int>(cells.size());
  cell_offset.assign(num_cells + 1, 0);
  for (int c = 0; c < num_cells; ++c) {
    if (cells[c].size() < 1)
      throw InputError("BranchPlan: cell " + std::to_string(c) + " has no nodes", {}, 0, "0");
    cell_offset[c + 1] = cell_offset[c] + cells[c].size();
  }

  std::vector<CellBranches> split(num_cells);
  for (int c = 0; c < num_cells; ++c) {
    split[c].branches = cells[c].branches();
    for (const auto& b : split[c].branches) {
      if (b.level >= static_cast<int>(split[c].per_level.size()))
        split[c].per_level.resize(b.level + 1, 0);
      ++split[c].per_level[b.level];
    }
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

  // Greedy grouping in that order: close a group when one of its levels would exceed the
  // branch budget. A single cell wider than the budget forms a group of its own.
  std::vector<std::vector<int>> groups;
  std::vector<int> load(num_levels_, 0);
  for (int c : order) {
    bool fits = !groups.empty();
    for (std::size_t l = 0; fits && l < split[c].per_level.size(); ++l)
      fits = load[l] + split[c].per_level[l] <= options.branches_per_group;
    if (!fits) {
      groups.emplace_back();
      std::fill(load.begin(), load.end(), 0);
    }
    groups.back().push_back(c);
    for (std::size_t l = 0; l < split[c].per_level.size(); ++l) load[l] += split[c].per_level[l];
  }
  num_groups_ = static_cast<int>(groups.size());

  // Lay out each group's levels; ids follow (group, level, longest branch first).
  storage_of.assign(num_nodes(), -1);
  std::vector<std::vector<int>> global_id(num_cells);
  for (int c = 0; c < num_cells; ++c) global_id[c].assign(split[c].branches.size(), -1);
  group_level_begin.assign(static_cast<std::size_t>(num_groups_) * (num_levels_ + 1), 0);
  std::vector<std::pair<int, int>> level_members;  // (cell, local branch)
  for (int g = 0; g < num_groups_; ++g) {
    for (int l = 0; l <= num_levels_; ++l) {
      group_level_begin[static_cast<std::size_t>(g) * (num_levels_ + 1) + l] = num_branches();
      if (l == num_levels_) break;
      level_members.clear();
      for (int c : groups[g])
        for (int b = 0; b < static_cast<int>(split[c].branches.size()); ++b)
          if (split[c].branches[b].level == l) level_members.push_back({c, b});
      std::stable_sort(level_members.begin(), level_members.end(), [&](auto x, auto y) {
        return split[x.first].branches[x.second].nodes.size() >
               split[y.first].branches[y.second].nodes.size();
      });
      const int width = static_cast<int>(level_members.size());
      int rows = 0;
      for (auto [c, b] : level_members)
        rows = std::max(rows, static_cast<int>(split[c].branches[b].nodes.size()));
      for (int j = 0; j < width; ++j) {
        const auto [c, b] = level_members[j];
        const auto& br = split[c].branches[b];
        const int id = num_branches();
        global_id[c][b] = id;
        branch_offset.push_back(storage_size_ + j);
        branch_stride.push_back(width);
        branch_length.push_back(static_cast<int>(br.nodes.size()));
        branch_level.push_back(l);
        for (std::size_t k = 0; k < br.nodes.size(); ++k)
          storage_of[cell_offset[c] + br.nodes[k]] =
              storage_size_ + j + static_cast<std::int64_t>(k) * width;
        // The parent's level was laid out before this one.
        branch_parent_index.push_back(
            br.parent_node < 0 ? -1 : storage_of[cell_offset[c] + br.parent_node]);
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
    for (std::size_t b = 0; b < split[c].branches.size(); ++b)
      if (split[c].branches[b].parent_branch >= 0) {
        const int id = global_id[c][b], pid = global_id[c][split[c].branches[b].parent_branch];
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
