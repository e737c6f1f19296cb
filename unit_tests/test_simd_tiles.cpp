// The SIMD-tile schedule (solvers/simd_tiles_solve.hpp): Hines and ThomasBatch solved a
// tile of W systems at a time, {float, double} x every backend, W the backend's tile
// width and other block sizes, partial last tiles. Checked against the sequential Hines
// algorithm and a long-double residual / dense LU (Hines), a long-double Thomas (Thomas),
// on fresh random diagonally dominant systems; storage padding lanes are NaN (Hines) or a
// sentinel (Thomas) so that a solved padding lane fails, read-back buffers start as NaN
// so that an unwritten element fails; failures named by system and node / row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "backends.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/hines_serial.hpp"
#include "hinesbatch/solvers/simd_tiles_solve.hpp"
#include "hinesbatch/solvers/thomas_simd_tiles.hpp"
#include "random_systems.hpp"
#include "shared_data.hpp"
#include "thomas_reference.hpp"

namespace {

using namespace hinesbatch;
using namespace hinesbatch::test;

using SimdTileConfigs =
    AsGtestTypes<ConfigProduct<std::tuple<float, double>, std::tuple<layouts::BlockInterleaved>,
                               EnabledExecutionSpaces>::tuple>::type;

template <class C>
class SimdTiles : public ::testing::Test {
 public:
  using T = typename C::scalar_type;
  using E = typename C::execution_space;
  using Mem = typename E::memory_space;
  using Batch = HinesBatch<T, layouts::BlockInterleaved, Mem>;
  using View = typename Batch::view_type;

  static constexpr int W = simd_tile_lanes<T, E>();
  static double tolerance() { return std::is_same<T, float>::value ? 1e-4 : 1e-12; }
  static T nan() { return std::numeric_limits<T>::quiet_NaN(); }
  static std::uint64_t next_seed() {
    static std::uint64_t seed = 0x51d711e5;
    return ++seed;
  }

  // ---- Hines ------------------------------------------------------------------------

  // Solves num_systems random systems on tree with the SIMD-tile schedule, every element
  // of the storage (padding lanes included) NaN before the fill; returns x read back.
  static std::vector<T> solve_tiles(const Tree& tree, const HostSystems<T>& in, int bs,
                                    bool tile_fill = false) {
    E exec;
    Batch batch(in.num_systems, tree.size(), bs);
    Kokkos::deep_copy(batch.u(), nan());
    Kokkos::deep_copy(batch.l(), nan());
    Kokkos::deep_copy(batch.d(), nan());
    Kokkos::deep_copy(batch.rhs(), nan());
    if (tile_fill)
      fill_tiles(exec, batch, in.u, in.l, in.d, in.rhs);
    else
      batch.fill(exec, in.u, in.l, in.d, in.rhs);
    solve_simd_tiles(exec, DeviceTree<Mem>(exec, tree), batch);
    batch.check(exec);  // NaN padding lanes, had they been solved, would fail here
    std::vector<T> x(in.rhs.size(), nan());
    batch.solution_to_host(exec, x);
    return x;
  }

  // x against the sequential algorithm (same precision) and the long-double residual.
  static void expect_correct(const Tree& tree, const HostSystems<T>& in, const std::vector<T>& x,
                             const std::string& what) {
    const int n = tree.size();
    std::vector<T> d = in.d, ref = in.rhs;
    hines_solve_serial_batch(tree, in.num_systems, in.u.data(), in.l.data(), d.data(), ref.data());
    for (int s = 0; s < in.num_systems; ++s) {
      const std::size_t o = static_cast<std::size_t>(s) * n;
      long double dd = 0, rr = 0;
      for (int i = 0; i < n; ++i) {
        ASSERT_FALSE(std::isnan(x[o + i])) << what << ": unwritten element s=" << s << " i=" << i;
        const long double diff = (long double)x[o + i] - ref[o + i];
        dd += diff * diff;
        rr += (long double)ref[o + i] * ref[o + i];
      }
      const double r = relative_residual(tree, in.u.data() + o, in.l.data() + o, in.d.data() + o,
                                         in.rhs.data() + o, x.data() + o);
      ASSERT_LE(r, tolerance()) << what << ": system " << s << " relative residual";
      const double rel = rr > 0 ? std::sqrt(double(dd / rr)) : std::sqrt(double(dd));
      ASSERT_LE(rel, 10 * tolerance()) << what << ": system " << s << " differs from sequential";
    }
  }

