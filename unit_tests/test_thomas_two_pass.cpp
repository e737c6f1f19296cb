// The two-pass schedule (ThomasSchedule::TeamPerSystemTwoPass) on systems of every size, every
// layout x {float, double} x backend: fresh random diagonally dominant systems against the
// sequential long-double Thomas and by their residual, storage poisoned before the solve and
// checked after it (thomas_fixture.hpp), failures named by system and row wherever the row
// sits (a lane-row's first, second and last rows, the edges of a warp's 32 lane-rows, of a
// round of the block's lane-rows and of a segment of the reduced system, the system's last
// row). Few systems each: the host runs a block's lanes in turn.

#include "hinesbatch/solvers/impl/thomas_two_pass.hpp"
#include "thomas_fixture.hpp"

namespace {

using ThomasConfigs = AsGtestTypes<
    ConfigProduct<std::tuple<float, double>, ThomasLayouts, EnabledExecutionSpaces>::tuple>::type;

template <class C>
class ThomasTwoPass : public ThomasFixture<C> {};
TYPED_TEST_SUITE(ThomasTwoPass, ThomasConfigs);

constexpr auto kTwoPass = ThomasSchedule::TeamPerSystemTwoPass;

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

// The shape: every lane-row owned by a round, the reduced system covered by whole segments
// of at least two rows, no more warps than asked for or than the lane-rows need.
TEST(ThomasTwoPassShape, CoversEveryRow) {
  for (int warps : {1, 4, 8})
    for (int m : {1, 2, 7, 8, 9, 31, 255, 256, 257, 1000, 4097, 8193, 10007, 65537, 1 << 20}) {
      const auto s = impl::TwoPassShape::for_rows(m, warps);
      const std::string what = "m = " + std::to_string(m) + ", warps " + std::to_string(warps);
      EXPECT_EQ(s.lane_rows, (m + impl::kTwoPassRowsPerLane - 1) / impl::kTwoPassRowsPerLane)
          << what;
      EXPECT_GE(s.warps, 1) << what;
      EXPECT_LE(s.warps, warps) << what;
      EXPECT_LT((s.warps - 1) * impl::kWarpLanes, s.lane_rows) << what;
      EXPECT_GE(static_cast<long long>(s.rounds()) * s.threads(), s.lane_rows) << what;
      EXPECT_GE(s.segment, 2) << what;
      EXPECT_GE(s.padded_rows(), s.lane_rows) << what;
      EXPECT_LT(s.padded_rows() - s.segment, s.lane_rows) << what;  // no empty segment
      EXPECT_LE(s.lanes, s.threads()) << what;
    }
  // Shared memory: 3 scalars per lane-row, 9 per chunk of 32, 8 per reduced lane.
  const auto s = impl::TwoPassShape::for_rows(10007, 4);
  EXPECT_EQ(s.scratch_scalars(), 3u * s.padded_rows() + 9u * s.chunks() + 8u * s.lanes);
  EXPECT_EQ(to_string(kTwoPass), std::string("TeamPerSystemTwoPass"));
  ThomasSchedule parsed = ThomasSchedule::Auto;
  EXPECT_TRUE(from_string("team_two_pass", parsed));
  EXPECT_EQ(parsed, kTwoPass);
}

// Sizes around the lane-row (8 rows), a warp's 32 lane-rows, a round of the block (128 or
// 256), up to systems whose reduced system fills most of a block's shared memory.
TYPED_TEST(ThomasTwoPass, Sizes) {
  for (int m : {1,   2,   3,    7,    8,    9,    15,   16,   17,   255,  256,  257,
                263, 264, 1023, 1024, 1025, 2049, 4095, 4097, 8191, 8193, 10007})
    for (int n : {1, 5}) this->check_fixed(m, n, 4, "sizes", kTwoPass);
  for (int m : {20000, 65537}) this->check_fixed(m, 2, 2, "long", kTwoPass);
}

// The schedule runs its own kernel when asked for, also where the reduced system is too
// large for the block's shared memory (it goes to device memory).
TYPED_TEST(ThomasTwoPass, RunsItsKernel) {
  for (int m : {10007, 1 << 20}) {
    LaunchedKernels launched;
    this->check_fixed(m, 2, 2, "kernel", kTwoPass);
    EXPECT_TRUE(launched.saw("_two_pass")) << "m = " << m;
    EXPECT_FALSE(launched.saw("_team_in_memory")) << "m = " << m;
  }
}

// ThomasVBatch: sizes from 1 to m_max in one batch, both padding variants (identical answers).
TYPED_TEST(ThomasTwoPass, VBatch) {
  for (int bs : {1, 4}) {
    this->check_vbatch(12, 9000, bs, kTwoPass);
    this->check_vbatch(40, 300, bs, kTwoPass);
  }
}

// Failures are named where the sequential Thomas meets them, wherever the row sits: m =
// 10,007 rows are 1,251 lane-rows of 8 rows (rows 0, 8, 256 and 1,024 begin a lane-row, a
// warp's 32, a round of 128), and 1,251 rows of reduced system in segments of 10 (row 80).
TYPED_TEST(ThomasTwoPass, FailuresNameSystemAndRow) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const int m = 10007, n = 3, tiles = TestFixture::L::tiled ? n : -1;
  auto status = make_thomas_status(exec);
  const auto solve = [&](const TridiagonalSystems<T>& sys) {
    auto st = this->to_device(sys, m, 2, T(7));
    thomas_batch(exec, st.a, st.b, st.c, st.d, status, kTwoPass, tiles);
  };
  std::uint64_t seed = 500;
  for (int row : {0, 1, 2, 7, 8, 9, 79, 80, 255, 256, 1023, 1024, 5000, 10005, 10006}) {
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
TYPED_TEST(ThomasTwoPass, BadSizeReported) {
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
      thomas_vbatch_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, kTwoPass);
    } else {
      thomas_vbatch_no_computing_padding(exec, st.a, st.b, st.c, st.d, bad, status, kTwoPass);
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
