// ThomasBatch and ThomasVBatch, every layout x {float, double} x backend, against a
// sequential long-double Thomas and a long-double residual, on fresh random diagonally
// dominant systems (a != c, a(0) and c(m-1) NaN so reading them fails). Storage padding is
// poisoned before the run (NaN rows, sentinel lanes) and checked afterwards, and the
// read-back buffers start as NaN so an unwritten element fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "backends.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"
#include "thomas_reference.hpp"

namespace {

using namespace hinesbatch;
using namespace hinesbatch::test;

using ThomasLayouts =
    std::tuple<layouts::Flat, layouts::FullInterleaved, layouts::BlockInterleaved>;

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

  // The first row from which a schedule leaves c' in c (m: none): row 0 for PerSystem, the
  // rows past the kept ones for PerSystemOnChip (on_chip_rows > 0: at most that many
  // kept), none for the team and warp schedules (c is only read). Auto depends on the
  // batch's number of systems too.
  static int c_prime_from(ThomasSchedule schedule, int m, int num_systems, int on_chip_rows = 0) {
    const ThomasSchedule r = impl::resolve_schedule<E, L, T>(schedule, m, num_systems);
    if (r == ThomasSchedule::PerSystem) return 0;
    if (r != ThomasSchedule::PerSystemOnChip) return m;
    return on_chip_kept<T, E>(m, on_chip_rows);
  }
  static std::string tag_of(ThomasSchedule schedule) {
    return std::string(" [") + schedule_name(schedule) + "]";
  }
  static std::vector<ThomasSchedule> schedules() {
    return {ThomasSchedule::PerSystem, ThomasSchedule::TeamPerSystem, ThomasSchedule::WarpPerSystem,
            ThomasSchedule::PerSystemOnChip, ThomasSchedule::Auto};
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
    const int c_prime = c_prime_from(schedule, max_size, num_systems, on_chip_rows);
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
    expect_solved(sys, cp, Padding::Computed, nan(), what + " CP", &x_cp, c_prime);

    const Storage ncp = to_device(sys, max_size, bs, nan());
    impl::thomas_vbatch_impl<impl::RowCount::NoComputingPadding>(
        "no_computing_padding", exec, ncp.a, ncp.b, ncp.c, ncp.d, sizes, status, true, schedule,
        on_chip_rows);
    check_thomas_status(exec, status, max_size);
    expect_solved(sys, ncp, Padding::Untouched, nan(), what + " NCP", &x_ncp, c_prime);
    ASSERT_EQ(x_cp.size(), x_ncp.size());

    for (std::size_t k = 0; k < x_cp.size(); ++k)
      ASSERT_EQ(x_cp[k], x_ncp[k]) << what << ": Computing Padding and No Computing Padding "
                                   << "differ at packed row " << k;
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

using ThomasConfigs = AsGtestTypes<
    ConfigProduct<std::tuple<float, double>, ThomasLayouts, EnabledExecutionSpaces>::tuple>::type;

template <class C>
class ThomasBatchTest : public ThomasFixture<C> {};
TYPED_TEST_SUITE(ThomasBatchTest, ThomasConfigs);

TYPED_TEST(ThomasBatchTest, TinySystems) {
  for (const auto schedule : this->schedules())
    for (int m : {1, 2, 3, 4, 5})
      for (int n : {1, 33, 1000}) this->check_fixed(m, n, 32, "tiny", schedule);
}

TYPED_TEST(ThomasBatchTest, PaperSizes) {
  for (const auto schedule : this->schedules())
    for (int m : {64, 128, 256, 512})
      for (int n : {1, 33, 1000}) this->check_fixed(m, n, 32, "paper", schedule);
}

// The team schedule's odd shapes: rows not a multiple of the lanes, a lane of padding rows
// only, every rows-per-lane count from 2 to 32.
TYPED_TEST(ThomasBatchTest, TeamScheduleShapes) {
  for (int m : {6, 7, 31, 33, 63, 65, 100, 129, 255, 257, 300, 511, 513, 700, 2047, 2049, 3001})
    this->check_fixed(m, 33, 32, "team-shapes", ThomasSchedule::TeamPerSystem);
}

// The warp schedule's shapes: every rows-per-lane count (2, 4, 8, 16), rows not a multiple of
// the lanes, lanes of padding rows only, systems fewer than the four per team, and sizes past
// its register limit (taken by the team schedule).
TYPED_TEST(ThomasBatchTest, WarpScheduleShapes) {
  for (int m :
       {1, 2, 6, 31, 33, 63, 64, 65, 100, 127, 128, 129, 255, 256, 257, 300, 511, 512, 513, 1000})
    for (int n : {1, 3, 5, 33})
      this->check_fixed(m, n, 32, "warp-shapes", ThomasSchedule::WarpPerSystem);
  // The multi-warp shapes (2 ... 32 warps of a block), their edges, and past the largest
  // (the team schedule takes over).
  for (int m : {1023, 1024, 1025, 2048, 3000, 4097, 8191, 8192, 8193})
    for (int n : {1, 3}) this->check_fixed(m, n, 32, "warps-shapes", ThomasSchedule::WarpPerSystem);
}

// The on-chip schedule with every number of kept rows against sizes around it and around
// its batches of 8: the kept and swept parts meet everywhere, on every backend.
TYPED_TEST(ThomasBatchTest, OnChipRowCounts) {
  const auto on_chip = ThomasSchedule::PerSystemOnChip;
  for (int kept : {1, 2, 3, 7, 8, 9, 31, 80, 1000})
    for (int m : {1,  2,  5,  8,  9,  16, 17, 24,  25,  26,  32,  33, 48,
                  49, 50, 56, 57, 79, 80, 81, 104, 105, 128, 129, 200})
      for (int n : {1, 33}) this->check_fixed(m, n, 32, "on-chip", on_chip, kept);
  for (int kept : {1, 5, 9, 40})
    for (int bs : {1, 32}) this->check_vbatch(70, 100, bs, on_chip, kept);
  // Whatever fits on this backend, and past it (its own swept rows).
  for (int m : {64, 80, 81, 160, 161, 300, 1024}) this->check_fixed(m, 70, 32, "on-chip", on_chip);
}

// Failures in the kept and the swept rows are named as P2's kernel names them.
TYPED_TEST(ThomasBatchTest, OnChipFailuresInEveryPart) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 100, kept = 20, tiles = TestFixture::L::tiled ? 40 : -1;
  const auto on_chip = ThomasSchedule::PerSystemOnChip;
  auto status = make_thomas_status(exec);
  for (int row : {0, 7, 8, 19, 20, 21, 45, 99}) {
    auto sys = random_tridiagonal<T>(40, m, 40 + row);
    sys.a[13 * m + row] = T(0);  // beta(row) = b - a c' is exactly 0
    sys.b[13 * m + row] = T(0);
    auto st = this->to_device(sys, m, 32, T(7));
    impl::thomas_batch_impl(exec, st.a, st.b, st.c, st.d, status, true, tiles, on_chip, kept);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 13, row " + std::to_string(row) + ":", "pivot"});
    sys = random_tridiagonal<T>(40, m, 90 + row);
    sys.d[30 * m + row] = this->nan();
    st = this->to_device(sys, m, 32, T(7));
    impl::thomas_batch_impl(exec, st.a, st.b, st.c, st.d, status, true, tiles, on_chip, kept);
    this->expect_solver_error(
        [&] { check_thomas_status(exec, status, m); },
        {"system 30, row " + std::to_string(row) + ":", "non-finite solution"});
    check_thomas_status(exec, status, m);  // cleared
  }
}

TYPED_TEST(ThomasBatchTest, LargeSizes) {
  for (const auto schedule : this->schedules()) {
    for (int n : {1, 33, 1000}) this->check_fixed(1024, n, 32, "large", schedule);
    for (int n : {1, 33}) this->check_fixed(8192, n, 32, "large", schedule);
  }
}

TYPED_TEST(ThomasBatchTest, BlockSizesAndPartialTiles) {
  if constexpr (!TestFixture::L::tiled) {
    GTEST_SKIP() << "untiled layout";
  } else {
    for (const auto schedule : this->schedules()) {
      for (int bs : {1, 32, 128})
        for (int n : {33, 1000}) this->check_fixed(64, n, bs, "blocks", schedule);  // 1000 % 128
      this->check_fixed(3, 5, 128, "one-partial-tile", schedule);
    }
  }
}

TYPED_TEST(ThomasBatchTest, HundredThousandSystems) { this->check_fixed(5, 100000, 128, "100k"); }

TYPED_TEST(ThomasBatchTest, FewerSystemsThanStorage) {
  // num_systems < what the storage holds: the first ones are solved, the rest untouched.
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using L = typename TestFixture::L;
  E exec;
  const int m = 10, bs = 8;
  const auto sys = random_tridiagonal<T>(20, m, 99);
  auto st = this->to_device(sys, m, bs, T(7));
  thomas_batch(exec, st.a, st.b, st.c, st.d, 12);
  const auto hd = this->to_host(st.d);
  std::vector<T> x(m);
  for (int s = 0; s < 20; ++s) {
    const std::size_t o = static_cast<std::size_t>(s) * m;
    for (int i = 0; i < m; ++i) x[i] = L::at(hd, s, i, st.bs);
    if (s < 12)
      EXPECT_LE(
          tridiagonal_relative_residual(m, &sys.a[o], &sys.b[o], &sys.c[o], &sys.d[o], x.data()),
          this->tolerance())
          << "system " << s;
    else
      for (int i = 0; i < m; ++i) ASSERT_EQ(x[i], sys.d[o + i]) << "system " << s << " touched";
  }
}

TYPED_TEST(ThomasBatchTest, AutoDependsOnTheBatchSizeForLargeInterleavedSystems) {
  // Full-Interleaved systems of 129-512 rows on GPUs: the warp schedule for batches too small
  // for P2's kernel to fill the GPU, P2's kernel for large or unknown batch sizes; other
  // layouts, sizes and host backends do not depend on the batch size.
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using L = typename TestFixture::L;
  const auto auto_for = [](int m, long long n) {
    return impl::resolve_schedule<E, L, T>(ThomasSchedule::Auto, m, n);
  };
  const long long switch_at = impl::interleaved_warp_auto_max_systems<E>();
  const bool gpu = impl::team_schedule_is_default<E>();
  const bool full = std::is_same<L, layouts::FullInterleaved>::value;
  for (int m : {on_chip_capacity<T, E>() + 1, 256, 512}) {
    if (m <= on_chip_capacity<T, E>() || m <= impl::warp_transposed_auto_rows<T>()) continue;
    const ThomasSchedule small = auto_for(m, 25600), large = auto_for(m, switch_at),
                         unknown = auto_for(m, -1);
    if (gpu && full) {
      EXPECT_EQ(small, ThomasSchedule::WarpPerSystem) << "m = " << m;
      EXPECT_EQ(large, ThomasSchedule::PerSystem) << "m = " << m;
      EXPECT_EQ(unknown, ThomasSchedule::PerSystem) << "m = " << m;
    } else {
      EXPECT_EQ(small, large) << "m = " << m;
      EXPECT_EQ(small, unknown) << "m = " << m;
    }
  }
  if (gpu && full) EXPECT_EQ(auto_for(513, 100), ThomasSchedule::PerSystem);
}

TYPED_TEST(ThomasBatchTest, VBatchBothVariantsAgree) {
  for (const auto schedule : this->schedules()) {
    this->check_vbatch(1000, 64, 32, schedule);
    this->check_vbatch(257, 512, 128, schedule);  // 257 % 128 = 1: one real lane in the last tile
    this->check_vbatch(33, 3, 32, schedule);
    this->check_vbatch(1, 1, 1, schedule);
    this->check_vbatch(2, 2, 32, schedule);
  }
}

TYPED_TEST(ThomasBatchTest, ZeroPivotNamesSystemAndRow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 50;
  auto sys = random_tridiagonal<T>(40, m, 3);
  // a = b = 0 in row 7 of system 13: beta(7) = b - a c' is exactly 0.
  sys.a[13 * m + 7] = T(0);
  sys.b[13 * m + 7] = T(0);
  auto status = make_thomas_status(exec);
  for (const auto schedule : this->schedules()) {
    auto st = this->to_device(sys, m, 32, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, schedule, TestFixture::L::tiled ? 40 : -1);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 13, row 7", "pivot"});
    check_thomas_status(exec, status, m);  // the record was cleared
  }
}

TYPED_TEST(ThomasBatchTest, NanNamesSystemAndRow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 50;
  auto status = make_thomas_status(exec);
  for (const auto schedule : this->schedules()) {
    auto sys = random_tridiagonal<T>(10, m, 4);
    sys.d[6 * m + 20] = this->nan();
    auto st = this->to_device(sys, m, 4, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, schedule, TestFixture::L::tiled ? 10 : -1);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 6, row 20", "non-finite solution"});
    // A NaN coefficient makes its row's pivot non-finite.
    sys = random_tridiagonal<T>(10, m, 5);
    sys.b[2 * m + 31] = std::numeric_limits<T>::infinity();
    st = this->to_device(sys, m, 4, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, schedule, TestFixture::L::tiled ? 10 : -1);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 2, row 31", "pivot"});
  }
}

// The multi-warp shapes name failures like the others: a zero pivot, a NaN right-hand side
// and an infinite coefficient in rows owned by different warps of the block (on
// Full-Interleaved GPU storage 300 rows are 8 warps on 4 systems), and a bad size.
TYPED_TEST(ThomasBatchTest, WarpsFailuresNameSystemAndRow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const auto warp = ThomasSchedule::WarpPerSystem;
  const int tiles = TestFixture::L::tiled ? 6 : -1;
  auto status = make_thomas_status(exec);
  for (int m : {300, 1000}) {  // 1000: 4 warps of 32 lanes x 8 rows on Flat storage
    const std::string pivot_row = std::to_string(m * 7 / 10), nan_row = std::to_string(m * 3 / 10);
    auto sys = random_tridiagonal<T>(6, m, 31);
    sys.a[3 * m + m * 7 / 10] = T(0);
    sys.b[3 * m + m * 7 / 10] = T(0);
    auto st = this->to_device(sys, m, 4, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, warp, tiles);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 3, row " + pivot_row + ":", "pivot"});
    sys = random_tridiagonal<T>(6, m, 32);
    sys.d[1 * m + m * 3 / 10] = this->nan();
    st = this->to_device(sys, m, 4, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, warp, tiles);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 1, row " + nan_row + ":", "non-finite solution"});
    sys = random_tridiagonal<T>(6, m, 33);
    sys.b[4 * m + m - 1] = std::numeric_limits<T>::infinity();
    st = this->to_device(sys, m, 4, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, warp, tiles);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {"system 4, row " + std::to_string(m - 1) + ":", "pivot"});
  }
  // A bad size among systems of up to 400 or 600 rows: not solved, reported, others solved.
  for (int m_max : {400, 600}) {
    auto sys2 = random_tridiagonal<T>(this->random_sizes(20, m_max, 34), 35);
    auto bad_sizes = this->sizes_of(sys2);
    bad_sizes[11] = m_max + 1;
    auto bad = this->int_view(bad_sizes);
    auto st2 = this->to_device(sys2, m_max, 4, this->nan());
    thomas_vbatch_no_computing_padding(exec, st2.a, st2.b, st2.c, st2.d, bad, status, warp);
    this->expect_input_error([&] { check_thomas_status(exec, status, m_max); },
                             {"system 11", "invalid size"});
    using L = typename TestFixture::L;
    const auto hd = this->to_host(st2.d);
    for (int i = 0; i < sys2.size(11); ++i)
      ASSERT_EQ(L::at(hd, 11, i, st2.bs), sys2.d[sys2.offsets[11] + i]);
  }
}

