#pragma once
// The tridiagonal kernels (functors): one thread per system (ThomasPerSystem,
// ThomasPacked; with its eliminated values on chip, ThomasPerSystemOnChip), a
// team per system (ThomasTeamPerSystem; with its intermediate rows in device
// memory, ThomasTeamInMemory), the warp schedule's shapes
// (ThomasWarpPerSystem, ThomasWarpsPerSystem, ThomasWarpsInterleaved,
// ThomasWarpTransposed) over padded or packed systems, the two-pass block per
// system (ThomasTwoPass), and the
// Computing-Padding fill (PadVBatch). Launched by thomas_batch_impl.hpp.
#include <Kokkos_Core.hpp>
#include <climits>
#include <type_traits>
#include <utility>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/impl/thomas_on_chip.hpp"
#include "hinesbatch/solvers/impl/thomas_storage.hpp"
#include "hinesbatch/solvers/impl/thomas_system.hpp"
#include "hinesbatch/solvers/impl/thomas_team.hpp"
#include "hinesbatch/solvers/impl/thomas_team_in_memory.hpp"
#include "hinesbatch/solvers/impl/thomas_two_pass.hpp"
#include "hinesbatch/solvers/impl/thomas_warp.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {
namespace impl {

// ThomasBatch / ThomasVBatch storage: system s in the layout's slot s, m padded rows, its
// size from sizes(s) as kRows says. What every padded schedule's functor holds, and the
// warp schedule's Systems: rows_of records a bad size, with_system gives a system's rows.
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

// kInStep: the threads step through the padded rows together (thomas_solve_system_in_step),
// for systems of different sizes interleaved on a GPU.
template <class Layout, class AV, class BV, class CV, class DV, class SizesView, class StatusView,
          RowCount kRows, bool kInStep = false>
struct ThomasPerSystem {
  PaddedSystems<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows> systems;

  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const int rows = systems.rows_of(s, true);
    if (rows == 0) return;
    systems.with_system(
        s, rows, [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto&) {
          const SolveFailure f = kInStep ? thomas_solve_system_in_step(rows, systems.m, a, b, c, d)
                                         : thomas_solve_system(rows, a, b, c, d);
          if (systems.record)
            record_failure(systems.status, f, static_cast<long long>(s) * systems.m);
        });
  }
};

// The team schedule of ThomasPerSystem: league rank = system, the team's
// scratch holds the system while it is eliminated (thomas_team.hpp).
template <class ExecutionSpace, class Layout, class AV, class BV, class CV, class DV,
          class SizesView, class StatusView, RowCount kRows>
struct ThomasTeamPerSystem {
  using T = typename DV::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
  PaddedSystems<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows> systems;
  TeamThomasShape shape;
  int scratch_level;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
    const int rows = systems.rows_of(s, team.team_rank() == 0);
    if (rows == 0) return;  // the whole team leaves: no barrier is left waiting
    scratch_view scratch(team.team_scratch(scratch_level), shape.scratch_scalars());
    systems.with_system(
        s, rows,
        [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
          team_thomas_solve(team, scratch.data(), shape, rows, a, b, c, d, record);
        });
  }
};

// The in-memory team schedule (thomas_team_in_memory.hpp): league rank =
// system, the reduced system in level-0 scratch, the lanes' intermediate rows in
// level-1 scratch (device memory).
template <class ExecutionSpace, class Layout, class AV, class BV, class CV, class DV,
          class SizesView, class StatusView, RowCount kRows>
struct ThomasTeamInMemory {
  using T = typename DV::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
  PaddedSystems<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows> systems;
  InMemoryTeamShape shape;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
    const int rows = systems.rows_of(s, team.team_rank() == 0);
    if (rows == 0) return;  // the whole team leaves: no barrier is left waiting
    scratch_view reduced(team.team_scratch(0), shape.reduced_scalars());
    scratch_view memory(team.team_scratch(1), shape.memory_scalars());
    systems.with_system(
        s, rows,
        [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
          team_thomas_solve_in_memory(team, reduced.data(), memory.data(), shape, rows, a, b, c, d,
                                      record);
        });
  }
};

// The on-chip schedule of ThomasPerSystem (thomas_on_chip.hpp): a team's lanes
// take consecutive systems, c' and d' of each system's first `kept` rows in the
// team's scratch, row-major ([row][lane]: a warp touches 32 consecutive words).
// Rows are addressed by int offsets from a system's first row (the driver
// checks that they fit). kInStep: the lanes step through the padded rows together
// (thomas_solve_on_chip's kInStep), for systems of different sizes interleaved on a GPU.
template <class ExecutionSpace, class Layout, class AV, class BV, class CV, class DV,
          class SizesView, class StatusView, RowCount kRows, bool kInStep = false>
