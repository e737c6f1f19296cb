#pragma once
// The Thomas drivers that the Thomas tests (test_thomas*.cpp, through thomas_fixture.hpp)
// call with the fixture's storage, compiled once in thomas_instances_*.cpp instead of in
// every test file: each driver instantiates the kernels of every schedule, which made
// these files the longest compiles of the suite (CUDA above all).
#include <Kokkos_Core.hpp>

#include "backends.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"

namespace hinesbatch::test {

// The views of thomas_fixture.hpp's Storage, sizes and status.
template <class T, class L, class E>
struct ThomasTestViews {
  using Mem = typename E::memory_space;
  using View = typename L::template view_type<T, Mem>;
  using Sizes = Kokkos::View<int*, Mem>;
  using Status = ThomasStatus<Mem>;
};

}  // namespace hinesbatch::test

// ThomasVBatch's driver for one row count (ComputingPadding or NoComputingPadding).
#define HINESBATCH_THOMAS_TEST_VBATCH(EXTERN, ROWS, T, L, E)                                       \
  EXTERN template void hinesbatch::impl::thomas_vbatch_impl<hinesbatch::impl::RowCount::ROWS>(     \
      const char*, const E&, const hinesbatch::test::ThomasTestViews<T, L, E>::View&,              \
      const hinesbatch::test::ThomasTestViews<T, L, E>::View&,                                     \
      const hinesbatch::test::ThomasTestViews<T, L, E>::View&,                                     \
      const hinesbatch::test::ThomasTestViews<T, L, E>::View&,                                     \
      const hinesbatch::test::ThomasTestViews<T, L, E>::Sizes&,                                    \
      const hinesbatch::test::ThomasTestViews<T, L, E>::Status&, bool, hinesbatch::ThomasSchedule, \
      int);

// EXTERN: `extern` for the declarations every test file sees, empty for the definitions.
#define HINESBATCH_THOMAS_TEST_DRIVERS(EXTERN, T, L, E)                     \
  EXTERN template void hinesbatch::impl::thomas_batch_impl(                 \
      const E&, const hinesbatch::test::ThomasTestViews<T, L, E>::View&,    \
      const hinesbatch::test::ThomasTestViews<T, L, E>::View&,              \
      const hinesbatch::test::ThomasTestViews<T, L, E>::View&,              \
      const hinesbatch::test::ThomasTestViews<T, L, E>::View&,              \
      const hinesbatch::test::ThomasTestViews<T, L, E>::Status&, bool, int, \
      hinesbatch::ThomasSchedule, int);                                     \
  HINESBATCH_THOMAS_TEST_VBATCH(EXTERN, ComputingPadding, T, L, E)          \
  HINESBATCH_THOMAS_TEST_VBATCH(EXTERN, NoComputingPadding, T, L, E)

// Every layout of the tests on one backend and scalar.
#define HINESBATCH_THOMAS_TEST_LAYOUTS(EXTERN, T, E)                                 \
  HINESBATCH_THOMAS_TEST_DRIVERS(EXTERN, T, hinesbatch::layouts::Flat, E)            \
  HINESBATCH_THOMAS_TEST_DRIVERS(EXTERN, T, hinesbatch::layouts::FullInterleaved, E) \
  HINESBATCH_THOMAS_TEST_DRIVERS(EXTERN, T, hinesbatch::layouts::BlockInterleaved, E)

#if defined(KOKKOS_ENABLE_CUDA)
#define HINESBATCH_THOMAS_TEST_ON_CUDA(EXTERN, T) \
  HINESBATCH_THOMAS_TEST_LAYOUTS(EXTERN, T, Kokkos::Cuda)
#else
#define HINESBATCH_THOMAS_TEST_ON_CUDA(EXTERN, T)
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && HINESBATCH_TEST_ON_HOST_SPACES
#define HINESBATCH_THOMAS_TEST_ON_OPENMP(EXTERN, T) \
  HINESBATCH_THOMAS_TEST_LAYOUTS(EXTERN, T, Kokkos::OpenMP)
#else
#define HINESBATCH_THOMAS_TEST_ON_OPENMP(EXTERN, T)
#endif
#if defined(KOKKOS_ENABLE_SERIAL) && HINESBATCH_TEST_ON_HOST_SPACES
#define HINESBATCH_THOMAS_TEST_ON_SERIAL(EXTERN, T) \
  HINESBATCH_THOMAS_TEST_LAYOUTS(EXTERN, T, Kokkos::Serial)
#else
#define HINESBATCH_THOMAS_TEST_ON_SERIAL(EXTERN, T)
#endif

// Every backend of the tests (EnabledExecutionSpaces), for one scalar (a definition file
// per scalar: two files that compile side by side).
#define HINESBATCH_THOMAS_TEST_INSTANCES(EXTERN, T) \
  HINESBATCH_THOMAS_TEST_ON_CUDA(EXTERN, T)         \
  HINESBATCH_THOMAS_TEST_ON_OPENMP(EXTERN, T)       \
  HINESBATCH_THOMAS_TEST_ON_SERIAL(EXTERN, T)

#if !defined(HINESBATCH_THOMAS_TEST_DEFINE_INSTANCES)
HINESBATCH_THOMAS_TEST_INSTANCES(extern, float)
HINESBATCH_THOMAS_TEST_INSTANCES(extern, double)
#endif
