#pragma once
// One Hines system eliminated on chip by a team, over the pieces of a TeamTreePlan
// (team_tree_plan.hpp). The one-thread-per-system sweep streams d' and rhs' to memory
// between its sweeps (about 80 B per node in double); here the team reads u, l, d and rhs
// once into scratch and writes only x: 40 B per node.
//
//   1. stage:   the team copies the system into scratch (coalesced for Flat input);
//   2. pieces:  each lane eliminates whole pieces. For a piece t = i_0 .. i_k = b hanging
//               from node P, a forward pass writes every non-bottom node as
//               x_j = alpha_j - beta_j x_P - gamma_j x_{j+1}, a backward pass turns that into
//               x_j = alpha'_j - beta'_j x_P - gamma'_j x_b. The bottom's row then couples to
//               P alone (L), and eliminating x_t from P's row (u_t x_t) changes P's diagonal
//               and rhs (dP, rP) and couples P to b (U): one edge of the reduced tree;
//   3. reduce:  level by level from the leaf pieces, each piece's bottom pulls its child
//               pieces (the Hines elimination of the reduced tree);
//   4. solve:   level by level from the root piece, x of each bottom, then of its interior;
//   5. write:   the team writes x back (coalesced for Flat input).
//
// The elimination order differs from the sequential sweep, and so does the rounding (the
// tests compare with a long-double reference). Like the Hines algorithm, it does not pivot:
// the matrices are assumed diagonally dominant.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {
namespace impl {

// The plan on the device (views of a TeamTreePlan).
template <class MemorySpace>
struct DeviceTeamPlan {
  // Read by every team, never written: the read-only (texture) cache path on GPUs.
  using index_view =
      Kokkos::View<const int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  index_view piece_begin, piece_nodes, parent_node, child_begin, children, level_begin;
  int num_nodes = 0, num_pieces = 0, num_levels = 0;

