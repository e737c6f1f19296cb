#pragma once
// The Thomas algorithm for ONE tridiagonal system (docs/REFERENCE.md §3), written once over 1-D
// accessors, as hines_system.hpp does for Hines: the driver picks the system (a subview of
// a batch in any layout, a shifted range of packed storage) and the execution policy.
//
// Row i of the system reads  a(i) x(i-1) + b(i) x(i) + c(i) x(i+1) = d(i);  a(0) and c(m-1)
// are outside the matrix and are neither read nor written.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "hinesbatch/solvers/impl/hines_system.hpp"

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
  // Row indices of the failures, kept in int (fewer registers than SolveFailure's long long).
  int bad_pivot = -1, bad_solution = -1;
  // Forward elimination. c'(i-1) and d'(i-1) are carried in registers: each coefficient is
  // read once and c', d' written once. Every row loads a, b, c and d before it stores
  // anything: c and d are written, so the compiler may not move a load above a store to
  // either of them; loaded first, the four loads of a row are in flight together (one
  // memory round trip per row instead of two, as in a loop that loads c(i) after storing
  // d(i)).
  T beta = b(0);
  T dp = d(0);
  T cp = m > 1 ? c(0) : T(0);
  if (!is_usable_pivot(beta)) bad_pivot = 0;
  dp = dp / beta;
  if (!is_finite_value(dp)) bad_solution = 0;
  d(0) = dp;
  if (m > 1) {
    cp = cp / beta;
    c(0) = cp;
  }
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = 1; i < m - 1; ++i) {
    T ai = a(i);
    T bi = b(i);
    T ci = c(i);
    T di = d(i);
    impl::loads_complete_here(ai);
    impl::loads_complete_here(bi);
    impl::loads_complete_here(ci);
    impl::loads_complete_here(di);
    beta = bi - ai * cp;
    if (!is_usable_pivot(beta) && bad_pivot < 0) bad_pivot = i;
    dp = (di - ai * dp) / beta;
    if (!is_finite_value(dp) && bad_solution < 0) bad_solution = i;
    cp = ci / beta;
    d(i) = dp;
    c(i) = cp;
  }
  if (m > 1) {  // the last row: c(m-1) is outside the matrix and not read
    const int i = m - 1;
    const T ai = a(i);
    const T bi = b(i);
    const T di = d(i);
    beta = bi - ai * cp;
    if (!is_usable_pivot(beta) && bad_pivot < 0) bad_pivot = i;
    dp = (di - ai * dp) / beta;
    if (!is_finite_value(dp) && bad_solution < 0) bad_solution = i;
    d(i) = dp;
  }
  // Back substitution: x(m-1) = d'(m-1), x(i) = d'(i) - c'(i) x(i+1). Row i-1's c' and d'
  // are loaded before row i's x is stored, so that load overlaps this row's work.
  T x = dp;
  if (m > 1) {
    T c_next = c(m - 2);
    T d_next = d(m - 2);
    HINESBATCH_DEVICE_NO_UNROLL
    for (int i = m - 2; i >= 0; --i) {
      const T ci = c_next;
      const T di = d_next;
      if (i > 0) {
        c_next = c(i - 1);
        d_next = d(i - 1);
      }
      x = di - ci * x;
      if (!is_finite_value(x) && bad_solution < 0) bad_solution = i;
      d(i) = x;
    }
  }
  failure.bad_pivot = bad_pivot;
  failure.bad_solution = bad_solution;
  return failure;
}

// thomas_solve_system for the m rows of a system among systems of different sizes whose
// threads should run as one: every thread steps through `steps` >= m rows, the same row index
// at once, and works only on its own rows. In interleaved storage the rows one index names
// lie side by side, so a warp's loads stay coalesced while its systems end at different rows
// (thomas_solve_system, each thread stopping at its own size, starts the back substitution of
// each system at its own row and scatters the warp's loads from there on).
template <class A, class B, class C, class D>
KOKKOS_INLINE_FUNCTION SolveFailure thomas_solve_system_in_step(const int m, const int steps,
                                                                const A& a, const B& b, const C& c,
                                                                const D& d) {
  using T = typename std::remove_cv<typename std::remove_reference<decltype(d(0))>::type>::type;
  SolveFailure failure;
  if (m <= 0) return failure;
  int bad_pivot = -1, bad_solution = -1;
  T beta = b(0);
  T dp = d(0);
  T cp = m > 1 ? c(0) : T(0);
  if (!is_usable_pivot(beta)) bad_pivot = 0;
  dp = dp / beta;
  if (!is_finite_value(dp)) bad_solution = 0;
  d(0) = dp;
  if (m > 1) {
    cp = cp / beta;
    c(0) = cp;
  }
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = 1; i < steps; ++i) {
    if (i < m) {
      const bool last = i == m - 1;  // c(m-1) is outside the matrix and not read
      T ai = a(i);
      T bi = b(i);
      T ci = last ? T(0) : c(i);
      T di = d(i);
      impl::loads_complete_here(ai);
      impl::loads_complete_here(bi);
      impl::loads_complete_here(ci);
      impl::loads_complete_here(di);
      beta = bi - ai * cp;
      if (!is_usable_pivot(beta) && bad_pivot < 0) bad_pivot = i;
      dp = (di - ai * dp) / beta;
      if (!is_finite_value(dp) && bad_solution < 0) bad_solution = i;
      d(i) = dp;
      if (!last) {
        cp = ci / beta;
        c(i) = cp;
      }
    }
  }
  T x = dp;
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = steps - 2; i >= 0; --i) {
    if (i <= m - 2) {
      const T ci = c(i);
      const T di = d(i);
      x = di - ci * x;
      if (!is_finite_value(x) && bad_solution < 0) bad_solution = i;
      d(i) = x;
    }
  }
  failure.bad_pivot = bad_pivot;
  failure.bad_solution = bad_solution;
  return failure;
}

}  // namespace hinesbatch
