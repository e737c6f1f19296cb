#pragma once
// The kernels and launch logic behind thomas_batch.hpp (its public API): one thread per
// system (ThomasPerSystem, ThomasPacked; with its eliminated values on chip,
// thomas_on_chip.hpp), a team per system (thomas_team.hpp) and a warp per system
// (thomas_warp.hpp), the schedule choice and the host-side checks. Not for callers.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/auto_thomas_table.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/impl/thomas_on_chip.hpp"
#include "hinesbatch/solvers/impl/thomas_system.hpp"
#include "hinesbatch/solvers/impl/thomas_team.hpp"
#include "hinesbatch/solvers/impl/thomas_warp.hpp"
#include "hinesbatch/solvers/on_chip.hpp"
#include "hinesbatch/solvers/thomas_schedule.hpp"

namespace hinesbatch {
namespace impl {

// A system whose size (ThomasVBatch) is invalid is not solved; it is recorded in status(0)
// as LLONG_MIN + system, below every flat index, so it wins over pivot failures.
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
                "hinesbatch::thomas: coefficient Views must be rank-2 LayoutRight (Flat), rank-2 "
                "LayoutLeft (Full-Interleaved) or rank-3 LayoutRight (Block-Interleaved)");
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
                "hinesbatch::thomas: c and d are overwritten and cannot be Views of const");
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
                "hinesbatch::thomas: status must be a Kokkos::View<long long[2], MemorySpace>");
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
// Systems the storage holds: rows of a Flat / Full-Interleaved View, tiles x lanes.
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

// ThomasBatch and the padded ThomasVBatch variants: one work item per system over the
// layout's 1-D subviews. kRows: the system's size comes from sizes(s) (No Computing
// Padding) or is only validated there (Computing Padding, which always runs m rows).
enum class RowCount { Fixed, ComputingPadding, NoComputingPadding };

// The rows to solve of system s of padded storage with m rows per system; 0 when sizes(s) is
// not in [1, m] (the caller records bad_size_code(s)).
template <RowCount kRows, class SizesView>
KOKKOS_INLINE_FUNCTION int padded_rows(const SizesView& sizes, const int s, const int m) {
  if (kRows == RowCount::Fixed) return m;
  const int size = static_cast<int>(sizes(s));
  if (size < 1 || size > m) return 0;
  return kRows == RowCount::NoComputingPadding ? size : m;
}

// Records a failure of the system whose row 0 has flat index `offset` (-1: none).
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

template <class Layout, class AV, class BV, class CV, class DV, class SizesView, class StatusView,
          RowCount kRows>
struct ThomasPerSystem {
  AV a;
  BV b;
  CV c;
  DV d;
  SizesView sizes;
  StatusView status;
  int m, block_size;
  bool record;

  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const int rows = padded_rows<kRows>(sizes, s, m);
    if (rows == 0) {
      if (record) Kokkos::atomic_fetch_min(&status(0), bad_size_code(s));
      return;
    }
    const SolveFailure f = thomas_solve_system(
        rows, Layout::system_view(a, s, block_size), Layout::system_view(b, s, block_size),
        Layout::system_view(c, s, block_size), Layout::system_view(d, s, block_size));
    if (record) record_failure(status, f, static_cast<long long>(s) * m);
  }
};

// The team schedule of ThomasPerSystem: league rank = system, the team's scratch holds the
// system while it is eliminated (thomas_team.hpp).
template <class ExecutionSpace, class Layout, class AV, class BV, class CV, class DV,
          class SizesView, class StatusView, RowCount kRows>
struct ThomasTeamPerSystem {
  using T = typename DV::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  AV a;
  BV b;
  CV c;
  DV d;
  SizesView sizes;
  StatusView status;
  int m, block_size;
  bool record;
  TeamThomasShape shape;
  int scratch_level;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
    const int rows = padded_rows<kRows>(sizes, s, m);
    if (rows == 0) {
      if (record && team.team_rank() == 0) Kokkos::atomic_fetch_min(&status(0), bad_size_code(s));
      return;  // the whole team leaves: no barrier is left waiting
    }
    scratch_view scratch(team.team_scratch(scratch_level), shape.scratch_scalars());
    team_thomas_solve(team, scratch.data(), shape, rows, Layout::system_view(a, s, block_size),
                      Layout::system_view(b, s, block_size), Layout::system_view(c, s, block_size),
                      Layout::system_view(d, s, block_size),
                      RowFailureRecord<StatusView>{status, static_cast<long long>(s) * m, record});
  }
};

// The on-chip schedule of ThomasPerSystem (thomas_on_chip.hpp): a team's lanes take
// consecutive systems, c' and d' of each system's first `kept` rows in the team's scratch,
// row-major ([row][lane]: a warp touches 32 consecutive words). Rows are addressed by int
// offsets from a system's first row (the driver checks that they fit).
template <class ExecutionSpace, class Layout, class AV, class BV, class CV, class DV,
          class SizesView, class StatusView, RowCount kRows>
struct ThomasPerSystemOnChip {
  using T = typename DV::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  AV a;
  BV b;
  CV c;
  DV d;
  SizesView sizes;
  StatusView status;
  int m, block_size, num_systems;
  bool record;
  int kept;

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int kept_rows, int lanes) {
    return 2 * sizeof(T) * static_cast<std::size_t>(kept_rows) * static_cast<std::size_t>(lanes);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int lanes = team.team_size(), lane = team.team_rank();
    T* const base =
        on_chip<0>(static_cast<T*>(team.team_scratch(0).get_shmem(scratch_bytes(kept, lanes), 0)));
    const int s = team.league_rank() * lanes + lane;
    if (s >= num_systems) return;  // no team synchronisation below
    const int rows = padded_rows<kRows>(sizes, s, m);
    if (rows == 0) {
      if (record) Kokkos::atomic_fetch_min(&status(0), bad_size_code(s));
      return;
    }
    const int ns =
        m > 1
            ? static_cast<int>(&Layout::at(d, s, 1, block_size) - &Layout::at(d, s, 0, block_size))
            : 0;
    const SolveFailure f =
        thomas_solve_on_chip(rows, kept, opaque_pointer(&Layout::at(a, s, 0, block_size)),
                             opaque_pointer(&Layout::at(b, s, 0, block_size)),
                             opaque_pointer(&Layout::at(c, s, 0, block_size)),
                             opaque_pointer(&Layout::at(d, s, 0, block_size)), ns, base + lane,
                             base + static_cast<std::size_t>(kept) * lanes + lane, lanes);
    if (record) record_failure(status, f, static_cast<long long>(s) * m);
  }
};

