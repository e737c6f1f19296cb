#pragma once
// The Thomas algorithm for ONE tridiagonal system (reference §3), written once over 1-D
// accessors, as hines_system.hpp does for Hines: the driver picks the system (a subview of
// a batch in any layout, a shifted range of packed storage) and the execution policy.
//
// Row i of the system reads  a(i) x(i-1) + b(i) x(i) + c(i) x(i+1) = d(i);  a(0) and c(m-1)
// are outside the matrix and are neither read nor written.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "hinesbatch/solvers/hines_system.hpp"

namespace hinesbatch {

// Solves the m-row system in place, without pivoting (the matrices it is meant for are
// diagonally dominant). On return:
//   d(0..m-1)  holds the solution x;
//   c(0..m-2)  holds the eliminated upper diagonal c'(i) = c(i) / beta(i), where
//              beta(0) = b(0) and beta(i) = b(i) - a(i) c'(i-1);
//   c(m-1), a and b are untouched (a(0) and c(m-1) are never read).
// The returned SolveFailure names the first row whose pivot beta(i) is zero or non-finite,
// and the row where a non-finite value entered the solution: the first row whose forward-
// eliminated right-hand side is non-finite, else (overflow in the back substitution) the
// highest row whose solution is non-finite. -1 when none. m <= 0 does nothing.
template <class A, class B, class C, class D>
KOKKOS_INLINE_FUNCTION SolveFailure thomas_solve_system(const int m, const A& a, const B& b,
                                                        const C& c, const D& d) {
  using T = typename std::remove_cv<typename std::remove_reference<decltype(d(0))>::type>::type;
  SolveFailure failure;
  if (m <= 0) return failure;
  // Forward elimination. c'(i-1) and d'(i-1) are carried in registers: each coefficient
  // is read once and c', d' written once.
  T beta = b(0);
  if (!is_usable_pivot(beta)) failure.bad_pivot = 0;
  T cp = T(0);
  T dp = d(0) / beta;
  d(0) = dp;
  if (!is_finite_value(dp)) failure.bad_solution = 0;
  if (m > 1) {
    cp = c(0) / beta;
    c(0) = cp;
  }
  for (int i = 1; i < m; ++i) {
    const T ai = a(i);
    beta = b(i) - ai * cp;
    if (!is_usable_pivot(beta) && failure.bad_pivot < 0) failure.bad_pivot = i;
    dp = (d(i) - ai * dp) / beta;
    d(i) = dp;
    if (!is_finite_value(dp) && failure.bad_solution < 0) failure.bad_solution = i;
    if (i < m - 1) {
      cp = c(i) / beta;
      c(i) = cp;
    }
  }
  // Back substitution: x(m-1) = d'(m-1), x(i) = d'(i) - c'(i) x(i+1).
  T x = dp;
  for (int i = m - 2; i >= 0; --i) {
    x = d(i) - c(i) * x;
    d(i) = x;
    if (!is_finite_value(x) && failure.bad_solution < 0) failure.bad_solution = i;
  }
  return failure;
}

}  // namespace hinesbatch
