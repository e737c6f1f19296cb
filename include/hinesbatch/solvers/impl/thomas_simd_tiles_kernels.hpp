#pragma once
// The SIMD-tile schedule's tridiagonal kernel (thomas_simd_tiles.hpp and thomas_batch's
// SimdTiles schedule launch it): a tile of systems per team, vectorised over its lanes
// (thomas_solve_tile, tile_system.hpp); Block-Interleaved tiles, or block_size consecutive
// systems of Full-Interleaved or Flat storage (tile_origin).
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "hinesbatch/layouts/impl/simd_tile_policy.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/impl/simd_tiles_kernels.hpp"
#include "hinesbatch/solvers/impl/thomas_storage.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"

namespace hinesbatch {
namespace impl {

template <class AV, class BV, class CV, class DV, class StatusView, class ExecutionSpace>
struct ThomasSimdTiles {
  using scalar_type = scalar_of<DV>;
  // Full tiles as HinesSimdTiles takes them.
  using Counts = TileLaneCounts<typename TridiagonalLayout<DV>::type, scalar_type, ExecutionSpace>;
  static constexpr bool kFlat = Counts::kFlat;
  static constexpr int kFull = Counts::kFull, kNarrow = Counts::kNarrow;
  AV a;
  BV b;
  CV c;
  DV d;
  StatusView status;
  int m, block_size, num_systems, tiles;
  bool record;

  KOKKOS_INLINE_FUNCTION void operator()(
      const typename SimdTilePolicy<ExecutionSpace>::member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= tiles) return;
    const int first = tile * block_size;
    const int lanes = simd_tile_systems(first, block_size, num_systems);
    const long row_stride = static_cast<long>(d.stride(1));
    for_lane_chunks<kFull, kNarrow>(lanes, [&](const int k0, const auto count) {
      auto on_failure = [&](const int k, const int bad_pivot, const int bad_solution) {
        if (!record) return;
        SolveFailure f;
        f.bad_pivot = bad_pivot;
        f.bad_solution = bad_solution;
        record_failure(status, f, static_cast<long long>(first + k0 + k) * m);
      };
      if constexpr (kFlat) {
        // Flat: lane k is system first + k0 + k, its rows contiguous, a system apart.
        const long ls = static_cast<long>(d.stride(0));
        thomas_solve_tile(
            team, count, m, row_stride, ls, tile_origin(a, tile, block_size) + k0 * ls,
            tile_origin(b, tile, block_size) + k0 * ls, tile_origin(c, tile, block_size) + k0 * ls,
            tile_origin(d, tile, block_size) + k0 * ls, on_failure);
      } else {
        thomas_solve_tile(team, count, m, row_stride, tile_origin(a, tile, block_size) + k0,
                          tile_origin(b, tile, block_size) + k0,
                          tile_origin(c, tile, block_size) + k0,
                          tile_origin(d, tile, block_size) + k0, on_failure);
      }
    });
  }
};

}  // namespace impl
}  // namespace hinesbatch