  static void check_hines(const Tree& tree, int num_systems, const std::string& tag, int bs = W) {
    const std::string what = tag + " n=" + std::to_string(tree.size()) +
                             " N=" + std::to_string(num_systems) + " W=" + std::to_string(bs);
    const auto in = random_systems<T>(tree, num_systems, next_seed());
    expect_correct(tree, in, solve_tiles(tree, in, bs), what);
  }

  // ---- Thomas -----------------------------------------------------------------------

  struct Tiles {
    View a, b, c, d;
    int bs;
  };
  static View tile_view(const char* label, int num_systems, int m, int bs) {
    return layouts::BlockInterleaved::allocate<View>(label, num_systems, m, bs);
  }
  // Storage of the packed systems (all of size m) in tiles of bs lanes, padding lanes set
  // to `pad`.
  static Tiles to_tiles(const TridiagonalSystems<T>& sys, int m, int bs, T pad) {
    const int n = sys.num_systems();
    Tiles t{tile_view("a", n, m, bs), tile_view("b", n, m, bs), tile_view("c", n, m, bs),
            tile_view("d", n, m, bs), bs};
    auto up = [&](const View& v, const std::vector<T>& src) {
      auto h = Kokkos::create_mirror_view(v);
      std::fill(h.data(), h.data() + h.span(), pad);
      for (int s = 0; s < n; ++s)
        for (int i = 0; i < m; ++i)
          layouts::BlockInterleaved::at(h, s, i, bs) = src[static_cast<std::size_t>(s) * m + i];
      Kokkos::deep_copy(v, h);
    };
    up(t.a, sys.a);
    up(t.b, sys.b);
    up(t.c, sys.c);
    up(t.d, sys.d);
    return t;
  }
  static typename View::HostMirror to_host(const View& v) {
    auto h = Kokkos::create_mirror_view(v);
    if (h.data() != v.data()) std::fill(h.data(), h.data() + h.span(), nan());
    Kokkos::deep_copy(h, v);
    return h;
  }
  static bool same(T x, T y) { return (std::isnan(x) && std::isnan(y)) || x == y; }

