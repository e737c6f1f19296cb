#pragma once
// Random tridiagonal systems and a sequential long-double Thomas algorithm, the oracle of
// the ThomasBatch / ThomasVBatch tests.
//
// Systems are stored packed: system s is rows [offsets[s], offsets[s+1]) of a, b, c, d;
// row i reads a(i) x(i-1) + b(i) x(i) + c(i) x(i+1) = d(i). a of a system's first row
// and c of its last row are outside the matrix and are NaN, so a solver that reads them
// fails. a and c are drawn independently (a solver that swaps them fails) with random
// signs, and |b| exceeds |a| + |c| by a random margin in [margin, 2 margin].
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace hinesbatch::test {

template <class T>
struct TridiagonalSystems {
  std::vector<int> offsets{0};  // N + 1 entries
  std::vector<T> a, b, c, d;    // packed rows

  int num_systems() const { return static_cast<int>(offsets.size()) - 1; }
  int size(int s) const { return offsets[s + 1] - offsets[s]; }
  int max_size() const {
    int m = 0;
    for (int s = 0; s < num_systems(); ++s) m = std::max(m, size(s));
    return m;
  }
  std::size_t rows() const { return static_cast<std::size_t>(offsets.back()); }
};

template <class T>
TridiagonalSystems<T> random_tridiagonal(const std::vector<int>& sizes, std::uint64_t seed,
                                         double margin = 0.5) {
  TridiagonalSystems<T> h;
  h.offsets.reserve(sizes.size() + 1);
  for (int m : sizes) h.offsets.push_back(h.offsets.back() + m);
  const std::size_t rows = h.rows();
  h.a.resize(rows);
  h.b.resize(rows);
  h.c.resize(rows);
  h.d.resize(rows);
  std::mt19937_64 gen(seed);
  auto unit = [&gen]() { return static_cast<double>(gen() >> 11) * 0x1.0p-53; };  // [0,1)
  auto sign = [&gen]() { return (gen() >> 63) ? -1.0 : 1.0; };
  const T nan = std::numeric_limits<T>::quiet_NaN();
  for (int s = 0; s < h.num_systems(); ++s) {
    const int m = h.size(s);
    const std::size_t o = static_cast<std::size_t>(h.offsets[s]);
    for (int i = 0; i < m; ++i) {
      const double a = i > 0 ? sign() * (0.1 + unit()) : 0.0;
      const double c = i < m - 1 ? sign() * (0.1 + unit()) : 0.0;
      h.a[o + i] = i > 0 ? static_cast<T>(a) : nan;
      h.c[o + i] = i < m - 1 ? static_cast<T>(c) : nan;
      // Dominance on the stored (rounded) values.
      const double off = std::abs(double(static_cast<T>(a))) + std::abs(double(static_cast<T>(c)));
      h.b[o + i] = static_cast<T>(sign() * (off + margin * (1.0 + unit())));
      h.d[o + i] = static_cast<T>(2.0 * unit() - 1.0);
    }
  }
  return h;
}

template <class T>
TridiagonalSystems<T> random_tridiagonal(int num_systems, int m, std::uint64_t seed) {
  return random_tridiagonal<T>(std::vector<int>(static_cast<std::size_t>(num_systems), m), seed);
}

// Sequential Thomas in long double on one system of m rows: x gets the solution and, if
// cprime is not null, cprime[0..m-2] the eliminated upper diagonal.
template <class T>
void thomas_reference(int m, const T* a, const T* b, const T* c, const T* d, long double* x,
                      long double* cprime = nullptr) {
  std::vector<long double> cp(static_cast<std::size_t>(m));
  long double beta = b[0];
  cp[0] = m > 1 ? c[0] / beta : 0.0L;
  x[0] = d[0] / beta;
  for (int i = 1; i < m; ++i) {
    beta = b[i] - a[i] * cp[i - 1];
    cp[i] = i < m - 1 ? c[i] / beta : 0.0L;
    x[i] = (d[i] - a[i] * x[i - 1]) / beta;
  }
  for (int i = m - 2; i >= 0; --i) x[i] -= cp[i] * x[i + 1];
  if (cprime)
    for (int i = 0; i + 1 < m; ++i) cprime[i] = cp[i];
}

// ||d - A x||_2 / ||d||_2 in long double for one system (NaN -> +inf, so it fails).
template <class T, class X>
double tridiagonal_relative_residual(int m, const T* a, const T* b, const T* c, const T* d,
                                     const X* x) {
  long double rr = 0, dd = 0;
  for (int i = 0; i < m; ++i) {
    long double ax = static_cast<long double>(b[i]) * x[i];
    if (i > 0) ax += static_cast<long double>(a[i]) * x[i - 1];
    if (i < m - 1) ax += static_cast<long double>(c[i]) * x[i + 1];
    const long double r = static_cast<long double>(d[i]) - ax;
    rr += r * r;
    dd += static_cast<long double>(d[i]) * d[i];
  }
  const double rel = static_cast<double>(std::sqrt(dd > 0 ? rr / dd : rr));
  return rel == rel ? rel : std::numeric_limits<double>::infinity();
}

}  // namespace hinesbatch::test
