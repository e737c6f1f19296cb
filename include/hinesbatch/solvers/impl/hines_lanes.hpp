#pragma once
// One Hines tree solved by the lanes of one team, over the tree's CellLanePlan
// (cell_lane_plan.hpp), with d and rhs in memory private to the team (team scratch): level
// by level each lane eliminates its pieces (whole subtrees, or chains between branch
// points), then x level by level the other way, a team barrier between levels. Sums the
// next entry of a lane reads stay in registers, so the dependent chain per node is one
// reciprocal and a few multiply-adds.
//
// Two users, one elimination:
//  - the packed multi-morphology schedule (PackedSchedule::CellLanes,
//    multi_morphology_solve.hpp): a team per cell, every cell its own tree;
//  - the simulation's on-chip step (cell_epoch_on_chip.hpp), whose -g_axial and parents
//    come from its template's block.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {

// Every distinct tree's CellLanePlan (for one lane count), concatenated for the device:
// plan q has levels(q) levels; level v, lane k runs entries[begin(b + v L + k) ..
// begin(b + v L + k + 1)), b = begin_at(q), L the lanes.
// warp_from(q): the first level of plan q whose lanes wait for the first warp only
// (CellLanePlan::warp_levels_from; plan q's levels when its lanes are one warp or fewer).
template <class MemorySpace>
struct DeviceLanePlans {
  Kokkos::View<const int*, MemorySpace> levels, begin_at, begin, entries, warp_from;
};

// The lanes of a GPU warp: a team of more lanes waits for its first warp alone at the levels
// near the root.
constexpr int kLanePlanWarp = 32;

// The host side: plans added one by one, then copied to the device once.
struct LanePlanList {
  std::vector<int> levels, begin_at, begin, entries, warp_from;

  // Returns the plan's index.
  int add(const CellLanePlan& plan) {
    levels.push_back(plan.levels);
    warp_from.push_back(plan.lanes > kLanePlanWarp ? plan.warp_levels_from(kLanePlanWarp)
                                                   : plan.levels);
    begin_at.push_back(static_cast<int>(begin.size()));
    for (int b : plan.begin) begin.push_back(static_cast<int>(entries.size()) + b);
    entries.insert(entries.end(), plan.entries.begin(), plan.entries.end());
    return static_cast<int>(levels.size()) - 1;
  }
  // Plan q's number of entries: from its first begin to its last.
  int entries_of(int q) const {
    const std::size_t next =
        q + 1 < static_cast<int>(begin_at.size()) ? begin_at[q + 1] : begin.size();
    return begin[next - 1] - begin[begin_at[q]];
  }

  template <class MemorySpace, class ExecutionSpace>
  DeviceLanePlans<MemorySpace> to_device(const ExecutionSpace& exec) const {
    return {impl::to_device<MemorySpace>(exec, levels, "hinesbatch::lane_plan_levels"),
            impl::to_device<MemorySpace>(exec, begin_at, "hinesbatch::lane_plan_begin_at"),
            impl::to_device<MemorySpace>(exec, begin, "hinesbatch::lane_plan_begin"),
            impl::to_device<MemorySpace>(exec, entries, "hinesbatch::lane_plan_entries"),
            impl::to_device<MemorySpace>(exec, warp_from, "hinesbatch::lane_plan_warp_from")};
  }
};

namespace impl {

// How a lanes launch (a packed CellLanes launch, or a BlockPerSystem solve) keeps its cells: d and
// rhs in level-0 scratch (with u and l too, when coefficients_on_chip) or in level 1; the plan's
// entries and the parent array copied into level-0 scratch (plan_on_chip; the solve's chain of
// dependent index loads then stays on chip) or read from memory. capacity / entry_capacity: nodes
// and plan entries of the launch's largest cell.
struct LaneLaunch {
  int first = 0, count = 0, capacity = 0, entry_capacity = 0, level = 0;
  bool coefficients_on_chip = false, plan_on_chip = false;

