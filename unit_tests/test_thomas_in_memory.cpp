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
  this->check_failures_name_system_and_row(kInMemory,
                                           {0, 1, 2, 19, 20, 21, 39, 40, 41, 5000, 10005, 10006});
}

// A bad size in a ThomasVBatch: that system is reported and untouched, the others solved.
TYPED_TEST(ThomasInMemory, BadSizeReported) { this->check_bad_size_reported(kInMemory); }

}  // namespace
