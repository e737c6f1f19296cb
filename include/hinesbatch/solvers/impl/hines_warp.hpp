#pragma once
// Hines systems eliminated on chip by G lanes each (a warp holds 32 / G systems), over the
// lane ranges of a WarpTreePlan (warp_tree_plan.hpp). The system is read once into team
// scratch and only x is written: 40 B per node in double, like hines_team.hpp, but the
// work a lane does alone is its whole range, not one section, and what is left for the
// serial part is a few ports per lane instead of every section of the tree:
//
//   1. stage:     the team copies its systems into scratch (coalesced);
//   2. lanes:     each lane eliminates its local and cross nodes (plain Hines steps into the
//                 parent; a cross node keeps its factor u/d for the reduced solve), then its
//                 pieces (forward and backward passes, hines_team.hpp's step 2);
//   3. reduced:   one thread per system eliminates the ports in decreasing node order, each
//                 pulling its child pieces and cross nodes, then solves them in increasing
//                 order;
//   4. lanes:     x of the pieces' interiors, then of local and cross nodes, parents first;
//   5. write:     the team writes x back (coalesced).
//
// Local and cross nodes keep 1/d in d's slot, so step 4 multiplies. Like the Hines
// algorithm it does not pivot: the matrices are assumed diagonally dominant.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/impl/hines_team.hpp"
#include "hinesbatch/solvers/impl/warp_tree_plan.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {
namespace impl {

// x / d for 0 <= x, d < 2^20 with x * d < 2^40 as a multiply and a shift (M = ceil(2^40 / d):
// exact under that bound); a plain division above it. The staging and write loops divide
// every element's index, and a 32-bit division is about 20 instructions on a GPU.
struct FastDivider {
  unsigned long long m = 1;
  int d = 1;
  bool exact = true;
  FastDivider() = default;
  FastDivider(int divisor, long long largest_x)
      : m(((1ULL << 40) + static_cast<unsigned long long>(divisor) - 1) /
          static_cast<unsigned long long>(divisor)),
        d(divisor),
        exact(largest_x < (1LL << 20) && divisor < (1 << 20) && largest_x * divisor < (1LL << 40)) {
  }
  KOKKOS_INLINE_FUNCTION int operator()(int x) const {
    return exact ? static_cast<int>((static_cast<unsigned long long>(x) * m) >> 40) : x / d;
  }
};

// The plan on the device (views of a WarpTreePlan); read by every team, never written.
template <class MemorySpace>
struct DeviceWarpPlan {
  using index_view =
      Kokkos::View<const int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  index_view kind, parent_slot, lane_piece_begin, piece_begin, piece_slots, piece_parent,
      port_piece, port_child_begin, child_piece, child_bottom, port_cross_begin, port_cross;
  int num_nodes = 0, lanes = 0, nodes_per_lane = 0, lane_stride = 0, num_pieces = 0, num_ports = 0;
  FastDivider lane_of;  // node -> its lane range

