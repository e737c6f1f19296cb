// ThomasBatch and ThomasVBatch failures: a zero pivot or NaN names the system and row on
// every schedule, bad sizes and extents are refused by name (thomas_fixture.hpp).

#include "thomas_fixture.hpp"

namespace {

using ThomasConfigs = AsGtestTypes<
    ConfigProduct<std::tuple<float, double>, ThomasLayouts, EnabledExecutionSpaces>::tuple>::type;

template <class C>
class ThomasBatchFailures : public ThomasFixture<C> {};
TYPED_TEST_SUITE(ThomasBatchFailures, ThomasConfigs);

TYPED_TEST(ThomasBatchFailures, ZeroPivotNamesSystemAndRow) {
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

TYPED_TEST(ThomasBatchFailures, NanNamesSystemAndRow) {
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
TYPED_TEST(ThomasBatchFailures, WarpsFailuresNameSystemAndRow) {
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

TYPED_TEST(ThomasBatchFailures, VBatchFailuresAndBadSizes) {
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

TYPED_TEST(ThomasBatchFailures, BadExtentsRejected) {
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

}  // namespace