// Host backends' warp schedule: systems [first, first + count) (below num_systems) solved
// one after another by warp_thomas_solve_emulated, L lanes of R rows run in turn.
template <int R, int L, class Systems>
KOKKOS_INLINE_FUNCTION void emulate_warp_systems(const Systems& systems, const int first,
                                                 const int count, const int num_systems) {
  using T = typename Systems::scalar_type;
  for (int s = first; s < first + count && s < num_systems; ++s) {
    const int rows = systems.rows_of(s, true);
    if (rows == 0) continue;
    systems.with_system(
        s, rows,
        [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
          warp_thomas_solve_emulated<T, R, L>(rows, a, b, c, d, record);
        });
  }
}

// The warp schedule (thomas_warp.hpp): team thread t of league rank l is warp
// w = l x team_size + t; its kWarpLanes vector lanes solve systems w G .. w G + G - 1
// (G = kWarpLanes / L), each with a group of L lanes of R rows. Systems says where the
// systems are: rows_of(s, report) (0: nothing to solve; a bad size is recorded when
// `report`) and with_system(s, rows, f), which calls f(a, b, c, d, record) with the
// system's 1-D row Views and its failure recorder.
template <class ExecutionSpace, class Systems, int R, int L>
struct ThomasWarpPerSystem {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int kSystemsPerWarp = kWarpLanes / L;
  Systems systems;
  int num_systems;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int warp = team.league_rank() * team.team_size() + team.team_rank();
    const int s0 = warp * kSystemsPerWarp;
    if (s0 >= num_systems) return;  // uniform over the warp
#if defined(__CUDA_ARCH__)
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
      const int s = s0 + lane / L;
      const int rows = s < num_systems ? systems.rows_of(s, lane % L == 0) : 0;
      // A group without a system passes the last one's Views and solves nothing.
      systems.with_system(
          s < num_systems ? s : num_systems - 1, rows,
          [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
            warp_thomas_solve_lane<T, R, L>(lane, rows, a, b, c, d, record);
          });
    });
#else
    Kokkos::single(Kokkos::PerThread(team), [&]() {
      emulate_warp_systems<R, L>(systems, s0, kSystemsPerWarp, num_systems);
    });
#endif
  }
};

// The warp schedule's multi-warp shapes: league rank = system, team = P warps (team threads)
// of kWarpLanes vector lanes, i.e. one CUDA block; its shared memory holds the reduced system
// (warps_thomas_buffer_rows). Host backends run the 32 P lanes in turn on one thread.
template <class ExecutionSpace, class Systems, int R, int P>
struct ThomasWarpsPerSystem {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<TriRow<T>*, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int kLanes = kWarpLanes * P;
  static constexpr int kScratchRows = warps_thomas_buffer_rows<T, P>();
  Systems systems;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
#if defined(__CUDA_ARCH__)
    const int rows = systems.rows_of(s, team.team_rank() == 0 && threadIdx.x == 0);
    if (rows == 0) return;  // uniform over the block: no barrier is left waiting
    scratch_view buf(team.team_scratch(0), kScratchRows);
    const int w = team.team_rank();
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
      systems.with_system(
          s, rows,
          [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
            warps_thomas_solve_lane<T, R, P, 1>(w, lane, buf.data(), nullptr, rows, a, b, c, d,
                                                record);
          });
    });
#else
    Kokkos::single(Kokkos::PerTeam(team),
                   [&]() { emulate_warp_systems<R, kLanes>(systems, s, 1, s + 1); });
#endif
  }
};

// The multi-warp shapes on Full-Interleaved storage on GPUs: league rank = G consecutive
// systems, team = P warps of kWarpLanes vector lanes; lane G q + j of warp w holds chunk
// (32 / G) w + q of system j (warps_thomas_solve_lane), so a warp's load of one row index
// reads G systems' consecutive values: every load is whole 32-byte sectors (G = 4 in double),
// nothing is staged, and the reduced systems go through shared memory as for one Flat
// system. GPUs only (host backends run the warp schedule's lanes from storage).
constexpr int kInterleavedWarpSystems = 4;
template <class ExecutionSpace, class Systems, int R, int P>
struct ThomasWarpsInterleaved {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<TriRow<T>*, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  static constexpr int G = kInterleavedWarpSystems;
  static constexpr int kLanesPerSystem = kWarpLanes / G * P;
  // The reduced systems' buffer, then one row's worth of space for the G bad-input flags.
  static constexpr int kScratchRows = warps_thomas_buffer_rows<T, P>() + 1;
  static_assert(sizeof(TriRow<T>) >= G * sizeof(int), "the flags fit in one row");
  Systems systems;
  int num_systems;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s0 = team.league_rank() * G;
#if defined(__CUDA_ARCH__)
    scratch_view buf(team.team_scratch(0), kScratchRows);
    int* const bad_input_of = reinterpret_cast<int*>(buf.data() + kScratchRows - 1);
    const int w = team.team_rank();
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
      const int s = s0 + lane % G;
      if (w == 0 && lane < G) bad_input_of[lane] = 0;  // before the solve's first barrier
      // Systems past the batch solve nothing (rows = 0) with the last one's Views, but take
      // part in every barrier; a bad size is recorded once per system.
      const int rows = s < num_systems ? systems.rows_of(s, w == 0 && lane < G) : 0;
      systems.with_system(
          s < num_systems ? s : num_systems - 1, rows,
          [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
            warps_thomas_solve_lane<T, R, P, G>(w, lane, buf.data(), bad_input_of, rows, a, b, c, d,
                                                record);
          });
    });
#else
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      emulate_warp_systems<R, kLanesPerSystem>(systems, s0, G, num_systems);
    });
#endif
  }
};

