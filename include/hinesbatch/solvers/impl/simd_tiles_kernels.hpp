#pragma once
// The SIMD-tile schedule's Hines kernel and the helpers both SIMD-tile kernels share (lane
// chunks, failure records); simd_tiles_solve.hpp launches it, thomas_simd_tiles_kernels.hpp
// holds the tridiagonal one.
#include <Kokkos_Core.hpp>
#include <climits>
#include <type_traits>

#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"

namespace hinesbatch {
namespace impl {

// The compile-time lane count a host functor specialises full tiles for (0: none).
template <class Scalar, class ExecutionSpace>
constexpr int full_tile_lanes() {
  return is_host_backend<ExecutionSpace>() ? simd_tile_lanes<Scalar, ExecutionSpace>() : 0;
}

// The compile-time lane counts of a host functor's full tiles for storage Layout (kFull;
// 0 on a GPU) and a second width (kNarrow; 0 for none): Flat flat_tile_lanes,
// Full-Interleaved interleaved_tile_lanes or, for long systems, simd_tile_lanes,
// Block-Interleaved passes of simd_tile_lanes.
template <class Layout, class Scalar, class ExecutionSpace>
struct TileLaneCounts {
  static constexpr bool kFlat = std::is_same<Layout, layouts::Flat>::value;
  static constexpr bool kInterleaved = std::is_same<Layout, layouts::FullInterleaved>::value;
  static constexpr int kFull = !is_host_backend<ExecutionSpace>() ? 0
                               : kFlat        ? flat_tile_lanes<Scalar, ExecutionSpace>()
                               : kInterleaved ? interleaved_tile_lanes<Scalar, ExecutionSpace>()
                                              : full_tile_lanes<Scalar, ExecutionSpace>();
  static constexpr int kNarrow = kInterleaved ? full_tile_lanes<Scalar, ExecutionSpace>() : 0;
  static_assert(kFull <= max_tile_lanes, "a tile's pass takes at most max_tile_lanes lanes");
};

// How many consecutive systems of n rows a team's tile holds in storage Layout (a
// Block-Interleaved batch's own block size is passed as tiled_block_size).
template <class Layout, class Scalar, class ExecutionSpace>
int tile_block_size(const int tiled_block_size, const long long n) {
  if constexpr (Layout::tiled)
    return tiled_block_size;
  else if constexpr (std::is_same<Layout, layouts::Flat>::value)
    return flat_tile_lanes<Scalar, ExecutionSpace>();
  else
    return interleaved_tile_lanes<Scalar, ExecutionSpace>(n);
}

// Runs solve_chunk(offset, count) over the tile's lanes in passes of at most kChunk
// lanes: on a host kFull (W, two vectors: a wider Block-Interleaved tile, e.g. its default
// 128, is solved W lanes at a time, so that a pass's working set stays n x W), elsewhere
// max_tile_lanes. A pass of kFull host lanes gets the compile-time count Lanes<kFull>, and
// one of kNarrow lanes (a second full width, 0 for none) Lanes<kNarrow>.
template <int kFull, int kNarrow = 0, class F>
KOKKOS_FORCEINLINE_FUNCTION void for_lane_chunks(const int lanes, const F& solve_chunk) {
  constexpr int kChunk = kFull > 0 ? kFull : max_tile_lanes;
  for (int c = 0; c < lanes; c += kChunk) {
    const int count = lanes - c < kChunk ? lanes - c : kChunk;
    if constexpr (kFull > 0) {
      if (count == kFull) {
        solve_chunk(c, Lanes<kFull>{});
        continue;
      }
    }
    if constexpr (kNarrow > 0 && kNarrow != kFull) {
      if (count == kNarrow) {
        solve_chunk(c, Lanes<kNarrow>{});
        continue;
      }
    }
    solve_chunk(c, count);
  }
}

// Records a lane's failure as the per-system solves do (hines_batch_solve.hpp): atomic
// min of the flat index system * n + node.
template <class StatusView>
KOKKOS_INLINE_FUNCTION void record_tile_failure(const StatusView& status, const int bad_pivot,
                                                const int bad_solution, const long long offset) {
  if (bad_pivot >= 0) Kokkos::atomic_fetch_min(&status(0), offset + bad_pivot);
  if (bad_solution >= 0) Kokkos::atomic_fetch_min(&status(1), offset + bad_solution);
}

// Where a tile's first system starts: Block-Interleaved storage holds tiles (tile, node,
// lane); Full-Interleaved and Flat storage (system, node) are cut into tiles of block_size
// consecutive systems. Node i of lane k is then origin[i * v.stride(1) + k] (interleaved) or
// origin[i + k * v.stride(0)] (Flat: v.stride(1) is 1).
template <class View>
KOKKOS_FORCEINLINE_FUNCTION typename View::pointer_type tile_origin(const View& v, const int tile,
                                                                    const int block_size) {
  if constexpr (static_cast<int>(View::rank) == 3) {
    (void)block_size;
    return &v(tile, 0, 0);
  } else {
    return &v(tile * block_size, 0);
  }
}

// A Block-Interleaved batch (tiles of its block size), or a Full-Interleaved or Flat one
// (tiles of block_size consecutive systems), a tile per team.
template <class Batch, class ParentView, class ExecutionSpace>
struct HinesSimdTiles {
  using scalar_type = typename Batch::scalar_type;
  using Counts = TileLaneCounts<typename Batch::layout_type, scalar_type, ExecutionSpace>;
  static constexpr bool kFlat = Counts::kFlat;
  static constexpr int kFull = Counts::kFull, kNarrow = Counts::kNarrow;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size, num_systems, tiles;
  std::size_t inverse_bytes;  // per-tile scratch for 1 / pivot, 0 for none (divide twice)