  static void check_thomas(int m, int num_systems, int bs, const std::string& tag) {
    E exec;
    const std::string what = tag + " m=" + std::to_string(m) + " N=" + std::to_string(num_systems) +
                             " W=" + std::to_string(bs);
    const auto sys = random_tridiagonal<T>(num_systems, m, next_seed());
    const T sentinel = T(7);  // finite: a solved padding lane would change it
    const Tiles t = to_tiles(sys, m, bs, sentinel);
    auto status = make_thomas_status(exec);
    thomas_batch_simd_tiles(exec, t.a, t.b, t.c, t.d, status, num_systems);
    check_thomas_status(exec, status, m);
    const auto ha = to_host(t.a), hb = to_host(t.b), hc = to_host(t.c), hd = to_host(t.d);
    using L = layouts::BlockInterleaved;
    std::vector<long double> xr(static_cast<std::size_t>(m)), cr(xr.size());
    std::vector<T> x(static_cast<std::size_t>(m));
    for (int s = 0; s < num_systems; ++s) {
      const std::size_t o = static_cast<std::size_t>(s) * m;
      const T *a = &sys.a[o], *b = &sys.b[o], *c = &sys.c[o], *d = &sys.d[o];
      thomas_reference(m, a, b, c, d, xr.data(), cr.data());
      long double dd = 0, rr = 0;
      for (int i = 0; i < m; ++i) {
        x[i] = L::at(hd, s, i, bs);
        ASSERT_FALSE(std::isnan(x[i])) << what << ": unwritten x, system " << s << " row " << i;
        dd += (x[i] - xr[i]) * (x[i] - xr[i]);
        rr += xr[i] * xr[i];
        ASSERT_TRUE(same(L::at(ha, s, i, bs), a[i])) << what << ": a changed, s " << s;
        ASSERT_TRUE(same(L::at(hb, s, i, bs), b[i])) << what << ": b changed, s " << s;
        if (i < m - 1)
          ASSERT_LE(std::abs(double(L::at(hc, s, i, bs) - cr[i])),
                    tolerance() * (1 + std::abs(double(cr[i]))))
              << what << ": c' system " << s << " row " << i;
      }
      ASSERT_TRUE(std::isnan(L::at(hc, s, m - 1, bs))) << what << ": c(m-1) written, s " << s;
      ASSERT_LE(tridiagonal_relative_residual(m, a, b, c, d, x.data()), tolerance())
          << what << ": system " << s << " residual";
      ASSERT_LE(std::sqrt(double(rr > 0 ? dd / rr : dd)), tolerance())
          << what << ": system " << s << " differs from the long-double Thomas";
    }
    const int slots = static_cast<int>(hd.extent(0) * hd.extent(2));
    for (int s = num_systems; s < slots; ++s)
      for (int i = 0; i < m; ++i)
        ASSERT_TRUE(L::at(ha, s, i, bs) == sentinel && L::at(hb, s, i, bs) == sentinel &&
                    L::at(hc, s, i, bs) == sentinel && L::at(hd, s, i, bs) == sentinel)
            << what << ": padding lane " << s << " touched";
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
};
TYPED_TEST_SUITE(SimdTiles, SimdTileConfigs);

// ---- Hines --------------------------------------------------------------------------

TYPED_TEST(SimdTiles, HinesTinyTreesAndPartialTiles) {
  constexpr int W = TestFixture::W;
  for (int n : {1, 2, 3})
    for (int num : {1, W - 1 > 0 ? W - 1 : 1, W, W + 1, 3 * W + 2})
      this->check_hines(chain_tree(n), num, "chain");
  this->check_hines(star_tree(4), 5, "star4");
}

TYPED_TEST(SimdTiles, HinesPaperClasses) {
  for (const auto& c : paper_classes())
    for (int num : {1, 33, 1000}) this->check_hines(paper_class_tree(c.id), num, c.name);
}

TYPED_TEST(SimdTiles, HinesHardShapes) {
  this->check_hines(chain_tree(5000), 20, "chain5000");
  this->check_hines(star_tree(1000), 50, "star1000");
  this->check_hines(balanced_binary_tree(12), 20, "binary4095");
  for (unsigned long seed : {7UL, 8UL, 9UL})
    this->check_hines(random_tree(3000, seed), 2 * TestFixture::W + 1, "random3000");
}

TYPED_TEST(SimdTiles, HinesRealCells) {
  const auto cells = real_morphology_trees();
  if (cells.empty()) GTEST_SKIP() << "no morphologies in " << morphology_dir();
  for (std::size_t k = 0; k < cells.size(); ++k)
    this->check_hines(cells[k], 2 * TestFixture::W + 3, "cell" + std::to_string(k));
}

TYPED_TEST(SimdTiles, HinesBlockSizes) {
  // Wider than W (or than max_tile_lanes): solved in passes of W lanes (host).
  for (int bs : {1, 3, 4, 8, 16, 17, 32, 64, max_tile_lanes + 1, 128, 200})
    this->check_hines(paper_class_tree(PaperClass::SmallHigh), 300, "smallhigh", bs);
}

TYPED_TEST(SimdTiles, HinesHundredThousandSystems) {
  this->check_hines(paper_class_tree(PaperClass::SmallLow), 100000, "smalllow");
}

TYPED_TEST(SimdTiles, HinesMatchesDenseLuOnSmallTrees) {
  using T = typename TestFixture::T;
  for (int n : {1, 5, 17, 40}) {
    const Tree tree = random_tree(n, 200 + n);
    const int num = TestFixture::W + 1;
    const auto in = random_systems<T>(tree, num, 2000 + n);
    const auto x = this->solve_tiles(tree, in, TestFixture::W);
    for (int s = 0; s < num; ++s) {
      const std::size_t o = static_cast<std::size_t>(s) * n;
      std::vector<double> u(in.u.begin() + o, in.u.begin() + o + n),
          l(in.l.begin() + o, in.l.begin() + o + n), d(in.d.begin() + o, in.d.begin() + o + n),
          b(in.rhs.begin() + o, in.rhs.begin() + o + n);
      const auto ref = dense_lu_solve(tree, u.data(), l.data(), d.data(), b.data());
      long double dd = 0, xx = 0;
      for (int i = 0; i < n; ++i) {
        dd += (x[o + i] - ref[i]) * (x[o + i] - ref[i]);
        xx += ref[i] * ref[i];
      }
      EXPECT_LE(std::sqrt(double(dd / xx)), 10 * this->tolerance()) << "n=" << n << " s=" << s;
    }
  }
}

TYPED_TEST(SimdTiles, HinesTileFillGivesTheSameAnswer) {
  using T = typename TestFixture::T;
  const Tree tree = paper_class_tree(PaperClass::MediumHigh);
  const auto in = random_systems<T>(tree, 5 * TestFixture::W + 3, this->next_seed());
  const auto x1 = this->solve_tiles(tree, in, TestFixture::W, false);
  const auto x2 = this->solve_tiles(tree, in, TestFixture::W, true);
  ASSERT_EQ(x1.size(), x2.size());
  for (std::size_t k = 0; k < x1.size(); ++k) ASSERT_EQ(x1[k], x2[k]) << "element " << k;
  this->expect_correct(tree, in, x2, "fill_tiles");
}

TYPED_TEST(SimdTiles, HinesZeroPivotAndNanNameSystemAndNode) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using Mem = typename TestFixture::Mem;
  E exec;
  const Tree tree = paper_class_tree(PaperClass::SmallHigh);
  const int n = tree.size(), leaf = n - 1, num = 40;
  auto in = random_systems<T>(tree, num, 3);
  in.d[static_cast<std::size_t>(13) * n + leaf] = T(0);  // a leaf: its pivot is its diagonal
  in.d[static_cast<std::size_t>(27) * n + leaf] = T(0);  // a later system: not reported
  typename TestFixture::Batch batch(num, n, TestFixture::W);
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  const DeviceTree<Mem> dtree(exec, tree);
  solve_simd_tiles(exec, dtree, batch);
  this->expect_solver_error([&] { batch.check(exec); },
                            {"system 13", "node " + std::to_string(leaf), "pivot"});
  batch.check(exec);  // the record was cleared

