// Unit-test driver: GoogleTest first (so --gtest_* flags are consumed), then Kokkos.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  // Listing needs no device (CTest lists the tests of a CUDA build on any machine).
  if (::testing::GTEST_FLAG(list_tests)) return RUN_ALL_TESTS();
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