// The warp schedule on Full-Interleaved storage on GPUs: a lane reading its own R rows there
// touches R rows N systems apart, 8 useful bytes per 32-byte sector (10-20 G rows/s measured
// on the H100). So a block takes B consecutive systems and transposes them through shared
// memory: its threads read row after row of the B systems (B x sizeof(T) >= 32 contiguous
// bytes, whole sectors), the lanes solve from shared memory (LaneBlockedRows), and x goes
// back the same way. B x m_max x 4 coefficients fill kTransposeTileBytes of shared memory.
constexpr int kTransposeTileBytes = 32768;
// Auto takes the transposed path up to this many rows (measured on the H100 at 256,000
// systems: fp64 1.28x / 1.06x the ThomasBatch paper's kernel at 64 / 128 rows, 0.88x at 256;
// fp32 1.02x at 64 rows, 0.93x at 128).
template <class T>
constexpr int warp_transposed_auto_rows() {
  return sizeof(T) >= 8 ? 128 : 64;
}

template <class ExecutionSpace, class Systems, int R, int L>
struct ThomasWarpTransposed {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  using Rows = LaneBlockedRows<T, R>;
  static constexpr int kSystemRows = L * R;  // rows the lane group holds
  static constexpr int kSystems = kTransposeTileBytes / (4 * int(sizeof(T)) * kSystemRows);  // B
  static constexpr int kThreads = kSystems * L;
  static constexpr int kWarps = kThreads / kWarpLanes;
  static_assert(kThreads % kWarpLanes == 0, "whole warps per block");
  // Scalars per staged system: its L lanes' padded rows, plus padding so that the B systems
  // of one row index start in different banks (a warp's transposing store then takes the
  // minimum number of shared-memory wavefronts).
  static constexpr int kWordsPerScalar = int(sizeof(T)) / 4;
  static constexpr int kBankWords = 32;
  // A warp's store covers q = 32 / B consecutive rows of each of the B systems (q = 1 when
  // B >= 32): system starts q rows apart modulo the banks tile them exactly; with q = 1 an
  // odd stride is enough.
  static constexpr int kRowsPerStore = kWarpLanes / kSystems > 1 ? kWarpLanes / kSystems : 1;
  static constexpr int kSystemScalars = [] {
    int n = L * Rows::stride_of_lane;
    if (kRowsPerStore == 1) return n % 2 == 1 ? n : n + 1;
    const int period = kBankWords / kWordsPerScalar;
    while (n % period != kRowsPerStore % period) ++n;
    return n;
  }();
  static constexpr int kScratchScalars = 4 * kSystems * kSystemScalars;
  static_assert(kScratchScalars * int(sizeof(T)) <= 44 * 1024, "fits Kokkos 3.4's 48 KB");
  Systems systems;
  int num_systems;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s0 = team.league_rank() * kSystems;
#if defined(__CUDA_ARCH__)
    scratch_view tile(team.team_scratch(0), kScratchScalars);
    T* const sa = tile.data();
    T* const sb = sa + kSystems * kSystemScalars;
    T* const sc = sb + kSystems * kSystemScalars;
    T* const sd = sc + kSystems * kSystemScalars;
    const int w = team.team_rank();
    // Element e of the tile: system e % B, row e / B (consecutive threads, consecutive
    // systems of one row: contiguous in Full-Interleaved storage).
    const int m = systems.m;
    const int tile_rows = m < kSystemRows ? m : kSystemRows;
    // Each thread moves R elements of each coefficient (B x L R / (B L)): all 4 R loads are
    // issued before the first store to shared memory, so they are in flight together.
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
      T va[R], vb[R], vc[R], vd[R];
      int at[R];
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < R; ++q) {
        const int e = w * kWarpLanes + lane + q * kThreads;
        const int j = e % kSystems, r = e / kSystems, s = s0 + j;
        const bool in = r < tile_rows && s < num_systems && r < systems.rows_of(s, false);
        at[q] = in ? j * kSystemScalars + Rows::index(r) : -1;
        va[q] = in ? systems.a(s, r) : T(0);
        vb[q] = in ? systems.b(s, r) : T(0);
        vc[q] = in ? systems.c(s, r) : T(0);
        vd[q] = in ? systems.d(s, r) : T(0);
      }
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < R; ++q)
        if (at[q] >= 0) {
          sa[at[q]] = va[q];
          sb[at[q]] = vb[q];
          sc[at[q]] = vc[q];
          sd[at[q]] = vd[q];
        }
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
      const int j = (w * kWarpLanes + lane) / L, s = s0 + j;
      const int rows = s < num_systems ? systems.rows_of(s, lane % L == 0) : 0;
      const int o = j * kSystemScalars;
      warp_thomas_solve_lane<T, R, L>(
          lane, rows, Rows{sa + o}, Rows{sb + o}, Rows{sc + o}, Rows{sd + o},
          RowFailureRecord<typename Systems::status_view>{
              systems.status, static_cast<long long>(s) * m, systems.record && rows > 0});
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < R; ++q) {
        const int e = w * kWarpLanes + lane + q * kThreads;
        const int j = e % kSystems, r = e / kSystems, s = s0 + j;
        if (r < tile_rows && s < num_systems && r < systems.rows_of(s, false))
          systems.d(s, r) = sd[j * kSystemScalars + Rows::index(r)];
      }
    });
#else
    // Host backends: the lanes in turn, straight from storage (no transpose needed).
    Kokkos::single(Kokkos::PerTeam(team),
                   [&]() { emulate_warp_systems<R, L>(systems, s0, kSystems, num_systems); });
#endif
  }
};

// ThomasBatch / ThomasVBatch storage for the warp schedule: system s in the layout's slot s,
// m padded rows, its size from sizes(s) as kRows says.
template <class Layout, class AV, class BV, class CV, class DV, class SizesView, class StatusView,
          RowCount kRows>
struct PaddedSystems {
  using scalar_type = typename DV::non_const_value_type;
  using status_view = StatusView;
  AV a;
  BV b;
  CV c;
  DV d;
  SizesView sizes;
  StatusView status;
  int m, block_size;
  bool record;