  in = random_systems<T>(tree, num, 4);
  in.rhs[static_cast<std::size_t>(6) * n + 20] = std::numeric_limits<T>::quiet_NaN();
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  solve_simd_tiles(exec, dtree, batch);
  // The NaN reaches the root in the backward sweep: every node of system 6 is NaN, and the
  // first non-finite solution, as hines_solve_system names it, is node 0.
  this->expect_solver_error([&] { batch.check(exec); }, {"system 6,", "node 0", "non-finite"});

  in = random_systems<T>(tree, num, 5);
  in.d[static_cast<std::size_t>(num - 1) * n + 0] = std::numeric_limits<T>::infinity();
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  solve_simd_tiles(exec, dtree, batch);
  this->expect_solver_error([&] { batch.check(exec); },
                            {"system " + std::to_string(num - 1), "node 0", "pivot"});
}

TYPED_TEST(SimdTiles, HinesBadInputRejected) {
  using E = typename TestFixture::E;
  using Mem = typename TestFixture::Mem;
  E exec;
  typename TestFixture::Batch batch(3, 10, TestFixture::W);
  EXPECT_THROW(solve_simd_tiles(exec, DeviceTree<Mem>(exec, chain_tree(11)), batch), InputError);
}

// ---- Thomas -------------------------------------------------------------------------

TYPED_TEST(SimdTiles, ThomasSizesAndPartialTiles) {
  constexpr int W = TestFixture::W;
  for (int m : {1, 2, 3, 64, 128, 256, 512})
    for (int num : {1, W + 1, 1000}) this->check_thomas(m, num, W, "paper");
  this->check_thomas(1024, 33, W, "large");
}

TYPED_TEST(SimdTiles, ThomasBlockSizes) {
  for (int bs : {1, 3, 4, 8, 16, 32, 64, max_tile_lanes + 1, 128})
    this->check_thomas(64, 300, bs, "blocks");
}

TYPED_TEST(SimdTiles, ThomasHundredThousandSystems) {
  this->check_thomas(5, 100000, TestFixture::W, "100k");
}

TYPED_TEST(SimdTiles, ThomasZeroPivotAndNanNameSystemAndRow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 50, W = TestFixture::W;
  auto status = make_thomas_status(exec);
  auto run = [&](const TridiagonalSystems<T>& sys, int num) {
    const auto t = this->to_tiles(sys, m, W, T(7));
    thomas_batch_simd_tiles(exec, t.a, t.b, t.c, t.d, status, num);
  };
  // a = b = 0 in row 7 of system 13: beta(7) = b - a c' is exactly 0.
  auto sys = random_tridiagonal<T>(40, m, 3);
  sys.a[13 * m + 7] = T(0);
  sys.b[13 * m + 7] = T(0);
  sys.a[13 * m + 30] = T(0);  // a second zero pivot in the same system: the first is named
  sys.b[13 * m + 30] = T(0);
  run(sys, 40);
  this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 13, row 7", "pivot"});
  check_thomas_status(exec, status, m);  // cleared
  // Row 0's pivot is b(0).
  sys = random_tridiagonal<T>(40, m, 4);
  sys.b[21 * m + 0] = T(0);
  run(sys, 40);
  this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 21, row 0", "pivot"});
  // A NaN right-hand side: named where it enters the forward elimination.
  sys = random_tridiagonal<T>(10, m, 5);
  sys.d[6 * m + 20] = this->nan();
  run(sys, 10);
  this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 6, row 20", "non-finite solution"});
  // An infinite coefficient makes its row's pivot non-finite; the last row too.
  sys = random_tridiagonal<T>(10, m, 6);
  sys.b[2 * m + 31] = std::numeric_limits<T>::infinity();
  run(sys, 10);
  this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 2, row 31", "pivot"});
  sys = random_tridiagonal<T>(10, m, 7);
  sys.b[9 * m + m - 1] = this->nan();
  run(sys, 10);
  this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 9, row " + std::to_string(m - 1), "pivot"});
  // Overflow in the back substitution only: named at the highest non-finite row, as
  // thomas_solve_system does. d' is huge in the last row and c' = 1 / 1: x overflows
  // from row m-2 down.
  {
    sys = random_tridiagonal<T>(10, 3, 8);
    const int s = 4;
    const T big = std::numeric_limits<T>::max() / 2;
    // Row 0: b = 1, c = -4 (c' = -4); row 1: a = 0, b = 1, c = -4 (c' = -4), d = 0;
    // row 2: a = 0, b = 1, d = big: x2 = big, x1 = 4 big = inf, x0 = inf.
    sys.b[s * 3 + 0] = T(1);
    sys.c[s * 3 + 0] = T(-4);
    sys.d[s * 3 + 0] = T(0);
    sys.a[s * 3 + 1] = T(0);
    sys.b[s * 3 + 1] = T(1);
    sys.c[s * 3 + 1] = T(-4);
    sys.d[s * 3 + 1] = T(0);
    sys.a[s * 3 + 2] = T(0);
    sys.b[s * 3 + 2] = T(1);
    sys.d[s * 3 + 2] = big;
    const auto t = this->to_tiles(sys, 3, W, T(7));
    thomas_batch_simd_tiles(exec, t.a, t.b, t.c, t.d, status, 10);
    this->expect_solver_error([&] { check_thomas_status(exec, status, 3); },
                              {"system 4, row 1", "non-finite solution"});
  }
}

TYPED_TEST(SimdTiles, ThomasAgreesWithPerSystemThomasBatch) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 256, W = TestFixture::W, num = 7 * W + 5;
  const auto sys = random_tridiagonal<T>(num, m, this->next_seed());
  const auto t1 = this->to_tiles(sys, m, W, T(7)), t2 = this->to_tiles(sys, m, W, T(7));
  thomas_batch_simd_tiles(exec, t1.a, t1.b, t1.c, t1.d, num);
  thomas_batch(exec, t2.a, t2.b, t2.c, t2.d, num);
  const auto x1 = this->to_host(t1.d), x2 = this->to_host(t2.d);
  for (int s = 0; s < num; ++s)
    for (int i = 0; i < m; ++i) {
      const double a = layouts::BlockInterleaved::at(x1, s, i, W),
                   b = layouts::BlockInterleaved::at(x2, s, i, W);
      ASSERT_LE(std::abs(a - b), this->tolerance() * (1 + std::abs(b))) << "s " << s << " i " << i;
    }
}