TYPED_TEST(ThomasBatchTest, VBatchFailuresAndBadSizes) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m_max = 40;
  auto sys = random_tridiagonal<T>(this->random_sizes(50, m_max, 11), 12);
  const int s = 17, row = sys.size(17) - 1;
  sys.a[sys.offsets[s] + row] = T(0);
  sys.b[sys.offsets[s] + row] = T(0);
  const auto sizes = this->sizes_view(sys);
  auto status = make_thomas_status(exec);
  const std::string where = "system 17, row " + std::to_string(row);
  for (const auto schedule : this->schedules()) {
    {
      auto st = this->to_device(sys, m_max, 32, this->nan());
      thomas_vbatch_no_computing_padding(exec, st.a, st.b, st.c, st.d, sizes, status, schedule);
      this->expect_solver_error([&] { check_thomas_status(exec, status, m_max); },
                                {where, "pivot"});
    }
    {
      auto st = this->to_device(sys, m_max, 32, this->nan());
      pad_vbatch(exec, st.a, st.b, st.c, st.d, sizes);
      thomas_vbatch_computing_padding(exec, st.a, st.b, st.c, st.d, sizes, status, schedule);
      this->expect_solver_error([&] { check_thomas_status(exec, status, m_max); },
                                {where, "pivot"});
    }
  }
  // Size 0 and a size past m_max: not solved, reported through the status (smallest
  // system first) and by the opt-in host check.
  auto sys2 = random_tridiagonal<T>(this->random_sizes(50, m_max, 13), 14);
  auto bad_sizes = this->sizes_of(sys2);
  bad_sizes[9] = m_max + 1;
  bad_sizes[5] = 0;
  auto bad = this->int_view(bad_sizes);
  this->expect_input_error([&] { check_vbatch_sizes(exec, bad, m_max); }, {"system 5", "size 0"});
  for (int variant = 0; variant < 8; ++variant) {
    const auto schedule = variant < 2   ? ThomasSchedule::PerSystem
                          : variant < 4 ? ThomasSchedule::TeamPerSystem
                          : variant < 6 ? ThomasSchedule::WarpPerSystem
                                        : ThomasSchedule::PerSystemOnChip;
    auto st = this->to_device(sys2, m_max, 32, this->nan());
    if (variant % 2 == 0) {
      pad_vbatch(exec, st.a, st.b, st.c, st.d, bad);
      thomas_vbatch_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, schedule);
    } else {
      thomas_vbatch_no_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, schedule);
    }
    this->expect_input_error([&] { check_thomas_status(exec, status, m_max); },
                             {"system 5", "invalid size"});
    check_thomas_status(exec, status, m_max);  // cleared
    // The bad systems were not touched.
    using L = typename TestFixture::L;
    const auto hd = this->to_host(st.d);
    for (int bad_s : {5, 9})
      for (int i = 0; i < sys2.size(bad_s); ++i)
        ASSERT_EQ(L::at(hd, bad_s, i, st.bs), sys2.d[sys2.offsets[bad_s] + i]);
  }
}

