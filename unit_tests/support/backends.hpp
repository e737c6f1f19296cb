#pragma once
// The execution spaces this Kokkos was built with, and (Scalar, Layout, ExecutionSpace)
// configurations over them: one typed test body runs on every combination.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <tuple>

#include "hinesbatch/layouts/layouts.hpp"

namespace hinesbatch::test {

// HINESBATCH_TEST_DEVICE_SPACES_ONLY (CMake HINESBATCH_TEST_HOST_SPACES=OFF): a CUDA build's
// typed tests on the device backend alone. CI compiles its sm_37 build that way: nothing runs
// it, and the host backends' cases are the code the other builds compile.
#if defined(KOKKOS_ENABLE_CUDA) && defined(HINESBATCH_TEST_DEVICE_SPACES_ONLY)
#define HINESBATCH_TEST_ON_HOST_SPACES 0
#else
#define HINESBATCH_TEST_ON_HOST_SPACES 1
#endif

using EnabledExecutionSpaces = decltype(std::tuple_cat(
#if defined(KOKKOS_ENABLE_CUDA)
    std::tuple<Kokkos::Cuda>{},
#endif
#if defined(KOKKOS_ENABLE_OPENMP) && HINESBATCH_TEST_ON_HOST_SPACES
    std::tuple<Kokkos::OpenMP>{},
#endif
#if defined(KOKKOS_ENABLE_SERIAL) && HINESBATCH_TEST_ON_HOST_SPACES
    std::tuple<Kokkos::Serial>{},
#endif
    std::tuple<>{}));

using AllLayouts = std::tuple<layouts::Flat, layouts::FullInterleaved, layouts::BlockInterleaved,
                              layouts::BlockShared>;

template <class S, class L, class E>
struct Config {
  using scalar_type = S;
  using layout_type = L;
  using execution_space = E;
};

// Cartesian product of scalars x layouts x execution spaces as ::testing::Types.
template <class Scalars, class Layouts, class Execs>
struct ConfigProduct;
template <class... S, class... L, class... E>
struct ConfigProduct<std::tuple<S...>, std::tuple<L...>, std::tuple<E...>> {
  template <class S1, class L1>
  using row = std::tuple<Config<S1, L1, E>...>;
  template <class S1>
  using rows = decltype(std::tuple_cat(row<S1, L>{}...));
  using tuple = decltype(std::tuple_cat(rows<S>{}...));
};
template <class Tuple>
struct AsGtestTypes;
template <class... T>
struct AsGtestTypes<std::tuple<T...>> {
  using type = ::testing::Types<T...>;
};

}  // namespace hinesbatch::test