  KOKKOS_INLINE_FUNCTION int num_slots() const { return lanes * lane_stride; }
  KOKKOS_INLINE_FUNCTION int slot_of(int node) const {
    const int lane = lane_of(node);
    return lane * (lane_stride - nodes_per_lane) + node;
  }
  KOKKOS_INLINE_FUNCTION int node_of(int slot) const {
    return (slot / lane_stride) * nodes_per_lane + slot % lane_stride;
  }
  // Scalars of scratch per system: u, l, d, rhs per slot, U, L, dP, rP per piece, a flag.
  KOKKOS_INLINE_FUNCTION std::size_t scratch_scalars() const {
    return 4 * static_cast<std::size_t>(num_slots()) + 4 * static_cast<std::size_t>(num_pieces) + 1;
  }
};

// One system's scratch, carved from scratch_scalars() values.
template <class T>
struct WarpScratch {
  T *u, *l, *d, *r, *pU, *pL, *pdP, *prP, *bad_input;
  template <class Plan>
  KOKKOS_INLINE_FUNCTION WarpScratch(T* base, const Plan& plan) {
    const int slots = plan.num_slots(), np = plan.num_pieces;
    u = base;
    l = u + slots;
    d = l + slots;
    r = d + slots;
    pU = r + slots;  // A[P][b] once the piece's interior is eliminated
    pL = pU + np;    // A[b][P]
    pdP = pL + np;   // what eliminating the piece's top takes from P's diagonal
    prP = pdP + np;  // ... and from P's rhs
    bad_input = prP + np;
  }
};

// Step 2 for lane `lane` of one system. record(pivot_slot) names a zero pivot.
template <class T, class Plan, class Record>
KOKKOS_INLINE_FUNCTION void warp_lane_eliminate(const Plan& plan, int lane, const WarpScratch<T>& s,
                                                const Record& record) {
  const int first = lane * plan.nodes_per_lane;
  const int end =
      first + plan.nodes_per_lane < plan.num_nodes ? first + plan.nodes_per_lane : plan.num_nodes;
  const int slot0 = lane * plan.lane_stride - first;  // slot of node i: slot0 + i
  // Local and cross nodes, children first.
  for (int i = end - 1; i >= first; --i) {
    const int kind = plan.kind(i);
    if (kind == WarpTreePlan::kKept) continue;  // a piece's node
    const int k = slot0 + i;
    const T dk = s.d[k];
    if (!is_usable_pivot(dk)) record(k);
    const T inv = T(1) / dk;
    const T f = s.u[k] * inv;
    s.d[k] = inv;
    if (kind == WarpTreePlan::kLocal) {
      const int p = plan.parent_slot(i);
      s.d[p] -= f * s.l[k];
      s.r[p] -= f * s.r[k];
    } else {
      s.u[k] = f;  // pulled by the reduced solve
    }
  }
  // Pieces, as in the team schedule (hines_team.hpp's eliminate_piece).
  for (int q = plan.lane_piece_begin(lane); q < plan.lane_piece_begin(lane + 1); ++q) {
    const int begin = plan.piece_begin(q), k = plan.piece_begin(q + 1) - begin - 1;
    const int bad = eliminate_piece(
        k, plan.piece_parent(q) >= 0, [&](int j) { return plan.piece_slots(begin + j); }, s.u, s.l,
        s.d, s.r, s.pU[q], s.pL[q], s.pdP[q], s.prP[q]);
    if (bad >= 0) record(bad);
  }
}

// Step 3 for one system, by one thread.
template <class T, class Plan, class Record>
KOKKOS_INLINE_FUNCTION void warp_reduced_solve(const Plan& plan, const WarpScratch<T>& s,
                                               const Record& record) {
  for (int port = 0; port < plan.num_ports; ++port) {
    const int q = plan.port_piece(port);
    const int b = plan.piece_slots(plan.piece_begin(q + 1) - 1);
    T db = s.d[b], rb = s.r[b];
    for (int c = plan.port_child_begin(port); c < plan.port_child_begin(port + 1); ++c) {
      const int child = plan.child_piece(c), bc = plan.child_bottom(c);
      pull_piece(s.pU[child], s.pL[child], s.pdP[child], s.prP[child], s.d[bc], s.r[bc], db, rb);
    }
    for (int c = plan.port_cross_begin(port); c < plan.port_cross_begin(port + 1); ++c) {
      const int k = plan.port_cross(c);
      const T f = s.u[k];
      db -= f * s.l[k];
      rb -= f * s.r[k];
    }
    if (!is_usable_pivot(db)) record(b);
    s.d[b] = db;
    s.r[b] = rb;
  }
  for (int port = plan.num_ports - 1; port >= 0; --port) {
    const int q = plan.port_piece(port);
    const int b = plan.piece_slots(plan.piece_begin(q + 1) - 1);
    const int p = plan.piece_parent(q);
    const T rb = p >= 0 ? s.r[b] - s.pL[q] * s.r[p] : s.r[b];
    s.r[b] = rb / s.d[b];
  }
}

// Step 4 for lane `lane` of one system.
template <class T, class Plan>
KOKKOS_INLINE_FUNCTION void warp_lane_substitute(const Plan& plan, int lane,
                                                 const WarpScratch<T>& s) {
  for (int q = plan.lane_piece_begin(lane); q < plan.lane_piece_begin(lane + 1); ++q) {
    const int begin = plan.piece_begin(q), k = plan.piece_begin(q + 1) - begin - 1;
    if (k == 0) continue;
    const int p = plan.piece_parent(q);
    substitute_piece(
        k, [&](int j) { return plan.piece_slots(begin + j); }, p >= 0 ? s.r[p] : T(0),
        s.r[plan.piece_slots(begin + k)], s.u, s.l, s.r);
  }
  const int first = lane * plan.nodes_per_lane;
  const int end =
      first + plan.nodes_per_lane < plan.num_nodes ? first + plan.nodes_per_lane : plan.num_nodes;
  const int slot0 = lane * plan.lane_stride - first;
  for (int i = first; i < end; ++i) {
    if (plan.kind(i) == WarpTreePlan::kKept) continue;
    const int k = slot0 + i;
    s.r[k] = (s.r[k] - s.l[k] * s.r[plan.parent_slot(i)]) * s.d[k];
  }
}

}  // namespace impl
}  // namespace hinesbatch