TYPED_TEST(ThomasBatchTest, BadExtentsRejected) {
  using E = typename TestFixture::E;
  using L = typename TestFixture::L;
  using View = typename TestFixture::View;
  E exec;
  const int n = 40, m = 10, bs = L::tiled ? 16 : 1;
  View a = this->alloc("a", n, m, bs), b = this->alloc("b", n, m, bs),
       c = this->alloc("c", n, m, bs), d = this->alloc("d", n, m, bs);
  View longer = this->alloc("longer", n, m + 1, bs);
  View fewer = this->alloc("fewer", L::tiled ? n - bs : n - 1, m, bs);
  this->expect_input_error([&] { thomas_batch(exec, a, longer, c, d); }, {"b has extents", "11"});
  this->expect_input_error([&] { thomas_batch(exec, a, b, c, longer); }, {"a has extents"});
  this->expect_input_error([&] { thomas_batch(exec, fewer, b, c, d); }, {"a has extents"});
  const int slots = L::tiled ? 48 : n;  // 3 tiles of 16
  this->expect_input_error([&] { thomas_batch(exec, a, b, c, d, slots + 1); },
                           {"num_systems", std::to_string(slots + 1)});
  this->expect_input_error([&] { thomas_batch(exec, a, b, c, d, -2); }, {"num_systems"});
  View empty_rows = this->alloc("e", n, 0, bs);
  this->expect_input_error(
      [&] { thomas_batch(exec, empty_rows, empty_rows, empty_rows, empty_rows); }, {"row"});
  // ThomasVBatch: sizes must match the storage's systems (tiles for Block-Interleaved).
  typename TestFixture::IntView sizes_wrong("sizes", L::tiled ? 3 * bs + 1 : n + 1);
  this->expect_input_error(
      [&] { thomas_vbatch_no_computing_padding(exec, a, b, c, d, sizes_wrong); }, {"system"});
  this->expect_input_error([&] { thomas_vbatch_computing_padding(exec, a, b, c, d, sizes_wrong); },
                           {"system"});
  this->expect_input_error([&] { pad_vbatch(exec, a, b, c, d, sizes_wrong); }, {"system"});
  typename TestFixture::IntView sizes_ok("sizes", n);
  this->expect_input_error(
      [&] { thomas_vbatch_no_computing_padding(exec, a, b, longer, d, sizes_ok); },
      {"c has extents"});
}