struct ThomasPerSystemOnChip {
  using T = typename DV::non_const_value_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  PaddedSystems<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows> systems;
  int num_systems;
  int kept;

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int kept_rows, int lanes) {
    return on_chip_lanes_scratch_bytes<T>(kept_rows, lanes);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int lanes = team.team_size(), lane = team.team_rank();
    T* const base = on_chip_lanes_scratch<T>(team, kept, lanes);
    const int s = team.league_rank() * lanes + lane;
    if (s >= num_systems) return;  // no team synchronisation below
    const int rows = systems.rows_of(s, true);
    if (rows == 0) return;
    const int m = systems.m, block_size = systems.block_size;
    const auto& d = systems.d;
    const int ns =
        m > 1
            ? static_cast<int>(&Layout::at(d, s, 1, block_size) - &Layout::at(d, s, 0, block_size))
            : 0;
    const SolveFailure f = thomas_solve_on_chip<T, kInStep>(
        rows, kept, opaque_pointer(&Layout::at(systems.a, s, 0, block_size)),
        opaque_pointer(&Layout::at(systems.b, s, 0, block_size)),
        opaque_pointer(&Layout::at(systems.c, s, 0, block_size)),
        opaque_pointer(&Layout::at(d, s, 0, block_size)), ns, base + lane,
        base + static_cast<std::size_t>(kept) * lanes + lane, lanes, m);
    if (systems.record) record_failure(systems.status, f, static_cast<long long>(s) * m);
  }
};

// Host backends' warp schedule: systems [first, first + count) (below
// num_systems) solved one after another by warp_thomas_solve_emulated, L lanes
// of R rows run in turn.
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
// w = l x team_size + t; its kWarpLanes vector lanes solve systems w G .. w G +
// G - 1 (G = kWarpLanes / L), each with a group of L lanes of R rows. Systems
// says where the systems are: rows_of(s, report) (0: nothing to solve; a bad
// size is recorded when `report`) and with_system(s, rows, f), which calls f(a,
// b, c, d, record) with the system's 1-D row Views and its failure recorder.
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
      // A group without a system passes the last one's Views and solves
      // nothing.
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

// The warp schedule's multi-warp shapes: league rank = system, team = P warps
// (team threads) of kWarpLanes vector lanes, i.e. one CUDA block; its shared
// memory holds the reduced system (warps_thomas_buffer_rows). Host backends run
// the 32 P lanes in turn on one thread.
template <class ExecutionSpace, class Systems, int R, int P>
struct ThomasWarpsPerSystem {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<TriRow<T>*, ExecutionSpace>;
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

// The two-pass schedule (thomas_two_pass.hpp): league rank = P consecutive systems
// (Full-Interleaved storage on GPUs: P = 4, a row's 4 values are one 32-byte sector; else
// 1), team = shape.warps warps (team threads) of kWarpLanes vector lanes, one CUDA block,
// whose shared memory holds the reduced systems. Host backends run each system's lanes in
// turn on one thread, with the same shape per system.
template <class ExecutionSpace, class Systems, int P = 1>
struct ThomasTwoPass {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
  static constexpr int R = kTwoPassRowsPerLane;
  Systems systems;
  TwoPassShape shape;
  int scratch_level;  // 1 (device memory) where level 0 is too small
  int num_systems;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s0 = team.league_rank() * P;
    scratch_view scratch(team.team_scratch(scratch_level), shape.block_scratch_scalars());
#if defined(__CUDA_ARCH__)
    const int w = team.team_rank();
    if constexpr (P == 1) {
      const int rows = systems.rows_of(s0, w == 0 && threadIdx.x == 0);
      if (rows == 0) return;  // uniform over the block: no barrier is left waiting
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
        systems.with_system(
            s0, rows,
            [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
              two_pass_solve_lane<T, R, 1>(w, lane, shape, scratch.data(), rows, a, b, c, d,
                                           record);
            });
      });
    } else {
      Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, kWarpLanes), [&](const int lane) {
        // Systems past the batch solve nothing (rows = 0) with the last one's Views, but
        // take part in every shuffle and barrier; a bad size is recorded once per system.
        const int s = s0 + lane % P;
        const int rows = s < num_systems ? systems.rows_of(s, w == 0 && lane < P) : 0;
        systems.with_system(
            s < num_systems ? s : num_systems - 1, rows,
            [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
              two_pass_solve_lane<T, R, P>(w, lane, shape, scratch.data(), rows, a, b, c, d,
                                           record);
            });
      });
    }
