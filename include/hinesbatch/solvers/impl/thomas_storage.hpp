#pragma once
// How the tridiagonal solvers read and check their storage: the layout of a, b,
// c, d and the compile-time checks of every entry point, the extents and system
// counts, the rows of a padded system, and the failure record (bad-size codes,
// RowFailureRecord).
#include <Kokkos_Core.hpp>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {
namespace impl {

// A system whose size (ThomasVBatch) is invalid is not solved; it is recorded
// in status(0) as LLONG_MIN + system, below every flat index, so it wins over
// pivot failures.
KOKKOS_INLINE_FUNCTION constexpr long long bad_size_code(long long system) {
  return LLONG_MIN + system;
}
inline long long bad_size_system(long long code) { return code - LLONG_MIN; }

template <class View>
struct TridiagonalLayout {
  static constexpr int rank = static_cast<int>(View::rank);
  using array_layout = typename View::array_layout;
  static constexpr bool right = std::is_same<array_layout, Kokkos::LayoutRight>::value;
  static constexpr bool left = std::is_same<array_layout, Kokkos::LayoutLeft>::value;
  using type = typename std::conditional<
      rank == 2 && right, layouts::Flat,
      typename std::conditional<
          rank == 2 && left, layouts::FullInterleaved,
          typename std::conditional<rank == 3 && right, layouts::BlockInterleaved,
                                    void>::type>::type>::type;
};

template <class V>
using scalar_of = typename std::remove_const<typename V::value_type>::type;

// Compile-time checks shared by every entry point; returns the deduced layout.
template <class ExecutionSpace, class AV, class BV, class CV, class DV>
struct TridiagonalViews {
  static_assert(Kokkos::is_view<AV>::value && Kokkos::is_view<BV>::value &&
                    Kokkos::is_view<CV>::value && Kokkos::is_view<DV>::value,
                "hinesbatch::thomas: a, b, c and d must be Kokkos::Views");
  using layout = typename TridiagonalLayout<DV>::type;
  static_assert(!std::is_void<layout>::value,
                "hinesbatch::thomas: coefficient Views must be rank-2 "
                "LayoutRight (Flat), rank-2 "
                "LayoutLeft (Full-Interleaved) or rank-3 LayoutRight "
                "(Block-Interleaved)");
  static_assert(std::is_same<typename TridiagonalLayout<AV>::type, layout>::value &&
                    std::is_same<typename TridiagonalLayout<BV>::type, layout>::value &&
                    std::is_same<typename TridiagonalLayout<CV>::type, layout>::value,
                "hinesbatch::thomas: a, b, c and d must have the same rank and layout");
  using scalar_type = scalar_of<DV>;
  static_assert(std::is_same<scalar_of<AV>, scalar_type>::value &&
                    std::is_same<scalar_of<BV>, scalar_type>::value &&
                    std::is_same<scalar_of<CV>, scalar_type>::value,
                "hinesbatch::thomas: a, b, c and d must hold the same scalar type");
  static_assert(!std::is_const<typename CV::value_type>::value &&
                    !std::is_const<typename DV::value_type>::value,
                "hinesbatch::thomas: c and d are overwritten and cannot be "
                "Views of const");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename AV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename BV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename CV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename DV::memory_space>::accessible,
      "hinesbatch::thomas: the coefficient Views are not accessible from exec");
};

template <class ExecutionSpace, class StatusView>
void check_status_type() {
  static_assert(Kokkos::is_view<StatusView>::value && static_cast<int>(StatusView::rank) == 1 &&
                    std::is_same<typename StatusView::value_type, long long>::value,
                "hinesbatch::thomas: status must be a Kokkos::View<long long[2], "
                "MemorySpace>");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename StatusView::memory_space>::accessible,
      "hinesbatch::thomas: the status View is not accessible from exec");
}

template <class V>
std::string extents_string(const V& v) {
  std::string s;
  for (int r = 0; r < static_cast<int>(V::rank); ++r)
    s += (r ? " x " : "") + std::to_string(v.extent(r));
  return s;
}

// Throws InputError unless every View has the extents of d.
template <class AV, class BV, class CV, class DV>
void require_same_extents(const char* where, const AV& a, const BV& b, const CV& c, const DV& d) {
  auto one = [&](const auto& v, const char* name) {
    for (int r = 0; r < static_cast<int>(DV::rank); ++r)
      if (v.extent(r) != d.extent(r))
        throw InputError(std::string(where) + ": " + name + " has extents " + extents_string(v) +
                             ", d has " + extents_string(d) + " (extent(" + std::to_string(r) +
                             ") differs)",
                         {}, 0, std::to_string(v.extent(r)));
  };
  one(a, "a");
  one(b, "b");
  one(c, "c");
}

template <class View>
int row_extent(const View& v) {
  return static_cast<int>(v.extent(1));
}
// Systems the storage holds: rows of a Flat / Full-Interleaved View, tiles x
// lanes.
template <class Layout, class View>
long long system_slots(const View& v) {
  if constexpr (Layout::tiled)
    return static_cast<long long>(v.extent(0)) * static_cast<long long>(v.extent(2));
  else
    return static_cast<long long>(v.extent(0));
}
template <class Layout, class View>
int block_size_of(const View& v) {
  if constexpr (Layout::tiled)
    return static_cast<int>(v.extent(2));
  else
    return 1;
}

// ThomasBatch and the padded ThomasVBatch variants: one work item per system
// over the layout's 1-D subviews. kRows: the system's size comes from sizes(s)
// (No Computing Padding) or is only validated there (Computing Padding, which
// always runs m rows).
enum class RowCount { Fixed, ComputingPadding, NoComputingPadding };

// The rows to solve of system s of padded storage with m rows per system; 0
// when sizes(s) is not in [1, m] (the caller records bad_size_code(s)).
template <RowCount kRows, class SizesView>
KOKKOS_INLINE_FUNCTION int padded_rows(const SizesView& sizes, const int s, const int m) {
  if (kRows == RowCount::Fixed) return m;
  const int size = static_cast<int>(sizes(s));
  if (size < 1 || size > m) return 0;
  return kRows == RowCount::NoComputingPadding ? size : m;
}

// Records a failure of the system whose row 0 has flat index `offset` (-1:
// none).
template <class StatusView>
struct RowFailureRecord {
  StatusView status;
  long long offset;
  bool record;
  KOKKOS_INLINE_FUNCTION void operator()(const int pivot_row, const int x_row) const {
    if (!record) return;
    if (pivot_row >= 0) Kokkos::atomic_fetch_min(&status(0), offset + pivot_row);
    if (x_row >= 0) Kokkos::atomic_fetch_min(&status(1), offset + x_row);
  }
};

}  // namespace impl
}  // namespace hinesbatch