  KOKKOS_INLINE_FUNCTION int rows_of(const int s, const bool report) const {
    const int rows = padded_rows<kRows>(sizes, s, m);
    if (rows == 0 && record && report) Kokkos::atomic_fetch_min(&status(0), bad_size_code(s));
    return rows;
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION void with_system(const int s, const int rows, const F& f) const {
    f(Layout::system_view(a, s, block_size), Layout::system_view(b, s, block_size),
      Layout::system_view(c, s, block_size), Layout::system_view(d, s, block_size),
      RowFailureRecord<StatusView>{status, static_cast<long long>(s) * m, record && rows > 0});
  }
};

// ThomasVBatch on packed storage: system s in rows [offsets(s), offsets(s + 1)), at most m.
template <class AV, class BV, class CV, class DV, class OffsetsView, class StatusView>
struct PackedSystems {
  using scalar_type = typename DV::non_const_value_type;
  AV a;
  BV b;
  CV c;
  DV d;
  OffsetsView offsets;
  StatusView status;
  long long total_rows;
  int m;
  bool record;

  KOKKOS_INLINE_FUNCTION int rows_of(const int s, const bool report) const {
    const long long begin = static_cast<long long>(offsets(s));
    const long long end = static_cast<long long>(offsets(s + 1));
    if (begin < 0 || end <= begin || end > total_rows || end - begin > m) {
      if (record && report) Kokkos::atomic_fetch_min(&status(0), bad_size_code(s));
      return 0;
    }
    return static_cast<int>(end - begin);
  }
  template <class F>
  KOKKOS_INLINE_FUNCTION void with_system(const int s, const int rows, const F& f) const {
    // rows == 0: the offsets may be bad; an empty range at 0 is never read.
    const long long begin = rows > 0 ? static_cast<long long>(offsets(s)) : 0;
    const auto range = Kokkos::make_pair(begin, begin + rows);
    f(Kokkos::subview(a, range), Kokkos::subview(b, range), Kokkos::subview(c, range),
      Kokkos::subview(d, range), RowFailureRecord<StatusView>{status, begin, record && rows > 0});
  }
};

// The largest Full-Interleaved systems the warp schedule reads coalesced: P = 8 warps of 8
// rows per lane on kInterleavedWarpSystems systems side by side (launch_thomas_warp_padded).
constexpr int kInterleavedWarpsMaxRows =
    kWarpLanes / kInterleavedWarpSystems * 8 * kWarpRowsPerLane;

// Full-Interleaved systems of up to kInterleavedWarpsMaxRows rows: below this many systems
// the ThomasBatch paper's one thread per system leaves most of the GPU idle (fewer threads than a
// quarter of what it holds: 67,584 on an H100) and the warp schedule, a warp's lanes on 4 systems,
// is faster. Measured on the H100 (docs/history/PERFORMANCE-log.md, the last 2026-11-23 section),
// fp64, warp schedule against the ThomasBatch paper's kernel: 25,600 systems 30.4 / 19.0 G rows/s
// at 256 rows, 30.8 / 18.8 at 512; 64,000 systems 33.1 / 31.0 and 31.5 / 31.4; 128,000 systems 33.9
// / 38.1 and 31.6 / 37.5 (the ThomasBatch paper's kernel ahead from there on). A constant of the
// backend, asked once.
template <class ExecutionSpace>
long long interleaved_warp_auto_max_systems() {
  static const long long systems = static_cast<long long>(ExecutionSpace().concurrency()) / 4;
  return systems;
}

// The schedule that runs for systems of (at most) m rows; m < 0: unknown, as if small.
// num_systems < 0: unknown, as if many.
template <class ExecutionSpace, class Layout, class Scalar = double>
ThomasSchedule resolve_schedule(ThomasSchedule schedule, int m = -1, long long num_systems = -1) {
  // On GPUs: the warp schedule for Flat storage; for interleaved storage (Full- or
  // Block-Interleaved) whose systems fit on chip, the ThomasBatch paper's sweeps with c' and d'
  // kept in scratch; for larger Full-Interleaved systems up to warp_transposed_auto_rows rows the
  // warp schedule (transposed, faster than the ThomasBatch paper's kernel there; past it, at
  // 256,000 systems, it is not: docs/PERFORMANCE.md), and up to kInterleavedWarpsMaxRows rows too
  // when the batch is too small for the ThomasBatch paper's kernel to fill the GPU; the ThomasBatch
  // paper's kernel otherwise.
  constexpr bool flat = std::is_same<Layout, layouts::Flat>::value;
  constexpr bool interleaved = std::is_same<Layout, layouts::FullInterleaved>::value;
  if (schedule == ThomasSchedule::Auto) {
    // GPUs, double, Flat or Full-Interleaved: what the solver map measured fastest nearest
    // to this size and batch (docs/SOLVER_MAP.md); the rules below for the rest.
    const long long systems =
        num_systems >= 0 ? num_systems : (1ll << 28) / std::max(1, m < 1 ? 1 : m);
    if (is_host_backend<ExecutionSpace>())
      schedule = ThomasSchedule::PerSystem;
    else if (std::is_same<Scalar, double>::value && flat)
      schedule = nearest_auto_schedule(kThomasAutoFlat, m < 1 ? 1 : m, systems);
    else if (std::is_same<Scalar, double>::value && interleaved)
      schedule = nearest_auto_schedule(kThomasAutoFullInterleaved, m < 1 ? 1 : m, systems);
    else if (flat)
      schedule = ThomasSchedule::WarpPerSystem;
    else if (m <= on_chip_capacity<Scalar, ExecutionSpace>())
      schedule = ThomasSchedule::PerSystemOnChip;
    else if (interleaved && m <= warp_transposed_auto_rows<Scalar>())
      schedule = ThomasSchedule::WarpPerSystem;
    else if (interleaved && m <= kInterleavedWarpsMaxRows && num_systems >= 0 &&
             num_systems < interleaved_warp_auto_max_systems<ExecutionSpace>())
      schedule = ThomasSchedule::WarpPerSystem;
    else
      schedule = ThomasSchedule::PerSystem;
  }
  if (schedule == ThomasSchedule::WarpPerSystem && m > kWarpMaxRows)
    schedule = ThomasSchedule::TeamPerSystem;
  return schedule;
}

template <int R, int L, class ExecutionSpace, class Systems>
void launch_thomas_warp_shape(const std::string& label, const ExecutionSpace& exec,
                              const Systems& systems, int num_systems) {
  using Functor = ThomasWarpPerSystem<ExecutionSpace, Systems, R, L>;
  // GPUs: four warps per block. Host backends: one warp's systems per team, lanes emulated.
  const bool gpu = !is_host_backend<ExecutionSpace>();
  const int warps = (num_systems + Functor::kSystemsPerWarp - 1) / Functor::kSystemsPerWarp;
  const int per_team = gpu ? 4 : 1;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, (warps + per_team - 1) / per_team, per_team,
                                            gpu ? kWarpLanes : 1);
  Kokkos::parallel_for(label + "_warp", policy, Functor{systems, num_systems});
}

