// Layouts: host data survives a round trip through every layout on every backend, and
// each layout puts element (system s, node i) where the papers say it goes.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>

#include "backends.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"

namespace {

using namespace hinesbatch;
using namespace hinesbatch::test;

template <class C>
class LayoutRoundTrip : public ::testing::Test {};
using RoundTripConfigs = AsGtestTypes<
    ConfigProduct<std::tuple<float, double>, AllLayouts, EnabledExecutionSpaces>::tuple>::type;
TYPED_TEST_SUITE(LayoutRoundTrip, RoundTripConfigs);

TYPED_TEST(LayoutRoundTrip, FillThenReadBackIsIdentity) {
  using T = typename TypeParam::scalar_type;
  using L = typename TypeParam::layout_type;
  using E = typename TypeParam::execution_space;
  E exec;
  for (int num_systems : {1, 7, 64, 130}) {
    for (int block_size : {1, 32, 128}) {
      const int n = 17;
      const std::size_t total = static_cast<std::size_t>(num_systems) * n;
      std::vector<T> u(total), l(total), d(total), rhs(total);
      for (std::size_t k = 0; k < total; ++k) {
        u[k] = T(k);
        l[k] = T(-1.0 * k);
        d[k] = T(k + 0.5);
        rhs[k] = T(3.0 * k + 0.25);
      }
      HinesBatch<T, L, typename E::memory_space> batch(num_systems, n, block_size);
      batch.fill(exec, u, l, d, rhs);
      const T poison = std::numeric_limits<T>::quiet_NaN();
      std::vector<T> x(total, poison), dd(total, poison);
      batch.solution_to_host(exec, x);
      batch.diagonal_to_host(exec, dd);
      for (std::size_t k = 0; k < total; ++k) {
        ASSERT_EQ(x[k], rhs[k]) << "element " << k << " N=" << num_systems << " BS=" << block_size;
        ASSERT_EQ(dd[k], d[k]) << "element " << k;
      }
    }
  }
}

TYPED_TEST(LayoutRoundTrip, RejectsArraysOfTheWrongSize) {
  using T = typename TypeParam::scalar_type;
  using L = typename TypeParam::layout_type;
  using E = typename TypeParam::execution_space;
  HinesBatch<T, L, typename E::memory_space> batch(4, 5, 2);
  std::vector<T> ok(20), short_one(19);
  EXPECT_THROW(batch.fill(E(), ok, ok, short_one, ok), InputError);
  try {
    batch.fill(E(), ok, ok, ok, short_one);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("rhs"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("19"), std::string::npos) << e.what();
  }
}

// Physical placement, checked on host memory where the raw pointer can be read.
template <class L>
std::vector<long> offsets(int num_systems, int n, int block_size) {
  HinesBatch<double, L, Kokkos::HostSpace> batch(num_systems, n, block_size);
  std::vector<double> v(static_cast<std::size_t>(num_systems) * n);
  std::iota(v.begin(), v.end(), 0.0);
  Kokkos::deep_copy(batch.u(), -1.0);  // padding must not look like a placed element
  batch.fill(Kokkos::DefaultHostExecutionSpace(), v, v, v, v);
  std::vector<long> off(v.size(), -1);
  const double* base = batch.u().data();
  for (std::size_t k = 0; k < batch.u().span(); ++k) {
    const double x = base[k];
    if (x >= 0 && x < double(v.size()) && x == std::floor(x))
      off[static_cast<std::size_t>(x)] = static_cast<long>(k);
  }
  return off;
}

TEST(LayoutPlacement, FlatIsSystemMajor) {
  const int N = 5, n = 7;
  const auto off = offsets<layouts::Flat>(N, n, 1);
  for (int s = 0; s < N; ++s)
    for (int i = 0; i < n; ++i) EXPECT_EQ(off[s * n + i], s * n + i);
}

TEST(LayoutPlacement, FullInterleavedIsNodeMajor) {
  const int N = 5, n = 7;
  const auto off = offsets<layouts::FullInterleaved>(N, n, 1);
  for (int s = 0; s < N; ++s)
    for (int i = 0; i < n; ++i) EXPECT_EQ(off[s * n + i], i * N + s);
}

TEST(LayoutPlacement, BlockInterleavedTilesWithLaneFastest) {
  const int N = 10, n = 7, bs = 4;  // 3 tiles, the last one padded
  const auto off = offsets<layouts::BlockInterleaved>(N, n, bs);
  for (int s = 0; s < N; ++s)
    for (int i = 0; i < n; ++i) EXPECT_EQ(off[s * n + i], (s / bs) * n * bs + i * bs + s % bs);
}

TEST(LayoutPlacement, RejectsBadSizes) {
  EXPECT_THROW((HinesBatch<double, layouts::Flat, Kokkos::HostSpace>(-1, 3)), InputError);
  EXPECT_THROW((HinesBatch<double, layouts::Flat, Kokkos::HostSpace>(3, 0)), InputError);
  EXPECT_THROW((HinesBatch<double, layouts::BlockInterleaved, Kokkos::HostSpace>(3, 3, 0)),
               InputError);
}

}  // namespace
