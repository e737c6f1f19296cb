#pragma once
// How a batch of N systems of n nodes sits in memory (cuHinesBatch's four layouts,
// docs/REFERENCE.md §2).
//
// Each layout is a tag type that names the View holding one coefficient array and maps
// (system s, node i) to an element. The per-system solver never sees the layout: the
// driver hands it the 1-D subview of one system (`system_view`), as Kokkos Kernels'
// batched routines do.
#include <Kokkos_Core.hpp>

#include "hinesbatch/core/huge_pages.hpp"

namespace hinesbatch {
namespace layouts {

namespace impl {
// A rank-2 (system, node) View: the Kokkos layout alone decides where elements go.
template <class KokkosLayout>
struct SystemNodeLayout {
  template <class T, class MemorySpace>
  using view_type = Kokkos::View<T**, KokkosLayout, MemorySpace>;
  static constexpr bool tiled = false;

  // Unwritten, on huge pages where the host gives them (advise_huge_pages).
  template <class View>
  static View allocate(const std::string& label, int num_systems, int num_nodes, int) {
    View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), num_systems, num_nodes);
    advise_huge_pages(v);
    return v;
  }
  template <class View>
  KOKKOS_INLINE_FUNCTION static typename View::reference_type at(const View& v, int s, int i, int) {
    return v(s, i);
  }
  template <class View>
  KOKKOS_INLINE_FUNCTION static auto system_view(const View& v, int s, int) {
    return Kokkos::subview(v, s, Kokkos::ALL);
  }
};
}  // namespace impl

// Flat: each system's vectors contiguous, [system][node]. Not coalesced on a GPU (one
// thread per system walks its own cache lines), natural on a CPU.
struct Flat : impl::SystemNodeLayout<Kokkos::LayoutRight> {
  static constexpr const char* name = "Flat";
};

// Full-Interleaved: node i of every system, then node i+1 of every system. Consecutive
// threads (systems) touch consecutive addresses: coalesced; a thread strides by N.
struct FullInterleaved : impl::SystemNodeLayout<Kokkos::LayoutLeft> {
  static constexpr const char* name = "FullInterleaved";
};

// Block-Interleaved: tiles of BS systems, interleaved inside a tile, stored as a View
// (tile, node, lane) with the lane fastest: Cabana's AoSoA built from a plain View, so
// it works on every Kokkos. The last tile is padded to BS lanes; padding is never solved.
struct BlockInterleaved {
  template <class T, class MemorySpace>
  using view_type = Kokkos::View<T***, Kokkos::LayoutRight, MemorySpace>;
  static constexpr const char* name = "BlockInterleaved";
  static constexpr bool tiled = true;

  static int tile_count(int num_systems, int block_size) {
    return (num_systems + block_size - 1) / block_size;
  }
  template <class View>
  static View allocate(const std::string& label, int num_systems, int num_nodes, int block_size) {
    View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
           tile_count(num_systems, block_size), num_nodes, block_size);
    advise_huge_pages(v);
    return v;
  }
  template <class View>
  KOKKOS_INLINE_FUNCTION static typename View::reference_type at(const View& v, int s, int i,
                                                                 int block_size) {
    return v(s / block_size, i, s % block_size);
  }
  template <class View>
  KOKKOS_INLINE_FUNCTION static auto system_view(const View& v, int s, int block_size) {
    return Kokkos::subview(v, s / block_size, Kokkos::ALL, s % block_size);
  }
};

// Block-Shared: Block-Interleaved storage whose solve stages a tile's rhs in team scratch
// (shared memory on a GPU). The cuHinesBatch paper found it slower: few tiles fit, little
// reuse.
struct BlockShared : BlockInterleaved {
  static constexpr const char* name = "BlockShared";
};

}  // namespace layouts
}  // namespace hinesbatch