#else
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      for (int s = s0; s < s0 + P && s < num_systems; ++s) {
        const int rows = systems.rows_of(s, true);
        if (rows == 0) continue;
        systems.with_system(
            s, rows,
            [&](const auto& a, const auto& b, const auto& c, const auto& d, const auto& record) {
              two_pass_solve_in_turn<T, R>(shape, scratch.data(), rows, a, b, c, d, record);
            });
      }
    });
#endif
  }
};

// The multi-warp shapes on Full-Interleaved storage on GPUs: league rank = G
// consecutive systems, team = P warps of kWarpLanes vector lanes; lane G q + j
// of warp w holds chunk (32 / G) w + q of system j (warps_thomas_solve_lane),
// so a warp's load of one row index reads G systems' consecutive values: every
// load is whole 32-byte sectors (G = 4 in double), nothing is staged, and the
// reduced systems go through shared memory as for one Flat system. GPUs only
// (host backends run the warp schedule's lanes from storage).
constexpr int kInterleavedWarpSystems = 4;
template <class ExecutionSpace, class Systems, int R, int P>
struct ThomasWarpsInterleaved {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<TriRow<T>*, ExecutionSpace>;
  static constexpr int G = kInterleavedWarpSystems;
  static constexpr int kLanesPerSystem = kWarpLanes / G * P;
  // The reduced systems' buffer, then one row's worth of space for the G
  // bad-input flags.
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
      // Systems past the batch solve nothing (rows = 0) with the last one's
      // Views, but take part in every barrier; a bad size is recorded once
      // per system.
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

// The warp schedule on Full-Interleaved storage on GPUs: a lane reading its own
// R rows there touches R rows N systems apart, 8 useful bytes per 32-byte
// sector (10-20 G rows/s measured on the H100). So a block takes B consecutive
// systems and transposes them through shared memory: its threads read row after
// row of the B systems (B x sizeof(T) >= 32 contiguous bytes, whole sectors),
// the lanes solve from shared memory (LaneBlockedRows), and x goes back the
// same way. B x m_max x 4 coefficients fill kTransposeTileBytes of shared
// memory.
constexpr int kTransposeTileBytes = 32768;
// Auto takes the transposed path up to this many rows (measured on the H100 at
// 256,000 systems: fp64 1.28x / 1.06x the ThomasBatch paper's kernel at 64 /
// 128 rows, 0.88x at 256; fp32 1.02x at 64 rows, 0.93x at 128).
template <class T>
constexpr int warp_transposed_auto_rows() {
  return sizeof(T) >= 8 ? 128 : 64;
}

template <class ExecutionSpace, class Systems, int R, int L>
struct ThomasWarpTransposed {
  using T = typename Systems::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
  using Rows = LaneBlockedRows<T, R>;
  static constexpr int kSystemRows = L * R;  // rows the lane group holds
  static constexpr int kSystems = kTransposeTileBytes / (4 * int(sizeof(T)) * kSystemRows);  // B
  static constexpr int kThreads = kSystems * L;
  static constexpr int kWarps = kThreads / kWarpLanes;
  static_assert(kThreads % kWarpLanes == 0, "whole warps per block");
  // Scalars per staged system: its L lanes' padded rows, plus padding so that
  // the B systems of one row index start in different banks (a warp's
  // transposing store then takes the minimum number of shared-memory
  // wavefronts).
  static constexpr int kWordsPerScalar = int(sizeof(T)) / 4;
  static constexpr int kBankWords = 32;
  // A warp's store covers q = 32 / B consecutive rows of each of the B systems
  // (q = 1 when B >= 32): system starts q rows apart modulo the banks tile them
  // exactly; with q = 1 an odd stride is enough.
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
    // Element e of the tile: system e % B, row e / B (consecutive threads,
    // consecutive systems of one row: contiguous in Full-Interleaved storage).
    const int m = systems.m;
    const int tile_rows = m < kSystemRows ? m : kSystemRows;
    // Each thread moves R elements of each coefficient (B x L R / (B L)): all 4
    // R loads are issued before the first store to shared memory, so they are
    // in flight together.
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
    // Host backends: the lanes in turn, straight from storage (no transpose
    // needed).
    Kokkos::single(Kokkos::PerTeam(team),
                   [&]() { emulate_warp_systems<R, L>(systems, s0, kSystems, num_systems); });
#endif
  }
};

// ThomasVBatch on packed storage: system s in rows [offsets(s), offsets(s +
// 1)), at most m.
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

// Identity padding rows for Computing Padding: rows size..m-1 become b = 1, a =
// c = d = 0, and c(size - 1) = 0 decouples the last real row from them. Invalid
// sizes are skipped.
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

}  // namespace impl
}  // namespace hinesbatch
