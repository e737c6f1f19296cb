#pragma once
// The fixture of the ThomasBatch / ThomasVBatch tests (test_thomas*.cpp): fresh random
// diagonally dominant systems, poisoned storage, a long-double reference and residual.
// In an unnamed namespace: each test file has its own copy, its own suites.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "backends.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"
#include "thomas_instances.hpp"
#include "thomas_reference.hpp"

namespace {

using namespace hinesbatch;
using namespace hinesbatch::test;

using ThomasLayouts =
    std::tuple<layouts::Flat, layouts::FullInterleaved, layouts::BlockInterleaved>;

// The names of the kernels launched while one is alive (Kokkos Tools' parallel_for
// callback), so a test can tell which schedule ran.
class LaunchedKernels {
 public:
  LaunchedKernels() {
    names().clear();
    Kokkos::Tools::Experimental::set_begin_parallel_for_callback(&on_begin);
  }
  ~LaunchedKernels() { Kokkos::Tools::Experimental::set_begin_parallel_for_callback(nullptr); }
  bool saw(const std::string& part) const {
    for (const auto& n : names())
      if (n.find(part) != std::string::npos) return true;
    return false;
  }

 private:
  static std::vector<std::string>& names() {
    static std::vector<std::string> launched;
    return launched;
  }
  static void on_begin(const char* name, std::uint32_t, std::uint64_t*) {
    names().emplace_back(name);
  }
};

template <class C>
class ThomasFixture : public ::testing::Test {
 public:
  using T = typename C::scalar_type;
  using L = typename C::layout_type;
  using E = typename C::execution_space;
  using Mem = typename E::memory_space;
  using View = typename L::template view_type<T, Mem>;
  using HostView = decltype(Kokkos::create_mirror_view(std::declval<View>()));
  using Rows = Kokkos::View<T*, Mem>;
  using IntView = Kokkos::View<int*, Mem>;

  static double tolerance() { return std::is_same<T, float>::value ? 1e-4 : 1e-12; }
  static T nan() { return std::numeric_limits<T>::quiet_NaN(); }
  static bool same(T x, T y) { return (std::isnan(x) && std::isnan(y)) || x == y; }
  static std::uint64_t next_seed() {
    static std::uint64_t seed = 0x7407a5;
    return ++seed;
  }

