#pragma once
// The kernels of the multi-morphology solves (multi_morphology_solve.hpp launches them):
// the branch-level sweeps (LevelLaunches, TeamLevels), one thread per interleaved cell, and
// a team per packed cell (TeamPieces, CellLanes with its launches by size).
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/layouts/branch_batch.hpp"
#include "hinesbatch/layouts/interleaved_multi_batch.hpp"
#include "hinesbatch/layouts/packed_multi_batch.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/impl/branch_system.hpp"
#include "hinesbatch/solvers/impl/hines_lanes.hpp"
#include "hinesbatch/solvers/impl/hines_team.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {

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
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
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

// The launches of the CellLanes schedule: runs of the cells sorted by size (entries: their
// plans' entry counts) that share a way of keeping them, and at level 0 a power-of-two size
// bucket, so that small cells get small scratch and more teams per SM.
inline std::vector<LaneLaunch> lane_launches(const std::vector<int>& sorted_sizes,
                                             const std::vector<int>& sorted_entries,
                                             std::size_t scalar_bytes, std::size_t level0_bytes) {
  // The first way that fits, in order: all on chip; d and rhs on chip; level 1 with the
  // plan on chip; level 1.
  auto keep = [&](int k) {
    LaneLaunch l;
    l.capacity = sorted_sizes[k];
    l.entry_capacity = sorted_entries[k];
    l.coefficients_on_chip = l.plan_on_chip = true;
    if (l.level0_bytes(scalar_bytes) > level0_bytes) l.coefficients_on_chip = false;
    if (l.level0_bytes(scalar_bytes) > level0_bytes) l.level = 1;
    if (l.level0_bytes(scalar_bytes) > level0_bytes) l.plan_on_chip = false;
    return l;
  };
  auto bucket_of = [](int n) {
    int b = 1;
    while (b < n) b *= 2;
    return b;
  };
  std::vector<LaneLaunch> launches;
  const int cells = static_cast<int>(sorted_sizes.size());
  for (int k = 0; k < cells;) {
    LaneLaunch launch = keep(k);
    launch.first = k;
    const int bucket = bucket_of(sorted_sizes[k]);
    int end = k + 1;
    for (; end < cells; ++end) {
      const LaneLaunch l = keep(end);
      if (l.level != launch.level || l.coefficients_on_chip != launch.coefficients_on_chip ||
          l.plan_on_chip != launch.plan_on_chip ||
          (l.level == 0 && bucket_of(sorted_sizes[end]) != bucket))
        break;
      // The run's largest size and largest entry count may come from different cells.
      LaneLaunch grown = launch;
      grown.capacity = std::max(grown.capacity, sorted_sizes[end]);
      grown.entry_capacity = std::max(grown.entry_capacity, sorted_entries[end]);
      if (grown.level0_bytes(scalar_bytes) > level0_bytes) break;
      launch = grown;
    }
    launch.count = end - k;
    launches.push_back(launch);
    k = end;
  }
  return launches;
}

// CellLanes: a team per cell of one launch (LaneLaunch). Cell cells_by_size(first + league
// rank): its d and rhs (and u and l) copied into team scratch, and its plan's entries and
// parent array, solved there by the lanes over its tree's CellLanePlan, x written back to
// rhs.
template <class Batch, class ExecutionSpace, int Level>
struct SolvePackedLanes {
  using T = typename Batch::scalar_type;
  using memory_space = typename Batch::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  DeviceLanePlans<memory_space> plans;
  Kokkos::View<const int*, memory_space> cell_plan, cells_by_size, tree_parents, parent_at;
  Kokkos::View<const std::int64_t*, memory_space> cell_offsets;
  LaneLaunch launch;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& t) const {
    const int c = cells_by_size(launch.first + t.league_rank());
    const std::int64_t offset = cell_offsets(c);
    const int n = static_cast<int>(cell_offsets(c + 1) - offset);
    const int q = cell_plan(c);
    const int levels = plans.levels(q), waits_at = plans.waits_at(q), lane0 = plans.begin_at(q);
    const int e0 = plans.begin(lane0), e1 = plans.begin(lane0 + levels * t.team_size());
    const int* const parent_in_memory = tree_parents.data() + parent_at(q);
    const auto x = LaneScratch<T>::template carve<Level>(t, launch);
    x.stage_plan(t, plans, e0, e1 - e0, n, parent_in_memory);
    const int bad_input = x.stage_values(
        t, n,
        [&](const int i, T& di, T& ri, T& ui, T& li) {
          di = d(offset + i);
          ri = rhs(offset + i);
          ui = u(offset + i);
          li = l(offset + i);
        },
        status, offset);
    t.team_barrier();
    const LaneSystem<T> sys{x.d,
                            x.rhs,
                            x.u ? x.u : u.data() + offset,
                            x.l ? x.l : l.data() + offset,
                            x.parent ? x.parent : parent_in_memory,
                            nullptr};  // the packed plans do not split spines
    int bad_pivot = -1, bad_solution = -1;
    lanes_hines_solve<false>(t, plans, x.entries ? x.entries : plans.entries.data(),
                             x.entries ? e0 : 0, levels, waits_at, lane0 + t.team_rank(), sys,
                             bad_pivot, bad_solution);
    t.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n),
                         [&](const int i) { rhs(offset + i) = x.rhs[i]; });
    if (bad_input == 0 && (bad_pivot >= 0 || bad_solution >= 0))
      record_nodes(status, static_cast<long long>(offset), bad_pivot, bad_solution);
  }
};

}  // namespace impl

}  // namespace hinesbatch