// ------------------------------------------------------------------------------------
// ThomasVBatch on packed storage (one layout: it has its own).
using PackedConfigs =
    AsGtestTypes<ConfigProduct<std::tuple<float, double>, std::tuple<layouts::Flat>,
                               EnabledExecutionSpaces>::tuple>::type;
template <class C>
class ThomasPackedTest : public ThomasFixture<C> {
 public:
  using T = typename C::scalar_type;
  using Rows = typename ThomasFixture<C>::Rows;
  using IntView = typename ThomasFixture<C>::IntView;
  static constexpr int kSlack = 7;  // rows past offsets(N), poisoned, must stay untouched

  static Rows rows_view(const std::vector<T>& src) {
    auto v = ThomasFixture<C>::template no_init<Rows>("rows", src.size() + kSlack);
    auto h = Kokkos::create_mirror_view(v);
    ThomasFixture<C>::fill_host(h, std::numeric_limits<T>::quiet_NaN());
    for (std::size_t k = 0; k < src.size(); ++k) h(k) = src[k];
    Kokkos::deep_copy(v, h);
    return v;
  }
  static IntView offsets_view(const std::vector<int>& offsets) {
    return ThomasFixture<C>::int_view(offsets);
  }
  static std::vector<T> to_vector(const Rows& v) {
    auto h = Kokkos::create_mirror_view(v);
    if (h.data() != v.data()) ThomasFixture<C>::fill_host(h, T(-1));  // poisoned read-back buffer
    Kokkos::deep_copy(h, v);
    return std::vector<T>(h.data(), h.data() + h.extent(0));
  }
};
TYPED_TEST_SUITE(ThomasPackedTest, PackedConfigs);