  // Scalars of scratch: u, l, d, rhs per node, U, L, dP, rP per piece, and a flag.
  KOKKOS_INLINE_FUNCTION std::size_t scratch_scalars() const {
    return 4 * static_cast<std::size_t>(num_nodes) + 4 * static_cast<std::size_t>(num_pieces) + 1;
  }
};

// A piece t = i_0 .. i_k = b hanging from node P (step 2 above), eliminated by one thread;
// node(j) is where the piece's j-th node sits in the scratch arrays u, l, d, r. A forward
// pass writes every non-bottom node as x_j = alpha_j - beta_j x_P - gamma_j x_{j+1}, a
// backward pass turns that into x_j = alpha'_j - beta'_j x_P - gamma'_j x_b (kept in r, l,
// u). The bottom's row then couples to P alone (L), and eliminating x_t from P's row
// changes P's diagonal and rhs (dP, rP) and couples P to b (U). Shared by the team and
// warp schedules (hines_warp.hpp). Returns the first node (scratch index) whose pivot is
// not usable, -1 if none.
template <class T, class NodeAt>
KOKKOS_INLINE_FUNCTION int eliminate_piece(int k, bool has_parent, const NodeAt& node, T* u, T* l,
                                           T* d, T* r, T& U, T& L, T& dP, T& rP) {
  const int b = node(k);
  if (k == 0) {  // a single node: its own row is the reduced row
    U = u[b];
    L = l[b];
    dP = T(0);
    rP = T(0);
    return -1;
  }
  int bad = -1;
  const int t = node(0);
  const T u_top = u[t];
  T alpha = T(0), beta = T(0), gamma = T(0);
  for (int j = 0; j < k; ++j) {
    const int i = node(j), next = node(j + 1);
    const T li = l[i];  // the root's l is not part of the matrix: never read at j = 0
    const T pivot = j == 0 ? d[i] : d[i] - li * gamma;
    if (!is_usable_pivot(pivot) && bad < 0) bad = i;
    const T inv = T(1) / pivot;
    if (j == 0) {
      alpha = r[i] * inv;
      beta = has_parent ? li * inv : T(0);
    } else {
      alpha = (r[i] - li * alpha) * inv;
      beta = -li * beta * inv;
    }
    gamma = u[next] * inv;
    r[i] = alpha;
    l[i] = beta;
    u[i] = gamma;
  }
  // The bottom's row, now coupled to P only.
  const T lb = l[b];
  d[b] -= lb * gamma;
  r[b] -= lb * alpha;
  L = -lb * beta;
  // Backward: x_j in terms of x_P and x_b.
  for (int j = k - 2; j >= 0; --j) {
    const int i = node(j);
    const T g = u[i];
    alpha = r[i] - g * alpha;
    beta = l[i] - g * beta;
    gamma = -g * gamma;
    r[i] = alpha;
    l[i] = beta;
    u[i] = gamma;
  }
  // P's row loses u_top x_top: x_top = alpha - beta x_P - gamma x_b.
  dP = u_top * beta;
  rP = u_top * alpha;
  U = -u_top * gamma;
  return bad;
}

// x of a piece's interior nodes from x of the node it hangs from and of its bottom.
template <class T, class NodeAt>
KOKKOS_INLINE_FUNCTION void substitute_piece(int k, const NodeAt& node, T xp, T xb, const T* u,
                                             const T* l, T* r) {
  for (int j = 0; j < k; ++j) {
    const int i = node(j);
    r[i] = r[i] - l[i] * xp - u[i] * xb;
  }
}

// The reduced tree's Hines step: a bottom (db, rb) pulls a child piece (U, L, dP, rP)
// whose bottom has the eliminated diagonal d_child and rhs r_child.
template <class T>
KOKKOS_INLINE_FUNCTION void pull_piece(T U, T L, T dP, T rP, T d_child, T r_child, T& db, T& rb) {
  const T f = U / d_child;
  db -= dP + f * L;
  rb -= rP + f * r_child;
}

// Solves one system with the team's threads; scratch holds plan.scratch_scalars() values.
// d is only read (the eliminated diagonal stays in scratch); rhs <- x. Failures go to
// record(pivot_node, solution_node) from the thread that met them (-1 for none); when an
// input value is not finite or a diagonal is zero, only those nodes are reported.
template <class T, class Member, class Plan, class U, class L, class D, class R, class Record>
KOKKOS_INLINE_FUNCTION void team_hines_solve(const Member& team, T* scratch, const Plan& plan,
                                             const U& u, const L& l, const D& d, const R& rhs,
                                             const Record& record) {
  const int n = plan.num_nodes, np = plan.num_pieces;
  T* const su = scratch;
  T* const sl = su + n;
  T* const sd = sl + n;
  T* const sr = sd + n;
  T* const pU = sr + n;     // A[P][b] after the piece's interior is eliminated
  T* const pL = pU + np;    // A[b][P]
  T* const pdP = pL + np;   // what eliminating the piece's top takes from P's diagonal
  T* const prP = pdP + np;  // ... and from P's rhs
  T* const bad_input = prP + np;
  if (team.team_rank() == 0) *bad_input = T(0);
  team.team_barrier();

  // 1. Stage, noting inputs the sweep could not survive where the sequential sweep meets
  // them: a zero or non-finite diagonal or off-diagonal at its node's pivot, rhs at x.
  // Each thread loads kBatch nodes (coalesced) before it stores any (see thomas_team.hpp).
  constexpr int kBatch = 4;
  const int chunks = (n + kBatch - 1) / kBatch;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, chunks), [&](const int ch) {
    T uv[kBatch], lv[kBatch], dv[kBatch], rv[kBatch];
    for (int q = 0; q < kBatch; ++q) {
      const int i = ch + q * chunks;
      uv[q] = T(0);
      lv[q] = T(0);
      dv[q] = T(1);
      rv[q] = T(0);
      if (i < n) {
        uv[q] = u(i);
        lv[q] = l(i);
        dv[q] = d(i);
        rv[q] = rhs(i);
      }
      loads_complete_here(uv[q]);
      loads_complete_here(lv[q]);
      loads_complete_here(dv[q]);
      loads_complete_here(rv[q]);
    }
    for (int q = 0; q < kBatch; ++q) {
      const int i = ch + q * chunks;
      if (i >= n) break;
      su[i] = uv[q];
      sl[i] = lv[q];
      sd[i] = dv[q];
      sr[i] = rv[q];
      const bool pivot = !is_usable_pivot(dv[q]) ||
                         (i > 0 && (!is_finite_value(uv[q]) || !is_finite_value(lv[q])));
      const bool value = !is_finite_value(rv[q]);
      if (pivot || value) {
        *bad_input = T(1);
        record(pivot ? i : -1, value ? i : -1);
      }
    }
  });
  team.team_barrier();
  const bool input_ok = *bad_input == T(0);

  // 2. Pieces.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, np), [&](const int q) {
    const int begin = plan.piece_begin(q), k = plan.piece_begin(q + 1) - begin - 1;
    const int bad = eliminate_piece(
        k, plan.parent_node(q) >= 0, [&](int j) { return plan.piece_nodes(begin + j); }, su, sl, sd,
        sr, pU[q], pL[q], pdP[q], prP[q]);
    if (bad >= 0 && input_ok) record(bad, -1);
  });
  team.team_barrier();

  // 3. Reduced tree, leaves first: each bottom pulls its child pieces.
  for (int level = 0; level < plan.num_levels; ++level) {
    Kokkos::parallel_for(
        Kokkos::TeamThreadRange(team, plan.level_begin(level), plan.level_begin(level + 1)),
        [&](const int q) {
          const int b = plan.piece_nodes(plan.piece_begin(q + 1) - 1);
          T db = sd[b], rb = sr[b];
          for (int c = plan.child_begin(q); c < plan.child_begin(q + 1); ++c) {
            const int child = plan.children(c);
            const int bc = plan.piece_nodes(plan.piece_begin(child + 1) - 1);
            pull_piece(pU[child], pL[child], pdP[child], prP[child], sd[bc], sr[bc], db, rb);
          }
          sd[b] = db;
          sr[b] = rb;
          if (!is_usable_pivot(db) && input_ok) record(b, -1);
        });
    team.team_barrier();
  }

  // 4. Back down: x of each bottom (into sr), then of the piece's interior.
  for (int level = plan.num_levels - 1; level >= 0; --level) {
    Kokkos::parallel_for(
        Kokkos::TeamThreadRange(team, plan.level_begin(level), plan.level_begin(level + 1)),
        [&](const int q) {
          const int begin = plan.piece_begin(q), k = plan.piece_begin(q + 1) - begin - 1;
          const int b = plan.piece_nodes(begin + k);
          const int p = plan.parent_node(q);
          const T xp = p >= 0 ? sr[p] : T(0);
          const T xb = (sr[b] - (p >= 0 ? pL[q] * xp : T(0))) / sd[b];
          sr[b] = xb;
          substitute_piece(
              k, [&](int j) { return plan.piece_nodes(begin + j); }, xp, xb, su, sl, sr);
        });
    team.team_barrier();
  }

  // 5. Write x; the smallest node with a non-finite value is recorded.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int i) {
    const T x = sr[i];
    rhs(i) = x;
    if (!is_finite_value(x) && input_ok) record(-1, i);
  });
}

}  // namespace impl
}  // namespace hinesbatch
