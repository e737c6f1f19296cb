// ThomasBatch and ThomasVBatch, every layout x {float, double} x backend, against a
// sequential long-double Thomas and a long-double residual, on fresh random diagonally
// dominant systems (a != c, a(0) and c(m-1) NaN so reading them fails). Storage padding is
// poisoned before the run (NaN rows, sentinel lanes) and checked afterwards, and the
// read-back buffers start as NaN so an unwritten element fails.

#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/solvers/impl/thomas_on_chip.hpp"
#include "hinesbatch/solvers/impl/thomas_system.hpp"
#include "hinesbatch/solvers/impl/thomas_warp.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"
#include "thomas_fixture.hpp"

namespace {

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

// The warp schedule's shapes: groups of 2, 4, 8 and 16 lanes, every rows-per-lane count (4, 6,
// 8, 10, 12), rows not a multiple of the lanes, lanes of padding rows only, systems fewer than the
// four per team, the edges of every shape, and sizes past its register limit (taken by the team
// schedule).
TYPED_TEST(ThomasBatchTest, WarpScheduleShapes) {
  for (int m :
       {1,   2,   6,   8,   9,   16,  17,  31,  33,  63,  64,  65,  100, 127, 128, 129, 192,
        193, 255, 256, 257, 300, 320, 321, 384, 385, 511, 512, 513, 640, 641, 768, 769, 1000})
    for (int n : {1, 3, 5, 33})
      this->check_fixed(m, n, 32, "warp-shapes", ThomasSchedule::WarpPerSystem);
  // The multi-warp shapes (2 ... 32 warps of a block), their edges, and past the largest
  // (the team schedule takes over).
  for (int m : {1023, 1024, 1025, 1280, 1281, 1536, 1537, 2048, 2560, 2561,
                3000, 3072, 3073, 4096, 4097, 6144, 6145, 8191, 8192, 8193})
    for (int n : {1, 3}) this->check_fixed(m, n, 32, "warps-shapes", ThomasSchedule::WarpPerSystem);
}

// Every size the warp schedule takes has a shape that holds it, with registers a block can
// give (more than eight rows a lane on at most kWarpWideRowsMaxWarps warps), and past 128 rows
// no shape leaves a third of its rows or more as padding.
TEST(WarpThomasShape, EverySizeFitsWithLittlePadding) {
  using hinesbatch::impl::WarpThomasShape;
  for (int m = 1; m <= hinesbatch::impl::kWarpMaxRows; ++m) {
    const WarpThomasShape s = WarpThomasShape::for_rows(m);
    const int capacity = s.lanes * s.rows_per_lane;
    ASSERT_GE(capacity, m) << "m = " << m;
    ASSERT_TRUE(s.rows_per_lane <= hinesbatch::impl::kWarpRowsPerLane ||
                s.warps() <= hinesbatch::impl::kWarpWideRowsMaxWarps)
        << "m = " << m << ": " << s.rows_per_lane << " rows on " << s.warps() << " warps";
    if (m > 128) ASSERT_GT(3 * m, 2 * capacity) << "m = " << m << ": capacity " << capacity;
  }
  EXPECT_EQ(WarpThomasShape::for_rows(hinesbatch::impl::kWarpMaxRows + 1).lanes, 0);
}

// The in-step sweep (interleaved systems of different sizes on a GPU; run here on the host,
// since the GPU suite reaches it only through the schedules): each system stepped through
// more rows than it has is solved as thomas_solve_system solves it alone, against the
// long-double reference, without reading or writing the rows past its size, and a failure is
// named at the same row.
TEST(ThomasInStep, SolvesEachSystemAsAloneWithoutTouchingThePadding) {
  using hinesbatch::thomas_solve_system;
  using hinesbatch::thomas_solve_system_in_step;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  struct Rows {  // a system's rows, as the solvers index them
    double* p;
    double& operator()(int i) const { return p[i]; }
  };
  std::uint64_t seed = 0x15a7e9;
  for (const int m : {1, 2, 3, 7, 64, 301})
    for (const int steps : {m, m + 1, 2 * m + 5}) {
      const auto sys = random_tridiagonal<double>(1, m, ++seed);
      auto padded = [&](const std::vector<double>& v) {
        std::vector<double> out(v);
        out.resize(static_cast<std::size_t>(steps), nan);  // read: NaN spreads; written: seen
        return out;
      };
      auto a = padded(sys.a), b = padded(sys.b), c = padded(sys.c), d = padded(sys.d);
      auto c1 = c, d1 = d;
      const auto f = thomas_solve_system_in_step(m, steps, Rows{a.data()}, Rows{b.data()},
                                                 Rows{c.data()}, Rows{d.data()});
      const auto f1 =
          thomas_solve_system(m, Rows{a.data()}, Rows{b.data()}, Rows{c1.data()}, Rows{d1.data()});
      EXPECT_EQ(f.bad_pivot, -1);
      EXPECT_EQ(f.bad_solution, -1);
      std::vector<long double> x(static_cast<std::size_t>(m));
      thomas_reference(m, sys.a.data(), sys.b.data(), sys.c.data(), sys.d.data(), x.data());
      for (int i = 0; i < m; ++i) {
        ASSERT_NEAR(d[i], static_cast<double>(x[i]), 1e-12 * (1 + std::abs(double(x[i]))))
            << "m " << m << " steps " << steps << " row " << i << " seed " << seed;
        ASSERT_EQ(d[i], d1[i]) << "m " << m << " steps " << steps << " row " << i;
      }
      for (int i = m; i < steps; ++i) {
        ASSERT_TRUE(std::isnan(c[i]) && std::isnan(d[i])) << "padding row " << i << " written";
      }
      // A NaN pivot and a NaN right-hand side at random rows: the rows thomas_solve_system
      // names.
      std::mt19937_64 gen(seed);
      for (int trial = 0; trial < 3; ++trial) {
        auto b2 = padded(sys.b), c2 = padded(sys.c), d2 = padded(sys.d);
        auto b3 = b2, c3 = c2, d3 = d2;
        const int row = static_cast<int>(gen() % static_cast<unsigned>(m));
        (trial == 0 ? b2 : d2)[static_cast<std::size_t>(row)] = nan;
        (trial == 0 ? b3 : d3)[static_cast<std::size_t>(row)] = nan;
        const auto g = thomas_solve_system_in_step(m, steps, Rows{a.data()}, Rows{b2.data()},
                                                   Rows{c2.data()}, Rows{d2.data()});
        const auto g1 = thomas_solve_system(m, Rows{a.data()}, Rows{b3.data()}, Rows{c3.data()},
                                            Rows{d3.data()});
        EXPECT_EQ(g.bad_pivot, g1.bad_pivot) << "m " << m << " row " << row;
        EXPECT_EQ(g.bad_solution, g1.bad_solution) << "m " << m << " row " << row;
        EXPECT_TRUE(g.bad_pivot >= 0 || g.bad_solution >= 0) << "m " << m << " row " << row;
      }
    }
}

// The on-chip sweep in step: lanes of different sizes (interleaved, as a warp's systems lie)
// step through the same rows; each system is solved as the sweep not in step solves it alone,
// the rows past its size are neither read nor written, and failures are named at the same rows.
TEST(ThomasInStep, OnChipSolvesEachLaneAsAloneWithoutTouchingThePadding) {
  using hinesbatch::impl::thomas_solve_on_chip;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const int lanes = 5;
  std::uint64_t seed = 0x0c41f;
  for (const int kept : {1, 3, 8, 9, 16, 80})
    for (const int steps : {1, 2, 9, 17, 64, 100}) {
      std::mt19937_64 gen(++seed);
      std::vector<int> rows(lanes);
      for (int l = 0; l < lanes; ++l)
        rows[l] = l == 0 ? steps : 1 + static_cast<int>(gen() % static_cast<unsigned>(steps));
      const auto sys = random_tridiagonal<double>(lanes, steps, seed);
      // Interleaved: row i of lane l at i * lanes + l; rows past a lane's size are NaN.
      auto interleave = [&](const std::vector<double>& v) {
        std::vector<double> out(static_cast<std::size_t>(steps * lanes), nan);
        for (int l = 0; l < lanes; ++l)
          for (int i = 0; i < rows[l]; ++i) out[i * lanes + l] = v[l * steps + i];
        return out;
      };
      for (int trial = -1; trial < 2; ++trial) {  // none, a NaN pivot, a NaN right-hand side
        auto b0 = sys.b, d0 = sys.d;
        const int bad_lane = static_cast<int>(gen() % lanes);
        const int bad_row = static_cast<int>(gen() % static_cast<unsigned>(rows[bad_lane]));
        if (trial >= 0) (trial == 0 ? b0 : d0)[bad_lane * steps + bad_row] = nan;
        const auto a = interleave(sys.a), b = interleave(b0);
        auto c = interleave(sys.c), d = interleave(d0), c1 = c, d1 = d;
        std::vector<double> sc(static_cast<std::size_t>(kept * lanes), nan), sd(sc), sc1(sc),
            sd1(sc);
        for (int l = 0; l < lanes; ++l) {
          const auto f = thomas_solve_on_chip<double, true>(
              rows[l], kept, a.data() + l, b.data() + l, c.data() + l, d.data() + l, lanes,
              sc.data() + l, sd.data() + l, lanes, steps);
          const auto f1 = thomas_solve_on_chip<double>(rows[l], kept, a.data() + l, b.data() + l,
                                                       c1.data() + l, d1.data() + l, lanes,
                                                       sc1.data() + l, sd1.data() + l, lanes);
          EXPECT_EQ(f.bad_pivot, f1.bad_pivot) << "lane " << l << " trial " << trial;
          EXPECT_EQ(f.bad_solution, f1.bad_solution) << "lane " << l << " trial " << trial;
          if (trial >= 0 && l == bad_lane)
            EXPECT_TRUE(f.bad_pivot >= 0 || f.bad_solution >= 0) << "row " << bad_row;
          if (trial >= 0) continue;
          std::vector<long double> x(static_cast<std::size_t>(rows[l]));
          thomas_reference(rows[l], &sys.a[l * steps], &sys.b[l * steps], &sys.c[l * steps],
                           &sys.d[l * steps], x.data());
          for (int i = 0; i < rows[l]; ++i) {
            const double xi = static_cast<double>(x[i]);
            ASSERT_NEAR(d[i * lanes + l], xi, 1e-12 * (1 + std::abs(xi)))
                << "kept " << kept << " steps " << steps << " lane " << l << " row " << i;
            ASSERT_EQ(d[i * lanes + l], d1[i * lanes + l]) << "lane " << l << " row " << i;
          }
        }
        for (int l = 0; l < lanes; ++l)
          for (int i = rows[l]; i < steps; ++i)
            ASSERT_TRUE(std::isnan(c[i * lanes + l]) && std::isnan(d[i * lanes + l]))
                << "lane " << l << " padding row " << i << " written";
      }
    }
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

// Failures in the kept and the swept rows are named as the ThomasBatch paper's kernel names them.
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

// Full-Interleaved tiles on a host: interleaved_tile_lanes systems, two vectors for long
// systems (rows of one array of a tile past 4 MiB); full and partial tiles of both.
TYPED_TEST(ThomasBatchTest, InterleavedTilesWideAndForLongSystemsNarrow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  const int wide = interleaved_tile_lanes<T, E>(), narrow = simd_tile_lanes<T, E>();
  EXPECT_EQ((interleaved_tile_lanes<T, E>(1000)), wide);
  EXPECT_EQ((interleaved_tile_lanes<T, E>(40000)), narrow);
  for (const auto schedule : {ThomasSchedule::SimdTiles, ThomasSchedule::Auto})
    for (int m : {1000, 40000})
      for (int num : {wide + 5, 2 * narrow + 1})
        this->check_fixed(m, num, 32, "interleaved tiles", schedule);
}

// A host sweep asks for its rows a few ahead where a tile's rows lie more than 2 KiB apart
// (Full-Interleaved storage of many systems): systems shorter than, as long as and longer
// than that distance solve right with it.
TYPED_TEST(ThomasBatchTest, InterleavedTilesWithRowsFarApart) {
  using T = typename TestFixture::T;
  if (!std::is_same<typename TestFixture::L, layouts::FullInterleaved>::value)
    GTEST_SKIP() << "rows far apart: Full-Interleaved storage";
  const int num = static_cast<int>(2048 / sizeof(T)) + 37;
  for (const auto schedule : {ThomasSchedule::SimdTiles, ThomasSchedule::Auto}) {
    for (int m = 1; m <= impl::kTilePrefetchRows + 3; ++m)
      this->check_fixed(m, num, 32, "rows far apart", schedule);
    this->check_fixed(700, num, 32, "rows far apart", schedule);
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

TYPED_TEST(ThomasBatchTest, AutoTakesTheSolverMapsChoiceOnGpus) {
  // On GPUs, double Flat and Full-Interleaved batches take the schedule the solver map
  // measured fastest at the nearest point (src/solvers/auto_thomas_table.hpp), at every size: at
  // every point of the table exactly that one (the warp schedule past its largest shape is
  // the team schedule, as when it is asked for). The other batches, past 8,192 rows: the
  // two-pass block in Flat storage (any batch), the in-memory team in the other layouts in
  // batches of fewer than impl::in_memory_team_auto_max_systems. Elsewhere Auto does not
  // depend on the batch size except for Full-Interleaved systems of 129-512 rows on GPUs
  // (float), and never on host backends.
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using L = typename TestFixture::L;
  const auto auto_for = [](int m, long long n) {
    return impl::resolve_schedule<E, L, T>(ThomasSchedule::Auto, m, n);
  };
  const bool gpu = !is_host_backend<E>();
  const bool flat = std::is_same<L, layouts::Flat>::value;
  const bool full = std::is_same<L, layouts::FullInterleaved>::value;
  const bool table = gpu && std::is_same<T, double>::value && (flat || full);
  if (gpu && !table) {
    const long long few = impl::in_memory_team_auto_max_systems<E>();
    for (int m : {impl::kWarpMaxRows + 1, 20000, 100000}) {
      if (flat) {
        EXPECT_EQ(auto_for(m, few - 1), ThomasSchedule::TeamPerSystemTwoPass) << "m = " << m;
        EXPECT_EQ(auto_for(m, 100 * few), ThomasSchedule::TeamPerSystemTwoPass) << "m = " << m;
      } else {
        EXPECT_EQ(auto_for(m, few - 1), ThomasSchedule::TeamPerSystemInMemory) << "m = " << m;
        EXPECT_NE(auto_for(m, few), ThomasSchedule::TeamPerSystemInMemory) << "m = " << m;
      }
    }
    EXPECT_NE(auto_for(impl::kWarpMaxRows, 1), ThomasSchedule::TeamPerSystemInMemory);
    EXPECT_NE(auto_for(impl::kWarpMaxRows, 1), ThomasSchedule::TeamPerSystemTwoPass);
  }
  if (table) {
    const auto check = [&](const auto& points) {
      for (const auto& p : points) {
        ThomasSchedule want = p.schedule;
        const long long systems = (1ll << p.total_log2) / p.size;
        if (want == ThomasSchedule::WarpPerSystem && p.size > impl::kWarpMaxRows)
          want = ThomasSchedule::TeamPerSystem;
        EXPECT_EQ(auto_for(p.size, systems), want)
            << "m = " << p.size << ", 2^" << p.total_log2 << " rows";
      }
    };
    if (flat) check(impl::auto_table(impl::ThomasAutoTable::Flat));
    if (full) check(impl::auto_table(impl::ThomasAutoTable::FullInterleaved));
    return;
  }
  if (!gpu) {
    // Tiles of consecutive systems, vectorised over them.
    const ThomasSchedule want = ThomasSchedule::SimdTiles;
    for (int m : {2, 100, 257, 5000})
      for (long long n : {1ll, 4000ll, 256000ll, -1ll})
        EXPECT_EQ(auto_for(m, n), want) << "m = " << m << ", N = " << n;
    return;
  }
  const long long switch_at = impl::interleaved_warp_auto_max_systems<E>();
  for (int m : {on_chip_capacity<T, E>() + 1, 256, 512}) {
    if (m <= on_chip_capacity<T, E>() || m <= impl::warp_transposed_auto_rows<T>()) continue;
    const ThomasSchedule small = auto_for(m, 25600), large = auto_for(m, switch_at),
                         unknown = auto_for(m, -1);
    if (full) {
      EXPECT_EQ(small, ThomasSchedule::WarpPerSystem) << "m = " << m;
      EXPECT_EQ(large, ThomasSchedule::PerSystem) << "m = " << m;
      EXPECT_EQ(unknown, ThomasSchedule::PerSystem) << "m = " << m;
    } else {
      EXPECT_EQ(small, large) << "m = " << m;
      EXPECT_EQ(small, unknown) << "m = " << m;
    }
  }
}

TYPED_TEST(ThomasBatchTest, VBatchBothVariantsAgree) {
  for (const auto schedule : this->schedules()) {
    this->check_vbatch(1000, 64, 32, schedule);
    this->check_vbatch(257, 512, 128, schedule);  // 257 % 128 = 1: one real lane in the last tile
    this->check_vbatch(33, 3, 32, schedule);
    this->check_vbatch(1, 1, 1, schedule);
    this->check_vbatch(2, 2, 32, schedule);
  }
  // Batches where Auto's ThomasVBatch tables choose differently for the padding computed or
  // not, and between one thread and a warp or team a system (GPUs only: hosts have no table).
  if (!is_host_backend<typename TestFixture::E>()) {
    this->check_vbatch(20000, 16, 32);
    this->check_vbatch(3000, 300, 32);
    this->check_vbatch(200, 9000, 32);
  }
}

}  // namespace