template <int R, int P, class ExecutionSpace, class Systems>
void launch_thomas_warps_shape(const std::string& label, const ExecutionSpace& exec,
                               const Systems& systems, int num_systems) {
  using Functor = ThomasWarpsPerSystem<ExecutionSpace, Systems, R, P>;
  const std::size_t bytes = Functor::scratch_view::shmem_size(Functor::kScratchRows);
  if (!is_host_backend<ExecutionSpace>()) {
    // A block of 16 or 32 warps fits an SM only at <= 128 or <= 64 registers per thread (the
    // lane code takes 74-130): say so to nvcc, or the launch fails.
    using Policy = typename std::conditional<
        (P >= 16), Kokkos::TeamPolicy<ExecutionSpace, Kokkos::LaunchBounds<kWarpLanes * P, 1>>,
        Kokkos::TeamPolicy<ExecutionSpace>>::type;
    Policy policy(exec, num_systems, P, kWarpLanes);
    policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for(label + "_warps", policy, Functor{systems});
  } else {
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, num_systems, 1, 1);
    Kokkos::parallel_for(label + "_warps", policy, Functor{systems});
  }
}

// Calls f(std::integral_constant<int, R>, std::integral_constant<int, L>) for the one-warp
// register shape of `shape` and returns true; false for the multi-warp shapes.
template <class F>
bool with_one_warp_shape(const WarpThomasShape& shape, const F& f) {
  using std::integral_constant;
#define HINESBATCH_WARP_SHAPE(R, L)                              \
  if (shape.rows_per_lane == R && shape.lanes == L) {            \
    f(integral_constant<int, R>{}, integral_constant<int, L>{}); \
    return true;                                                 \
  }
  HINESBATCH_WARP_SHAPE(4, 8)
  HINESBATCH_WARP_SHAPE(8, 8)
  HINESBATCH_WARP_SHAPE(8, 16)
  HINESBATCH_WARP_SHAPE(6, 32)
  HINESBATCH_WARP_SHAPE(8, 32)
#undef HINESBATCH_WARP_SHAPE
  return false;
}

// Launches the warp schedule over num_systems systems of at most m rows (m <= kWarpMaxRows).
template <class ExecutionSpace, class Systems>
void launch_thomas_warp(const std::string& label, const ExecutionSpace& exec,
                        const Systems& systems, int num_systems, int m) {
  const WarpThomasShape shape = WarpThomasShape::for_rows(m);
  if (with_one_warp_shape(shape, [&](auto R, auto L) {
        launch_thomas_warp_shape<decltype(R)::value, decltype(L)::value>(label, exec, systems,
                                                                         num_systems);
      }))
    return;
#define HINESBATCH_WARPS_SHAPE(P)                                                                  \
  if (shape.lanes == kWarpLanes * P)                                                               \
    return shape.rows_per_lane == kWarpRowsPerLane                                                 \
               ? launch_thomas_warps_shape<kWarpRowsPerLane, P>(label, exec, systems, num_systems) \
               : launch_thomas_warps_shape<kWarpFewerRowsPerLane, P>(label, exec, systems,         \
                                                                     num_systems);
  HINESBATCH_WARPS_SHAPE(2)
  HINESBATCH_WARPS_SHAPE(4)
  HINESBATCH_WARPS_SHAPE(8)
  HINESBATCH_WARPS_SHAPE(16)
  HINESBATCH_WARPS_SHAPE(32)
#undef HINESBATCH_WARPS_SHAPE
  throw std::logic_error("hinesbatch: the warp schedule got m = " + std::to_string(m));
}

template <int R, int L, class ExecutionSpace, class Systems>
void launch_thomas_warp_transposed_shape(const std::string& label, const ExecutionSpace& exec,
                                         const Systems& systems, int num_systems) {
  using Functor = ThomasWarpTransposed<ExecutionSpace, Systems, R, L>;
  const int blocks = (num_systems + Functor::kSystems - 1) / Functor::kSystems;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, blocks, Functor::kWarps, kWarpLanes);
  policy.set_scratch_size(
      0, Kokkos::PerTeam(Functor::scratch_view::shmem_size(Functor::kScratchScalars)));
  Kokkos::parallel_for(label + "_warp_transposed", policy, Functor{systems, num_systems});
}

// ThomasWarpsInterleaved: P = 4 or 8 warps of 8 rows per lane (64 rows per warp), 4 systems
// per block, for 129 to 512 rows. Up to 128 rows the transposed one-warp shapes are faster
// (H100, fp64, 256,000 systems: 39.1 against 37.0 G rows/s at 128 rows with P = 2;
// docs/history/PERFORMANCE-log.md).
constexpr int kWarpTransposedMaxRows = 128;
template <class ExecutionSpace, class Systems>
void launch_thomas_warps_interleaved(const std::string& label, const ExecutionSpace& exec,
                                     const Systems& systems, int num_systems, int m) {
  auto launch = [&](auto warps) {
    constexpr int P = decltype(warps)::value;
    using Functor = ThomasWarpsInterleaved<ExecutionSpace, Systems, kWarpRowsPerLane, P>;
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, (num_systems + Functor::G - 1) / Functor::G, P,
                                              kWarpLanes);
    policy.set_scratch_size(
        0, Kokkos::PerTeam(Functor::scratch_view::shmem_size(Functor::kScratchRows)));
    Kokkos::parallel_for(label + "_warps_interleaved", policy, Functor{systems, num_systems});
  };
  const int per_warp = kWarpLanes / kInterleavedWarpSystems * kWarpRowsPerLane;  // 64 rows
  if (m <= 4 * per_warp)
    launch(std::integral_constant<int, 4>{});
  else
    launch(std::integral_constant<int, 8>{});
}