  // scalar: sizeof the batch's scalar type. Sizes are rounded up to 16 bytes: Kokkos'
  // get_shmem rounds a request up before checking it against what the team was given.
  KOKKOS_INLINE_FUNCTION static std::size_t rounded(std::size_t bytes) {
    return (bytes + 15) / 16 * 16;
  }
  KOKKOS_INLINE_FUNCTION std::size_t value_bytes(std::size_t scalar) const {
    return rounded((coefficients_on_chip ? 4 : 2) * scalar * static_cast<std::size_t>(capacity));
  }
  KOKKOS_INLINE_FUNCTION std::size_t plan_bytes() const {
    return plan_on_chip
               ? rounded(sizeof(int) * (static_cast<std::size_t>(entry_capacity) + capacity))
               : 0;
  }
  KOKKOS_INLINE_FUNCTION std::size_t level0_bytes(std::size_t scalar) const {
    return (level == 0 ? value_bytes(scalar) : 0) + plan_bytes();
  }
};

// A plain system for lanes_hines_solve: A[p(i)][i] = u(i), A[i][p(i)] = l(i), the
// diagonal in d. d and rhs: team scratch; u and l: team scratch or the cell's rows in
// memory; parent: a copy in team scratch or the tree's parent array in memory.
template <class T>
struct LaneSystem {
  using scalar_type = T;
  T* d;
  T* rhs;
  const T* u_;
  const T* l_;
  const int* parent_;
  KOKKOS_INLINE_FUNCTION int parent(int i) const { return parent_[i]; }
  KOKKOS_INLINE_FUNCTION T u(int i) const { return u_[i]; }
  KOKKOS_INLINE_FUNCTION T l(int i) const { return l_[i]; }
};

// The wait at the end of a level: the whole team, or (warp_only, on GPUs) the first warp's
// lanes alone, the only ones with entries there; the other warps go on to the next wait of
// the whole team. Every lane takes the same branch.
template <class Member>
KOKKOS_INLINE_FUNCTION void lanes_level_done(const Member& t, const bool warp_only) {
#if defined(__CUDA_ARCH__)
  if (warp_only) {
    if (t.team_rank() < kLanePlanWarp) __syncwarp();
    return;
  }
#else
  (void)warp_only;
#endif
  t.team_barrier();
}

// Solves the system in place over the lanes of a team: d <- 1/d' (the eliminated pivots'
// reciprocals), rhs <- x. levels, warp_from and lane_begin (begin_at(q) + team rank) come
// from the tree's plan q in `plans`, whose entry k is read from entries[k - entry_offset]
// (the plan's entries in memory, or a copy of them in team scratch); the team's size must be
// the plan's lane count, its lanes the threads of a block in order (vector length 1). Each
// lane reports the smallest node with a zero or non-finite pivot and with a non-finite x
// that it met (-1 if none).
// System: scalar_type, d and rhs (pointers), parent(i), u(i), l(i).
template <class Member, class MemorySpace, class System>
KOKKOS_INLINE_FUNCTION void lanes_hines_solve(const Member& t,
                                              const DeviceLanePlans<MemorySpace>& plans,
                                              const int* const entries, const int entry_offset,
                                              const int levels, const int warp_from,
                                              const int lane_begin, const System& sys,
                                              int& bad_pivot, int& bad_solution) {
  using T = typename System::scalar_type;
  T* const d = sys.d;
  T* const rhs = sys.rhs;
  const int lanes = t.team_size();
  for (int level = 0; level < levels; ++level) {
    const int b = plans.begin(lane_begin + level * lanes) - entry_offset;
    const int e = plans.begin(lane_begin + level * lanes + 1) - entry_offset;
    bool cached = false;  // the sums this entry reads are in (dc, rc)
    T dc = 0, rc = 0;
    HINESBATCH_DEVICE_NO_UNROLL
    for (int q = b; q < e; ++q) {
      const int entry = entries[q];
      const int node = CellLanePlan::node_of(entry), kind = CellLanePlan::kind_of(entry);
      T inv, ri;
      if (kind != CellLanePlan::kPull) {  // eliminate node
        const T di = cached ? dc : d[node];
        ri = cached ? rc : rhs[node];
        if (!is_usable_pivot(di) && (bad_pivot < 0 || node < bad_pivot)) bad_pivot = node;
        inv = T(1) / di;
        d[node] = inv;
        rhs[node] = ri;
        cached = false;
        if (kind == CellLanePlan::kPieceRoot) continue;
      } else {  // the step of an eliminated piece root
        inv = d[node];
        ri = rhs[node];
      }
      // node's step into its parent p: the sums come from registers when the previous
      // entry kept them
      const int p = sys.parent(node);
      const T f = sys.u(node) * inv;
      const T dp = (cached ? dc : d[p]) - f * sys.l(node);
      T rp = cached ? rc : rhs[p];
      rp -= f * ri;
      cached = (entry & CellLanePlan::kKeep) != 0;
      if (cached) {
        dc = dp;
        rc = rp;
      } else {
        d[p] = dp;
        rhs[p] = rp;
      }
    }
    // Level + 1 reads what this level wrote: the first warp alone reads and writes from
    // warp_from on.
    lanes_level_done(t, level >= warp_from);
  }
  for (int level = levels - 1; level >= 0; --level) {
    const int b = plans.begin(lane_begin + level * lanes) - entry_offset;
    const int e = plans.begin(lane_begin + level * lanes + 1) - entry_offset;
    int previous = -1;
    T xprev = 0;
    HINESBATCH_DEVICE_NO_UNROLL
    for (int q = e - 1; q >= b; --q) {
      const int entry = entries[q];
      if (CellLanePlan::kind_of(entry) == CellLanePlan::kPull) continue;
      const int i = CellLanePlan::node_of(entry);
      T xi;
      if (i == 0) {
        xi = rhs[0] * d[0];
      } else {
        const int p = sys.parent(i);
        xi = (rhs[i] - sys.l(i) * (p == previous ? xprev : rhs[p])) * d[i];
      }
      rhs[i] = xi;
      previous = i;
      xprev = xi;
      if (!is_finite_value(xi) && (bad_solution < 0 || i < bad_solution)) bad_solution = i;
    }
    // Level - 1 reads x of this level: the whole team from warp_from down.
    if (level > 0) lanes_level_done(t, level > warp_from);
  }
}

}  // namespace impl
}  // namespace hinesbatch
