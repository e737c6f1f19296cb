#pragma once
// The planner for multi-morphology batches (the ThomasBatch paper's scheme,
// docs/REFERENCE.md §4): every cell has its own tree. Each cell is split into branches
// (unbranched sections; Tree::branches), cells are sorted by shape and packed into groups,
// and inside a group the branches of one level are stored interleaved: row k of every
// branch of the level is contiguous, so the threads that walk those branches side by side
// read consecutive addresses.
//
// Built once per simulation on the host; the device solves (solvers/multi_morphology_
// solve.hpp) only read the arrays it produces.
#include <cstdint>
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

struct BranchPlanOptions {
  // Cells per group. A group's level blocks are then at least this many branches wide,
  // so the threads of a warp that walk them side by side read whole cache sectors (a
  // block of 8 doubles per row measured 4x slower than 32 on an H200); one team (a warp
  // on a GPU) walks one group.
  int cells_per_group = 32;
  // Sort cells by depth and size before grouping (CoreNEURON's "permute 1" idea): cells
  // of one group then have similar levels, and threads idle less.
  bool sort_cells = true;
};

class BranchPlan {
 public:
  BranchPlan() = default;
  BranchPlan(const std::vector<Tree>& cells, const BranchPlanOptions& options = {});

  int num_cells() const { return static_cast<int>(cell_offset.size()) - 1; }
  std::int64_t num_nodes() const { return cell_offset.back(); }
  std::int64_t storage_size() const { return storage_size_; }
  int num_branches() const { return static_cast<int>(branch_length.size()); }
  int num_levels() const { return num_levels_; }
  int num_groups() const { return num_groups_; }
  double planning_seconds() const { return planning_seconds_; }

  // Canonical host order: cell c's nodes are [cell_offset[c], cell_offset[c+1]), in the
  // cell's Hines numbering. storage_of[k] is where canonical node k lives on the device.
  std::vector<std::int64_t> cell_offset;
  std::vector<std::int64_t> storage_of;

  // Per branch (ids ordered by group, then level, then longest first):
  // node k of the branch is at storage index offset + k * stride; k = 0 is the end that
  // hangs from parent_index (-1 for a cell's root branch); child branches hang from the
  // last node and are children[child_begin .. child_end).
  std::vector<std::int64_t> branch_offset, branch_parent_index;
  std::vector<int> branch_stride, branch_length, branch_level, branch_child_begin, branch_child_end;
  std::vector<int> children;
  // Branch ids of group g at level l: [group_level_begin[g*(L+1)+l], ...[g*(L+1)+l+1]).
  std::vector<int> group_level_begin;
  // Branch ids of level l across all groups: level_branches[level_begin[l] .. level_begin[l+1]).
  std::vector<int> level_begin, level_branches;

  // Failures are recorded as (level rank << kLevelShift) | storage index, so that the
  // smallest key is a root cause: the deepest failing level for elimination, the
  // shallowest for substitution (a bad value only spreads towards the root, and back).
  static constexpr int kLevelShift = 44;
  // (cell, node) of a storage index, for error messages; -1s for padding.
  std::pair<int, int> cell_node_of_storage(std::int64_t storage_index) const;

 private:
  std::int64_t storage_size_ = 0;
  int num_levels_ = 0, num_groups_ = 0;
  double planning_seconds_ = 0;
};

}  // namespace hinesbatch
