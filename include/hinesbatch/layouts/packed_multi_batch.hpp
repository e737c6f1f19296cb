#pragma once
// A multi-morphology batch for the team schedules: every cell its own tree, stored packed
// (cell by cell, each cell's nodes contiguous, no padding), solved by a team per cell on
// chip so that mixed batches move what a mono-morphology batch moves: 40 B per node in
// double. Two schedules (multi_morphology_solve.hpp): CellLanes (solvers/impl/hines_lanes.hpp,
// over a CellLanePlan) and TeamPieces (solvers/impl/hines_team.hpp, over a TeamTreePlan).
//
// Cells that share a tree (the same parent array) share its plans: a network built from a
// few reconstructions plans each of them once, so planning 256,000 cells costs about as
// much as comparing their parent arrays.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <string>
#include <string_view>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/core/impl/enum_names.hpp"
#include "hinesbatch/layouts/batch_storage.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/morphology/tree.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "hinesbatch/solvers/impl/team_tree_plan.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {

// How a packed batch is solved (solvers/multi_morphology_solve.hpp); a batch makes the
// plans of one schedule, chosen when it is built. Auto is CellLanes: on the H100 it is
// faster than TeamPieces on real cells (docs/PERFORMANCE.md, "Mixed real cells, fp64":
// PackedLanes against PackedTeam).
enum class PackedSchedule { Auto, CellLanes, TeamPieces };

inline constexpr impl::EnumName<PackedSchedule> kPackedScheduleNames[] = {
    {PackedSchedule::Auto, "Auto", nullptr},
    {PackedSchedule::CellLanes, "CellLanes", nullptr},
    {PackedSchedule::TeamPieces, "TeamPieces", nullptr},
};
inline const char* to_string(PackedSchedule s) {
  return impl::enum_to_string(kPackedScheduleNames, s);
}
inline bool from_string(std::string_view text, PackedSchedule& s) {
  return impl::enum_from_string(kPackedScheduleNames, text, s);
}
inline PackedSchedule resolved(PackedSchedule s) {
  return s == PackedSchedule::Auto ? PackedSchedule::CellLanes : s;
}

namespace impl {

// One plan of a PlanTable, seen through the accessors team_hines_solve reads.
template <class MemorySpace>
struct PlanRef {
  using index_view =
      Kokkos::View<const int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  index_view pb, pn, pp, cb, ch, lb;
  int opb, opn, opp, ocb, och, olb;
  int num_nodes, num_pieces, num_levels;
  KOKKOS_INLINE_FUNCTION int piece_begin(int q) const { return pb(opb + q); }
  KOKKOS_INLINE_FUNCTION int piece_nodes(int k) const { return pn(opn + k); }
  KOKKOS_INLINE_FUNCTION int parent_node(int q) const { return pp(opp + q); }
  KOKKOS_INLINE_FUNCTION int child_begin(int q) const { return cb(ocb + q); }
  KOKKOS_INLINE_FUNCTION int children(int k) const { return ch(och + k); }
  KOKKOS_INLINE_FUNCTION int level_begin(int l) const { return lb(olb + l); }
};

// Every distinct tree's plan, concatenated; row p of `table` holds plan p's offsets into
// the six arrays and its sizes (fields below).
template <class MemorySpace>
struct PlanTable {
  enum Field {
    kPieceBegin,
    kPieceNodes,
    kParent,
    kChildBegin,
    kChildren,
    kLevelBegin,
    kNodes,
    kPieces,
    kLevels,
    kFields
  };
  using index_view = typename PlanRef<MemorySpace>::index_view;
  index_view pb, pn, pp, cb, ch, lb;
  Kokkos::View<const int**, Kokkos::LayoutRight, MemorySpace> table;

  KOKKOS_INLINE_FUNCTION PlanRef<MemorySpace> plan(int p) const {
    return PlanRef<MemorySpace>{pb,
                                pn,
                                pp,
                                cb,
                                ch,
                                lb,
                                table(p, kPieceBegin),
                                table(p, kPieceNodes),
                                table(p, kParent),
                                table(p, kChildBegin),
                                table(p, kChildren),
                                table(p, kLevelBegin),
                                table(p, kNodes),
                                table(p, kPieces),
                                table(p, kLevels)};
  }
};

}  // namespace impl