// The warp schedule on padded storage (ThomasBatch, ThomasVBatch).
template <RowCount kRows, class Layout, class ExecutionSpace, class AV, class BV, class CV,
          class DV, class SizesView, class StatusView>
void launch_thomas_warp_padded(const std::string& label, const ExecutionSpace& exec, const AV& a,
                               const BV& b, const CV& c, const DV& d, const SizesView& sizes,
                               const StatusView& status, bool record, int num_systems, int m) {
  using Systems = PaddedSystems<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows>;
  const Systems systems{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), record};
  // Full-Interleaved on GPUs: up to 128 rows the one-warp shapes transposed through shared
  // memory, up to kInterleavedWarpsMaxRows P warps on 4 systems reading rows coalesced
  // (ThomasWarpsInterleaved); larger systems read the rows of one system directly
  // (uncoalesced).
  if constexpr (std::is_same<Layout, layouts::FullInterleaved>::value) {
    if (!is_host_backend<ExecutionSpace>()) {
      if (m > kWarpTransposedMaxRows && m <= kInterleavedWarpsMaxRows) {
        launch_thomas_warps_interleaved(label, exec, systems, num_systems, m);
        return;
      }
      if (m <= kWarpTransposedMaxRows &&
          with_one_warp_shape(WarpThomasShape::for_rows(m), [&](auto R, auto L) {
            launch_thomas_warp_transposed_shape<decltype(R)::value, decltype(L)::value>(
                label, exec, systems, num_systems);
          }))
        return;
    }
  }
  launch_thomas_warp(label, exec, systems, num_systems, m);
}

template <RowCount kRows, class Layout, class ExecutionSpace, class AV, class BV, class CV,
          class DV, class SizesView, class StatusView>
void launch_thomas_team(const std::string& label, const ExecutionSpace& exec, const AV& a,
                        const BV& b, const CV& c, const DV& d, const SizesView& sizes,
                        const StatusView& status, bool record, int num_systems, int m) {
  using Functor =
      ThomasTeamPerSystem<ExecutionSpace, Layout, AV, BV, CV, DV, SizesView, StatusView, kRows>;
  const TeamThomasShape shape = TeamThomasShape::for_rows(m);
  // Host backends run a team on one thread (its lanes in turn); GPUs a thread per lane.
  const int team_size = !is_host_backend<ExecutionSpace>() ? shape.lanes : 1;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, num_systems, team_size);
  const std::size_t bytes = Functor::scratch_view::shmem_size(shape.scratch_scalars());
  // Systems too large for on-chip scratch use level 1 (device memory, mostly cache-resident).
  const int level = bytes <= solver_scratch0_max(policy) ? 0 : 1;
  policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      label + "_team", policy,
      Functor{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), record, shape, level});
}

// The on-chip schedule; scratch_rows > 0 keeps fewer rows than fit (tests reach the swept
// part with it on every backend). False (nothing launched) where a row's int offset from
// its system's first could overflow: the caller runs the ThomasBatch paper's kernel.
template <RowCount kRows, class Layout, class ExecutionSpace, class AV, class BV, class CV,
          class DV, class SizesView, class StatusView>
bool launch_thomas_on_chip(const std::string& label, const ExecutionSpace& exec, const AV& a,
                           const BV& b, const CV& c, const DV& d, const SizesView& sizes,
                           const StatusView& status, bool record, int num_systems, int m,
                           int scratch_rows) {
  if (d.span() > static_cast<std::size_t>(INT_MAX)) return false;
  using Functor =
      ThomasPerSystemOnChip<ExecutionSpace, Layout, AV, BV, CV, DV, SizesView, StatusView, kRows>;
  using T = typename Functor::T;
  const int lanes = on_chip_lanes<ExecutionSpace>();
  const int kept = on_chip_kept<T, ExecutionSpace>(m, scratch_rows);
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, (num_systems + lanes - 1) / lanes, lanes);
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(kept, lanes)));
  Kokkos::parallel_for(
      label + "_on_chip", policy,
      Functor{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), num_systems, record, kept});
  return true;
}

// Identity padding rows for Computing Padding: rows size..m-1 become b = 1, a = c = d = 0,
// and c(size - 1) = 0 decouples the last real row from them. Invalid sizes are skipped.
template <class Layout, class AV, class BV, class CV, class DV, class SizesView>
struct PadVBatch {
  AV a;
  BV b;
  CV c;
  DV d;
  SizesView sizes;
  int m, block_size;

  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    using T = typename DV::non_const_value_type;
    const int size = static_cast<int>(sizes(s));
    if (size < 1 || size > m) return;
    const auto as = Layout::system_view(a, s, block_size);
    const auto bs = Layout::system_view(b, s, block_size);
    const auto cs = Layout::system_view(c, s, block_size);
    const auto ds = Layout::system_view(d, s, block_size);
    cs(size - 1) = T(0);
    for (int i = size; i < m; ++i) {
      as(i) = T(0);
      bs(i) = T(1);
      cs(i) = T(0);
      ds(i) = T(0);
    }
  }
};

// Rows [offset, offset + size) of a packed 1-D View, seen as rows 0..size-1.
template <class View>
struct ShiftedRows {
  View v;
  long long offset;
  KOKKOS_INLINE_FUNCTION typename View::reference_type operator()(const int i) const {
    return v(offset + i);
  }
};

template <class AV, class BV, class CV, class DV, class OffsetsView, class StatusView>
struct ThomasPacked {
  AV a;
  BV b;
  CV c;
  DV d;
  OffsetsView offsets;
  StatusView status;
  long long total_rows;
  bool record;

  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const long long begin = static_cast<long long>(offsets(s));
    const long long end = static_cast<long long>(offsets(s + 1));
    if (begin < 0 || end <= begin || end > total_rows || end - begin > INT_MAX) {
      if (record) Kokkos::atomic_fetch_min(&status(0), bad_size_code(s));
      return;
    }
    const SolveFailure f = thomas_solve_system(
        static_cast<int>(end - begin), ShiftedRows<AV>{a, begin}, ShiftedRows<BV>{b, begin},
        ShiftedRows<CV>{c, begin}, ShiftedRows<DV>{d, begin});
    if (record) record_failure(status, f, begin);
  }
};

