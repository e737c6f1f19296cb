#pragma once
// One Hines tree solved by the lanes of one team, over the tree's CellLanePlan
// (cell_lane_plan.hpp), with d and rhs in memory private to the team (team scratch): level
// by level each lane eliminates its pieces (whole subtrees, or chains between branch
// points), then x level by level the other way, a team barrier between levels. Sums the
// next entry of a lane reads stay in registers, and each entry's read-only inputs are
// loaded a step ahead, so the dependent chain per node is one reciprocal and a few
// multiply-adds. Plans that split spines (CellLanePlan::fill) also need a third array
// beside d and rhs, fill, for the couplings their segments leave behind.
//
// Three users, one elimination:
//  - the packed multi-morphology schedule (PackedSchedule::CellLanes,
//    multi_morphology_kernels.hpp): a team per cell, every cell its own tree;
//  - HinesSchedule::BlockPerSystem (hines_block.hpp): a team per system of a batch of one
//    tree; these two stage their systems through LaneScratch;
//  - the simulation's on-chip step (cell_epoch_on_chip.hpp), whose -g_axial and parents
//    come from its template's block.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <vector>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {

namespace impl {

// How a lanes launch (a packed CellLanes launch, or a BlockPerSystem solve) keeps its cells: d and
// rhs in level-0 scratch (with u and l too, when coefficients_on_chip; with fill, when the
// plans split spines) or in level 1; the plan's
// entries and the parent array copied into level-0 scratch (plan_on_chip; the solve's chain of
// dependent index loads then stays on chip) or read from memory. capacity / entry_capacity: nodes
// and plan entries of the launch's largest cell.
struct LaneLaunch {
  int first = 0, count = 0, capacity = 0, entry_capacity = 0, level = 0;
  bool coefficients_on_chip = false, plan_on_chip = false, fill = false;

