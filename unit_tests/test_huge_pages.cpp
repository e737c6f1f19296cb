// Huge pages for host Views: the advice leaves values as they are, reaches the kernel for
// the whole 2 MiB blocks of a host View (the mapping marked for huge pages in
// /proc/self/smaps), and a host HinesBatch's arrays are advised when allocated. (Whether a
// mapping is marked before the advice depends on what malloc reused, so it is not asserted.)
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "hinesbatch/core/huge_pages.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"

namespace hinesbatch::test {
namespace {

// Whether the kernel can give transparent huge pages at all (its setting is not "never").
bool transparent_huge_pages_available() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string line;
  return std::getline(f, line) && line.find("[never]") == std::string::npos;
}

// The VmFlags of the mapping of this process that holds address a ("" if none).
std::string mapping_flags(std::uintptr_t a) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-') {
      inside = a >= lo && a < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0) return line;
  }
  return "";
}

std::uintptr_t first_whole_block(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return (a + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
}

TEST(HugePages, AdviceKeepsValues) {
  Kokkos::View<double*, Kokkos::HostSpace> v("advised", 3 * kHugePageBytes / sizeof(double) + 17);
  for (std::size_t i = 0; i < v.extent(0); ++i) v(i) = 0.5 * static_cast<double>(i) - 3.0;
  advise_huge_pages(v);
  for (std::size_t i = 0; i < v.extent(0); ++i)
    ASSERT_EQ(v(i), 0.5 * static_cast<double>(i) - 3.0) << i;
  // Spans without a whole block, an empty View, a const View: nothing to advise, no error.
  Kokkos::View<double*, Kokkos::HostSpace> small("small", 100), empty;
  advise_huge_pages(small);
  advise_huge_pages(empty);
  Kokkos::View<const double*, Kokkos::HostSpace> read_only = v;
  advise_huge_pages(read_only);
  EXPECT_EQ(v(5), -0.5);
}

TEST(HugePages, HostMappingsAreMarked) {
  if (!transparent_huge_pages_available()) GTEST_SKIP() << "no transparent huge pages here";
  Kokkos::View<double*, Kokkos::HostSpace> v(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "advised"), 4 * kHugePageBytes / 8);
  advise_huge_pages(v);
  EXPECT_NE(mapping_flags(first_whole_block(v.data())).find(" hg"), std::string::npos)
      << mapping_flags(first_whole_block(v.data()));
  // A host batch's arrays (Flat and Full-Interleaved) are advised as they are allocated.
  HinesBatch<double, layouts::FullInterleaved, Kokkos::HostSpace> fi(20000, 64);
  HinesBatch<double, layouts::Flat, Kokkos::HostSpace> flat(20000, 64);
  for (const double* p : {fi.u().data(), fi.rhs().data(), flat.d().data()})
    EXPECT_NE(mapping_flags(first_whole_block(p)).find(" hg"), std::string::npos);
}

}  // namespace
}  // namespace hinesbatch::test
