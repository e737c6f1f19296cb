#pragma once
// Multi-morphology solves (every cell its own tree) over a BranchBatch:
//  - LevelLaunches: the ThomasBatch paper's scheme: one launch per branch level and sweep, all
//  branches of
//    a level across the whole batch side by side (2 x levels launches per solve).
//  - TeamLevels: one launch per solve; a team per group of cells walks the group's
//    levels with team barriers between them (in the spirit of Arbor's "fine" solver).
// Both run the same per-branch sweeps (branch_system.hpp).
// And over a PackedMultiBatch, a team per cell eliminating it on chip, each cell with its
// own tree's plan (PackedSchedule):
//  - CellLanes: the cell's d and rhs (and u and l where they fit) in team scratch, its
//    tree's CellLanePlan run by the lanes (hines_lanes.hpp); cells launched by size class,
//    each launch with the scratch its largest cell needs; cells too big for level-0
//    scratch in level 1.
//  - TeamPieces: the mono-morphology team schedule's plan (hines_team.hpp).
// And over a GroupedMultiBatch, each group of cells sharing a tree by the mono-morphology
// solve, the groups side by side.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/impl/enum_names.hpp"
#include "hinesbatch/layouts/branch_batch.hpp"
#include "hinesbatch/layouts/grouped_multi_batch.hpp"
#include "hinesbatch/layouts/interleaved_multi_batch.hpp"
#include "hinesbatch/layouts/packed_multi_batch.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/impl/multi_morphology_kernels.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {

enum class BranchSchedule { LevelLaunches, TeamLevels };

inline constexpr impl::EnumName<BranchSchedule> kBranchScheduleNames[] = {
    {BranchSchedule::LevelLaunches, "LevelLaunches", nullptr},
    {BranchSchedule::TeamLevels, "TeamLevels", nullptr},
};
inline const char* to_string(BranchSchedule s) {
  return impl::enum_to_string(kBranchScheduleNames, s);
}
inline bool from_string(std::string_view text, BranchSchedule& s) {
  return impl::enum_from_string(kBranchScheduleNames, text, s);
}

// Solves every cell in place (rhs <- solution, d <- eliminated diagonal). Asynchronous
// on exec; batch.check(exec) reports zero pivots and non-finite values by cell and node.
// team_size (TeamLevels only): 0 picks a warp on a GPU and Kokkos::AUTO on a host.
// LevelLaunches reads the level sizes from the host plan, so it launches without syncing.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve(const ExecutionSpace& exec, const BranchBatch<Scalar, MemorySpace>& batch,
           BranchSchedule schedule, int team_size = 0) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve: the batch's memory space is not accessible from exec");
  using Sweeps = impl::SweepsFor<Scalar, MemorySpace>;
  const Sweeps sweeps{
      batch.device_plan(),  batch.u(),     batch.l(), batch.d(), batch.rhs(), batch.junction_d(),
      batch.junction_rhs(), batch.status()};
  const auto& plan = batch.plan();
  const int levels = plan.num_levels();
  if (plan.num_cells() == 0) return;
  if (schedule == BranchSchedule::LevelLaunches) {
    for (int l = levels - 1; l >= 0; --l) {
      const int b0 = plan.level_begin[l], count = plan.level_begin[l + 1] - b0;
      Kokkos::parallel_for(
          "hinesbatch::eliminate_level", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, count),
          impl::EliminateLevel<Sweeps>{sweeps, batch.device_plan().level_branches, b0});
    }
    for (int l = 0; l < levels; ++l) {
      const int b0 = plan.level_begin[l], count = plan.level_begin[l + 1] - b0;
      Kokkos::parallel_for(
          "hinesbatch::substitute_level", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, count),
          impl::SubstituteLevel<Sweeps>{sweeps, batch.device_plan().level_branches, b0});
    }
  } else {
    using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
    // A warp per group on a GPU: its level blocks are a warp wide (BranchPlanOptions), and a
    // barrier inside one warp is cheap.
    if (team_size == 0 && !is_host_backend<ExecutionSpace>())
      team_size = BackendTraits<ExecutionSpace>::warp_lanes;
    const Policy policy = team_size > 0 ? Policy(exec, plan.num_groups(), team_size)
                                        : Policy(exec, plan.num_groups(), Kokkos::AUTO);
    Kokkos::parallel_for("hinesbatch::solve_team_levels", policy,
                         impl::TeamLevelsFunctor<Sweeps, ExecutionSpace>{sweeps, levels});
  }
}