  // scalar: sizeof the batch's scalar type. Sizes are rounded up to 16 bytes: Kokkos'
  // get_shmem rounds a request up before checking it against what the team was given.
  KOKKOS_INLINE_FUNCTION static std::size_t rounded(std::size_t bytes) {
    return (bytes + 15) / 16 * 16;
  }
  KOKKOS_INLINE_FUNCTION std::size_t value_bytes(std::size_t scalar) const {
    const int arrays = (coefficients_on_chip ? 4 : 2) + (fill ? 1 : 0);
    return rounded(static_cast<std::size_t>(arrays) * scalar * static_cast<std::size_t>(capacity));
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

// A lanes team's scratch as its LaneLaunch lays it out. Level 0: [d, rhs (u, l) (fill) when
// the values are on level 0][the plan's entries][the parents]; level 1: [d, rhs (u, l)
// (fill)]. u, l, entries and parent are null where the launch keeps them in memory, fill
// where its plans do not split spines.
template <class T>
struct LaneScratch {
  T *d = nullptr, *rhs = nullptr, *u = nullptr, *l = nullptr, *fill = nullptr;
  int *entries = nullptr, *parent = nullptr;

  template <int Level, class Member>
  KOKKOS_INLINE_FUNCTION static LaneScratch carve(const Member& t, const LaneLaunch& launch) {
    const std::size_t bytes0 = launch.level0_bytes(sizeof(T));
    char* const chip =
        bytes0 > 0 ? on_chip<0>(static_cast<char*>(t.team_scratch(0).get_shmem(bytes0))) : nullptr;
    T* const values =
        Level == 0 ? reinterpret_cast<T*>(chip)
                   : static_cast<T*>(t.team_scratch(1).get_shmem(launch.value_bytes(sizeof(T))));
    const int cap = launch.capacity;
    LaneScratch x;
    x.d = values;
    x.rhs = values + cap;
    if (launch.coefficients_on_chip) {
      x.u = x.rhs + cap;
      x.l = x.u + cap;
    }
    if (launch.fill) x.fill = (x.l ? x.l : x.rhs) + cap;
    if (launch.plan_on_chip) {
      x.entries = reinterpret_cast<int*>(chip + (Level == 0 ? launch.value_bytes(sizeof(T)) : 0));
      x.parent = x.entries + launch.entry_capacity;
    }
    return x;
  }

  // The plan's `count` entries from `first` and the tree's n parents, where the launch keeps
  // them on chip.
  template <class Member, class MemorySpace>
  KOKKOS_INLINE_FUNCTION void stage_plan(const Member& t, const DeviceLanePlans<MemorySpace>& plans,
                                         int first, int count, int n, const int* parents) const {
    if (!entries) return;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, count),
                         [&](const int k) { entries[k] = plans.entries(first + k); });
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n),
                         [&](const int i) { parent[i] = parents[i]; });
  }

  // Copies the system's n nodes in (read(i, d, rhs, u, l) gives node i's values) and notes
  // inputs the elimination could not survive where the sequential sweep meets them (a zero
  // or non-finite diagonal or off-diagonal at its node's pivot, rhs at x): then only those
  // are reported, not what they spoil further up the tree. u and l are read even where they
  // stay in memory: the sweeps then find them in cache. Returns the bad nodes' count.
  template <class Member, class Read, class Status>
  KOKKOS_INLINE_FUNCTION int stage_values(const Member& t, int n, const Read& read,
                                          const Status& status, long long offset) const {
    int bad_input = 0;
    Kokkos::parallel_reduce(
        Kokkos::TeamThreadRange(t, n),
        [&](const int i, int& bad) {
          T di, ri, ui, li;
          read(i, di, ri, ui, li);
          d[i] = di;
          rhs[i] = ri;
          if (u) {
            u[i] = ui;
            l[i] = li;
          }
          const bool pivot =
              !is_usable_pivot(di) || (i > 0 && (!is_finite_value(ui) || !is_finite_value(li)));
          const bool value = !is_finite_value(ri);
          if (pivot || value) {
            record_nodes(status, offset, pivot ? i : -1, value ? i : -1);
            ++bad;
          }
        },
        bad_input);
    return bad_input;
  }
};

// A plain system for lanes_hines_solve: A[p(i)][i] = u(i), A[i][p(i)] = l(i), the
// diagonal in d. d, rhs and fill: team scratch; u and l: team scratch or the cell's rows in
// memory; parent: a copy in team scratch or the tree's parent array in memory.
template <class T>
struct LaneSystem {
  using scalar_type = T;
  T* d;
  T* rhs;
  const T* u_;
  const T* l_;
  const int* parent_;
  T* fill;
  KOKKOS_INLINE_FUNCTION int parent(int i) const { return parent_[i]; }
  KOKKOS_INLINE_FUNCTION T u(int i) const { return u_[i]; }
  KOKKOS_INLINE_FUNCTION T l(int i) const { return l_[i]; }
};

// The wait at the end of a level: the whole team, or (warp_only, on GPUs) each warp for its
// own lanes alone, where the plan says no lane reads what another warp's lanes wrote since
// the last wait of the whole team (CellLanePlan::waits). Every lane takes the same branch.
template <class Member>
KOKKOS_INLINE_FUNCTION void lanes_level_done(const Member& t, const bool warp_only) {
#if defined(__CUDA_ARCH__)
  if (warp_only) {
    __syncwarp();
    return;
  }
#else
  (void)warp_only;
#endif
  t.team_barrier();
}

