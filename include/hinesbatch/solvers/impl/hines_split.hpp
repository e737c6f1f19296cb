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
// With few warps per SM a lane's sweep waits on memory once per node, so each sweep asks
// for the next node's inputs before it writes this one's parent (eliminate_rows) and asks
// the nodes a few steps ahead into L2.
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

// Rows asked into L2 this many steps ahead of the one a sweep solves (0: none);
// -DHINESBATCH_SPLIT_PREFETCH_STEPS=R changes it (experiments).
#if !defined(HINESBATCH_SPLIT_PREFETCH_STEPS)
#define HINESBATCH_SPLIT_PREFETCH_STEPS 4
#endif
constexpr int kSplitPrefetchSteps = HINESBATCH_SPLIT_PREFETCH_STEPS;

// A SplitTreePlan on the device; read by every team, never written.
template <class MemorySpace>
struct DeviceSplitPlan {
  using index_view =
      Kokkos::View<const int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  index_view lane_node, lane_parent, junction, tops;
  index_view junction_parent, top_parent;  // each junction node's and top's parent
  int lanes = 0, steps = 0, num_junction = 0, num_tops = 0;
  int modelled_steps = 0;  // SplitTreePlan::modelled_steps()
};

// The split plan of a tree for `lanes` lanes, on the device.
template <class MemorySpace, class ExecutionSpace>
DeviceSplitPlan<MemorySpace> make_split_plan(const ExecutionSpace& exec,
                                             const std::vector<int>& parents, int lanes) {
  const SplitTreePlan plan = SplitTreePlan::build(Tree(parents), lanes);
  auto parents_of = [&](const std::vector<int>& nodes) {
    std::vector<int> p(nodes.size());
    for (std::size_t e = 0; e < nodes.size(); ++e) p[e] = nodes[e] > 0 ? parents[nodes[e]] : -1;
    return p;
  };
  const std::vector<int> junction_parent = parents_of(plan.junction);
  const std::vector<int> top_parent = parents_of(plan.tops);
  using V = typename DeviceSplitPlan<MemorySpace>::index_view;
  DeviceSplitPlan<MemorySpace> d;
  d.lane_node = V(to_device<MemorySpace>(exec, plan.lane_node, "hinesbatch::split_lane_node"));
  d.lane_parent =
      V(to_device<MemorySpace>(exec, plan.lane_parent, "hinesbatch::split_lane_parent"));
  d.junction = V(to_device<MemorySpace>(exec, plan.junction, "hinesbatch::split_junction"));
  d.tops = V(to_device<MemorySpace>(exec, plan.tops, "hinesbatch::split_tops"));
  d.junction_parent =
      V(to_device<MemorySpace>(exec, junction_parent, "hinesbatch::split_junction_parent"));
  d.top_parent = V(to_device<MemorySpace>(exec, top_parent, "hinesbatch::split_top_parent"));
  d.lanes = plan.lanes;
  d.steps = plan.steps;
  d.num_junction = static_cast<int>(plan.junction.size());
  d.num_tops = static_cast<int>(plan.tops.size());
  d.modelled_steps = plan.modelled_steps();
  exec.fence();  // the host vectors behind the copies go out of scope
  return d;
}

// One elimination row's inputs: node i's u, l, d and rhs, and its parent p's d and rhs
// (p < 0: the row's pivot only; i < 0: no row).
template <class T>
struct SplitEliminationRow {
  int i = -1, p = -1;
  T d{}, u{}, l{}, r{}, dp{}, rp{};
};

// One substitution row's inputs: node i's l, d and rhs and its parent's x (i < 0: no row).
template <class T>
struct SplitSubstitutionRow {
  int i = -1, p = -1;
  T d{}, l{}, r{}, xp{};
};

// Ahead: the sweeps load each row a row ahead (eliminate_rows, substitute_rows), which
// costs registers (64 a thread against 46 in double on sm_90) and so threads an SM holds;
// without, a row's loads follow the row above's stores.
template <class Batch, class Plan, class ExecutionSpace, bool Ahead = true>
struct SolveSplitPerSystem {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using index_view = typename Plan::index_view;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  Plan plan;
  int n, block_size, num_systems, systems;  // systems: C, per team

  KOKKOS_INLINE_FUNCTION void record(int s, int pivot_node, int x_node) const {
    record_nodes(status, static_cast<long long>(s) * n, pivot_node, x_node);
  }

