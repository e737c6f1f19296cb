#pragma once
// The launch policy that maps SIMD tiles (layouts/simd_tiles.hpp) to threads, shared by the
// SIMD-tile solves, the page-placing fills and the simulation's host tiles.
#include <Kokkos_Core.hpp>

#include "hinesbatch/core/backend_traits.hpp"

namespace hinesbatch {
namespace impl {

// Tiles handed out by the solve and by the page-placing fills: on a host one tile per
// team of one thread, static schedule (contiguous chunks of tiles per thread); on a GPU
// up to 128 / vector-length tiles per team, one vector lane per system.
template <class ExecutionSpace>
using SimdTilePolicy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Static>>;

template <class ExecutionSpace>
struct SimdTileShape {
  int tiles_per_team = 1, vector_length = 1;
};

template <class ExecutionSpace>
SimdTileShape<ExecutionSpace> simd_tile_shape(int lanes) {
  SimdTileShape<ExecutionSpace> s;
  if (!is_host_backend<ExecutionSpace>()) {
    int v = 1;
    while (v < lanes && v < 32) v *= 2;
    s.vector_length = v;
    s.tiles_per_team = 128 / v > 1 ? 128 / v : 1;
  }
  return s;
}

template <class ExecutionSpace>
SimdTilePolicy<ExecutionSpace> simd_tile_policy(const ExecutionSpace& exec, int num_tiles,
                                                int lanes) {
  const auto s = simd_tile_shape<ExecutionSpace>(lanes);
  return SimdTilePolicy<ExecutionSpace>(exec, (num_tiles + s.tiles_per_team - 1) / s.tiles_per_team,
                                        s.tiles_per_team, s.vector_length);
}

template <class Member>
KOKKOS_FORCEINLINE_FUNCTION int simd_tile_of(const Member& team) {
  return team.league_rank() * team.team_size() + team.team_rank();
}

// How many systems the tile whose first system is `first` holds: block_size, fewer in the
// last tile.
KOKKOS_FORCEINLINE_FUNCTION int simd_tile_systems(int first, int block_size, int num_systems) {
  return num_systems - first < block_size ? num_systems - first : block_size;
}

}  // namespace impl
}  // namespace hinesbatch