// The team schedules on packed cells: rhs <- x, u, l and d only read. Asynchronous; call
// batch.check(exec) to turn zero pivots or non-finite values into a SolverError naming the
// cell and node. level0_bytes (CellLanes; tests): the level-0 scratch a team may use, 0 for
// what the backend allows.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve(const ExecutionSpace& exec, const PackedMultiBatch<Scalar, MemorySpace>& batch,
           PackedSchedule schedule = PackedSchedule::Auto, std::size_t level0_bytes = 0) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve: the batch's memory space is not accessible from exec");
  using Batch = PackedMultiBatch<Scalar, MemorySpace>;
  using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
  if (batch.num_cells() == 0) return;
  schedule = resolved(schedule);
  if (schedule != batch.planned_for())
    throw InputError(std::string("hinesbatch::solve: the packed batch was planned for the ") +
                         to_string(batch.planned_for()) + " schedule, not " + to_string(schedule) +
                         " (pass the schedule to its constructor)",
                     {}, 0, to_string(schedule));
  if (schedule == PackedSchedule::TeamPieces) {
    using Functor = impl::SolvePackedTeam<Batch, ExecutionSpace>;
    const int team_size = BackendTraits<ExecutionSpace>::team_lanes;
    Policy policy(exec, batch.num_cells(), team_size);
    const std::size_t bytes = Functor::scratch_view::shmem_size(batch.max_scratch_scalars());
    const int level = bytes <= solver_scratch0_max(policy) ? 0 : 1;
    policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for(
        "hinesbatch::solve_packed_team", policy,
        Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), batch.plans(),
                batch.cell_plan(), batch.cell_offsets(), batch.max_scratch_scalars(), level});
    return;
  }
  if (batch.lanes() != on_chip_lanes<ExecutionSpace>())
    throw InputError("hinesbatch::solve: the packed batch was planned for teams of " +
                         std::to_string(batch.lanes()) + " lanes, this backend's have " +
                         std::to_string(on_chip_lanes<ExecutionSpace>()) +
                         " (build the batch with this backend's execution space)",
                     {}, 0, std::to_string(batch.lanes()));
  const std::size_t max0 = solver_scratch0_max(Policy(exec, 1, batch.lanes()));
  const std::size_t limit0 = level0_bytes > 0 ? std::min(level0_bytes, max0) : max0;
  for (const impl::LaneLaunch& launch :
       impl::lane_launches(batch.sorted_sizes(), batch.sorted_entries(), sizeof(Scalar), limit0)) {
    Policy policy(exec, launch.count, batch.lanes());
    if (launch.level0_bytes(sizeof(Scalar)) > 0)
      policy.set_scratch_size(0, Kokkos::PerTeam(launch.level0_bytes(sizeof(Scalar))));
    auto run = [&](auto level) {
      using Functor = impl::SolvePackedLanes<Batch, ExecutionSpace, decltype(level)::value>;
      Kokkos::parallel_for(
          "hinesbatch::solve_packed_lanes", policy,
          Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), batch.lane_plans(),
                  batch.cell_plan(), batch.cells_by_size(), batch.tree_parents(), batch.parent_at(),
                  batch.cell_offsets(), launch});
    };
    if (launch.level == 0) {
      run(std::integral_constant<int, 0>{});
    } else {
      policy.set_scratch_size(1, Kokkos::PerTeam(launch.value_bytes(sizeof(Scalar))));
      run(std::integral_constant<int, 1>{});
    }
  }
}

// The naive path: the mono-morphology kernel with one parent array per cell.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve(const ExecutionSpace& exec, const InterleavedMultiBatch<Scalar, MemorySpace>& batch) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve: the batch's memory space is not accessible from exec");
  using Batch = InterleavedMultiBatch<Scalar, MemorySpace>;
  if (batch.num_cells() == 0) return;
  Kokkos::parallel_for("hinesbatch::solve_interleaved_multi",
                       Kokkos::RangePolicy<ExecutionSpace>(exec, 0, batch.num_cells()),
                       impl::SolveInterleavedMulti<Batch>{
                           batch.u(), batch.l(), batch.d(), batch.rhs(), batch.parents(),
                           batch.sizes(), batch.status(), batch.max_nodes()});
}