  // Host fills and copies without a Kokkos kernel: on a shared 2-core machine every
  // host-parallel region costs milliseconds of OpenMP barrier waits.
  template <class V>
  static void fill_host(const V& h, typename V::non_const_value_type x) {
    std::fill(h.data(), h.data() + h.span(), x);
  }
  template <class V>
  static V no_init(const char* label, std::size_t n) {
    return V(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
  }

  static View alloc(const char* label, int num_systems, int rows, int bs) {
    return L::template allocate<View>(label, num_systems, rows, L::tiled ? bs : 1);
  }

  // The four coefficient arrays of a batch, padded to m_max rows, padding set to `pad`.
  struct Storage {
    View a, b, c, d;
    int bs, m_max;
  };
  static void upload(const View& v, const TridiagonalSystems<T>& sys, const std::vector<T>& src,
                     int bs, T pad) {
    auto h = Kokkos::create_mirror_view(v);
    fill_host(h, pad);
    for (int s = 0; s < sys.num_systems(); ++s)
      for (int i = 0; i < sys.size(s); ++i) L::at(h, s, i, bs) = src[sys.offsets[s] + i];
    Kokkos::deep_copy(v, h);
  }
  static Storage to_device(const TridiagonalSystems<T>& sys, int m_max, int bs, T pad) {
    const int n = sys.num_systems();
    bs = L::tiled ? bs : 1;
    Storage st{alloc("a", n, m_max, bs),
               alloc("b", n, m_max, bs),
               alloc("c", n, m_max, bs),
               alloc("d", n, m_max, bs),
               bs,
               m_max};
    upload(st.a, sys, sys.a, bs, pad);
    upload(st.b, sys, sys.b, bs, pad);
    upload(st.c, sys, sys.c, bs, pad);
    upload(st.d, sys, sys.d, bs, pad);
    return st;
  }
  static HostView to_host(const View& v) {
    auto h = Kokkos::create_mirror_view(v);
    if (h.data() != v.data()) fill_host(h, nan());  // poisoned read-back buffer
    Kokkos::deep_copy(h, v);
    return h;
  }

  enum class Padding { None, Untouched, Computed };

  // The first row from which a schedule leaves c' in c (m: none): row 0 for PerSystem and
  // SimdTiles (and where they stand for PerSystem), the
  // rows past the kept ones for PerSystemOnChip (on_chip_rows > 0: at most that many
  // kept), none for the team and warp schedules (c is only read). Auto depends on the
  // batch's number of systems too.
  static int c_prime_from(ThomasSchedule schedule, int m, int num_systems, int on_chip_rows = 0) {
    const ThomasSchedule r = impl::resolve_schedule<E, L, T>(schedule, m, num_systems);
    if (r == ThomasSchedule::PerSystem || r == ThomasSchedule::SimdTiles) return 0;
    if (r != ThomasSchedule::PerSystemOnChip) return m;
    return on_chip_kept<T, E>(m, on_chip_rows);
  }
  // The same for padded ThomasVBatch, whose Auto depends on how the padding is treated.
  template <impl::RowCount kRows>
  static int vbatch_c_prime_from(ThomasSchedule schedule, int m, int num_systems,
                                 int on_chip_rows = 0) {
    return c_prime_from(impl::resolve_vbatch_schedule<kRows, E, L, T>(schedule, m, num_systems), m,
                        num_systems, on_chip_rows);
  }
  static std::string tag_of(ThomasSchedule schedule) {
    return std::string(" [") + to_string(schedule) + "]";
  }
  static std::vector<ThomasSchedule> schedules() {
    return {ThomasSchedule::PerSystem,
            ThomasSchedule::TeamPerSystem,
            ThomasSchedule::WarpPerSystem,
            ThomasSchedule::PerSystemOnChip,
            ThomasSchedule::TeamPerSystemInMemory,
            ThomasSchedule::SimdTiles,
            ThomasSchedule::TeamPerSystemTwoPass,
            ThomasSchedule::Auto};
  }

  // Checks a solved batch: x (in d) against the long-double Thomas and by its residual, c
  // (c' against the reference from row c_prime_from on, unchanged before), a and b
  // unchanged, c of the last
  // row unchanged, padding rows / lanes as `padding` says (`pad`: their value before the
  // solve). x_out: x, packed.
  static void expect_solved(const TridiagonalSystems<T>& sys, const Storage& st, Padding padding,
                            T pad, const std::string& what, std::vector<T>* x_out = nullptr,
                            int c_prime_from = 0) {
    const auto ha = to_host(st.a), hb = to_host(st.b), hc = to_host(st.c), hd = to_host(st.d);
    const int bs = st.bs;
    std::vector<T> local;
    std::vector<T>& x = x_out ? *x_out : local;
    x.assign(sys.rows(), nan());
    std::vector<long double> xr(static_cast<std::size_t>(sys.max_size())), cr(xr.size());
    double worst = 0;
    for (int s = 0; s < sys.num_systems(); ++s) {
      const int m = sys.size(s);
      const std::size_t o = static_cast<std::size_t>(sys.offsets[s]);
      for (int i = 0; i < m; ++i) x[o + i] = L::at(hd, s, i, bs);
      const T *a = &sys.a[o], *b = &sys.b[o], *c = &sys.c[o], *d = &sys.d[o];
      thomas_reference(m, a, b, c, d, xr.data(), cr.data());
      const double res = tridiagonal_relative_residual(m, a, b, c, d, &x[o]);
      ASSERT_LE(res, tolerance()) << what << ": system " << s << " (m=" << m << ") residual";
      worst = std::max(worst, res);
      long double dd = 0, rr = 0;
      for (int i = 0; i < m; ++i) {
        ASSERT_FALSE(std::isnan(x[o + i])) << what << ": unwritten x, system " << s << " row " << i;
        dd += (x[o + i] - xr[i]) * (x[o + i] - xr[i]);
        rr += xr[i] * xr[i];
        ASSERT_TRUE(same(L::at(ha, s, i, bs), a[i]))
            << what << ": a changed, s " << s << " i " << i;
        ASSERT_TRUE(same(L::at(hb, s, i, bs), b[i]))
            << what << ": b changed, s " << s << " i " << i;
        if (i < m - 1 && i >= c_prime_from) {
          const long double cp = L::at(hc, s, i, bs);
          ASSERT_LE(std::abs(double(cp - cr[i])), tolerance() * (1 + std::abs(double(cr[i]))))
              << what << ": c' system " << s << " row " << i;
        } else if (i < m - 1) {
          ASSERT_TRUE(same(L::at(hc, s, i, bs), c[i]))
              << what << ": c changed, s " << s << " i " << i;
        }
      }
      ASSERT_LE(std::sqrt(double(rr > 0 ? dd / rr : dd)), tolerance())
          << what << ": system " << s << " differs from the long-double Thomas";
      // c of the last real row: ignored (NaN input) unless Computing Padding zeroed it.
      const T c_last = L::at(hc, s, m - 1, bs);
      if (padding == Padding::Computed)  // pad_vbatch's 0, left as it is or its c' (0 / beta)
        ASSERT_EQ(c_last, T(0)) << what << ": system " << s;
      else
        ASSERT_TRUE(std::isnan(c_last)) << what << ": c(m-1) written, system " << s;
      for (int i = m; i < st.m_max; ++i) {
        const T va = L::at(ha, s, i, bs), vb = L::at(hb, s, i, bs), vc = L::at(hc, s, i, bs),
                vd = L::at(hd, s, i, bs);
        if (padding == Padding::Computed) {
          ASSERT_TRUE(va == T(0) && vb == T(1) && vc == T(0) && vd == T(0))
              << what << ": padding row " << i << " of system " << s << " is not identity/0";
        } else {
          ASSERT_TRUE(same(va, pad) && same(vb, pad) && same(vc, pad) && same(vd, pad))
              << what << ": padding row " << i << " of system " << s << " was touched";
        }
      }
    }
    if (L::tiled) {  // lanes past the last system: never touched
      const int lanes = static_cast<int>(hd.extent(0) * hd.extent(2));
      for (int s = sys.num_systems(); s < lanes; ++s)
        for (int i = 0; i < st.m_max; ++i)
          ASSERT_TRUE(same(L::at(ha, s, i, bs), pad) && same(L::at(hb, s, i, bs), pad) &&
                      same(L::at(hc, s, i, bs), pad) && same(L::at(hd, s, i, bs), pad))
              << what << ": padding lane " << s << " touched";
    }
    RecordProperty("worst_residual_" + what, std::to_string(worst));
  }

  // ThomasBatch on N random systems of m rows.
  // on_chip_rows > 0: the on-chip schedule keeping that many rows (through the driver's
  // internal entry point, so the swept rows are reached on every backend).
  static void check_fixed(int m, int num_systems, int bs, const std::string& tag,
                          ThomasSchedule schedule = ThomasSchedule::Auto, int on_chip_rows = 0) {
    E exec;
    const std::string what = tag + " m=" + std::to_string(m) + " N=" + std::to_string(num_systems) +
                             " BS=" + std::to_string(bs) + tag_of(schedule) +
                             (on_chip_rows > 0 ? " K=" + std::to_string(on_chip_rows) : "");
    const auto sys = random_tridiagonal<T>(num_systems, m, next_seed());
    const T sentinel = T(7);  // finite: a solved padding lane would change it
    const Storage st = to_device(sys, m, bs, sentinel);
    auto status = make_thomas_status(exec);
    impl::thomas_batch_impl(exec, st.a, st.b, st.c, st.d, status, true, L::tiled ? num_systems : -1,
                            schedule, on_chip_rows);
    check_thomas_status(exec, status, m);
    expect_solved(sys, st, Padding::None, sentinel, what, nullptr,
                  c_prime_from(schedule, m, num_systems, on_chip_rows));
  }

  static std::vector<int> random_sizes(int num_systems, int max_size, std::uint64_t seed) {
    std::mt19937 gen(static_cast<unsigned>(seed));
    std::uniform_int_distribution<int> pick(1, max_size);
    std::vector<int> sizes(static_cast<std::size_t>(num_systems));
    for (auto& s : sizes) s = pick(gen);
    sizes[0] = 1;
    if (num_systems > 1) sizes[num_systems / 2] = std::min(2, max_size);
    sizes[num_systems - 1] = max_size;
    return sizes;
  }
  static IntView int_view(const std::vector<int>& src) {
    auto v = no_init<IntView>("ints", src.size());
    auto h = Kokkos::create_mirror_view(v);
    std::copy(src.begin(), src.end(), h.data());
    Kokkos::deep_copy(v, h);
    return v;
  }
  static std::vector<int> sizes_of(const TridiagonalSystems<T>& sys) {
    std::vector<int> sizes(static_cast<std::size_t>(sys.num_systems()));
    for (int s = 0; s < sys.num_systems(); ++s) sizes[s] = sys.size(s);
    return sizes;
  }
  static IntView sizes_view(const TridiagonalSystems<T>& sys) { return int_view(sizes_of(sys)); }

  // ThomasVBatch, both variants on the same padded input: checked against the reference
  // and against each other (identical answers).
  static void check_vbatch(int num_systems, int max_size, int bs,
                           ThomasSchedule schedule = ThomasSchedule::Auto, int on_chip_rows = 0) {
    E exec;
    const std::string what = "vbatch N=" + std::to_string(num_systems) +
                             " max=" + std::to_string(max_size) + " BS=" + std::to_string(bs) +
                             tag_of(schedule) +
                             (on_chip_rows > 0 ? " K=" + std::to_string(on_chip_rows) : "");
    const int c_prime_cp = vbatch_c_prime_from<impl::RowCount::ComputingPadding>(
        schedule, max_size, num_systems, on_chip_rows);
    const int c_prime_ncp = vbatch_c_prime_from<impl::RowCount::NoComputingPadding>(
        schedule, max_size, num_systems, on_chip_rows);
    const auto sys =
        random_tridiagonal<T>(random_sizes(num_systems, max_size, next_seed()), next_seed());
    const auto sizes = sizes_view(sys);
    auto status = make_thomas_status(exec);

    const Storage cp = to_device(sys, max_size, bs, nan());
    pad_vbatch(exec, cp.a, cp.b, cp.c, cp.d, sizes);
    impl::thomas_vbatch_impl<impl::RowCount::ComputingPadding>("computing_padding", exec, cp.a,
                                                               cp.b, cp.c, cp.d, sizes, status,
                                                               true, schedule, on_chip_rows);
    check_thomas_status(exec, status, max_size);
    std::vector<T> x_cp, x_ncp;
    expect_solved(sys, cp, Padding::Computed, nan(), what + " CP", &x_cp, c_prime_cp);

    const Storage ncp = to_device(sys, max_size, bs, nan());
    impl::thomas_vbatch_impl<impl::RowCount::NoComputingPadding>(
        "no_computing_padding", exec, ncp.a, ncp.b, ncp.c, ncp.d, sizes, status, true, schedule,
        on_chip_rows);
    check_thomas_status(exec, status, max_size);
    expect_solved(sys, ncp, Padding::Untouched, nan(), what + " NCP", &x_ncp, c_prime_ncp);
    ASSERT_EQ(x_cp.size(), x_ncp.size());

    for (std::size_t k = 0; k < x_cp.size(); ++k)
      ASSERT_EQ(x_cp[k], x_ncp[k]) << what << ": Computing Padding and No Computing Padding "
                                   << "differ at packed row " << k;
  }

  // Failures are named where the sequential Thomas meets them, at each of `rows` of system 1
  // of three systems of 10,007 rows (a = b = 0, a NaN d, an infinite b, a NaN a, a NaN c);
  // then the smallest failing row of the batch wins (system 0 before system 2).
  static void check_failures_name_system_and_row(ThomasSchedule schedule,
                                                 const std::vector<int>& rows) {
    E exec;
    const int m = 10007, n = 3, tiles = L::tiled ? n : -1;
    auto status = make_thomas_status(exec);
    const auto solve = [&](const TridiagonalSystems<T>& sys) {
      auto st = to_device(sys, m, 2, T(7));
      thomas_batch(exec, st.a, st.b, st.c, st.d, status, schedule, tiles);
    };
    std::uint64_t seed = 500;
    for (const int row : rows) {
      const std::string at = "system 1, row " + std::to_string(row) + ":";
      // a = b = 0: beta(row) = b - a c' is exactly 0.
      auto sys = random_tridiagonal<T>(n, m, ++seed);
      sys.a[1 * m + row] = T(0);
      sys.b[1 * m + row] = T(0);
      solve(sys);
      expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
      check_thomas_status(exec, status, m);  // cleared
      // A NaN right-hand side: that row's solution.
      sys = random_tridiagonal<T>(n, m, ++seed);
      sys.d[1 * m + row] = nan();
      solve(sys);
      expect_solver_error([&] { check_thomas_status(exec, status, m); },
                          {at, "non-finite solution"});
      // An infinite diagonal: that row's pivot.
      sys = random_tridiagonal<T>(n, m, ++seed);
      sys.b[1 * m + row] = std::numeric_limits<T>::infinity();
      solve(sys);
      expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
      // A NaN lower diagonal (not read in row 0).
      sys = random_tridiagonal<T>(n, m, ++seed);
      sys.a[1 * m + row] = nan();
      solve(sys);
      if (row > 0)
        expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
      else
        check_thomas_status(exec, status, m);
      // A NaN upper diagonal: the next row's pivot (not read in the last row).
      sys = random_tridiagonal<T>(n, m, ++seed);
      sys.c[1 * m + row] = nan();
      solve(sys);
      if (row < m - 1)
        expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 1, row " + std::to_string(row + 1) + ":", "pivot"});
      else
        check_thomas_status(exec, status, m);
    }
    // The smallest failing row of the batch wins: system 0 before system 2.
    auto sys = random_tridiagonal<T>(n, m, ++seed);
    sys.a[2 * m + 3] = sys.b[2 * m + 3] = T(0);
    sys.a[0 * m + 9000] = sys.b[0 * m + 9000] = T(0);
    solve(sys);
    expect_solver_error([&] { check_thomas_status(exec, status, m); },
                        {"system 0, row 9000:", "pivot"});
  }

  // A bad size in a ThomasVBatch under `schedule`: that system is reported and untouched, the
  // others solved, both padding variants.
  static void check_bad_size_reported(ThomasSchedule schedule) {
    E exec;
    const int m_max = 9000;
    auto sys = random_tridiagonal<T>(random_sizes(6, m_max, 71), 72);
    auto sizes = sizes_of(sys);
    sizes[4] = m_max + 1;
    sizes[2] = 0;
    const auto bad = int_view(sizes);
    auto status = make_thomas_status(exec);
    for (int variant = 0; variant < 2; ++variant) {
      auto st = to_device(sys, m_max, 4, nan());
      if (variant == 0) {
        pad_vbatch(exec, st.a, st.b, st.c, st.d, bad);
        thomas_vbatch_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, schedule);
      } else {
        thomas_vbatch_no_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, schedule);
      }
      expect_input_error([&] { check_thomas_status(exec, status, m_max); },
                         {"system 2", "invalid size"});
      const auto hd = to_host(st.d);
      for (int bad_s : {2, 4})
        for (int i = 0; i < sys.size(bad_s); ++i)
          ASSERT_EQ(L::at(hd, bad_s, i, st.bs), sys.d[sys.offsets[bad_s] + i]);
    }
  }

  template <class F>
  static void expect_solver_error(F&& f, const std::vector<std::string>& words) {
    try {
      f();
      FAIL() << "no SolverError";
    } catch (const SolverError& e) {
      for (const auto& w : words)
        EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
  }
  template <class F>
  static void expect_input_error(F&& f, const std::vector<std::string>& words) {
    try {
      f();
      FAIL() << "no InputError";
    } catch (const InputError& e) {
      for (const auto& w : words)
        EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
  }
};

}  // namespace
