#pragma once
// The kernels of touch_tiles and fill_tiles (layouts/simd_tiles.hpp): each tile written by
// the thread of the policy that will solve it.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/layouts/impl/simd_tile_policy.hpp"

namespace hinesbatch {
namespace impl {

// Writes zero over whole tiles (padding lanes included).
template <class View, class ExecutionSpace>
struct TouchTiles {
  View v;
  int tiles;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename SimdTilePolicy<ExecutionSpace>::member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= tiles) return;
    const int rows = static_cast<int>(v.extent(1)), lanes = static_cast<int>(v.extent(2));
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, lanes), [&](const int k) {
      for (int i = 0; i < rows; ++i) v(tile, i, k) = 0;
    });
  }
};

// Copies systems [tile * W, tile * W + W) of host arrays in [system][node] order into
// their tile (host execution spaces only); padding lanes get zero.
template <class View, class Scalar, class ExecutionSpace>
struct FillTiles {
  View u, l, d, rhs;
  const Scalar *su, *sl, *sd, *srhs;
  int num_systems, n, tiles;
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename SimdTilePolicy<ExecutionSpace>::member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= tiles) return;
    const int lanes = static_cast<int>(u.extent(2));
    for (int k = 0; k < lanes; ++k) {
      const long long s = static_cast<long long>(tile) * lanes + k;
      const bool real = s < num_systems;
      const std::size_t o = real ? static_cast<std::size_t>(s) * n : 0;
      for (int i = 0; i < n; ++i) {
        u(tile, i, k) = real ? su[o + i] : Scalar(0);
        l(tile, i, k) = real ? sl[o + i] : Scalar(0);
        d(tile, i, k) = real ? sd[o + i] : Scalar(0);
        rhs(tile, i, k) = real ? srhs[o + i] : Scalar(0);
      }
    }
  }
};

}  // namespace impl
}  // namespace hinesbatch