// Solves the system in place over the lanes of a team: d <- 1/d' (the eliminated pivots'
// reciprocals), rhs <- x. levels, waits_at and lane_begin (begin_at(q) + team rank) come
// from the tree's plan q in `plans`, whose entry k is read from entries[k - entry_offset]
// (the plan's entries in memory, or a copy of them in team scratch); the team's size must be
// the plan's lane count, its lanes the threads of a block in order (vector length 1). Each
// lane reports the smallest node with a zero or non-finite pivot and with a non-finite x
// that it met (-1 if none).
// System: scalar_type, d, rhs and fill (pointers; fill used by plans that split spines
// only), parent(i), u(i), l(i).
//
// A split spine's segment (kFillStart A, its nodes, kFillEnd A) carries in registers the
// couplings between the node it is at and the A below it (gu: A[node][A], gl: A[A][node])
// and its updates of A (sd, sr); fill[node] keeps gu for the substitution, and kFillEnd
// leaves A[A][B] in fill[A] and A[B][A] in fill[B], B the node above the segment.
// Fill: the plan may split spines (sys.fill set); without, none of the fill's code is
// compiled in, so kernels of plans that do not split keep the registers and the loop they
// had (a kernel's registers are those of its most demanding path).
template <bool Fill, class Member, class MemorySpace, class System>
KOKKOS_INLINE_FUNCTION void lanes_hines_solve(const Member& t,
                                              const DeviceLanePlans<MemorySpace>& plans,
                                              const int* const entries, const int entry_offset,
                                              const int levels, const int waits_at,
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
    // The next entry's read-only inputs (its entry, parent, u and l) are loaded while this
    // one computes, and the entry after it one step earlier still: the chain of dependent
    // loads then stays off the elimination's own chain (a reciprocal and a few
    // multiply-adds per node). d and rhs are read in the step itself: an earlier step of
    // the lane may have written them.
    int entry_after = b + 1 < e ? entries[b + 1] : 0;
    int entry = b < e ? entries[b] : 0;
    int node = CellLanePlan::node_of(entry);
    int p = b < e && node > 0 ? sys.parent(node) : 0;
    T un = b < e && node > 0 ? sys.u(node) : T(0), ln = b < e && node > 0 ? sys.l(node) : T(0);
    [[maybe_unused]] T gu = 0, gl = 0, sd = 0, sr = 0;  // a split spine's segment
    [[maybe_unused]] int above = 0;                     // the node its last step went into
    HINESBATCH_DEVICE_NO_UNROLL
    for (int q = b; q < e; ++q) {
      const int this_entry = entry, this_node = node, this_p = p;
      const T this_u = un, this_l = ln;
      if (q + 1 < e) {
        entry = entry_after;
        if (q + 2 < e) entry_after = entries[q + 2];
        node = CellLanePlan::node_of(entry);
        p = node > 0 ? sys.parent(node) : 0;
        un = node > 0 ? sys.u(node) : T(0);
        ln = node > 0 ? sys.l(node) : T(0);
      }
      const int kind = CellLanePlan::kind_of(this_entry);
      if constexpr (Fill) {
        if (kind == CellLanePlan::kFillStart) {
          gu = this_u;
          gl = this_l;
          sd = sr = T(0);
          continue;
        }
        if (kind == CellLanePlan::kFillEnd) {
          d[this_node] += sd;
          rhs[this_node] += sr;
          sys.fill[this_node] = gl;
          sys.fill[above] = gu;
          continue;
        }
      }
      T inv, ri;
      if (kind != CellLanePlan::kPull) {  // eliminate the node
        const T di = cached ? dc : d[this_node];
        ri = cached ? rc : rhs[this_node];
        if (!is_usable_pivot(di) && (bad_pivot < 0 || this_node < bad_pivot)) bad_pivot = this_node;
        inv = T(1) / di;
        d[this_node] = inv;
        rhs[this_node] = ri;
        cached = false;
        if (kind == CellLanePlan::kPieceRoot) continue;
      } else {  // the step of an eliminated piece root
        inv = d[this_node];
        ri = rhs[this_node];
      }
      if constexpr (Fill) {
        if (kind == CellLanePlan::kFillInto) {  // into the node the next entry reads
          const int into = CellLanePlan::kind_of(entry) == CellLanePlan::kPull ? p : node;
          const T f = sys.fill[into] * inv;
          dc = d[into] - f * sys.fill[this_node];
          rc = rhs[into] - f * ri;
          cached = true;
          continue;
        }
      }
      // the node's step into its parent: the sums come from registers when the previous
      // entry kept them
      const T f = this_u * inv;
      const T dp = (cached ? dc : d[this_p]) - f * this_l;
      T rp = cached ? rc : rhs[this_p];
      rp -= f * ri;
      if constexpr (Fill) {
        if (kind == CellLanePlan::kFill) {
          sys.fill[this_node] = gu;
          const T g = gl * inv;
          sd -= g * gu;
          sr -= g * ri;
          gu = -f * gu;
          gl = -g * this_l;
          above = this_p;
        }
      }
      cached = (this_entry & CellLanePlan::kKeep) != 0;
      if (cached) {
        dc = dp;
        rc = rp;
      } else {
        d[this_p] = dp;
        rhs[this_p] = rp;
      }
    }
    // Level + 1 reads what this level wrote: the whole team waits where the plan says
    // another warp reads it.
    lanes_level_done(t, (plans.waits(waits_at + level) & CellLanePlan::kTeamWaitUp) == 0);
  }
  for (int level = levels - 1; level >= 0; --level) {
    const int b = plans.begin(lane_begin + level * lanes) - entry_offset;
    const int e = plans.begin(lane_begin + level * lanes + 1) - entry_offset;
    int previous = -1;
    T xprev = 0;
    [[maybe_unused]] T xa = 0;  // x of the A below a split spine's segment
    // As above, the next entry's parent and l one step ahead (x of a node is written by the
    // lane's step of that node only, and a step reads the x just written from xprev).
    int entry_after = e - 2 >= b ? entries[e - 2] : 0;
    int entry = e - 1 >= b ? entries[e - 1] : 0;
    int node = CellLanePlan::node_of(entry);
    int p = e - 1 >= b && node > 0 ? sys.parent(node) : 0;
    T ln = e - 1 >= b && node > 0 ? sys.l(node) : T(0);
    HINESBATCH_DEVICE_NO_UNROLL
    for (int q = e - 1; q >= b; --q) {
      const int this_entry = entry, i = node, this_p = p;
      const T this_l = ln;
      if (q - 1 >= b) {
        entry = entry_after;
        if (q - 2 >= b) entry_after = entries[q - 2];
        node = CellLanePlan::node_of(entry);
        p = node > 0 ? sys.parent(node) : 0;
        ln = node > 0 ? sys.l(node) : T(0);
      }
      const int kind = CellLanePlan::kind_of(this_entry);
      if (kind == CellLanePlan::kPull) continue;
      T xi;
      if constexpr (Fill) {
        if (kind == CellLanePlan::kFillStart) continue;
        if (kind == CellLanePlan::kFillEnd) {
          xa = rhs[i];
          continue;
        }
        if (i == 0) {
          xi = rhs[0] * d[0];
        } else if (kind == CellLanePlan::kFillInto) {  // the previous x is that of its B
          xi = (rhs[i] - sys.fill[i] * xprev) * d[i];
        } else {
          T ri = rhs[i] - this_l * (this_p == previous ? xprev : rhs[this_p]);
          if (kind == CellLanePlan::kFill) ri -= sys.fill[i] * xa;
          xi = ri * d[i];
        }
      } else if (i == 0) {
        xi = rhs[0] * d[0];
      } else {
        xi = (rhs[i] - this_l * (this_p == previous ? xprev : rhs[this_p])) * d[i];
      }
      rhs[i] = xi;
      previous = i;
      xprev = xi;
      if (!is_finite_value(xi) && (bad_solution < 0 || i < bad_solution)) bad_solution = i;
    }
    // Level - 1 reads x of this level.
    if (level > 0)
      lanes_level_done(t, (plans.waits(waits_at + level) & CellLanePlan::kTeamWaitDown) == 0);
  }
}

}  // namespace impl
}  // namespace hinesbatch
