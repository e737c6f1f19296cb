// ThomasVBatch on packed storage against the reference, and the reference's own check
// (thomas_fixture.hpp).

#include "thomas_fixture.hpp"

namespace {

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
  const std::vector<std::pair<int, int>> cases{{1000, 512}, {33, 3},    {1, 1},    {2, 2},
                                               {100, 1024}, {70, 40},   {40, 200}, {3, 8192},
                                               {4, 9000},   {20000, 16}};
  for (const auto schedule :
       {ThomasSchedule::PerSystem, ThomasSchedule::WarpPerSystem, ThomasSchedule::Auto})
    for (const auto& [num_systems, max_size] : cases) {
      const auto sys = random_tridiagonal<T>(
          this->random_sizes(num_systems, max_size, this->next_seed()), this->next_seed());
      auto a = this->rows_view(sys.a), b = this->rows_view(sys.b), c = this->rows_view(sys.c),
           d = this->rows_view(sys.d);
      // c holds c' only where the one-thread kernel ran (the warp schedule takes <= 8,192 rows;
      // Auto on GPUs the table for packed storage).
      const bool c_prime =
          impl::resolve_packed_schedule<E, T>(schedule, sys.max_size(), a.extent(0), num_systems) ==
          ThomasSchedule::PerSystem;
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
