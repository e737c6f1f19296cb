#pragma once
// How the lanes of one team share one tree's Hines solve (hines_lanes.hpp: the packed
// CellLanes schedule, BlockPerSystem, the simulation's on-chip step), planned once per tree
// on the host; and the plans of several trees concatenated for the device.
//
// The tree is cut into *pieces*, connected parts of it, each eliminated by one lane without
// waiting; a piece's *level* is higher than that of every piece hanging from it. Level by
// level, lowest first, each lane eliminates the pieces it was given (largest first, to the
// least loaded lane) with the plain Hines step, children first; a piece's root leaves its
// step into its parent to the lane owning the parent, which *pulls* it at its level. Then
// x, level by level, highest first. The lanes of a level never touch the same node, so a
// barrier between levels is the only synchronisation. Two kinds of cut are tried, and the
// plan with the shortest modelled critical path (the longest list of each level, plus a
// barrier each) is kept:
//  - by subtree size: a node whose subtree has at most T nodes is small; a small node under
//    a big parent starts a piece holding its whole subtree, a big node continues its
//    parent's piece when it is the parent's only big child (chains between branch points),
//    about 20 values of T;
//  - by height (the longest path down to a leaf): band b of heights [h_b, h_b+1) is level b
//    and falls apart into pieces that hang from higher bands only; low bands hold many small
//    subtrees that spread over every lane, high bands the trunk. The cuts h_b are chosen by
//    dynamic programming over the modelled critical path.
// Where the solve gives the plan a third array (fill), a piece too long for its level may
// also be *split along its spine* (from its root, the child with the most work below it):
// pairs of interface nodes cut the spine into segments that different lanes eliminate at
// the piece's level with fill towards the pair below them (partitioned elimination), and
// one lane eliminates the interface nodes at a level of their own just above. A split plan
// is kept where its path is at least a quarter shorter (long unbranched cables).
// Between two levels only lanes that touch the same nodes need to wait for each other: for
// teams of several GPU warps the plan says, per level, whether a wait must hold the whole
// team or only each warp (`waits`: no lane reads or writes a node another warp's lanes have
// touched since the team last waited), so a warp need not wait for the slowest one there.
#include <Kokkos_Core.hpp>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"

namespace hinesbatch {

struct CellLanePlan {
  // An entry is node * kNodeScale + (keep ? kKeep : 0) + kind.
  enum EntryKind : int {
    kNode = 0,       // eliminate the node and add its step into its parent (same piece)
    kPieceRoot = 1,  // eliminate the node; its step is pulled later (or it is the root)
    kPull = 2,       // add the step of the node (an eliminated piece root) into its parent
    // A segment of a split spine (SpineSplitter, cell_lane_plan.cpp), its A below it:
    kFillStart = 3,  // A: the fill couplings start from A's own
    kFill = 4,       // a spine node: as kNode, with the fill carried to its parent
    kFillEnd = 5,    // A: its update, and the couplings between it and the B above
    kFillInto = 6,   // an A eliminated into the B above it, across the fill (the next entry's)
  };
  // keep: the parent's sums the entry updates are those the next entry of the list reads
  // (they stay in registers instead of going through shared memory).
  static constexpr int kKeep = 8, kNodeScale = 16;
  KOKKOS_INLINE_FUNCTION static int node_of(int entry) { return entry >> 4; }
  KOKKOS_INLINE_FUNCTION static int kind_of(int entry) { return entry & 7; }

  int lanes = 1, levels = 0;
  // Level v, lane k: entries[begin[v * lanes + k] .. begin[v * lanes + k + 1]), in
  // decreasing node order.
  std::vector<int> begin, entries;
  // Whether the plan splits spines: its solve needs a third array (fill) beside d and rhs.
  bool fill = false;
  // Per level, which waits must hold the whole team (the others hold each warp of
  // kWarpLanes lanes only): kTeamWaitUp after the level's elimination (after the last level:
  // before the substitution starts), kTeamWaitDown after its substitution (before level - 1's).
  // A team of at most one warp waits as a team at every level.
  static constexpr int kTeamWaitUp = 1, kTeamWaitDown = 2, kWarpLanes = 32;
  std::vector<int> waits;

  // parent[i] < i for i > 0, parent[0] = -1; lanes >= 1. fill: spines may be split (for
  // solves that give the plan its fill array), where that shortens the path by a quarter.
  static CellLanePlan build(const std::vector<int>& parent, int lanes, bool fill = false);
  // The modelled critical path of one sweep, in node steps: kBarrierSteps per level, plus,
  // per run of levels between two waits of the whole team, the warp whose longest lists of
  // those levels add up to the most.
  int critical_path() const;
  static constexpr int kBarrierSteps = 4;
  // The first level from which on only lanes below `warp_lanes` have entries (levels if the
  // last level has entries past them). Pieces go to the least loaded lanes from lane 0 on, so
  // the few pieces near the root fill the first warp: those levels' waits hold each warp
  // only (waits).
  int warp_levels_from(int warp_lanes) const;
};

// Every distinct tree's CellLanePlan (for one lane count), concatenated for the device:
// plan q has levels(q) levels; level v, lane k runs entries[begin(b + v L + k) ..
// begin(b + v L + k + 1)), b = begin_at(q), L the lanes; after level v it waits as
// waits(waits_at(q) + v) says (CellLanePlan::waits).
template <class MemorySpace>
struct DeviceLanePlans {
  Kokkos::View<const int*, MemorySpace> levels, begin_at, begin, entries, waits_at, waits;
};

// The host side: plans added one by one, then copied to the device once.
struct LanePlanList {
  std::vector<int> levels, begin_at, begin, entries, waits_at, waits;

  // Returns the plan's index.
  int add(const CellLanePlan& plan) {
    levels.push_back(plan.levels);
    waits_at.push_back(static_cast<int>(waits.size()));
    waits.insert(waits.end(), plan.waits.begin(), plan.waits.end());
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
            impl::to_device<MemorySpace>(exec, waits_at, "hinesbatch::lane_plan_waits_at"),
            impl::to_device<MemorySpace>(exec, waits, "hinesbatch::lane_plan_waits")};
  }
};

}  // namespace hinesbatch