// The systems a ThomasBatch call solves: num_systems (-1: all `slots` the storage holds),
// checked against what the storage (`holds`, for the message) has room for and INT_MAX.
inline long long checked_system_count(const char* where, long long slots, int num_systems,
                                      const std::string& holds) {
  if (num_systems < -1 || num_systems > slots)
    throw InputError(std::string(where) + ": num_systems must be -1 (all) or in [0, " +
                         std::to_string(slots) + "], " + holds,
                     {}, 0, std::to_string(num_systems));
  const long long n = num_systems < 0 ? slots : num_systems;
  if (n > INT_MAX)
    throw InputError(std::string(where) + ": more than INT_MAX systems", {}, 0, std::to_string(n));
  return n;
}

// The rows per system of d, at least one.
template <class DV>
int checked_row_count(const char* where, const DV& d) {
  const int m = row_extent(d);
  if (m < 1)
    throw InputError(std::string(where) + ": systems need at least one row", {}, 0,
                     std::to_string(m));
  return m;
}

template <class ExecutionSpace>
using no_status_view = Kokkos::View<long long[2], typename ExecutionSpace::memory_space>;

template <class ExecutionSpace, class AV, class BV, class CV, class DV, class StatusView>
void thomas_batch_impl(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                       const DV& d, const StatusView& status, bool record, int num_systems,
                       ThomasSchedule schedule, int on_chip_rows = 0) {
  using Checks = TridiagonalViews<ExecutionSpace, AV, BV, CV, DV>;
  using Layout = typename Checks::layout;
  check_status_type<ExecutionSpace, StatusView>();
  const char* where = "hinesbatch::thomas_batch";
  require_same_extents(where, a, b, c, d);
  const long long n =
      checked_system_count(where, system_slots<Layout>(d), num_systems,
                           std::string("the systems the ") + Layout::name + " storage holds");
  if (n == 0) return;
  const int m = checked_row_count(where, d);
  using SizesView = Kokkos::View<const int*, typename DV::memory_space>;
  const std::string label = std::string("hinesbatch::thomas_batch_") + Layout::name;
  const ThomasSchedule resolved =
      resolve_schedule<ExecutionSpace, Layout, typename Checks::scalar_type>(schedule, m, n);
  if (resolved == ThomasSchedule::WarpPerSystem) {
    launch_thomas_warp_padded<RowCount::Fixed, Layout>(label, exec, a, b, c, d, SizesView(), status,
                                                       record, static_cast<int>(n), m);
    return;
  }
  if (resolved == ThomasSchedule::TeamPerSystem) {
    launch_thomas_team<RowCount::Fixed, Layout>(label, exec, a, b, c, d, SizesView(), status,
                                                record, static_cast<int>(n), m);
    return;
  }
  if (resolved == ThomasSchedule::PerSystemOnChip &&
      launch_thomas_on_chip<RowCount::Fixed, Layout>(label, exec, a, b, c, d, SizesView(), status,
                                                     record, static_cast<int>(n), m, on_chip_rows))
    return;
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(n)),
      ThomasPerSystem<Layout, AV, BV, CV, DV, SizesView, StatusView, RowCount::Fixed>{
          a, b, c, d, SizesView(), status, m, block_size_of<Layout>(d), record});
}

// Host checks of the padded storage against sizes: extents only, never the values.
template <class Layout, class DV, class SizesView>
void check_padded_extents(const char* where, const DV& d, const SizesView& sizes) {
  static_assert(Kokkos::is_view<SizesView>::value && static_cast<int>(SizesView::rank) == 1 &&
                    std::is_integral<typename SizesView::value_type>::value,
                "hinesbatch::thomas_vbatch: sizes must be a rank-1 View of integers");
  const long long n = static_cast<long long>(sizes.extent(0));
  if (n > INT_MAX)
    throw InputError(std::string(where) + ": more than INT_MAX systems", {}, 0, std::to_string(n));
  if constexpr (Layout::tiled) {
    const long long bs = static_cast<long long>(d.extent(2));
    const long long tiles = bs > 0 ? (n + bs - 1) / bs : 0;
    if (static_cast<long long>(d.extent(0)) != tiles || (n > 0 && bs == 0))
      throw InputError(std::string(where) + ": " + std::to_string(n) +
                           " systems need ceil(N / BS) = " + std::to_string(tiles) +
                           " tiles of BS = " + std::to_string(bs) + " lanes, storage has " +
                           std::to_string(d.extent(0)),
                       {}, 0, std::to_string(d.extent(0)));
  } else {
    if (static_cast<long long>(d.extent(0)) != n)
      throw InputError(std::string(where) + ": sizes has " + std::to_string(n) +
                           " systems, the padded storage has " + std::to_string(d.extent(0)),
                       {}, 0, std::to_string(n));
  }
  if (n > 0 && d.extent(1) < 1)
    throw InputError(std::string(where) + ": padded storage has no rows", {}, 0, "0");
}

template <RowCount kRows, class ExecutionSpace, class AV, class BV, class CV, class DV,
          class SizesView, class StatusView>
void thomas_vbatch_impl(const char* where, const ExecutionSpace& exec, const AV& a, const BV& b,
                        const CV& c, const DV& d, const SizesView& sizes, const StatusView& status,
                        bool record, ThomasSchedule schedule, int on_chip_rows = 0) {
  using Checks = TridiagonalViews<ExecutionSpace, AV, BV, CV, DV>;
  using Layout = typename Checks::layout;
  check_status_type<ExecutionSpace, StatusView>();
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename SizesView::memory_space>::accessible,
      "hinesbatch::thomas_vbatch: sizes is not accessible from exec");
  require_same_extents(where, a, b, c, d);
  check_padded_extents<Layout>(where, d, sizes);
  const int n = static_cast<int>(sizes.extent(0));
  if (n == 0) return;
  const ThomasSchedule resolved =
      resolve_schedule<ExecutionSpace, Layout, typename Checks::scalar_type>(schedule,
                                                                             row_extent(d), n);
  if (resolved == ThomasSchedule::WarpPerSystem) {
    launch_thomas_warp_padded<kRows, Layout>(std::string(where) + "_" + Layout::name, exec, a, b, c,
                                             d, sizes, status, record, n, row_extent(d));
    return;
  }
  if (resolved == ThomasSchedule::TeamPerSystem) {
    launch_thomas_team<kRows, Layout>(std::string(where) + "_" + Layout::name, exec, a, b, c, d,
                                      sizes, status, record, n, row_extent(d));
    return;
  }
  if (resolved == ThomasSchedule::PerSystemOnChip &&
      launch_thomas_on_chip<kRows, Layout>(std::string(where) + "_" + Layout::name, exec, a, b, c,
                                           d, sizes, status, record, n, row_extent(d),
                                           on_chip_rows))
    return;
  Kokkos::parallel_for(
      std::string(where) + "_" + Layout::name, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, n),
      ThomasPerSystem<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows>{
          a, b, c, d, sizes, status, row_extent(d), block_size_of<Layout>(d), record});
}

