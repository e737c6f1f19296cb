#pragma once
// HinesSchedule::BlockPerSystem: a team of several warps per system for trees too large for
// one warp to eliminate fast. The team copies the system's d and rhs (and, where they fit,
// the tree's lane plan and parents) into team scratch, eliminates it over the tree's
// CellLanePlan (hines_lanes.hpp: level by level, each lane its pieces, a barrier between
// levels) reading u and l from memory, and writes x back: 40 B per node in double, read
// coalesced in Flat storage. A single warp or thread per system cannot fill a GPU when a
// batch of large trees holds few systems (a 3,000-node tree at 2^26 nodes: 22,000
// systems); here each system brings lanes x its warps.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <vector>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "hinesbatch/solvers/impl/hines_lanes.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {
namespace impl {

// One tree's lane plan for teams of `lanes` threads, on the device.
template <class MemorySpace>
struct BlockPlan {
  DeviceLanePlans<MemorySpace> plans;  // one plan (index 0)
  int lanes = 0, levels = 0, waits_at = 0, entries = 0;
  bool fill = false;  // the plan splits spines (CellLanePlan::fill)
};

// A tree's lane plan for teams of `lanes` threads, on the device (CellLanePlan::build tries
// about 20 piece sizes: DeviceTree makes it only when a solve first asks, PlansByLanes).
template <class MemorySpace, class ExecutionSpace>
BlockPlan<MemorySpace> make_block_plan(const ExecutionSpace& exec, const std::vector<int>& parents,
                                       int lanes) {
  const CellLanePlan plan = CellLanePlan::build(parents, lanes, /*fill=*/true);
  LanePlanList list;
  list.add(plan);
  BlockPlan<MemorySpace> b;
  b.plans = list.to_device<MemorySpace>(exec);
  b.lanes = lanes;
  b.levels = plan.levels;
  b.waits_at = list.waits_at[0];
  b.entries = list.entries_of(0);
  b.fill = plan.fill;
  exec.fence();  // the host vectors behind the copies go out of scope
  return b;
}

// How the schedule runs a tree: the team's lanes, and what its level-0 scratch keeps
// (LaneLaunch, hines_lanes.hpp, for one tree: d and rhs, u and l when
// coefficients_on_chip, the plan's entries and the parents when plan_on_chip; d and rhs
// in level 1 when even they do not fit).
struct BlockShape {
  int lanes = 0;
  bool coefficients_on_chip = false, plan_on_chip = true;
};

// lanes_hines_solve's system over a HinesBatch's system s: d and rhs in scratch, u and l
// read from the batch.
template <class Layout, class View, class Parent>
struct BlockSystem {
  using scalar_type = typename View::non_const_value_type;
  scalar_type* d;
  scalar_type* rhs;
  const scalar_type* su;  // u and l in scratch, or null: read from the batch
  const scalar_type* sl;
  View u_, l_;
  Parent parent_;
  int s, block_size;
  scalar_type* fill;  // where the plan splits spines
  KOKKOS_INLINE_FUNCTION int parent(int i) const { return parent_[i]; }
  KOKKOS_INLINE_FUNCTION scalar_type u(int i) const {
    return su ? su[i] : Layout::at(u_, s, i, block_size);
  }
  KOKKOS_INLINE_FUNCTION scalar_type l(int i) const {
    return sl ? sl[i] : Layout::at(l_, s, i, block_size);
  }
};

template <class Batch, class ExecutionSpace, int Level, bool Fill>
struct SolveBlockPerSystem {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using memory_space = typename Batch::memory_space;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  DeviceLanePlans<memory_space> plans;
  Kokkos::View<const int*, memory_space> parent;
  LaneLaunch launch;  // count unused; capacity = nodes, entry_capacity = the plan's entries
  int block_size, levels, waits_at;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& t) const {
    const int s = t.league_rank();
    const int n = launch.capacity;
    const long long offset = static_cast<long long>(s) * n;
    const int e0 = plans.begin(0);
    const auto x = LaneScratch<T>::template carve<Level>(t, launch);
    x.stage_plan(t, plans, e0, launch.entry_capacity, n, parent.data());
    const int bad_input = x.stage_values(
        t, n,
        [&](const int i, T& di, T& ri, T& ui, T& li) {
          di = Layout::at(d, s, i, block_size);
          ri = Layout::at(rhs, s, i, block_size);
          ui = Layout::at(u, s, i, block_size);
          li = Layout::at(l, s, i, block_size);
        },
        status, offset);
    t.team_barrier();
    using Parent = const int*;
    const BlockSystem<Layout, typename Batch::view_type, Parent> sys{
        x.d, x.rhs, x.u, x.l, u, l, x.parent ? x.parent : parent.data(), s, block_size, x.fill};
    int bad_pivot = -1, bad_solution = -1;
    lanes_hines_solve<Fill>(t, plans, x.entries ? x.entries : plans.entries.data(),
                            x.entries ? e0 : 0, levels, waits_at, t.team_rank(), sys, bad_pivot,
                            bad_solution);
    t.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n),
                         [&](const int i) { Layout::at(rhs, s, i, block_size) = x.rhs[i]; });
    if (bad_input == 0 && (bad_pivot >= 0 || bad_solution >= 0))
      record_nodes(status, offset, bad_pivot, bad_solution);
  }
};

// The team's scratch for a tree of n nodes whose plan has `entries` entries (and splits
// spines: fill), when level-0 scratch offers max0 bytes: the shape's wishes where they fit,
// less where they do not (first the coefficients, then the plan go back to memory, then d
// and rhs go to level 1).
inline LaneLaunch block_launch(int n, int entries, bool fill, std::size_t scalar, std::size_t max0,
                               const BlockShape& shape) {
  LaneLaunch l;
  l.count = 1;
  l.fill = fill;
  l.capacity = n;
  l.entry_capacity = entries;
  l.coefficients_on_chip = shape.coefficients_on_chip;
  l.plan_on_chip = shape.plan_on_chip;
  if (l.level0_bytes(scalar) > max0) l.coefficients_on_chip = false;
  if (l.level0_bytes(scalar) > max0) l.plan_on_chip = false;
  if (l.level0_bytes(scalar) > max0) l.level = 1;
  return l;
}

// The schedule's default shape on GPUs: d, rhs and the plan on chip; as many lanes as
// keep about 1,024 threads on an SM when each holds max0 bytes of shared memory (the
// teams a tree's scratch leaves room for), at least a warp, at most 512 and at most one
// lane per 8 nodes. Host backends: one thread per team.
template <class ExecutionSpace>
BlockShape default_block_shape(int n, std::size_t scalar, std::size_t max0) {
  BlockShape shape;
  if (is_host_backend<ExecutionSpace>()) {
    shape.lanes = 1;
    return shape;
  }
  const std::size_t bytes = (2 * scalar + 2 * sizeof(int)) * static_cast<std::size_t>(n);
  const std::size_t teams = std::max<std::size_t>(1, max0 / std::max<std::size_t>(1, bytes));
  int lanes = 32;
  while (lanes < 512 && static_cast<std::size_t>(lanes) * teams < 1024 && 2 * lanes * 8 <= n)
    lanes *= 2;
  shape.lanes = lanes;
  return shape;
}

}  // namespace impl
}  // namespace hinesbatch
