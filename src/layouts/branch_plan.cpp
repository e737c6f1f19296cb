#include "hinesbatch/layouts/branch_plan.hpp"

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <numeric>
#include <string>
#include <unordered_map>

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
// fn(g) for g in [0, n): on the host execution space's threads when Kokkos is running
// (groups differ in size: dynamic schedule), else in a plain loop.
template <class Fn>
void for_each_group(int n, const Fn& fn) {
  if (Kokkos::is_initialized() && n > 1) {
    using Policy =
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>;
    Kokkos::parallel_for("hinesbatch::BranchPlan", Policy(0, n), [&](const int g) { fn(g); });
    Kokkos::DefaultHostExecutionSpace().fence();
  } else {
    for (int g = 0; g < n; ++g) fn(g);
  }
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

  // Cells of one tree (a network repeats a few morphologies) are split once: the distinct
  // trees are found by a hash of the parent array, confirmed by comparing the arrays.
  std::vector<int> distinct_of(num_cells), first_cell;
  {
    std::unordered_map<std::uint64_t, std::vector<int>> by_hash;
    for (int c = 0; c < num_cells; ++c) {
      const std::vector<int>& p = cells[c].parents();
      std::uint64_t h = 1469598103934665603ULL ^ p.size();
      for (int v : p) h = (h ^ static_cast<std::uint32_t>(v)) * 1099511628211ULL;
      auto& candidates = by_hash[h];
      int found = -1;
      for (int d : candidates)
        if (cells[first_cell[d]].parents() == p) found = d;
      if (found < 0) {
        found = static_cast<int>(first_cell.size());
        first_cell.push_back(c);
        candidates.push_back(found);
      }
      distinct_of[c] = found;
    }
  }
  std::vector<CellBranches> distinct_split(first_cell.size());
  for (std::size_t d = 0; d < first_cell.size(); ++d) {
    distinct_split[d] = split_into_branches(cells[first_cell[d]]);
    num_levels_ = std::max(num_levels_, static_cast<int>(distinct_split[d].per_level.size()));
  }
  auto split = [&](int c) -> const CellBranches& { return distinct_split[distinct_of[c]]; };

  std::vector<int> order(num_cells);
  std::iota(order.begin(), order.end(), 0);
  if (options.sort_cells)
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      if (split(a).per_level.size() != split(b).per_level.size())
        return split(a).per_level.size() > split(b).per_level.size();
      return cells[a].size() > cells[b].size();
    });
  std::vector<std::vector<int>> groups;
  for (int k = 0; k < num_cells; ++k) {
    if (k % options.cells_per_group == 0) groups.emplace_back();
    groups.back().push_back(order[k]);
  }
  num_groups_ = static_cast<int>(groups.size());

  // Lay out each group's levels; ids follow (group, level, longest branch first). Groups
  // are independent once each knows where its branch ids and storage start (a first pass
  // sizes them), so they are laid out in parallel on the host execution space.
  storage_of.assign(num_nodes(), -1);
  // Global branch id of cell c's branch b: global_id[id_offset[c] + b].
  std::vector<std::int64_t> id_offset(num_cells + 1, 0);
  for (int c = 0; c < num_cells; ++c) id_offset[c + 1] = id_offset[c] + split(c).count();
  std::vector<int> global_id(id_offset[num_cells], -1);
  const int L = num_levels_;
  group_level_begin.assign(static_cast<std::size_t>(num_groups_) * (L + 1), 0);
  std::vector<std::int64_t> group_storage(num_groups_ + 1, 0);
  std::vector<int> group_branches(num_groups_ + 1, 0);
  for_each_group(num_groups_, [&](int g) {
    std::vector<int> width(L, 0), rows(L, 0);
    for (int c : groups[g]) {
      const CellBranches& cb = split(c);
      for (int b = 0; b < cb.count(); ++b) {
        ++width[cb.level[b]];
        rows[cb.level[b]] = std::max(rows[cb.level[b]], cb.length(b));
      }
    }
    std::int64_t storage = 0;
    int branches = 0;
    for (int l = 0; l < L; ++l) {
      storage += static_cast<std::int64_t>(rows[l]) * width[l];
      branches += width[l];
    }
    group_storage[g + 1] = storage;
    group_branches[g + 1] = branches;
  });
  for (int g = 0; g < num_groups_; ++g) {
    group_storage[g + 1] += group_storage[g];
    group_branches[g + 1] += group_branches[g];
  }
  storage_size_ = group_storage[num_groups_];
  const int nb = group_branches[num_groups_];
  branch_offset.assign(nb, 0);
  branch_parent_index.assign(nb, -1);
  branch_stride.assign(nb, 0);
  branch_length.assign(nb, 0);
  branch_level.assign(nb, 0);
  std::vector<int> parent_id(nb, -1);  // global id of each branch's parent branch (-1: a root)
  for_each_group(num_groups_, [&](int g) {
    // The group's branches bucketed by level (in cell, then branch order).
    struct Member {
      int cell, branch, length;
    };
    std::vector<int> level_start(L + 1, 0);
    for (int c : groups[g])
      for (int l = 0; l < static_cast<int>(split(c).per_level.size()); ++l)
        level_start[l + 1] += split(c).per_level[l];
    for (int l = 0; l < L; ++l) level_start[l + 1] += level_start[l];
    std::vector<Member> members(level_start[L]);
    {
      std::vector<int> cursor(level_start.begin(), level_start.end() - 1);
      for (int c : groups[g])
        for (int b = 0; b < split(c).count(); ++b)
          members[cursor[split(c).level[b]]++] = {c, b, split(c).length(b)};
    }
    int id = group_branches[g];
    std::int64_t storage = group_storage[g];
    for (int l = 0; l <= L; ++l) {
      group_level_begin[static_cast<std::size_t>(g) * (L + 1) + l] = id;
      if (l == L) break;
      const auto level_members = members.begin() + level_start[l];
      const int width = level_start[l + 1] - level_start[l];
      // Longest first: the threads of a warp then finish close together.
      std::stable_sort(level_members, level_members + width,
                       [](const Member& x, const Member& y) { return x.length > y.length; });
      const int rows = width > 0 ? level_members[0].length : 0;
      for (int j = 0; j < width; ++j, ++id) {
        const int c = level_members[j].cell, b = level_members[j].branch;
        const CellBranches& cb = split(c);
        global_id[id_offset[c] + b] = id;
        branch_offset[id] = storage + j;
        branch_stride[id] = width;
        branch_length[id] = cb.length(b);
        branch_level[id] = l;
        for (int k = 0; k < cb.length(b); ++k)
          storage_of[cell_offset[c] + cb.node[cb.first[b] + k]] =
              storage + j + static_cast<std::int64_t>(k) * width;
        // The parent's level was laid out before this one, by this thread (same cell).
        if (cb.parent_node[b] >= 0)
          branch_parent_index[id] = storage_of[cell_offset[c] + cb.parent_node[b]];
        if (cb.parent_branch[b] >= 0) parent_id[id] = global_id[id_offset[c] + cb.parent_branch[b]];
      }
      storage += static_cast<std::int64_t>(rows) * width;
    }
  });

  // Children of each branch (they all hang from its last node), as CSR.
  branch_child_begin.assign(nb, 0);
  branch_child_end.assign(nb, 0);
  // A parent branch sits in the same group one level up: near in id, so these passes run
  // in id order with nearby writes (a pass over cells would jump through global_id).
  std::vector<int> count(nb, 0);
  for (int id = 0; id < nb; ++id)
    if (parent_id[id] >= 0) ++count[parent_id[id]];
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

  planning_seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::pair<int, int> BranchPlan::cell_node_of_storage(std::int64_t storage_index) const {
  // Only error messages ask: a scan of storage_of instead of an inverse table as large as
  // the storage (gigabytes for 256,000 real cells, and most of the planner's time).
  if (storage_index < 0 || storage_index >= storage_size_) return {-1, -1};
  const auto it = std::find(storage_of.begin(), storage_of.end(), storage_index);
  if (it == storage_of.end()) return {-1, -1};  // padding
  const std::int64_t k = it - storage_of.begin();
  const int c = static_cast<int>(std::upper_bound(cell_offset.begin(), cell_offset.end(), k) -
                                 cell_offset.begin()) -
                1;
  return {c, static_cast<int>(k - cell_offset[c])};
}

}  // namespace hinesbatch
