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

// The shape: every lane-row owned by a round, the reduced system covered by whole segments
// of at least two rows, no more warps than asked for or than the lane-rows need.
TEST(ThomasTwoPassShape, CoversEveryRow) {
  for (int systems : {1, 2, 4, 8})
    for (int warps : {1, 2, 4, 8, 16})
      for (int m : {1, 2, 7, 8, 9, 31, 255, 256, 257, 1000, 4097, 8193, 10007, 65537, 1 << 20}) {
        const auto s = impl::TwoPassShape::for_rows(m, warps, systems);
        const std::string what = "m = " + std::to_string(m) + ", warps " + std::to_string(warps) +
                                 ", systems " + std::to_string(systems);
        const int per_warp = impl::kWarpLanes / systems;
        EXPECT_EQ(s.systems, systems) << what;
        EXPECT_EQ(s.lane_rows_per_warp(), per_warp) << what;
        EXPECT_EQ(s.threads(), s.warps * per_warp) << what;
        EXPECT_EQ(s.lane_rows, (m + impl::kTwoPassRowsPerLane - 1) / impl::kTwoPassRowsPerLane)
            << what;
        EXPECT_GE(s.warps, 1) << what;
        EXPECT_LE(s.warps, warps) << what;
        EXPECT_LT((s.warps - 1) * per_warp, s.lane_rows) << what;
        EXPECT_GE(static_cast<long long>(s.rounds()) * s.threads(), s.lane_rows) << what;
        EXPECT_GE(s.segment, 2) << what;
        EXPECT_GE(s.padded_rows(), s.lane_rows) << what;
        EXPECT_LT(s.padded_rows() - s.segment, s.lane_rows) << what;  // no empty segment
        EXPECT_LE(s.lanes, s.threads()) << what;
        // Each system's shared memory, the next one's W / systems scalars past a multiple of
        // W further (W = 16 in double, 32 in float: distinct banks for the same row of each
        // system).
        EXPECT_GE(static_cast<std::size_t>(s.system_stride), s.scratch_scalars()) << what;
        if (systems == 1)
          EXPECT_EQ(static_cast<std::size_t>(s.system_stride), s.scratch_scalars()) << what;
        else
          EXPECT_EQ(s.system_stride % 16, 16 / systems) << what;
        EXPECT_LT(static_cast<std::size_t>(s.system_stride), s.scratch_scalars() + 32) << what;
        const auto f = impl::TwoPassShape::for_rows(m, warps, systems, 4);
        EXPECT_EQ(f.scratch_scalars(), s.scratch_scalars()) << what;
        if (systems > 1) EXPECT_EQ(f.system_stride % 32, 32 / systems) << what;
        EXPECT_EQ(s.block_scratch_scalars(), systems * static_cast<std::size_t>(s.system_stride))
            << what;
      }
  // Shared memory: 3 scalars per lane-row, 9 per chunk of 32, 8 per reduced lane.
  const auto s = impl::TwoPassShape::for_rows(10007, 4);
  EXPECT_EQ(s.scratch_scalars(), 3u * s.padded_rows() + 9u * s.chunks() + 8u * s.lanes);
  // 4 systems a block with 4 times the warps: each system split as it would be alone.
  const auto four = impl::TwoPassShape::for_rows(10007, 16, 4);
  EXPECT_EQ(four.threads(), s.threads());
  EXPECT_EQ(four.segment, s.segment);
  EXPECT_EQ(four.lanes, s.lanes);
  EXPECT_EQ(four.rounds(), s.rounds());
  EXPECT_EQ(four.padded_rows(), s.padded_rows());
  EXPECT_EQ(to_string(kTwoPass), std::string("TeamPerSystemTwoPass"));
  ThomasSchedule parsed = ThomasSchedule::Auto;
  EXPECT_TRUE(from_string("team_two_pass", parsed));
  EXPECT_EQ(parsed, kTwoPass);
}

// The warps a block: a power of two from 1 to 16; with systems enough to fill the device,
// as many as the size asks (never fewer for a longer system); with few systems, more, until
// they give every SM 4 warps or the lane-rows run out, and never fewer for fewer systems.
TEST(ThomasTwoPassShape, WarpsGrowWithTheSystemAndForFewSystems) {
  const int sms = 132;
  int previous = 1;
  for (int m : {1, 100, 767, 768, 1999, 2000, 8193, 16384, 16385, 32768, 32769, 100000, 1 << 24}) {
    const int many = impl::two_pass_warps(m, 1ll << 30, sms);
    EXPECT_TRUE(many == 1 || many == 2 || many == 4 || many == 8 || many == 16) << m;
    EXPECT_GE(many, previous) << m;
    EXPECT_EQ(impl::two_pass_warps(m, 1ll << 30, 0), many) << m;  // host: by size alone
    previous = many;
    const long long lane_rows = (m + impl::kTwoPassRowsPerLane - 1) / impl::kTwoPassRowsPerLane;
    int more = many;
    for (long long n : {100000ll, 5000ll, 528ll, 200ll, 64ll, 8ll, 1ll}) {
      const int w = impl::two_pass_warps(m, n, sms);
      const std::string what = "m = " + std::to_string(m) + ", " + std::to_string(n) + " systems";
      EXPECT_GE(w, more) << what;
      EXPECT_LE(w, 16) << what;
      EXPECT_TRUE(w == many || (w - 1) * impl::kWarpLanes < lane_rows) << what;
      EXPECT_TRUE(w == 16 || n * w >= 4ll * sms || (lane_rows + 31) / 32 < 2 * w) << what;
      more = w;
    }
  }
}

