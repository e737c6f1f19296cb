// The in-memory team schedule (ThomasSchedule::TeamPerSystemInMemory) on systems past what a
// block holds on chip, every layout x {float, double} x backend: fresh random diagonally
// dominant systems against the sequential long-double Thomas and by their residual, storage
// poisoned before the solve and checked after it (thomas_fixture.hpp), failures named by
// system and row in every part of the partition (a lane's first, second, interior and last
// rows, the system's last row). Few systems each: the host runs a team's lanes in turn.

#include "hinesbatch/solvers/impl/thomas_team_in_memory.hpp"
#include "thomas_fixture.hpp"

namespace {

using ThomasConfigs = AsGtestTypes<
    ConfigProduct<std::tuple<float, double>, ThomasLayouts, EnabledExecutionSpaces>::tuple>::type;

template <class C>
class ThomasInMemory : public ThomasFixture<C> {};
TYPED_TEST_SUITE(ThomasInMemory, ThomasConfigs);

constexpr auto kInMemory = ThomasSchedule::TeamPerSystemInMemory;

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

// The shape: lanes a power of two, at least two rows each, every row owned, at most the
// lanes asked for, about 32 rows a lane where the lanes allow it.
TEST(ThomasInMemoryShape, CoversEveryRow) {
  for (int max_lanes : {1, 2, 64, 512, 1024})
    for (int m : {1, 2, 3, 4, 5, 31, 33, 64, 65, 1000, 8193, 10007, 20000, 65537, 1 << 20}) {
      const auto shape = impl::InMemoryTeamShape::for_rows(m, max_lanes);
      const std::string what = "m = " + std::to_string(m) + ", max " + std::to_string(max_lanes);
      EXPECT_EQ(shape.lanes & (shape.lanes - 1), 0) << what;
      EXPECT_LE(shape.lanes, max_lanes) << what;
      EXPECT_GE(shape.rows_per_lane, 2) << what;
      EXPECT_GE(static_cast<long long>(shape.lanes) * shape.rows_per_lane, m) << what;
      // Fewer than a lane's worth of padding rows.
      EXPECT_LT(static_cast<long long>(shape.lanes) * (shape.rows_per_lane - 1), std::max(m, 2))
          << what;
      if (shape.lanes < max_lanes && m > 2 * impl::kInMemoryTargetRowsPerLane)
        EXPECT_LE(shape.rows_per_lane, impl::kInMemoryTargetRowsPerLane) << what;
    }
  // What the scratch holds: 8 scalars a lane and a flag.
  EXPECT_EQ(impl::InMemoryTeamShape::max_lanes_for(40 * 1024, 8), 512);
  EXPECT_EQ(impl::InMemoryTeamShape::max_lanes_for(40 * 1024, 4), 1024);
  EXPECT_EQ(impl::InMemoryTeamShape::max_lanes_for(32 * 1024, 8), 256);
  EXPECT_EQ(to_string(kInMemory), std::string("TeamPerSystemInMemory"));
  ThomasSchedule parsed = ThomasSchedule::Auto;
  EXPECT_TRUE(from_string("team_in_memory", parsed));
  EXPECT_EQ(parsed, kInMemory);
}

// Past the on-chip capacity: a few systems of 8,193 to 65,537 rows (rows not a multiple of
// the lanes, lanes of padding rows only); Block-Interleaved with a partial tile.
TYPED_TEST(ThomasInMemory, LongSystems) {
  for (int m : {8193, 10007, 20000, 65537}) this->check_fixed(m, 3, 2, "long", kInMemory);
  this->check_fixed(100000, 1, 4, "long", kInMemory);
}

// The schedule runs its own kernel when asked for, and on GPUs Auto takes it for a few
// interleaved systems past 8,192 rows (Flat ones take the two-pass block; the host's Auto
// stays with its tiles).
TYPED_TEST(ThomasInMemory, RunsItsKernel) {
  using E = typename TestFixture::E;
  using L = typename TestFixture::L;
  {
    LaunchedKernels launched;
    this->check_fixed(10007, 2, 2, "kernel", kInMemory);
    EXPECT_TRUE(launched.saw("_team_in_memory"));
  }
  LaunchedKernels launched;
  this->check_fixed(10007, 2, 2, "kernel-auto", ThomasSchedule::Auto);
  const bool flat = std::is_same<L, layouts::Flat>::value;
  EXPECT_EQ(launched.saw("_team_in_memory"), !is_host_backend<E>() && !flat);
  EXPECT_EQ(launched.saw("_two_pass"), !is_host_backend<E>() && flat);
}

// Small systems: one lane (one to five rows), two rows a lane, every lane count to 1,024.
TYPED_TEST(ThomasInMemory, SmallShapes) {
  for (int m : {1,  2,   3,   4,   5,   6,   7,    31,   32,   33,   63,    64,   65,
                66, 100, 127, 129, 255, 257, 1000, 1025, 4097, 8192, 16385, 32769})
    for (int n : {1, 5}) this->check_fixed(m, n, 4, "small", kInMemory);
}

// ThomasVBatch: sizes from 1 to m_max in one batch, both padding variants (identical answers).
TYPED_TEST(ThomasInMemory, VBatch) {
  for (int bs : {1, 4}) {
    this->check_vbatch(12, 9000, bs, kInMemory);
    this->check_vbatch(40, 300, bs, kInMemory);
  }
}

// Failures are named where the sequential Thomas meets them, wherever the row sits in the
// partition: m = 10,007 rows are 512 lanes of 20 rows when 512 fit (256 of 40 otherwise):
// rows 0, 1, 19, 20, 21, 39, 40 are lanes' first, second and last rows either way.
TYPED_TEST(ThomasInMemory, FailuresNameSystemAndRow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 10007, n = 3, tiles = TestFixture::L::tiled ? n : -1;
  auto status = make_thomas_status(exec);
  const auto solve = [&](const TridiagonalSystems<T>& sys) {
    auto st = this->to_device(sys, m, 2, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, kInMemory, tiles);
  };
  std::uint64_t seed = 500;
  for (int row : {0, 1, 2, 19, 20, 21, 39, 40, 41, 5000, 10005, 10006}) {
    const std::string at = "system 1, row " + std::to_string(row) + ":";
    // a = b = 0: beta(row) = b - a c' is exactly 0.
    auto sys = random_tridiagonal<T>(n, m, ++seed);
    sys.a[1 * m + row] = T(0);
    sys.b[1 * m + row] = T(0);
    solve(sys);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
    check_thomas_status(exec, status, m);  // cleared
    // A NaN right-hand side: that row's solution.
    sys = random_tridiagonal<T>(n, m, ++seed);
    sys.d[1 * m + row] = this->nan();
    solve(sys);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                              {at, "non-finite solution"});
    // An infinite diagonal: that row's pivot.
    sys = random_tridiagonal<T>(n, m, ++seed);
    sys.b[1 * m + row] = std::numeric_limits<T>::infinity();
    solve(sys);
    this->expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
    // A NaN lower diagonal (not read in row 0).
    sys = random_tridiagonal<T>(n, m, ++seed);
    sys.a[1 * m + row] = this->nan();
    solve(sys);
    if (row > 0)
      this->expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
    else
      check_thomas_status(exec, status, m);
    // A NaN upper diagonal: the next row's pivot (not read in the last row).
    sys = random_tridiagonal<T>(n, m, ++seed);
    sys.c[1 * m + row] = this->nan();
    solve(sys);
    if (row < m - 1)
      this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                                {"system 1, row " + std::to_string(row + 1) + ":", "pivot"});
    else
      check_thomas_status(exec, status, m);
  }
  // The smallest failing row of the batch wins: system 0 before system 2.
  auto sys = random_tridiagonal<T>(n, m, ++seed);
  sys.a[2 * m + 3] = sys.b[2 * m + 3] = T(0);
  sys.a[0 * m + 9000] = sys.b[0 * m + 9000] = T(0);
  solve(sys);
  this->expect_solver_error([&] { check_thomas_status(exec, status, m); },
                            {"system 0, row 9000:", "pivot"});
}

