#pragma once
// Transparent huge pages for host Views. A Full-Interleaved tile's sweep visits each row at
// another page, a whole batch away from the row before: with 4 KiB pages a tile of a
// 3,000-node tree walks about 12,000 pages each way, past what the TLB holds. Backed by
// 2 MiB pages the same rows take a few dozen. Linux gives huge pages to anonymous memory
// only where asked (madvise) unless its setting is "always".
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace hinesbatch {

// The span huge pages come in on x86-64 and on aarch64 with 4 KiB base pages.
inline constexpr std::size_t kHugePageBytes = std::size_t(2) << 20;

// Asks the kernel to back the whole 2 MiB blocks inside a host View's span with transparent
// huge pages. Call it after allocating and before the first write: pages written before
// stay small until the kernel's background pass merges them. Advice only: values are not
// touched. No effect on Views outside HostSpace, on systems without transparent huge pages,
// or on spans holding no whole 2 MiB block.
template <class View>
void advise_huge_pages(const View& v) {
  static_assert(Kokkos::is_view<View>::value, "hinesbatch::advise_huge_pages: a Kokkos View");
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if constexpr (std::is_same<typename View::memory_space, Kokkos::HostSpace>::value) {
    const auto begin = reinterpret_cast<std::uintptr_t>(v.data());
    const auto end = begin + v.span() * sizeof(typename View::value_type);
    const std::uintptr_t first = (begin + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    const std::uintptr_t last = end / kHugePageBytes * kHugePageBytes;
    // A refusal (no transparent huge pages in this kernel) leaves the pages as they are.
    if (v.data() != nullptr && last > first)
      (void)madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
  }
#else
  (void)v;
#endif
}

}  // namespace hinesbatch