template <class ExecutionSpace, class AV, class BV, class CV, class DV, class OffsetsView,
          class StatusView>
void thomas_packed_impl(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                        const DV& d, const OffsetsView& offsets, const StatusView& status,
                        bool record, ThomasSchedule schedule) {
  const char* where = "hinesbatch::thomas_vbatch_packed";
  static_assert(Kokkos::is_view<AV>::value && Kokkos::is_view<BV>::value &&
                    Kokkos::is_view<CV>::value && Kokkos::is_view<DV>::value,
                "hinesbatch::thomas_vbatch_packed: a, b, c and d must be Kokkos::Views");
  static_assert(static_cast<int>(AV::rank) == 1 && static_cast<int>(BV::rank) == 1 &&
                    static_cast<int>(CV::rank) == 1 && static_cast<int>(DV::rank) == 1,
                "hinesbatch::thomas_vbatch_packed: a, b, c and d must be rank-1 Views of all "
                "systems back to back");
  using T = scalar_of<DV>;
  static_assert(std::is_same<scalar_of<AV>, T>::value && std::is_same<scalar_of<BV>, T>::value &&
                    std::is_same<scalar_of<CV>, T>::value,
                "hinesbatch::thomas_vbatch_packed: a, b, c and d must hold the same scalar type");
  static_assert(!std::is_const<typename CV::value_type>::value &&
                    !std::is_const<typename DV::value_type>::value,
                "hinesbatch::thomas_vbatch_packed: c and d are overwritten");
  static_assert(
      Kokkos::SpaceAccessibility<ExecutionSpace, typename AV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename BV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename CV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace, typename DV::memory_space>::accessible &&
          Kokkos::SpaceAccessibility<ExecutionSpace,
                                     typename OffsetsView::memory_space>::accessible,
      "hinesbatch::thomas_vbatch_packed: a View is not accessible from exec");
  static_assert(Kokkos::is_view<OffsetsView>::value && static_cast<int>(OffsetsView::rank) == 1 &&
                    std::is_integral<typename OffsetsView::value_type>::value,
                "hinesbatch::thomas_vbatch_packed: offsets must be a rank-1 View of integers");
  check_status_type<ExecutionSpace, StatusView>();
  require_same_extents(where, a, b, c, d);
  if (offsets.extent(0) < 1)
    throw InputError(std::string(where) + ": offsets needs N + 1 >= 1 entries", {}, 0, "0");
  const long long n = static_cast<long long>(offsets.extent(0)) - 1;
  if (n > INT_MAX)
    throw InputError(std::string(where) + ": more than INT_MAX systems", {}, 0, std::to_string(n));
  if (n == 0) return;
  const long long total_rows = static_cast<long long>(d.extent(0));
  if (schedule == ThomasSchedule::Auto)
    schedule = !is_host_backend<ExecutionSpace>() ? ThomasSchedule::WarpPerSystem
                                                  : ThomasSchedule::PerSystem;
  if (schedule != ThomasSchedule::PerSystem) {
    // The register shape needs the largest size: one pass over the offsets (bad
    // offsets are left to the solve, which records them).
    // An atomic max rather than a parallel_reduce: Kokkos 3.4's CUDA reduction is
    // warp-synchronous code that compute-sanitizer's racecheck reports (warnings only).
    Kokkos::View<long long, typename ExecutionSpace::memory_space> largest_view(
        "hinesbatch::thomas_vbatch_packed_largest");
    Kokkos::parallel_for(
        std::string(where) + "_largest", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, int(n)),
        KOKKOS_LAMBDA(const int s) {
          const long long size =
              static_cast<long long>(offsets(s + 1)) - static_cast<long long>(offsets(s));
          if (size > 0) Kokkos::atomic_fetch_max(&largest_view(), size);
        });
    long long largest = 0;
    Kokkos::deep_copy(exec, largest, largest_view);
    exec.fence();
    if (largest >= 1 && largest <= kWarpMaxRows) {
      using Systems = PackedSystems<AV, BV, CV, DV, OffsetsView, StatusView>;
      launch_thomas_warp(
          where, exec,
          Systems{a, b, c, d, offsets, status, total_rows, static_cast<int>(largest), record},
          static_cast<int>(n), static_cast<int>(largest));
      return;
    }
  }
  Kokkos::parallel_for(where, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(n)),
                       ThomasPacked<AV, BV, CV, DV, OffsetsView, StatusView>{
                           a, b, c, d, offsets, status, total_rows, record});
}

template <class ExecutionSpace, class StatusView>
std::pair<long long, long long> read_and_clear_status(const ExecutionSpace& exec,
                                                      const StatusView& status) {
  check_status_type<ExecutionSpace, StatusView>();
  const SolveStatusRecord r = take_solve_status(exec, status);
  return {r.bad_pivot, r.bad_value};
}

[[noreturn]] inline void throw_thomas_failure(bool pivot, long long system, long long row) {
  throw SolverError(
      "hinesbatch::thomas: system " + std::to_string(system) + ", row " + std::to_string(row) +
          (pivot ? ": zero or non-finite pivot" : ": non-finite solution") +
          " (input has a zero or non-finite coefficient, or is not diagonally dominant)",
      system, row);
}

[[noreturn]] inline void throw_bad_size(long long system, const std::string& detail) {
  throw InputError("hinesbatch::thomas_vbatch: system " + std::to_string(system) +
                       " has an invalid size (" + detail + "); it was not solved",
                   {}, 0, std::to_string(system));
}

}  // namespace impl
}  // namespace hinesbatch