// A bad size in a ThomasVBatch: that system is reported and untouched, the others solved.
TYPED_TEST(ThomasInMemory, BadSizeReported) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using L = typename TestFixture::L;
  E exec;
  const int m_max = 9000;
  auto sys = random_tridiagonal<T>(this->random_sizes(6, m_max, 71), 72);
  auto sizes = this->sizes_of(sys);
  sizes[4] = m_max + 1;
  sizes[2] = 0;
  const auto bad = this->int_view(sizes);
  auto status = make_thomas_status(exec);
  for (int variant = 0; variant < 2; ++variant) {
    auto st = this->to_device(sys, m_max, 4, this->nan());
    if (variant == 0) {
      pad_vbatch(exec, st.a, st.b, st.c, st.d, bad);
      thomas_vbatch_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, kInMemory);
    } else {
      thomas_vbatch_no_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, kInMemory);
    }
    this->expect_input_error([&] { check_thomas_status(exec, status, m_max); },
                             {"system 2", "invalid size"});
    const auto hd = this->to_host(st.d);
    for (int bad_s : {2, 4})
      for (int i = 0; i < sys.size(bad_s); ++i)
        ASSERT_EQ(L::at(hd, bad_s, i, st.bs), sys.d[sys.offsets[bad_s] + i]);
  }
}

}  // namespace
