#pragma once
// Multi-morphology solves (every cell its own tree) over a BranchBatch:
//  - LevelLaunches: P2's scheme: one launch per branch level and sweep, all branches of
//    a level across the whole batch side by side (2 x levels launches per solve).
//  - TeamLevels: one launch per solve; a team per group of cells walks the group's
//    levels with team barriers between them (in the spirit of Arbor's "fine" solver).
// Both run the same per-branch sweeps (branch_system.hpp).
// And over a PackedMultiBatch: a team per cell eliminates it on chip (hines_team.hpp), as
// the mono-morphology team schedule does, each cell with its own tree's plan.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "hinesbatch/layouts/branch_batch.hpp"
#include "hinesbatch/layouts/interleaved_multi_batch.hpp"
#include "hinesbatch/layouts/packed_multi_batch.hpp"
#include "hinesbatch/solvers/branch_system.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/hines_team.hpp"

namespace hinesbatch {

enum class BranchSchedule { LevelLaunches, TeamLevels };

inline const char* name(BranchSchedule s) {
  return s == BranchSchedule::LevelLaunches ? "LevelLaunches" : "TeamLevels";
}

namespace impl {

template <class Sweeps>
struct EliminateLevel {
  Sweeps sweeps;
  Kokkos::View<const int*, typename Sweeps::memory_space> ids;
  int begin;
  KOKKOS_INLINE_FUNCTION void operator()(const int t) const { sweeps.eliminate(ids(begin + t)); }
};
template <class Sweeps>
struct SubstituteLevel {
  Sweeps sweeps;
  Kokkos::View<const int*, typename Sweeps::memory_space> ids;
  int begin;
  KOKKOS_INLINE_FUNCTION void operator()(const int t) const { sweeps.substitute(ids(begin + t)); }
};

template <class Sweeps, class ExecutionSpace>
struct TeamLevelsFunctor {
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  Sweeps sweeps;
  int num_levels;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const auto& levels = sweeps.plan.group_level_begin;
    const int base = team.league_rank() * (num_levels + 1);
    for (int l = num_levels - 1; l >= 0; --l) {
      const int b0 = levels(base + l), b1 = levels(base + l + 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, b0, b1),
                           [&](const int b) { sweeps.eliminate(b); });
      team.team_barrier();
    }
    for (int l = 0; l < num_levels; ++l) {
      const int b0 = levels(base + l), b1 = levels(base + l + 1);
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, b0, b1),
                           [&](const int b) { sweeps.substitute(b); });
      team.team_barrier();
    }
  }
};

template <class Batch>
struct SolveInterleavedMulti {
  typename Batch::view_type u, l, d, rhs;
  typename Batch::parent_view parents;
  typename Batch::size_view sizes;
  typename Batch::status_view status;
  int max_nodes;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const auto f = hines_solve_system(
        Kokkos::subview(parents, s, Kokkos::ALL), sizes(s), Kokkos::subview(u, s, Kokkos::ALL),
        Kokkos::subview(l, s, Kokkos::ALL), Kokkos::subview(d, s, Kokkos::ALL),
        Kokkos::subview(rhs, s, Kokkos::ALL));
    record_failure(status, f, static_cast<long long>(s) * max_nodes);
  }
};

template <class Scalar, class MemorySpace>
using SweepsFor = BranchSweeps<DeviceBranchPlan<MemorySpace>, Kokkos::View<Scalar*, MemorySpace>,
                               Kokkos::View<long long[2], MemorySpace>>;

// A team per cell of a PackedMultiBatch: cell c's nodes are rows [offset(c), offset(c+1))
// of the packed views, its plan the row cell_plan(c) of the plan table.
template <class View>
struct CellRows {
  View v;
  std::int64_t offset;
  KOKKOS_INLINE_FUNCTION typename View::reference_type operator()(const int i) const {
    return v(offset + i);
  }
};

template <class Batch, class ExecutionSpace>
struct SolvePackedTeam {
  using T = typename Batch::scalar_type;
  using view_type = typename Batch::view_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  view_type u, l, d, rhs;
  typename Batch::status_view status;
  typename Batch::plan_table plans;
  Kokkos::View<const int*, typename Batch::memory_space> cell_plan;
  Kokkos::View<const std::int64_t*, typename Batch::memory_space> cell_offsets;
  std::size_t scratch_scalars;
  int scratch_level;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int c = team.league_rank();
    const std::int64_t offset = cell_offsets(c);
    const auto plan = plans.plan(cell_plan(c));
    scratch_view scratch(team.team_scratch(scratch_level), scratch_scalars);
    const auto st = status;
    const long long key = static_cast<long long>(offset);
    team_hines_solve(team, scratch.data(), plan, CellRows<view_type>{u, offset},
                     CellRows<view_type>{l, offset}, CellRows<view_type>{d, offset},
                     CellRows<view_type>{rhs, offset}, [=](int pivot_node, int x_node) {
                       if (pivot_node >= 0) Kokkos::atomic_fetch_min(&st(0), key + pivot_node);
                       if (x_node >= 0) Kokkos::atomic_fetch_min(&st(1), key + x_node);
                     });
  }
};

}  // namespace impl

// Solves every cell in place (rhs <- solution, d <- eliminated diagonal). Asynchronous
// on exec; batch.check(exec) reports zero pivots and non-finite values by cell and node.
// team_size (TeamLevels only): 0 picks a warp on CUDA and Kokkos::AUTO elsewhere.
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
#if defined(KOKKOS_ENABLE_CUDA)
    // A warp per group: its level blocks are a warp wide (BranchPlanOptions), and a
    // barrier inside one warp is cheap.
    if (team_size == 0 && std::is_same<ExecutionSpace, Kokkos::Cuda>::value) team_size = 32;
#endif
    const Policy policy = team_size > 0 ? Policy(exec, plan.num_groups(), team_size)
                                        : Policy(exec, plan.num_groups(), Kokkos::AUTO);
    Kokkos::parallel_for("hinesbatch::solve_team_levels", policy,
                         impl::TeamLevelsFunctor<Sweeps, ExecutionSpace>{sweeps, levels});
  }
}

// The team schedule on packed cells: rhs <- x, u, l and d only read. Asynchronous; call
// batch.check(exec) to turn zero pivots or non-finite values into a SolverError naming the
// cell and node.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve(const ExecutionSpace& exec, const PackedMultiBatch<Scalar, MemorySpace>& batch) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve: the batch's memory space is not accessible from exec");
  using Batch = PackedMultiBatch<Scalar, MemorySpace>;
  using Functor = impl::SolvePackedTeam<Batch, ExecutionSpace>;
  if (batch.num_cells() == 0) return;
  const int team_size = impl::is_host_backend<ExecutionSpace>() ? 1 : 32;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, batch.num_cells(), team_size);
  const std::size_t bytes = Functor::scratch_view::shmem_size(batch.max_scratch_scalars());
  const int level = bytes <= static_cast<std::size_t>(policy.scratch_size_max(0)) ? 0 : 1;
  policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      "hinesbatch::solve_packed_team", policy,
      Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), batch.plans(),
              batch.cell_plan(), batch.cell_offsets(), batch.max_scratch_scalars(), level});
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

}  // namespace hinesbatch