// Systems a Full-Interleaved block: 8 where 8 reduced systems fit on chip or not even 4 do,
// and the batch gives at least half as many blocks of 8 as SMs; 4 otherwise.
TEST(ThomasTwoPassShape, BlockSystemsFollowTheSharedMemory) {
  const int sms = 132;
  for (long long n : {528ll, 1000ll, 1ll << 20}) {
    EXPECT_EQ(impl::two_pass_block_systems(n, sms, true, true), 8) << n;
    EXPECT_EQ(impl::two_pass_block_systems(n, sms, false, true), 4) << n;
    EXPECT_EQ(impl::two_pass_block_systems(n, sms, false, false), 8) << n;
  }
  for (long long n : {1ll, 8ll, 527ll}) {
    EXPECT_EQ(impl::two_pass_block_systems(n, sms, true, true), 4) << n;
    EXPECT_EQ(impl::two_pass_block_systems(n, sms, false, true), 4) << n;
    EXPECT_EQ(impl::two_pass_block_systems(n, sms, false, false), 4) << n;
  }
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

// Every block shape the solver map forces, on batches whose last block is partly empty: 1-16
// warps a block, sizes around a warp's lane-rows of one system (8 lane-rows of 4 systems side
// by side: 64 rows); Full-Interleaved storage on GPUs with 4 and with 8 systems a block (11
// systems: a full block of 8 and a partial one).
TYPED_TEST(ThomasTwoPass, ForcedBlockWarps) {
  using F = TestFixture;
  using T = typename F::T;
  typename F::E exec;
  constexpr bool several = !is_host_backend<typename F::E>() &&
                           std::is_same<typename F::L, hinesbatch::layouts::FullInterleaved>::value;
  const std::vector<int> block_systems = several ? std::vector<int>{4, 8} : std::vector<int>{0};
  for (int p : block_systems)
    for (int warps : {1, 2, 4, 8, 16})
      for (int m : {63, 64, 65, 257, 2049, 10007})
        for (int n : {3, 6, 11}) {
          if (n == 11 && p != 8) continue;
          const std::string what = "m=" + std::to_string(m) + " N=" + std::to_string(n) +
                                   " warps=" + std::to_string(warps) +
                                   " systems=" + std::to_string(p);
          const auto sys = random_tridiagonal<T>(n, m, F::next_seed());
          const T sentinel = T(7);
          const auto st = F::to_device(sys, m, 4, sentinel);
          auto status = make_thomas_status(exec);
          impl::launch_thomas_two_pass<impl::RowCount::Fixed, typename F::L>(
              "forced", exec, st.a, st.b, st.c, st.d, Kokkos::View<const int*, typename F::Mem>(),
              status, true, n, m, warps, p);
          check_thomas_status(exec, status, m);
          F::expect_solved(sys, st, F::Padding::None, sentinel, what, nullptr,
                           F::c_prime_from(kTwoPass, m, n));
        }
}

// A bad row in a block of 8 systems is named by its system and row, in the first block
// and in the partial second one: Full-Interleaved storage on GPUs.
TYPED_TEST(ThomasTwoPass, FailuresInABlockOfEight) {
  using F = TestFixture;
  using T = typename F::T;
  if (is_host_backend<typename F::E>() ||
      !std::is_same<typename F::L, hinesbatch::layouts::FullInterleaved>::value)
    GTEST_SKIP() << "one system a block here";
  typename F::E exec;
  const int m = 10007, n = 11;
  auto status = make_thomas_status(exec);
  for (int system : {1, 7, 9})
    for (int row : {0, 9, 1024, 10006}) {
      const std::string at =
          "system " + std::to_string(system) + ", row " + std::to_string(row) + ":";
      auto sys = random_tridiagonal<T>(n, m, F::next_seed());
      sys.a[static_cast<std::size_t>(system) * m + row] = T(0);
      sys.b[static_cast<std::size_t>(system) * m + row] = T(0);
      const auto st = F::to_device(sys, m, 2, T(7));
      impl::launch_thomas_two_pass<impl::RowCount::Fixed, typename F::L>(
          "forced", exec, st.a, st.b, st.c, st.d, Kokkos::View<const int*, typename F::Mem>(),
          status, true, n, m, 0, 8);
      F::expect_solver_error([&] { check_thomas_status(exec, status, m); }, {at, "pivot"});
      check_thomas_status(exec, status, m);  // cleared
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
  this->check_failures_name_system_and_row(
      kTwoPass, {0, 1, 2, 7, 8, 9, 79, 80, 255, 256, 1023, 1024, 5000, 10005, 10006});
}

// A bad size in a ThomasVBatch: that system is reported and untouched, the others solved.
TYPED_TEST(ThomasTwoPass, BadSizeReported) { this->check_bad_size_reported(kTwoPass); }

}  // namespace
