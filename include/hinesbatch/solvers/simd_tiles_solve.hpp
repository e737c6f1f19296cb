#pragma once
// The SIMD-tile schedule: a batch solved a tile of W systems at a time, the lane loop
// vectorised (tile_system.hpp). On a host each thread solves a contiguous chunk of tiles
// with W-wide vector instructions; on a GPU a tile is the vector lanes of
// a team (one system per lane, as the per-system Block-Interleaved kernel, in one
// functor). W is the batch's block size: make the batch with make_simd_tile_batch (W =
// simd_tile_lanes<Scalar, ExecutionSpace>(), two vectors) and fill it with fill_tiles
// (layouts/simd_tiles.hpp) for first-touch placement. Any block size works (a wider
// tile, e.g. Block-Interleaved's default 128, is solved W lanes per pass on a host); the
// native width gives straight packed code on a host with no partial passes.
//
//   solve_simd_tiles(exec, tree, batch)    Hines, HinesBatch<T, BlockInterleaved>, or
//                                          <T, FullInterleaved> (interleaved_tile_lanes
//                                          consecutive systems) or <T, Flat>
//                                          (flat_tile_lanes systems)
//   thomas_batch_simd_tiles(...)           Thomas: thomas_simd_tiles.hpp (Block-Interleaved;
//                                          thomas_batch's SimdTiles takes every layout)
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
#include "hinesbatch/solvers/device_tree.hpp"
#include "hinesbatch/solvers/impl/simd_tiles_kernels.hpp"

namespace hinesbatch {

namespace impl {

template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve_simd_tiles_impl(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                           const HinesBatch<Scalar, Layout, MemorySpace>& batch) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve_simd_tiles: the batch's memory space is not accessible "
                "from exec");
  using Batch = HinesBatch<Scalar, Layout, MemorySpace>;
  using ParentView = typename DeviceTree<MemorySpace>::parent_view;
  const char* where = "hinesbatch::solve_simd_tiles";
  if (tree.size() != batch.num_nodes())
    throw InputError(std::string(where) + ": tree has " + std::to_string(tree.size()) +
                         " nodes but the batch's systems have " + std::to_string(batch.num_nodes()),
                     {}, 0, std::to_string(tree.size()));
  if (batch.num_systems() == 0) return;
  // Block-Interleaved: the batch's tiles; Full-Interleaved: interleaved_tile_lanes
  // consecutive systems (on a host 32, a row of a tile 256 B of each array in double; W for
  // long systems); Flat: flat_tile_lanes consecutive systems.
  const int bs = tile_block_size<Layout, Scalar, ExecutionSpace>(
      Layout::tiled ? batch.block_size() : 0, batch.num_nodes());
  const int tiles = layouts::BlockInterleaved::tile_count(batch.num_systems(), bs);
  using Functor = impl::HinesSimdTiles<Batch, ParentView, ExecutionSpace>;
  const std::size_t scratch =
      Functor::scratch_bytes(batch.num_nodes(), static_cast<int>(batch.u().stride(1)), bs);
  auto policy = impl::simd_tile_policy(exec, tiles, bs);
  if (scratch) policy.set_scratch_size(1, Kokkos::PerTeam(scratch));
  Kokkos::parallel_for(
      "hinesbatch::solve_simd_tiles", policy,
      Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), tree.parents(),
              batch.num_nodes(), bs, batch.num_systems(), tiles, scratch});
}

}  // namespace impl

// Solves every system of a Block-Interleaved batch in place, a tile of block_size systems
// at a time, vectorised over the tile's lanes: rhs becomes the solution and d the
// eliminated diagonal, as solve(exec, tree, batch). Asynchronous on exec; call
// batch.check(exec) to turn zero pivots or non-finite values into a SolverError naming
// the system and node. Throws InputError if the tree does not match the batch.
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve_simd_tiles(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                      const HinesBatch<Scalar, layouts::BlockInterleaved, MemorySpace>& batch) {
  impl::solve_simd_tiles_impl(exec, tree, batch);
}

// The same on a Full-Interleaved batch, whose rows already hold node i of consecutive
// systems side by side: tiles of interleaved_tile_lanes<Scalar, ExecutionSpace>(n)
// consecutive systems, read in whole cache lines (the per-system schedules read one value
// per line on a host).
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve_simd_tiles(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                      const HinesBatch<Scalar, layouts::FullInterleaved, MemorySpace>& batch) {
  impl::solve_simd_tiles_impl(exec, tree, batch);
}

// The same on a Flat batch: tiles of flat_tile_lanes<Scalar, ExecutionSpace>() consecutive
// systems, each lane sweeping its own contiguous system (several independent sweeps per
// core where one thread per system has one).
template <class ExecutionSpace, class Scalar, class MemorySpace>
void solve_simd_tiles(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                      const HinesBatch<Scalar, layouts::Flat, MemorySpace>& batch) {
  impl::solve_simd_tiles_impl(exec, tree, batch);
}

}  // namespace hinesbatch