  // The reciprocals' rows: as far apart as the tile's in Block-Interleaved storage (the
  // scratch mirrors the tile), block_size apart otherwise.
  KOKKOS_INLINE_FUNCTION static long inverse_stride(int row_stride, int block_size) {
    return std::is_same<typename Batch::layout_type, layouts::BlockInterleaved>::value ? row_stride
                                                                                       : block_size;
  }

  // Host spaces keep a tile's reciprocal pivots in team scratch (n x W values: tens of
  // KB, cache-resident); on a GPU that scratch would be global memory traffic.
  static std::size_t scratch_bytes(int n, int row_stride, int block_size) {
    if (!is_host_backend<ExecutionSpace>()) return 0;
    const std::size_t bytes = static_cast<std::size_t>(n) *
                              static_cast<std::size_t>(inverse_stride(row_stride, block_size)) *
                              sizeof(scalar_type);
    return bytes <= static_cast<std::size_t>(SimdTilePolicy<ExecutionSpace>::scratch_size_max(1))
               ? bytes
               : 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(
      const typename SimdTilePolicy<ExecutionSpace>::member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= tiles) return;
    const int first = tile * block_size;
    const int lanes = simd_tile_systems(first, block_size, num_systems);
    const long row_stride = static_cast<long>(u.stride(1));
    const long inv_stride = inverse_stride(static_cast<int>(row_stride), block_size);
    scalar_type* inverse =
        inverse_bytes ? static_cast<scalar_type*>(team.team_scratch(1).get_shmem(inverse_bytes))
                      : nullptr;
    const scalar_type* tu = tile_origin(u, tile, block_size);
    const scalar_type* tl = tile_origin(l, tile, block_size);
    scalar_type* td = tile_origin(d, tile, block_size);
    scalar_type* tx = tile_origin(rhs, tile, block_size);
    for_lane_chunks<kFull, kNarrow>(lanes, [&](const int c, const auto count) {
      auto on_failure = [&](const int k, const int bad_pivot, const int bad_solution) {
        record_tile_failure(status, bad_pivot, bad_solution,
                            static_cast<long long>(first + c + k) * n);
      };
      if constexpr (kFlat) {
        // Flat: lane k is system first + c + k, its nodes contiguous, one system-length apart.
        const long ls = static_cast<long>(u.stride(0));
        hines_solve_tile(team, count, parent, n, row_stride, ls, tu + c * ls, tl + c * ls,
                         td + c * ls, tx + c * ls, inverse ? inverse + c : nullptr, inv_stride,
                         on_failure);
      } else {
        hines_solve_tile(team, count, parent, n, row_stride, tu + c, tl + c, td + c, tx + c,
                         inverse ? inverse + c : nullptr, inv_stride, on_failure);
      }
    });
  }
};

}  // namespace impl
}  // namespace hinesbatch
