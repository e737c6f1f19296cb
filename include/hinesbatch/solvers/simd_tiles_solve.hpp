#pragma once
// The SIMD-tile schedule: a Block-Interleaved batch solved a tile of W systems at a time,
// the lane loop vectorised (tile_system.hpp). On a host each thread solves a contiguous
// chunk of tiles with W-wide vector instructions; on a GPU a tile is the vector lanes of
// a team (one system per lane, as the per-system Block-Interleaved kernel, in one
// functor). W is the batch's block size: make the batch with make_simd_tile_batch (W =
// simd_tile_lanes<Scalar, ExecutionSpace>(), two vectors) and fill it with fill_tiles
// (layouts/simd_tiles.hpp) for first-touch placement. Any block size works (a wider
// tile, e.g. Block-Interleaved's default 128, is solved W lanes per pass on a host); the
// native width gives straight packed code on a host with no partial passes.
//
//   solve_simd_tiles(exec, tree, batch)                 Hines, HinesBatch<T, BlockInterleaved>
//   thomas_batch_simd_tiles(...)                        Thomas: thomas_simd_tiles.hpp
//
// Results, failure records and errors are those of solve(exec, tree, batch) on the same
// storage. This header needs neither hines_batch_solve.hpp nor thomas_batch.hpp, so that
// either can include it for an automatic schedule choice.
#include <Kokkos_Core.hpp>
#include <climits>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/morphology/device_tree.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"

namespace hinesbatch {
namespace impl {

// The compile-time lane count a host functor specialises full tiles for (0: none).
template <class Scalar, class ExecutionSpace>
constexpr int full_tile_lanes() {
  return is_host_backend<ExecutionSpace>() ? simd_tile_lanes<Scalar, ExecutionSpace>() : 0;
}

// Runs solve_chunk(offset, count) over the tile's lanes in passes of at most kChunk
// lanes: on a host W (two vectors; a wider tile, e.g. Block-Interleaved's default
// 128, is solved W lanes at a time, so that a pass's working set stays n x W), elsewhere
// max_tile_lanes. A full pass of W host lanes gets the compile-time count Lanes<W>.
template <int kFull, class F>
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

template <class Batch, class ParentView, class ExecutionSpace>
struct HinesSimdTiles {
  using scalar_type = typename Batch::scalar_type;
  static constexpr int kFull = full_tile_lanes<scalar_type, ExecutionSpace>();
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size, num_systems, tiles;
  std::size_t inverse_bytes;  // per-tile scratch for 1 / pivot, 0 for none (divide twice)

  // Host spaces keep a tile's reciprocal pivots in team scratch (n x W values: tens of
  // KB, cache-resident); on a GPU that scratch would be global memory traffic.
  static std::size_t scratch_bytes(int n, int row_stride) {
    if (!is_host_backend<ExecutionSpace>()) return 0;
    const std::size_t bytes = static_cast<std::size_t>(n) * row_stride * sizeof(scalar_type);
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
    scalar_type* inverse =
        inverse_bytes ? static_cast<scalar_type*>(team.team_scratch(1).get_shmem(inverse_bytes))
                      : nullptr;
    for_lane_chunks<kFull>(lanes, [&](const int c, const auto count) {
      auto on_failure = [&](const int k, const int bad_pivot, const int bad_solution) {
        record_tile_failure(status, bad_pivot, bad_solution,
                            static_cast<long long>(first + c + k) * n);
      };
      hines_solve_tile(team, count, parent, n, row_stride, &u(tile, 0, 0) + c, &l(tile, 0, 0) + c,
                       &d(tile, 0, 0) + c, &rhs(tile, 0, 0) + c, inverse ? inverse + c : nullptr,
                       on_failure);
    });
  }
};

}  // namespace impl

// Solves every system of a Block-Interleaved batch in place, a tile of block_size systems
// at a time, vectorised over the tile's lanes: rhs becomes the solution and d the
// eliminated diagonal, as solve(exec, tree, batch). Asynchronous on exec; call
// batch.check(exec) to turn zero pivots or non-finite values into a SolverError naming
// the system and node. Throws InputError if the tree does not match the batch.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve_simd_tiles(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                      const HinesBatch<Scalar, layouts::BlockInterleaved, MemorySpace>& batch) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve_simd_tiles: the batch's memory space is not accessible "
                "from exec");
  using Batch = HinesBatch<Scalar, layouts::BlockInterleaved, MemorySpace>;
  using ParentView = typename DeviceTree<MemorySpace>::parent_view;
  const char* where = "hinesbatch::solve_simd_tiles";
  if (tree.size() != batch.num_nodes())
    throw InputError(std::string(where) + ": tree has " + std::to_string(tree.size()) +
                         " nodes but the batch's systems have " + std::to_string(batch.num_nodes()),
                     {}, 0, std::to_string(tree.size()));
  if (batch.num_systems() == 0) return;
  const int bs = batch.block_size();
  const int tiles = layouts::BlockInterleaved::tile_count(batch.num_systems(), bs);
  using Functor = impl::HinesSimdTiles<Batch, ParentView, ExecutionSpace>;
  const std::size_t scratch =
      Functor::scratch_bytes(batch.num_nodes(), static_cast<int>(batch.u().stride(1)));
  auto policy = impl::simd_tile_policy(exec, tiles, bs);
  if (scratch) policy.set_scratch_size(1, Kokkos::PerTeam(scratch));
  Kokkos::parallel_for(
      "hinesbatch::solve_simd_tiles", policy,
      Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), tree.parents(),
              batch.num_nodes(), bs, batch.num_systems(), tiles, scratch});
}

}  // namespace hinesbatch