namespace impl {

// How a grouped batch's launches go (the defaults are what solve() does; the benchmarks
// measure the others).
struct GroupedLaunch {
  // Each group on a stream of its own (CUDA), the streams side by side.
  bool side_by_side = true;
  // Auto decides each group's schedule as if its tree filled the whole batch (the groups
  // share the GPU), not by the group's own count.
  bool auto_by_batch = true;
  int max_streams = 16;
  // The split schedule's lanes per system: -1, for the groups over interleaved storage on
  // a GPU whose schedule is one thread per system, BlockPerSystem (whose teams run slowly
  // beside other groups' kernels) or Split, choose_split_lanes by the batch's count of cells, at
  // most 8, or 16 where the batch's cells times 16 fall short of the threads the GPU holds
  // (grouped_split_lanes); 0 or 1, never; K > 1, K for every group.
  int split_lanes = -1;
};

// The count of systems Auto decides group g's schedule by (GroupedLaunch::auto_by_batch).
template <class Batch, class Group>
long long grouped_auto_systems(const Batch& batch, const Group& g, const GroupedLaunch& launch) {
  const long long own = g.batch.num_systems();
  return launch.auto_by_batch ? std::max<long long>(own, batch.num_nodes() / g.tree.size()) : own;
}

// The split schedule's lanes for a tree among a grouped batch's `cells`: the groups' kernels
// overlap in part only, so lanes are wanted up to all the threads the GPU holds
// (mono_split_lanes: an eighth).
template <class ExecutionSpace, class MemorySpace>
int grouped_choose_split_lanes(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                               long long cells, int most_lanes) {
  return choose_split_lanes(exec, tree, cells, most_lanes, static_cast<double>(exec.concurrency()));
}

// The split schedule's lanes for group g (1: the group runs its mono-morphology schedule).
template <class ExecutionSpace, class Batch, class Group>
int grouped_split_lanes(const ExecutionSpace& exec, const Batch& batch, const Group& g,
                        HinesSchedule schedule, const GroupedLaunch& launch) {
  using Layout = typename Batch::layout_type;
  using Scalar = typename Batch::scalar_type;
  if (launch.split_lanes >= 0) return std::max(1, launch.split_lanes);
  if (is_host_backend<ExecutionSpace>() || schedule != HinesSchedule::Auto ||
      std::is_same<Layout, layouts::Flat>::value)
    return 1;
  const HinesSchedule resolved = resolve_schedule<ExecutionSpace, Layout, Scalar>(
      schedule, g.tree.size(), grouped_auto_systems(batch, g, launch), g.tree.height());
  if (resolved != HinesSchedule::PerSystem && resolved != HinesSchedule::PerSystemStaged &&
      resolved != HinesSchedule::BlockPerSystem && resolved != HinesSchedule::Split)
    return 1;
  // 16 lanes only where the batch's threads with 16 still fall short of what the GPU holds:
  // there the sweeps load a row ahead (solve_split_per_system), and 16 measured ahead of 8
  // (H100, mixed real cells: 6,400 cells 16.2 against 14.1 G nodes/s; at 25,600, where 16
  // lanes would fill the GPU, level).
  const long long cells = batch.num_cells();
  return grouped_choose_split_lanes(
      exec, g.tree, cells, cells * 16 < static_cast<long long>(exec.concurrency()) ? 16 : 8);
}

// Group g on `space`, as solve_grouped runs it: the split schedule or its mono-morphology one.
template <class ExecutionSpace, class Batch, class Group>
void solve_group(const ExecutionSpace& space, const Batch& batch, const Group& g,
                 HinesSchedule schedule, const GroupedLaunch& launch) {
  const int lanes = grouped_split_lanes(space, batch, g, schedule, launch);
  if (lanes > 1)
    solve_split_per_system(space, g.tree, g.batch, lanes, batch.num_cells());
  else
    solve_mono(space, g.tree, g.batch, schedule, grouped_auto_systems(batch, g, launch));
}

template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve_grouped(const ExecutionSpace& exec,
                   const GroupedMultiBatch<Scalar, Layout, MemorySpace>& batch,
                   HinesSchedule schedule, const GroupedLaunch& launch) {
  const int parts = batch.num_groups() + (batch.has_rest() ? 1 : 0);
  if (parts == 0) return;
  auto& streams = batch.template launch_streams<ExecutionSpace>();
  streams.reserve(launch.side_by_side ? std::min(parts, launch.max_streams) : 1);
  streams.fork(exec);
  int i = 0;
  // Largest groups first (the batch keeps them in that order), the rest last.
  for (const auto& g : batch.groups())
    solve_group(streams.space(exec, i++), batch, g, schedule, launch);
  if (batch.has_rest()) solve(streams.space(exec, i++), batch.rest());
  streams.join(exec);
}

}  // namespace impl

// Every group of cells sharing a tree by the mono-morphology solve under `schedule` (Auto:
// the solver map's table for that tree, decided at the whole batch's size), the rest by the
// naive interleaved path; on a GPU the groups' launches run side by side on streams of
// their own, ordered after exec's earlier work and before its later work. Asynchronous on
// exec; batch.check(exec) names a failing cell by its canonical index.
template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve(const ExecutionSpace& exec, const GroupedMultiBatch<Scalar, Layout, MemorySpace>& batch,
           HinesSchedule schedule = HinesSchedule::Auto) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve: the batch's memory space is not accessible from exec");
  impl::solve_grouped(exec, batch, schedule, impl::GroupedLaunch{});
}

}  // namespace hinesbatch