template <class Scalar, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class PackedMultiBatch : public BatchStorage<PackedMultiBatch<Scalar, MemorySpace>, Scalar> {
 public:
  using scalar_type = Scalar;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<Scalar*, MemorySpace>;
  using status_view = SolveStatus<MemorySpace>;
  using plan_table = impl::PlanTable<MemorySpace>;

  // schedule: the schedule whose plans are made (one plan per distinct tree); CellLanes
  // plans are made for the threads of a team of ExecutionSpace (on_chip_lanes: a warp's 32
  // lanes on a GPU, one thread on a host).
  // piece_length: the longest piece of the TeamPieces plans (0: chosen per tree).
  template <class ExecutionSpace>
  PackedMultiBatch(const ExecutionSpace& exec, const std::vector<Tree>& cells,
                   PackedSchedule schedule = PackedSchedule::Auto, int piece_length = 0)
      : lanes_(on_chip_lanes<ExecutionSpace>()), planned_for_(resolved(schedule)) {
    const bool team_pieces = planned_for_ == PackedSchedule::TeamPieces;
    const int n = static_cast<int>(cells.size());
    cell_offset_.assign(n + 1, 0);
    std::vector<int> cell_plan(n);
    std::map<std::vector<int>, int> plan_of_tree;
    std::vector<TeamTreePlan> plans;
    LanePlanList lane_plans;
    std::vector<int> tree_parents, parent_at;
    for (int c = 0; c < n; ++c) {
      if (cells[c].size() < 1)
        throw InputError("PackedMultiBatch: cell " + std::to_string(c) + " has no nodes", {}, 0,
                         "0");
      cell_offset_[c + 1] = cell_offset_[c] + cells[c].size();
      const auto found = plan_of_tree.find(cells[c].parents());
      if (found != plan_of_tree.end()) {
        cell_plan[c] = found->second;
      } else {
        cell_plan[c] = num_plans_;
        plan_of_tree.emplace(cells[c].parents(), cell_plan[c]);
        ++num_plans_;
        if (team_pieces) {
          plans.push_back(TeamTreePlan::build(cells[c], piece_length));
        } else {
          lane_plans.add(CellLanePlan::build(cells[c].parents(), lanes_));
          parent_at.push_back(static_cast<int>(tree_parents.size()));
          tree_parents.insert(tree_parents.end(), cells[c].parents().begin(),
                              cells[c].parents().end());
        }
      }
    }
    lane_plans_ = lane_plans.to_device<MemorySpace>(exec);
    tree_parents_ = impl::to_device<MemorySpace>(exec, tree_parents, "hinesbatch::tree_parents");
    parent_at_ = impl::to_device<MemorySpace>(exec, parent_at, "hinesbatch::tree_parent_at");
    // Cells by size, smallest first: the CellLanes schedule launches cells of like size
    // together, each launch with the team scratch its largest cell needs.
    std::vector<int> by_size(n);
    std::iota(by_size.begin(), by_size.end(), 0);
    std::stable_sort(by_size.begin(), by_size.end(), [&](int a, int b) {
      return cell_offset_[a + 1] - cell_offset_[a] < cell_offset_[b + 1] - cell_offset_[b];
    });
    sorted_sizes_.resize(n);
    sorted_entries_.resize(n);
    for (int k = 0; k < n; ++k) {
      sorted_sizes_[k] = static_cast<int>(cell_offset_[by_size[k] + 1] - cell_offset_[by_size[k]]);
      sorted_entries_[k] = team_pieces ? 0 : lane_plans.entries_of(cell_plan[by_size[k]]);
    }
    cells_by_size_ = impl::to_device<MemorySpace>(exec, by_size, "hinesbatch::cells_by_size");
    // Concatenate the plans.
    std::vector<int> pb, pn, pp, cb, ch, lb;
    Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> table(
        "hinesbatch::plan_table", std::max<std::size_t>(1, plans.size()), int(plan_table::kFields));
    auto ht = Kokkos::create_mirror_view(table);
    for (std::size_t p = 0; p < plans.size(); ++p) {
      const TeamTreePlan& plan = plans[p];
      ht(p, plan_table::kPieceBegin) = static_cast<int>(pb.size());
      ht(p, plan_table::kPieceNodes) = static_cast<int>(pn.size());
      ht(p, plan_table::kParent) = static_cast<int>(pp.size());
      ht(p, plan_table::kChildBegin) = static_cast<int>(cb.size());
      ht(p, plan_table::kChildren) = static_cast<int>(ch.size());
      ht(p, plan_table::kLevelBegin) = static_cast<int>(lb.size());
      ht(p, plan_table::kNodes) = plan.num_nodes;
      ht(p, plan_table::kPieces) = plan.num_pieces();
      ht(p, plan_table::kLevels) = plan.num_levels();
      pb.insert(pb.end(), plan.piece_begin.begin(), plan.piece_begin.end());
      pn.insert(pn.end(), plan.piece_nodes.begin(), plan.piece_nodes.end());
      pp.insert(pp.end(), plan.parent_node.begin(), plan.parent_node.end());
      cb.insert(cb.end(), plan.child_begin.begin(), plan.child_begin.end());
      ch.insert(ch.end(), plan.children.begin(), plan.children.end());
      lb.insert(lb.end(), plan.level_begin.begin(), plan.level_begin.end());
      max_scratch_scalars_ =
          std::max(max_scratch_scalars_, 4 * static_cast<std::size_t>(plan.num_nodes) +
                                             4 * static_cast<std::size_t>(plan.num_pieces()) + 1);
    }
    Kokkos::deep_copy(exec, table, ht);
    plans_.table = table;
    plans_.pb = impl::to_device<MemorySpace>(exec, pb, "hinesbatch::plans_piece_begin");
    plans_.pn = impl::to_device<MemorySpace>(exec, pn, "hinesbatch::plans_piece_nodes");
    plans_.pp = impl::to_device<MemorySpace>(exec, pp, "hinesbatch::plans_parent_node");
    plans_.cb = impl::to_device<MemorySpace>(exec, cb, "hinesbatch::plans_child_begin");
    plans_.ch = impl::to_device<MemorySpace>(exec, ch, "hinesbatch::plans_children");
    plans_.lb = impl::to_device<MemorySpace>(exec, lb, "hinesbatch::plans_level_begin");
    cell_plan_ = impl::to_device<MemorySpace>(exec, cell_plan, "hinesbatch::cell_plan");
    cell_offsets_ = impl::to_device<MemorySpace>(exec, cell_offset_, "hinesbatch::cell_offset");
    auto alloc = [&](const char* label) {
      return view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                       static_cast<std::size_t>(cell_offset_.back()));
    };
    u_ = alloc("hinesbatch::packed_u");
    l_ = alloc("hinesbatch::packed_l");
    d_ = alloc("hinesbatch::packed_d");
    rhs_ = alloc("hinesbatch::packed_rhs");
    status_ = make_solve_status<MemorySpace>();
    exec.fence();
  }

  int num_cells() const { return static_cast<int>(cell_offset_.size()) - 1; }
  // The schedule whose plans the batch holds (Auto resolved).
  PackedSchedule planned_for() const { return planned_for_; }
  int num_plans() const { return num_plans_; }
  std::int64_t num_nodes() const { return cell_offset_.back(); }
  const view_type& u() const { return u_; }
  const view_type& l() const { return l_; }
  const view_type& d() const { return d_; }
  const view_type& rhs() const { return rhs_; }
  const status_view& status() const { return status_; }
  const plan_table& plans() const { return plans_; }
  const Kokkos::View<const int*, MemorySpace>& cell_plan() const { return cell_plan_; }
  const Kokkos::View<const std::int64_t*, MemorySpace>& cell_offsets() const {
    return cell_offsets_;
  }
  // Team scratch of the largest plan, in scalars (TeamPieces).
  std::size_t max_scratch_scalars() const { return max_scratch_scalars_; }
  // CellLanes: the plans (cell_plan's numbering), made for teams of lanes() threads
  // (on_chip_lanes); the trees' parent arrays (plan q's at parent_at(q)); the cells ordered
  // by size, and their sizes and their plans' entry counts in that order (host).
  int lanes() const { return lanes_; }
  const DeviceLanePlans<MemorySpace>& lane_plans() const { return lane_plans_; }
  const Kokkos::View<const int*, MemorySpace>& tree_parents() const { return tree_parents_; }
  const Kokkos::View<const int*, MemorySpace>& parent_at() const { return parent_at_; }
  const Kokkos::View<const int*, MemorySpace>& cells_by_size() const { return cells_by_size_; }
  const std::vector<int>& sorted_sizes() const { return sorted_sizes_; }
  const std::vector<int>& sorted_entries() const { return sorted_entries_; }
  std::size_t allocated_bytes() const {
    return 4 * u_.span() * sizeof(Scalar) + cell_offsets_.span() * sizeof(std::int64_t) +
           cell_plan_.span() * sizeof(int);
  }

  // fill, solution_to_host, diagonal_to_host and check: BatchStorage (batch_storage.hpp);
  // host arrays in canonical order (cell by cell), which is the storage order itself.

 private:
  friend class BatchStorage<PackedMultiBatch, Scalar>;
  static constexpr bool kCanonicalStorage = true;  // the packed arrays are the host order
  std::int64_t canonical_size() const { return num_nodes(); }
  std::string canonical_what() const { return "the batch's cells"; }
  template <class Host, class F>
  void for_each_slot(Host& host, F f) const {
    const std::int64_t n = num_nodes();
    for (std::int64_t k = 0; k < n; ++k) f(k, host(k));
  }
  SolveLocation locate(long long key) const {
    const auto it = std::upper_bound(cell_offset_.begin(), cell_offset_.end(), key);
    const long long c = static_cast<long long>(it - cell_offset_.begin()) - 1;
    return {"cell", c, key - cell_offset_[c]};
  }

  int lanes_ = 1;
  PackedSchedule planned_for_ = PackedSchedule::CellLanes;
  std::vector<std::int64_t> cell_offset_;
  std::vector<int> sorted_sizes_, sorted_entries_;
  DeviceLanePlans<MemorySpace> lane_plans_;
  Kokkos::View<const int*, MemorySpace> tree_parents_, parent_at_, cells_by_size_;
  int num_plans_ = 0;
  std::size_t max_scratch_scalars_ = 1;
  plan_table plans_;
  Kokkos::View<const int*, MemorySpace> cell_plan_;
  Kokkos::View<const std::int64_t*, MemorySpace> cell_offsets_;
  view_type u_, l_, d_, rhs_;
  status_view status_;
};

}  // namespace hinesbatch