TYPED_TEST(ThomasPackedTest, MatchesReference) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const std::vector<std::pair<int, int>> cases{
      {1000, 512}, {33, 3}, {1, 1}, {2, 2}, {100, 1024}, {70, 40}, {40, 200}, {3, 8192}, {4, 9000}};
  for (const auto schedule :
       {ThomasSchedule::PerSystem, ThomasSchedule::WarpPerSystem, ThomasSchedule::Auto})
    for (const auto& [num_systems, max_size] : cases) {
      // c holds c' only where the one-thread kernel ran (the warp schedule takes <= 8,192 rows).
      const bool c_prime =
          schedule == ThomasSchedule::PerSystem || max_size > impl::kWarpMaxRows ||
          (schedule == ThomasSchedule::Auto && !impl::team_schedule_is_default<E>());
      const auto sys = random_tridiagonal<T>(
          this->random_sizes(num_systems, max_size, this->next_seed()), this->next_seed());
      auto a = this->rows_view(sys.a), b = this->rows_view(sys.b), c = this->rows_view(sys.c),
           d = this->rows_view(sys.d);
      auto offsets = this->offsets_view(sys.offsets);
      auto status = make_thomas_status(exec);
      thomas_vbatch_packed(exec, a, b, c, d, offsets, status, schedule);
      check_thomas_status(exec, status, offsets);
      const auto x = this->to_vector(d), cp = this->to_vector(c), ha = this->to_vector(a),
                 hb = this->to_vector(b);
      std::vector<long double> xr(static_cast<std::size_t>(sys.max_size())), cr(xr.size());
      for (int s = 0; s < num_systems; ++s) {
        const int m = sys.size(s);
        const std::size_t o = static_cast<std::size_t>(sys.offsets[s]);
        const double res =
            tridiagonal_relative_residual(m, &sys.a[o], &sys.b[o], &sys.c[o], &sys.d[o], &x[o]);
        ASSERT_LE(res, this->tolerance()) << "packed system " << s << " m=" << m;
        thomas_reference(m, &sys.a[o], &sys.b[o], &sys.c[o], &sys.d[o], xr.data(), cr.data());
        for (int i = 0; i < m; ++i) {
          ASSERT_LE(std::abs(double(x[o + i] - xr[i])),
                    this->tolerance() * (1 + std::abs(double(xr[i]))))
              << "packed system " << s << " row " << i;
          ASSERT_TRUE(this->same(ha[o + i], sys.a[o + i]) && this->same(hb[o + i], sys.b[o + i]));
          if (i < m - 1 && c_prime)
            ASSERT_LE(std::abs(double(cp[o + i] - cr[i])),
                      this->tolerance() * (1 + std::abs(double(cr[i]))));
          else if (i < m - 1)
            ASSERT_TRUE(this->same(cp[o + i], sys.c[o + i])) << "c changed, system " << s;
          else
            ASSERT_TRUE(std::isnan(cp[o + i])) << "c of the last row written, system " << s;
        }
      }
      for (std::size_t k = sys.rows(); k < x.size(); ++k)
        ASSERT_TRUE(std::isnan(x[k]) && std::isnan(cp[k])) << "slack row " << k << " touched";
    }
}

