#pragma once
// ThomasBatch with the SIMD-tile schedule (simd_tiles_solve.hpp): rank-3 (tile, row, lane)
// Block-Interleaved Views solved a tile of BS = extent(2) systems at a time, vectorised
// over the lanes (thomas_solve_tile, tile_system.hpp). Results, failure records and errors
// are those of thomas_batch(...) on the same Views.
#include <Kokkos_Core.hpp>
#include <climits>
#include <string>
#include <type_traits>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/solvers/impl/thomas_simd_tiles_kernels.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"
#include "hinesbatch/solvers/simd_tiles_solve.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"

namespace hinesbatch {
namespace impl {

template <class ExecutionSpace, class AV, class BV, class CV, class DV, class StatusView>
void thomas_simd_tiles_impl(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                            const DV& d, const StatusView& status, bool record, int num_systems) {
  using Checks = TridiagonalViews<ExecutionSpace, AV, BV, CV, DV>;
  static_assert(std::is_same<typename Checks::layout, layouts::BlockInterleaved>::value,
                "hinesbatch::thomas_batch_simd_tiles: a, b, c, d must be rank-3 LayoutRight "
                "(tile, row, lane) Views (Block-Interleaved)");
  check_status_type<ExecutionSpace, StatusView>();
  const char* where = "hinesbatch::thomas_batch_simd_tiles";
  require_same_extents(where, a, b, c, d);
  const long long n = checked_system_count(where, system_slots<layouts::BlockInterleaved>(d),
                                           num_systems, "the systems the storage holds");
  if (n == 0) return;
  const int m = checked_row_count(where, d);
  const int bs = static_cast<int>(d.extent(2));
  if (bs < 1) throw InputError(std::string(where) + ": tiles have no lanes", {}, 0, "0");
  // The tile pointers assume one row stride for the four arrays (true for Views of the
  // same extents unless one is a strided subview).
  if (a.stride(1) != d.stride(1) || b.stride(1) != d.stride(1) || c.stride(1) != d.stride(1))
    throw InputError(std::string(where) + ": a, b, c and d must have the same row stride", {}, 0,
                     std::to_string(a.stride(1)));
  const int tiles = static_cast<int>((n + bs - 1) / bs);
  Kokkos::parallel_for("hinesbatch::thomas_batch_simd_tiles", simd_tile_policy(exec, tiles, bs),
                       ThomasSimdTiles<AV, BV, CV, DV, StatusView, ExecutionSpace>{
                           a, b, c, d, status, m, bs, static_cast<int>(n), tiles, record});
}

}  // namespace impl

// ThomasBatch on Block-Interleaved (tile, row, lane) Views, a tile of BS = extent(2)
// systems at a time, vectorised over the lanes. Same contract as thomas_batch on those
// Views (num_systems: -1 for every lane, or the first num_systems lanes; padding lanes
// untouched).
template <class ExecutionSpace, class AV, class BV, class CV, class DV>
void thomas_batch_simd_tiles(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                             const DV& d, int num_systems = -1) {
  impl::thomas_simd_tiles_impl(exec, a, b, c, d, impl::no_status_view<ExecutionSpace>(), false,
                               num_systems);
}

// Same, recording failures in status at flat index s * m + row (check_thomas_status).
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class StatusView,
          class = typename std::enable_if<Kokkos::is_view<StatusView>::value>::type>
void thomas_batch_simd_tiles(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                             const DV& d, const StatusView& status, int num_systems = -1) {
  impl::thomas_simd_tiles_impl(exec, a, b, c, d, status, true, num_systems);
}

}  // namespace hinesbatch
