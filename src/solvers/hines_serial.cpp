#include "hinesbatch/solvers/hines_serial.hpp"

#include <cmath>
#include <utility>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

std::vector<long double> dense_lu_solve(const Tree& tree, const double* u, const double* l,
                                        const double* d, const double* rhs) {
  const int n = tree.size();
  std::vector<long double> a(static_cast<std::size_t>(n) * n, 0.0L), x(rhs, rhs + n);
  auto A = [&](int r, int c) -> long double& { return a[static_cast<std::size_t>(r) * n + c]; };
  for (int i = 0; i < n; ++i) A(i, i) = d[i];
  for (int i = 1; i < n; ++i) {
    A(tree.parent(i), i) = u[i];
    A(i, tree.parent(i)) = l[i];
  }
  for (int k = 0; k < n; ++k) {
    int piv = k;
    for (int r = k + 1; r < n; ++r)
      if (fabsl(A(r, k)) > fabsl(A(piv, k))) piv = r;
    if (A(piv, k) == 0.0L)
      throw SolverError("dense_lu_solve: singular matrix at column " + std::to_string(k));
    if (piv != k) {
      for (int c = 0; c < n; ++c) std::swap(A(k, c), A(piv, c));
      std::swap(x[k], x[piv]);
    }
    for (int r = k + 1; r < n; ++r) {
      const long double f = A(r, k) / A(k, k);
      if (f == 0.0L) continue;
      for (int c = k; c < n; ++c) A(r, c) -= f * A(k, c);
      x[r] -= f * x[k];
    }
  }
  for (int k = n - 1; k >= 0; --k) {
    long double s = x[k];
    for (int c = k + 1; c < n; ++c) s -= A(k, c) * x[c];
    x[k] = s / A(k, k);
  }
  return x;
}

}  // namespace hinesbatch
