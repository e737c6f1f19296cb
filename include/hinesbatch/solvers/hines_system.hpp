#pragma once
// The Hines algorithm for ONE system (reference §1), written once over 1-D accessors so
// that every layout and every backend runs the same code: the caller picks the system
// (a subview of a batch, a row of a scratch tile) and the execution policy.
#include <Kokkos_Core.hpp>

namespace hinesbatch {

// Pivot and solution checks cost two compares per node and no memory traffic: a
// failure is recorded in the batch's status instead of returning garbage silently.
struct SolveFailure {
  long long bad_pivot = -1;     // node index, -1 if none
  long long bad_solution = -1;  // node index, -1 if none
};

template <class T>
KOKKOS_INLINE_FUNCTION bool is_usable_pivot(T x) {
  return x != T(0) && x - x == T(0);  // x - x is NaN for inf and NaN
}
template <class T>
KOKKOS_INLINE_FUNCTION bool is_finite_value(T x) {
  return x - x == T(0);
}

// Solves A x = rhs for the tree given by parent(i) < i. A[p(i)][i] = u(i),
// A[i][p(i)] = l(i), A[i][i] = d(i). Overwrites d with the eliminated diagonal and rhs
// with x; u, l and parent are only read.
template <class Parent, class U, class L, class D, class R>
KOKKOS_INLINE_FUNCTION SolveFailure hines_solve_system(const Parent& parent, int n, const U& u,
                                                       const L& l, const D& d, const R& rhs) {
  SolveFailure failure;
  // Backward sweep (elimination), leaves to root.
  for (int i = n - 1; i > 0; --i) {
    const auto di = d(i);
    if (!is_usable_pivot(di) && failure.bad_pivot < 0) failure.bad_pivot = i;
    const auto f = u(i) / di;
    const int p = parent(i);
    d(p) -= f * l(i);
    rhs(p) -= f * rhs(i);
  }
  if (!is_usable_pivot(d(0)) && failure.bad_pivot < 0) failure.bad_pivot = 0;
  // Forward sweep (substitution), root to leaves.
  const auto x0 = rhs(0) / d(0);
  rhs(0) = x0;
  if (!is_finite_value(x0)) failure.bad_solution = 0;
  for (int i = 1; i < n; ++i) {
    const auto xi = (rhs(i) - l(i) * rhs(parent(i))) / d(i);
    rhs(i) = xi;
    if (!is_finite_value(xi) && failure.bad_solution < 0) failure.bad_solution = i;
  }
  return failure;
}

}  // namespace hinesbatch