TYPED_TEST(SimdTiles, ThomasBadInputRejected) {
  using E = typename TestFixture::E;
  E exec;
  using View = typename TestFixture::View;
  const int n = 40, m = 10, bs = 16;
  View a = this->tile_view("a", n, m, bs), b = this->tile_view("b", n, m, bs),
       c = this->tile_view("c", n, m, bs), d = this->tile_view("d", n, m, bs);
  View longer = this->tile_view("longer", n, m + 1, bs);
  EXPECT_THROW(thomas_batch_simd_tiles(exec, a, longer, c, d), InputError);
  EXPECT_THROW(thomas_batch_simd_tiles(exec, a, b, c, d, 49), InputError);  // 3 tiles of 16
  EXPECT_THROW(thomas_batch_simd_tiles(exec, a, b, c, d, -2), InputError);
  View empty_rows = this->tile_view("e", n, 0, bs);
  EXPECT_THROW(thomas_batch_simd_tiles(exec, empty_rows, empty_rows, empty_rows, empty_rows),
               InputError);
}

TYPED_TEST(SimdTiles, TouchTilesZeroesEveryLane) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  auto v = this->tile_view("v", 3 * TestFixture::W + 1, 17, TestFixture::W);
  Kokkos::deep_copy(v, this->nan());
  touch_tiles(exec, v);
  const auto h = this->to_host(v);
  for (std::size_t k = 0; k < h.span(); ++k) ASSERT_EQ(h.data()[k], T(0)) << k;
}

}  // namespace
