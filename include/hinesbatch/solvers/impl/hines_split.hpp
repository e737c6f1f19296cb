#pragma once
// Hines systems solved by K lanes each, in place in the batch's memory (the split schedule):
// cuHinesBatch's two sweeps, one thread per system, cut along the tree (split_tree_plan.hpp)
// so that a batch of a few thousand large trees still gives the GPU K times as many
// threads. A team holds C systems (32 on a GPU) and K * C threads; thread t is lane t / C
// of system t % C, so a warp's 32 threads are one lane of 32 consecutive systems: they walk
// the same nodes and read interleaved storage coalesced, as one thread per system does.
//
//   1. lanes:     each lane eliminates its nodes, children first; a top's step on its
//                 junction parent waits;
//   2. junction:  one thread per system applies the tops' steps, eliminates the junction
//                 and solves it, root first;
//   3. lanes:     each lane substitutes its nodes, parents first.
//
// d <- eliminated diagonal and rhs <- x, as cuHinesBatch's kernel leaves them.
#include <Kokkos_Core.hpp>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"

namespace hinesbatch {
namespace impl {

// A SplitTreePlan on the device; read by every team, never written.
template <class MemorySpace>
struct DeviceSplitPlan {
  using index_view =
      Kokkos::View<const int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  index_view lane_node, lane_parent, junction, tops, parent;
  int lanes = 0, steps = 0, num_junction = 0, num_tops = 0;
  int modelled_steps = 0;  // SplitTreePlan::modelled_steps()
};

// The split plan of a tree for `lanes` lanes, on the device; `parent` is the tree's parent
// array already there (DeviceTree::parents()).
template <class MemorySpace, class ExecutionSpace, class ParentView>
DeviceSplitPlan<MemorySpace> make_split_plan(const ExecutionSpace& exec,
                                             const std::vector<int>& parents,
                                             const ParentView& parent, int lanes) {
  const SplitTreePlan plan = SplitTreePlan::build(Tree(parents), lanes);
  using V = typename DeviceSplitPlan<MemorySpace>::index_view;
  DeviceSplitPlan<MemorySpace> d;
  d.lane_node = V(to_device<MemorySpace>(exec, plan.lane_node, "hinesbatch::split_lane_node"));
  d.lane_parent =
      V(to_device<MemorySpace>(exec, plan.lane_parent, "hinesbatch::split_lane_parent"));
  d.junction = V(to_device<MemorySpace>(exec, plan.junction, "hinesbatch::split_junction"));
  d.tops = V(to_device<MemorySpace>(exec, plan.tops, "hinesbatch::split_tops"));
  d.parent = parent;
  d.lanes = plan.lanes;
  d.steps = plan.steps;
  d.num_junction = static_cast<int>(plan.junction.size());
  d.num_tops = static_cast<int>(plan.tops.size());
  d.modelled_steps = plan.modelled_steps();
  exec.fence();  // the host vectors behind the copies go out of scope
  return d;
}

template <class Batch, class Plan, class ExecutionSpace>
struct SolveSplitPerSystem {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  Plan plan;
  int n, block_size, num_systems, systems;  // systems: C, per team

  KOKKOS_INLINE_FUNCTION void record(int s, int pivot_node, int x_node) const {
    record_nodes(status, static_cast<long long>(s) * n, pivot_node, x_node);
  }

  // Step 1 for lane k of system s.
  KOKKOS_INLINE_FUNCTION void eliminate_lane(int s, int k) const {
    const auto us = Layout::system_view(u, s, block_size);
    const auto ls = Layout::system_view(l, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    const auto rs = Layout::system_view(rhs, s, block_size);
    const int first = k * plan.steps;
    bool failed = false;  // only a lane's first bad pivot: the later ones follow from it
    HINESBATCH_DEVICE_NO_UNROLL
    for (int j = 0; j < plan.steps; ++j) {
      const int i = plan.lane_node(first + j);
      if (i < 0) break;
      const int p = plan.lane_parent(first + j);
      T di = ds(i);
      if (!is_usable_pivot(di) && !failed) {
        record(s, i, -1);
        failed = true;
      }
      if (p < 0) continue;  // a top: its step is the junction's
      T ui = us(i), li = ls(i), ri = rs(i), dp = ds(p), rp = rs(p);
      loads_complete_here(di);
      loads_complete_here(ui);
      loads_complete_here(li);
      loads_complete_here(ri);
      loads_complete_here(dp);
      loads_complete_here(rp);
      const T f = ui / di;
      ds(p) = dp - f * li;
      rs(p) = rp - f * ri;
    }
  }

  // Step 2 for system s.
  KOKKOS_INLINE_FUNCTION void solve_junction(int s) const {
    const auto us = Layout::system_view(u, s, block_size);
    const auto ls = Layout::system_view(l, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    const auto rs = Layout::system_view(rhs, s, block_size);
    auto step = [&](int i) {
      const int p = plan.parent(i);
      const T f = us(i) / ds(i);
      ds(p) -= f * ls(i);
      rs(p) -= f * rs(i);
    };
    // A junction pivot is named only when no lane failed before (a top's bad pivot spoils
    // the junction's), and only the first.
    bool failed = false;
    auto check = [&](int i, T pivot) {
      if (!is_usable_pivot(pivot) && !failed) {
        record(s, i, -1);
        failed = true;
      }
    };
    HINESBATCH_DEVICE_NO_UNROLL
    for (int t = 0; t < plan.num_tops; ++t) {
      const int i = plan.tops(t);
      if (!is_usable_pivot(ds(i))) failed = true;
      step(i);
    }
    HINESBATCH_DEVICE_NO_UNROLL
    for (int j = 0; j + 1 < plan.num_junction; ++j) {
      const int i = plan.junction(j);
      check(i, ds(i));
      step(i);
    }
    const T d0 = ds(0);
    check(0, d0);
    const T x0 = rs(0) / d0;
    rs(0) = x0;
    if (!is_finite_value(x0)) record(s, -1, 0);
    HINESBATCH_DEVICE_NO_UNROLL
    for (int j = plan.num_junction - 2; j >= 0; --j) {
      const int i = plan.junction(j);
      const T xi = (rs(i) - ls(i) * rs(plan.parent(i))) / ds(i);
      rs(i) = xi;
      if (!is_finite_value(xi)) record(s, -1, i);
    }
  }

  // Step 3 for lane k of system s.
  KOKKOS_INLINE_FUNCTION void substitute_lane(int s, int k) const {
    const auto ls = Layout::system_view(l, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    const auto rs = Layout::system_view(rhs, s, block_size);
    const int first = k * plan.steps;
    HINESBATCH_DEVICE_NO_UNROLL
    for (int j = plan.steps - 1; j >= 0; --j) {
      const int i = plan.lane_node(first + j);
      if (i < 0) continue;
      const int code = plan.lane_parent(first + j);
      const int p = code < 0 ? -1 - code : code;
      const T xi = (rs(i) - ls(i) * rs(p)) / ds(i);
      rs(i) = xi;
      if (!is_finite_value(xi)) record(s, -1, i);
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int first = team.league_rank() * systems;
    const int K = plan.lanes, C = systems;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K * C), [&](const int t) {
      const int s = first + t % C;
      if (s < num_systems) eliminate_lane(s, t / C);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, C), [&](const int c) {
      if (first + c < num_systems) solve_junction(first + c);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, K * C), [&](const int t) {
      const int s = first + t % C;
      if (s < num_systems) substitute_lane(s, t / C);
    });
  }
};

}  // namespace impl
}  // namespace hinesbatch