  // The elimination of rows e = 0 .. count-1, in order: node node(at + e) with parent
  // parent(at + e) (a negative parent: only the row's pivot is checked, its step is taken
  // elsewhere; a negative node ends the rows). `pivot(i, d)` sees each row's diagonal.
  //
  // A row's inputs are asked for before the row above writes its parent, so one memory
  // round trip per row overlaps the row above's division and stores instead of following
  // them; where the next row reads what this one writes (its node or parent is this row's
  // parent) the written value replaces the one loaded. The indices are read two rows
  // ahead, and the rows kSplitPrefetchSteps ahead are asked into L2.
  template <class SV, class Pivot>
  KOKKOS_INLINE_FUNCTION static void eliminate_rows(const SV& us, const SV& ls, const SV& ds,
                                                    const SV& rs, const index_view& node,
                                                    const index_view& parent, int at, int count,
                                                    Pivot&& pivot) {
    if constexpr (!Ahead) {
      HINESBATCH_DEVICE_NO_UNROLL
      for (int e = 0; e < count; ++e) {
        const int i = node(at + e);
        if (i < 0) break;
        const int p = parent(at + e);
        T di = ds(i);
        pivot(i, di);
        if (p < 0) continue;
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
      return;
    }
    auto node_at = [&](int e) { return e < count ? node(at + e) : -1; };
    auto parent_at = [&](int e) { return e < count ? parent(at + e) : -1; };
    auto fetch = [&](int i, int p) {
      SplitEliminationRow<T> row;
      row.i = i;
      row.p = p;
      if (i >= 0) {
        row.d = ds(i);
        if (p >= 0) {
          row.u = us(i);
          row.l = ls(i);
          row.r = rs(i);
          row.dp = ds(p);
          row.rp = rs(p);
        }
      }
      return row;
    };
    auto ask = [&](int i, int p) {
      if (i < 0) return;
      prefetch_to_l2(&ds(i));
      if (p < 0) return;
      prefetch_to_l2(&us(i));
      prefetch_to_l2(&ls(i));
      prefetch_to_l2(&rs(i));
      prefetch_to_l2(&ds(p));
      prefetch_to_l2(&rs(p));
    };
    SplitEliminationRow<T> row = fetch(node_at(0), parent_at(0));
    int i1 = node_at(1), p1 = parent_at(1);
    int ia = kSplitPrefetchSteps > 0 ? node_at(kSplitPrefetchSteps) : -1;
    int pa = kSplitPrefetchSteps > 0 ? parent_at(kSplitPrefetchSteps) : -1;
    HINESBATCH_DEVICE_NO_UNROLL
    for (int e = 0; e < count && row.i >= 0; ++e) {
      if (kSplitPrefetchSteps > 0) {
        ask(ia, pa);
        ia = node_at(e + 1 + kSplitPrefetchSteps);
        pa = parent_at(e + 1 + kSplitPrefetchSteps);
      }
      SplitEliminationRow<T> next = fetch(i1, p1);
      i1 = node_at(e + 2);
      p1 = parent_at(e + 2);
      pivot(row.i, row.d);
      if (row.p >= 0) {
        const T f = row.u / row.d;
        const T dp = row.dp - f * row.l, rp = row.rp - f * row.r;
        ds(row.p) = dp;
        rs(row.p) = rp;
        if (next.i == row.p) {
          next.d = dp;
          next.r = rp;
        }
        if (next.p == row.p) {
          next.dp = dp;
          next.rp = rp;
        }
      }
      row = next;
    }
  }

  // The substitution of rows e = count-1 .. 0, in that order: node node(at + e), x <- rhs,
  // with parent parent(at + e) (-1 - parent when negative); a negative node is skipped. As
  // eliminate_rows, each row's inputs asked for a row ahead, the next row's parent x taken
  // from this row when it is this row's node.
  template <class SV>
  KOKKOS_INLINE_FUNCTION void substitute_rows(int s, const SV& ls, const SV& ds, const SV& rs,
                                              const index_view& node, const index_view& parent,
                                              int at, int count) const {
    if constexpr (!Ahead) {
      HINESBATCH_DEVICE_NO_UNROLL
      for (int e = count - 1; e >= 0; --e) {
        const int i = node(at + e);
        if (i < 0) continue;
        const int code = parent(at + e);
        const int p = code < 0 ? -1 - code : code;
        const T xi = (rs(i) - ls(i) * rs(p)) / ds(i);
        rs(i) = xi;
        if (!is_finite_value(xi)) record(s, -1, i);
      }
      return;
    }
    auto node_at = [&](int e) { return e >= 0 ? node(at + e) : -1; };
    auto parent_at = [&](int e) {
      const int code = e >= 0 ? parent(at + e) : 0;
      return code < 0 ? -1 - code : code;
    };
    auto fetch = [&](int i, int p) {
      SplitSubstitutionRow<T> row;
      row.i = i;
      row.p = p;
      if (i >= 0) {
        row.d = ds(i);
        row.l = ls(i);
        row.r = rs(i);
        row.xp = rs(p);
      }
      return row;
    };
    auto ask = [&](int i, int p) {
      if (i < 0) return;
      prefetch_to_l2(&ds(i));
      prefetch_to_l2(&ls(i));
      prefetch_to_l2(&rs(i));
      prefetch_to_l2(&rs(p));
    };
    const int last = count - 1;
    SplitSubstitutionRow<T> row = fetch(node_at(last), parent_at(last));
    int i1 = node_at(last - 1), p1 = parent_at(last - 1);
    int ia = kSplitPrefetchSteps > 0 ? node_at(last - kSplitPrefetchSteps) : -1;
    int pa = kSplitPrefetchSteps > 0 ? parent_at(last - kSplitPrefetchSteps) : -1;
    HINESBATCH_DEVICE_NO_UNROLL
    for (int e = last; e >= 0; --e) {
      if (kSplitPrefetchSteps > 0) {
        ask(ia, pa);
        ia = node_at(e - 1 - kSplitPrefetchSteps);
        pa = parent_at(e - 1 - kSplitPrefetchSteps);
      }
      SplitSubstitutionRow<T> next = fetch(i1, p1);
      i1 = node_at(e - 2);
      p1 = parent_at(e - 2);
      if (row.i >= 0) {
        const T xi = (row.r - row.l * row.xp) / row.d;
        rs(row.i) = xi;
        if (!is_finite_value(xi)) record(s, -1, row.i);
        if (next.p == row.i) next.xp = xi;
      }
      row = next;
    }
  }

  // Step 1 for lane k of system s.
  KOKKOS_INLINE_FUNCTION void eliminate_lane(int s, int k) const {
    const auto us = Layout::system_view(u, s, block_size);
    const auto ls = Layout::system_view(l, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    const auto rs = Layout::system_view(rhs, s, block_size);
    bool failed = false;  // only a lane's first bad pivot: the later ones follow from it
    eliminate_rows(us, ls, ds, rs, plan.lane_node, plan.lane_parent, k * plan.steps, plan.steps,
                   [&](int i, T pivot) {
                     if (!is_usable_pivot(pivot) && !failed) {
                       record(s, i, -1);
                       failed = true;
                     }
                   });
  }

  // Step 2 for system s.
  KOKKOS_INLINE_FUNCTION void solve_junction(int s) const {
    const auto us = Layout::system_view(u, s, block_size);
    const auto ls = Layout::system_view(l, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    const auto rs = Layout::system_view(rhs, s, block_size);
    // A junction pivot is named only when no lane failed before (a top's bad pivot, which
    // its lane named, spoils the junction's), and only the first.
    bool failed = false;
    eliminate_rows(us, ls, ds, rs, plan.tops, plan.top_parent, 0, plan.num_tops, [&](int, T pivot) {
      if (!is_usable_pivot(pivot)) failed = true;
    });
    eliminate_rows(us, ls, ds, rs, plan.junction, plan.junction_parent, 0, plan.num_junction - 1,
                   [&](int i, T pivot) {
                     if (!is_usable_pivot(pivot) && !failed) {
                       record(s, i, -1);
                       failed = true;
                     }
                   });
    const T d0 = ds(0);
    if (!is_usable_pivot(d0) && !failed) record(s, 0, -1);
    const T x0 = rs(0) / d0;
    rs(0) = x0;
    if (!is_finite_value(x0)) record(s, -1, 0);
    substitute_rows(s, ls, ds, rs, plan.junction, plan.junction_parent, 0, plan.num_junction - 1);
  }

  // Step 3 for lane k of system s.
  KOKKOS_INLINE_FUNCTION void substitute_lane(int s, int k) const {
    const auto ls = Layout::system_view(l, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    const auto rs = Layout::system_view(rhs, s, block_size);
    substitute_rows(s, ls, ds, rs, plan.lane_node, plan.lane_parent, k * plan.steps, plan.steps);
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
