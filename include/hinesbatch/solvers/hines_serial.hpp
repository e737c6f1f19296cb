#pragma once
// Host references: the sequential Hines algorithm on plain arrays (the papers' "one
// sequential core" baseline), a dense LU in long double, and residuals in long double.
#include <cmath>
#include <cstddef>
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

// One system, arrays of length n, same conventions as hines_solve_system:
// A[p[i]][i] = u[i], A[i][p[i]] = l[i], A[i][i] = d[i]. Overwrites d and rhs (x).
template <class T>
void hines_solve_serial(const int* parent, int n, const T* u, const T* l, T* d, T* rhs) {
  for (int i = n - 1; i > 0; --i) {
    const T f = u[i] / d[i];
    d[parent[i]] -= f * l[i];
    rhs[parent[i]] -= f * rhs[i];
  }
  rhs[0] /= d[0];
  for (int i = 1; i < n; ++i) rhs[i] = (rhs[i] - l[i] * rhs[parent[i]]) / d[i];
}

// All systems of a batch stored [system][node], one after the other on one core.
template <class T>
void hines_solve_serial_batch(const Tree& tree, int num_systems, const T* u, const T* l, T* d,
                              T* rhs) {
  const int n = tree.size();
  for (int s = 0; s < num_systems; ++s) {
    const std::size_t o = static_cast<std::size_t>(s) * n;
    hines_solve_serial(tree.parents().data(), n, u + o, l + o, d + o, rhs + o);
  }
}

// Dense LU with partial pivoting in long double of the n x n matrix the arrays describe
// (for small trees: O(n^3)). Returns x.
std::vector<long double> dense_lu_solve(const Tree& tree, const double* u, const double* l,
                                        const double* d, const double* rhs);

// ||b - A x||_2 / ||b||_2 for one system, accumulated in long double (0 when b = 0 = Ax).
template <class T>
double relative_residual(const Tree& tree, const T* u, const T* l, const T* d, const T* b,
                         const T* x) {
  const int n = tree.size();
  std::vector<long double> r(n);
  for (int i = 0; i < n; ++i) r[i] = (long double)b[i] - (long double)d[i] * x[i];
  for (int i = 1; i < n; ++i) {
    const int p = tree.parent(i);
    r[p] -= (long double)u[i] * x[i];
    r[i] -= (long double)l[i] * x[p];
  }
  long double rr = 0, bb = 0;
  for (int i = 0; i < n; ++i) {
    rr += r[i] * r[i];
    bb += (long double)b[i] * b[i];
  }
  if (bb == 0) return rr == 0 ? 0.0 : static_cast<double>(rr);
  return static_cast<double>(std::sqrt(rr / bb));
}

}  // namespace hinesbatch
