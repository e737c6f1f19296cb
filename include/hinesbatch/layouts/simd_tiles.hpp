#pragma once
// SIMD tiles: a Block-Interleaved batch (a View (tile, node, lane), lanes fastest) whose
// lane count W is a small multiple of the vector width, so that vector instructions cover
// one node of W systems (solvers/simd_tiles_solve.hpp). This file holds what the layout needs
// beyond layouts.hpp: the lane count for a scalar and backend, and page placement on the
// policy that maps tiles to threads (impl/simd_tile_policy.hpp).
//
// Tiles go to threads in contiguous chunks (a static schedule): each core streams its
// own part of the batch. On a multi-socket host, pages belong to the socket that first
// writes them, so a batch should be first written (fill_tiles, touch_tiles) by the same
// policy that solves it; HinesBatch allocates without initialising, so nothing has
// touched the pages before.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/impl/simd_tile_fill_kernels.hpp"
#include "hinesbatch/layouts/impl/simd_tile_policy.hpp"
#include "hinesbatch/layouts/layouts.hpp"

namespace hinesbatch {

// Vectors per host tile: two. A Hines or Thomas sweep is a chain of dependent divisions
// and loads per node; two independent vectors of systems keep twice the work in flight
// (measured, AVX-512, fp64: on the 16-core host of the GPU machine at 256,000 systems one
// core 1.03-1.39x the rate of one vector per tile and all cores 1.03-1.14x; on the 2-core
// dev machine at 25,600 systems 1.12-1.40x and 1.25-1.64x: docs/PERFORMANCE.md).
// -DHINESBATCH_SIMD_TILE_VECTORS=V changes it (experiments).
#if !defined(HINESBATCH_SIMD_TILE_VECTORS)
#define HINESBATCH_SIMD_TILE_VECTORS 2
#endif
constexpr int kSimdTileVectors = HINESBATCH_SIMD_TILE_VECTORS;

// W for a SIMD-tile batch of Scalar on ExecutionSpace: on a host kSimdTileVectors vectors
// (16 doubles with AVX-512, 8 with AVX2, 4 with SSE2); on a GPU a warp, 32 (one coalesced
// row of the tile per step).
template <class Scalar, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
constexpr int simd_tile_lanes() {
  return is_host_backend<ExecutionSpace>() ? kSimdTileVectors * host_vector_lanes<Scalar>()
                                           : BackendTraits<ExecutionSpace>::warp_lanes;
}

// W for SIMD tiles over Flat storage (each lane reads its own system's contiguous rows, so a
// tile is W streams per array): at most four on a host, whatever the vector width. Measured
// on the 16-core host of the GPU machine, fp64, batches of 2^22 and 2^24 rows or nodes: four
// lanes ran at a median 1.67x one thread per system (behind it at 1 of 104 points), sixteen
// (AVX-512's two vectors) behind it at 45 of 104, where four arrays' sixteen streams (a
// system length apart) overflow the L1 sets and the prefetchers (docs/SOLVER_MAP.md).
template <class Scalar, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
constexpr int flat_tile_lanes() {
  return is_host_backend<ExecutionSpace>() && simd_tile_lanes<Scalar, ExecutionSpace>() > 4
             ? 4
             : simd_tile_lanes<Scalar, ExecutionSpace>();
}

// W for SIMD tiles over Full-Interleaved storage on a host: 32 systems (at least
// simd_tile_lanes). Row i of a tile is node i of its systems and rows lie a whole batch apart,
// so every row a sweep visits is another page and another prefetch stream; a tile of two
// vectors (4 doubles with SSE2, 16 with AVX-512) reads 32-128 B there, one of 32 systems
// 256 B. Measured on the 16-core host of the GPU machine, fp64, 2^24 nodes or rows: the 12
// shared real cells ran at 0.32-0.61 of the host floor with SSE2 and 0.43-0.93 with AVX-512,
// against 0.17-0.34 and 0.35-0.60 with tiles of two vectors (docs/SOLVER_MAP.md).
template <class Scalar, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
constexpr int interleaved_tile_lanes() {
  constexpr int w = simd_tile_lanes<Scalar, ExecutionSpace>();
  return is_host_backend<ExecutionSpace>() && w < 32 ? 32 : w;
}

// The tile width for Full-Interleaved systems of n rows: interleaved_tile_lanes while one
// array's rows of a tile (n x lanes values, which the sweep back reads again) take at most
// 4 MiB, else simd_tile_lanes. Longer systems lost with the wider tiles (m = 100,000 rows:
// 0.29 against 0.34 of the floor with AVX-512; a 30,000-node tree 0.27 against 0.35), shorter
// ones gained (m = 10,000: 0.49 against 0.45; 10,000 nodes: 0.40 against 0.32).
template <class Scalar, class ExecutionSpace = Kokkos::DefaultExecutionSpace>
int interleaved_tile_lanes(long long n) {
  constexpr int wide = interleaved_tile_lanes<Scalar, ExecutionSpace>();
  constexpr long long budget = 4LL << 20;
  return n * wide * static_cast<long long>(sizeof(Scalar)) <= budget
             ? wide
             : simd_tile_lanes<Scalar, ExecutionSpace>();
}

// Writes zero over every tile of a rank-3 (tile, row, lane) View on the policy the SIMD-
// tile solves use, so that its pages sit where the threads that solve them run. Call it
// right after allocating (before any other write). Asynchronous on exec.
template <class ExecutionSpace, class View>
void touch_tiles(const ExecutionSpace& exec, const View& v) {
  static_assert(Kokkos::is_view<View>::value && static_cast<int>(View::rank) == 3,
                "hinesbatch::touch_tiles: a rank-3 (tile, row, lane) View");
  const int tiles = static_cast<int>(v.extent(0));
  if (tiles == 0 || v.extent(1) == 0 || v.extent(2) == 0) return;
  Kokkos::parallel_for("hinesbatch::touch_tiles",
                       impl::simd_tile_policy(exec, tiles, static_cast<int>(v.extent(2))),
                       impl::TouchTiles<View, ExecutionSpace>{v, tiles});
}

// A Block-Interleaved batch of W = simd_tile_lanes<Scalar, ExecutionSpace>() lanes per
// tile, its pages not yet touched: fill it with fill_tiles (or touch_tiles each array
// and then fill) so that the pages are placed by the solve's schedule.
template <class Scalar, class ExecutionSpace>
HinesBatch<Scalar, layouts::BlockInterleaved, typename ExecutionSpace::memory_space>
make_simd_tile_batch(const ExecutionSpace&, int num_systems, int num_nodes) {
  return HinesBatch<Scalar, layouts::BlockInterleaved, typename ExecutionSpace::memory_space>(
      num_systems, num_nodes, simd_tile_lanes<Scalar, ExecutionSpace>());
}

// batch.fill(exec, u, l, d, rhs), but on a host execution space each tile is written by
// the thread that will solve it (first-touch page placement, and a parallel fill).
// Throws InputError if a size does not match. Fences exec.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void fill_tiles(const ExecutionSpace& exec,
                HinesBatch<Scalar, layouts::BlockInterleaved, MemorySpace>& batch,
                const std::vector<Scalar>& u, const std::vector<Scalar>& l,
                const std::vector<Scalar>& d, const std::vector<Scalar>& rhs) {
  if constexpr (is_host_backend<ExecutionSpace>() &&
                Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible) {
    const std::string what = "a batch of " + std::to_string(batch.num_systems()) + " systems of " +
                             std::to_string(batch.num_nodes()) + " nodes";
    require_elements(u.size(), batch.num_elements(), "u", what);
    require_elements(l.size(), batch.num_elements(), "l", what);
    require_elements(d.size(), batch.num_elements(), "d", what);
    require_elements(rhs.size(), batch.num_elements(), "rhs", what);
    const int tiles = static_cast<int>(batch.u().extent(0));
    if (tiles == 0) return;
    using View = typename HinesBatch<Scalar, layouts::BlockInterleaved, MemorySpace>::view_type;
    Kokkos::parallel_for("hinesbatch::fill_tiles",
                         impl::simd_tile_policy(exec, tiles, batch.block_size()),
                         impl::FillTiles<View, Scalar, ExecutionSpace>{
                             batch.u(), batch.l(), batch.d(), batch.rhs(), u.data(), l.data(),
                             d.data(), rhs.data(), batch.num_systems(), batch.num_nodes(), tiles});
    exec.fence();
  } else {
    batch.fill(exec, u, l, d, rhs);
  }
}

}  // namespace hinesbatch