TYPED_TEST(ThomasPackedTest, FailuresAndBadOffsets) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  for (const auto schedule : {ThomasSchedule::PerSystem, ThomasSchedule::WarpPerSystem}) {
    auto sys = random_tridiagonal<T>(std::vector<int>{5, 1, 8, 6, 2, 9}, 21);
    sys.a[sys.offsets[3] + 2] = T(0);
    sys.b[sys.offsets[3] + 2] = T(0);
    auto a = this->rows_view(sys.a), b = this->rows_view(sys.b), c = this->rows_view(sys.c),
         d = this->rows_view(sys.d);
    auto offsets = this->offsets_view(sys.offsets);
    auto status = make_thomas_status(exec);
    thomas_vbatch_packed(exec, a, b, c, d, offsets, status, schedule);
    this->expect_solver_error([&] { check_thomas_status(exec, status, offsets); },
                              {"system 3, row 2", "pivot"});
    // NaN in d of a size-1 system.
    sys = random_tridiagonal<T>(std::vector<int>{5, 1, 8}, 22);
    sys.d[5] = std::numeric_limits<T>::quiet_NaN();
    a = this->rows_view(sys.a), b = this->rows_view(sys.b), c = this->rows_view(sys.c),
    d = this->rows_view(sys.d);
    offsets = this->offsets_view(sys.offsets);
    thomas_vbatch_packed(exec, a, b, c, d, offsets, status, schedule);
    this->expect_solver_error([&] { check_thomas_status(exec, status, offsets); },
                              {"system 1, row 0", "non-finite"});
    // An empty system (size 0) and offsets past the storage.
    auto empty = this->offsets_view({0, 5, 5, 14});
    this->expect_input_error([&] { check_vbatch_offsets(exec, empty, 14); },
                             {"system 1", "size 0"});
    thomas_vbatch_packed(exec, a, b, c, d, empty, status, schedule);
    this->expect_input_error([&] { check_thomas_status(exec, status, empty); },
                             {"system 1", "invalid size"});
    auto past = this->offsets_view({0, 5, 6, 14 + 7 + 1});
    this->expect_input_error([&] { check_vbatch_offsets(exec, past, a.extent(0)); }, {"past"});
    thomas_vbatch_packed(exec, a, b, c, d, past, status, schedule);
    this->expect_input_error([&] { check_thomas_status(exec, status, past); }, {"system 2"});
    // Mismatched extents.
    typename TestFixture::Rows shorter("shorter", a.extent(0) - 1);
    this->expect_input_error(
        [&] { thomas_vbatch_packed(exec, a, b, shorter, d, offsets, schedule); },
        {"c has extents"});
  }
}

// The oracle itself: the residual catches a solver that swaps a and c (solves the
// transpose).
TEST(ThomasReference, ResidualCatchesSwappedOffDiagonals) {
  const int m = 100;
  const auto sys = random_tridiagonal<double>(3, m, 1);
  std::vector<long double> x(m), xt(m);
  std::vector<double> at(m), ct(m);
  for (int s = 0; s < 3; ++s) {
    const std::size_t o = static_cast<std::size_t>(s) * m;
    const double *a = &sys.a[o], *b = &sys.b[o], *c = &sys.c[o], *d = &sys.d[o];
    thomas_reference(m, a, b, c, d, x.data());
    EXPECT_LE(tridiagonal_relative_residual(m, a, b, c, d, x.data()), 1e-15);
    for (int i = 0; i < m; ++i) {  // the transpose: sub-diagonal c(i-1), super-diagonal a(i+1)
      at[i] = i > 0 ? c[i - 1] : 0.0;
      ct[i] = i < m - 1 ? a[i + 1] : 0.0;
    }
    thomas_reference(m, at.data(), b, ct.data(), d, xt.data());
    EXPECT_GT(tridiagonal_relative_residual(m, a, b, c, d, xt.data()), 1e-3);
  }
}

}  // namespace
