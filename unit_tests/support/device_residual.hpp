#pragma once
// Residuals of a whole batch computed on the device: the batch as one block-diagonal
// sparse matrix (rows s*n + i), r = b - A x by one spmv (Kokkos Kernels when enabled,
// a plain Kokkos kernel otherwise), then the largest per-system ||r|| / ||b||.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <vector>

#include "hinesbatch/morphology/tree.hpp"
#include "random_systems.hpp"
#ifdef HINESBATCH_HAVE_KOKKOSKERNELS
#include <KokkosSparse_CrsMatrix.hpp>
#include <KokkosSparse_spmv.hpp>
#endif

namespace hinesbatch::test {

template <class ExecutionSpace>
class DeviceBatchResidual {
 public:
  using device_type = Kokkos::Device<ExecutionSpace, typename ExecutionSpace::memory_space>;
  using vector_view = Kokkos::View<double*, device_type>;

  template <class T>
  DeviceBatchResidual(const Tree& tree, const HostSystems<T>& sys)
      : n_(sys.num_nodes), systems_(sys.num_systems) {
    const std::size_t rows = static_cast<std::size_t>(n_) * systems_;
    std::vector<int> row_ptr(rows + 1, 0), cols;
    std::vector<double> vals;
    cols.reserve(3 * rows);
    vals.reserve(3 * rows);
    std::vector<std::vector<std::pair<int, double>>> row_entries(n_);
    for (int s = 0; s < systems_; ++s) {
      const std::size_t o = static_cast<std::size_t>(s) * n_;
      for (auto& r : row_entries) r.clear();
      for (int i = 0; i < n_; ++i) row_entries[i].push_back({i, double(sys.d[o + i])});
      for (int i = 1; i < n_; ++i) {
        row_entries[tree.parent(i)].push_back({i, double(sys.u[o + i])});
        row_entries[i].push_back({tree.parent(i), double(sys.l[o + i])});
      }
      for (int i = 0; i < n_; ++i) {
        for (auto& [c, v] : row_entries[i]) {
          cols.push_back(static_cast<int>(o) + c);
          vals.push_back(v);
        }
        row_ptr[o + i + 1] = static_cast<int>(cols.size());
      }
    }
    row_ptr_ = to_device<int>(row_ptr, "row_ptr");
    cols_ = to_device<int>(cols, "cols");
    vals_ = to_device<double>(vals, "vals");
    std::vector<double> b(sys.rhs.begin(), sys.rhs.end());
    b_ = to_device<double>(b, "b");
  }

  // Largest relative residual over systems for x in [system][node] order (host data).
  template <class T>
  double max_relative_residual(const ExecutionSpace& exec, const std::vector<T>& x_host) const {
    std::vector<double> xd(x_host.begin(), x_host.end());
    auto x = to_device<double>(xd, "x");
    vector_view r(std::string("r"), b_.extent(0));
    Kokkos::deep_copy(exec, r, b_);
#ifdef HINESBATCH_HAVE_KOKKOSKERNELS
    using matrix = KokkosSparse::CrsMatrix<double, int, device_type, void, int>;
    matrix A("batch", static_cast<int>(b_.extent(0)), static_cast<int>(b_.extent(0)),
             static_cast<int>(vals_.extent(0)), vals_, row_ptr_, cols_);
    KokkosSparse::spmv("N", -1.0, A, x, 1.0, r);
#else
    auto rp = row_ptr_;
    auto cc = cols_;
    auto vv = vals_;
    Kokkos::parallel_for(
        "hinesbatch::test::residual",
        Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(r.extent(0))),
        KOKKOS_LAMBDA(const int row) {
          double acc = 0;
          for (int k = rp(row); k < rp(row + 1); ++k) acc += vv(k) * x(cc(k));
          r(row) -= acc;
        });
#endif
    const int n = n_;
    auto b = b_;
    double worst = 0;
    Kokkos::parallel_reduce(
        "hinesbatch::test::max_residual", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, systems_),
        KOKKOS_LAMBDA(const int s, double& m) {
          double rr = 0, bb = 0;
          for (int i = 0; i < n; ++i) {
            const double ri = r(s * n + i), bi = b(s * n + i);
            rr += ri * ri;
            bb += bi * bi;
          }
          const double rel2 = bb > 0 ? rr / bb : rr;  // squared: sqrt is taken on the host
          // NaN must not hide: it compares false, so map it to a huge value.
          const double v = rel2 == rel2 ? rel2 : 1.0e300;
          if (v > m) m = v;
        },
        Kokkos::Max<double>(worst));
    return std::sqrt(worst);
  }

 private:
  template <class V>
  static Kokkos::View<V*, device_type> to_device(const std::vector<V>& h, const char* label) {
    Kokkos::View<V*, device_type> v(std::string(label), h.size());
    Kokkos::View<const V*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> src(
        h.data(), h.size());
    auto m = Kokkos::create_mirror_view(v);
    Kokkos::deep_copy(m, src);
    Kokkos::deep_copy(v, m);
    return v;
  }
  int n_, systems_;
  Kokkos::View<int*, device_type> row_ptr_, cols_;
  vector_view vals_, b_;
};

}  // namespace hinesbatch::test
