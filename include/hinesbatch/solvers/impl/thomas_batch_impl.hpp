#pragma once
// The launch logic behind thomas_batch.hpp (its public API): the schedule Auto
// takes (resolve_schedule), the launchers of each schedule and shape, the entry
// points with their host-side checks, and the status read-back. The kernels:
// thomas_kernels.hpp; the storage and its checks: thomas_storage.hpp. Not for
// callers.
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
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/auto_schedule_point.hpp"
#include "hinesbatch/solvers/impl/thomas_kernels.hpp"
#include "hinesbatch/solvers/impl/thomas_simd_tiles_kernels.hpp"
#include "hinesbatch/solvers/impl/thomas_storage.hpp"
#include "hinesbatch/solvers/on_chip.hpp"
#include "hinesbatch/solvers/thomas_schedule.hpp"

namespace hinesbatch {
namespace impl {

// The largest Full-Interleaved systems the warp schedule reads coalesced: P = 8
// warps of 8 rows per lane on kInterleavedWarpSystems systems side by side
// (launch_thomas_warp_padded).
constexpr int kInterleavedWarpsMaxRows =
    kWarpLanes / kInterleavedWarpSystems * 8 * kWarpRowsPerLane;

// Full-Interleaved systems of up to kInterleavedWarpsMaxRows rows: below this
// many systems the ThomasBatch paper's one thread per system leaves most of the
// GPU idle (fewer threads than a quarter of what it holds: 67,584 on an H100)
// and the warp schedule, a warp's lanes on 4 systems, is faster. Measured on
// the H100 (docs/history/PERFORMANCE-log.md, "warp schedule" against the paper's kernel),
// fp64, warp schedule against the ThomasBatch paper's kernel: 25,600
// systems 30.4 / 19.0 G rows/s at 256 rows, 30.8 / 18.8 at 512; 64,000
// systems 33.1 / 31.0 and 31.5 / 31.4; 128,000 systems 33.9 / 38.1 and 31.6
// / 37.5 (the ThomasBatch paper's kernel ahead from there on). A constant of
// the backend, asked once.
template <class ExecutionSpace>
long long interleaved_warp_auto_max_systems() {
  static const long long systems = static_cast<long long>(ExecutionSpace().concurrency()) / 4;
  return systems;
}

// Systems past what the warp schedule keeps on chip (kWarpMaxRows): below this
// many systems the one-thread and on-chip team schedules leave most of the GPU
// idle (m = 20,000 at 2^26 rows is 3,355 systems: 1.6% achieved occupancy on
// an H100, docs/SOLVER_MAP.md) and a team of many lanes per system with its
// intermediate rows in memory is taken. A constant of the backend (8,448 on an
// H100), asked once. Flat storage takes the two-pass block instead (1.8-4.3x
// the in-memory team at m = 8,193-50,000 on an H200, docs/SOLVER_MAP.md).
template <class ExecutionSpace>
long long in_memory_team_auto_max_systems() {
  static const long long systems = static_cast<long long>(ExecutionSpace().concurrency()) / 32;
  return systems;
}

// The schedule that runs for systems of (at most) m rows; m < 0: unknown, as if
// small. num_systems < 0: unknown, as if many.
template <class ExecutionSpace, class Layout, class Scalar = double>
ThomasSchedule resolve_schedule(ThomasSchedule schedule, int m = -1, long long num_systems = -1) {
  // On GPUs, double Flat and Full-Interleaved batches: the table, at every size (the map
  // reaches 100,000 rows). Otherwise past the warp schedule's largest shape: the two-pass
  // block in Flat storage, the in-memory team in batches of few interleaved systems. Below
  // it: the warp schedule for Flat storage; for interleaved storage (Full-
  // or Block-Interleaved) whose systems fit on chip, the ThomasBatch paper's
  // sweeps with c' and d' kept in scratch; for larger Full-Interleaved systems
  // up to warp_transposed_auto_rows rows the warp schedule (transposed, faster
  // than the ThomasBatch paper's kernel there; past it, at 256,000 systems, it
  // is not: docs/PERFORMANCE.md), and up to kInterleavedWarpsMaxRows rows too
  // when the batch is too small for the ThomasBatch paper's kernel to fill the
  // GPU; the ThomasBatch paper's kernel otherwise.
  constexpr bool flat = std::is_same<Layout, layouts::Flat>::value;
  constexpr bool interleaved = std::is_same<Layout, layouts::FullInterleaved>::value;
  if (schedule == ThomasSchedule::Auto) {
    // GPUs, double, Flat or Full-Interleaved: what the solver map measured
    // fastest nearest to this size and batch (docs/SOLVER_MAP.md); the rules
    // below for the rest.
    const long long systems =
        num_systems >= 0 ? num_systems : (1ll << 28) / std::max(1, m < 1 ? 1 : m);
    if (is_host_backend<ExecutionSpace>())
      schedule = ThomasSchedule::SimdTiles;
    else if (std::is_same<Scalar, double>::value && flat)
      schedule = nearest_auto_schedule(auto_table(ThomasAutoTable::Flat), m < 1 ? 1 : m, systems);
    else if (std::is_same<Scalar, double>::value && interleaved)
      schedule = nearest_auto_schedule(auto_table(ThomasAutoTable::FullInterleaved), m < 1 ? 1 : m,
                                       systems);
    else if (m > kWarpMaxRows && flat)
      schedule = ThomasSchedule::TeamPerSystemTwoPass;
    else if (m > kWarpMaxRows && systems < in_memory_team_auto_max_systems<ExecutionSpace>())
      schedule = ThomasSchedule::TeamPerSystemInMemory;
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
  // GPUs: four warps per block. Host backends: one warp's systems per team,
  // lanes emulated.
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
    // A block of 16 or 32 warps fits an SM only at <= 128 or <= 64 registers
    // per thread (the lane code takes 74-130): say so to nvcc, or the launch
    // fails.
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

// Calls f(std::integral_constant<int, R>, std::integral_constant<int, L>) for
// the one-warp register shape of `shape` and returns true; false for the
// multi-warp shapes.
template <class F>
bool with_one_warp_shape(const WarpThomasShape& shape, const F& f) {
  using std::integral_constant;
#define HINESBATCH_WARP_SHAPE(R, L)                              \
  if (shape.rows_per_lane == R && shape.lanes == L) {            \
    f(integral_constant<int, R>{}, integral_constant<int, L>{}); \
    return true;                                                 \
  }
  HINESBATCH_WARP_SHAPE(4, 2)
  HINESBATCH_WARP_SHAPE(4, 4)
  HINESBATCH_WARP_SHAPE(4, 8)
  HINESBATCH_WARP_SHAPE(8, 8)
  HINESBATCH_WARP_SHAPE(8, 16)
  HINESBATCH_WARP_SHAPE(6, 32)
  HINESBATCH_WARP_SHAPE(8, 32)
  HINESBATCH_WARP_SHAPE(10, 32)
  HINESBATCH_WARP_SHAPE(12, 32)
#undef HINESBATCH_WARP_SHAPE
  return false;
}

// Launches the warp schedule over num_systems systems of at most m rows (m <=
// kWarpMaxRows).
template <class ExecutionSpace, class Systems>
void launch_thomas_warp(const std::string& label, const ExecutionSpace& exec,
                        const Systems& systems, int num_systems, int m) {
  const WarpThomasShape shape = WarpThomasShape::for_rows(m);
  if (with_one_warp_shape(shape, [&](auto R, auto L) {
        launch_thomas_warp_shape<decltype(R)::value, decltype(L)::value>(label, exec, systems,
                                                                         num_systems);
      }))
    return;
#define HINESBATCH_WARPS_SHAPE(R, P)                             \
  if (shape.lanes == kWarpLanes * P && shape.rows_per_lane == R) \
    return launch_thomas_warps_shape<R, P>(label, exec, systems, num_systems);
  HINESBATCH_WARPS_SHAPE(8, 2)
  HINESBATCH_WARPS_SHAPE(10, 2)
  HINESBATCH_WARPS_SHAPE(12, 2)
  HINESBATCH_WARPS_SHAPE(8, 4)
  HINESBATCH_WARPS_SHAPE(10, 4)
  HINESBATCH_WARPS_SHAPE(12, 4)
  HINESBATCH_WARPS_SHAPE(8, 8)
  HINESBATCH_WARPS_SHAPE(10, 8)
  HINESBATCH_WARPS_SHAPE(12, 8)
  HINESBATCH_WARPS_SHAPE(8, 16)
  HINESBATCH_WARPS_SHAPE(6, 32)
  HINESBATCH_WARPS_SHAPE(8, 32)
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

// ThomasWarpsInterleaved: P = 4 or 8 warps of 8 rows per lane (64 rows per
// warp), 4 systems per block, for 129 to 512 rows. Up to 128 rows the
// transposed one-warp shapes are faster (H100, fp64, 256,000 systems: 39.1
// against 37.0 G rows/s at 128 rows with P = 2;
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
  // Full-Interleaved on GPUs: up to 128 rows the one-warp shapes transposed
  // through shared memory, up to kInterleavedWarpsMaxRows P warps on 4 systems
  // reading rows coalesced (ThomasWarpsInterleaved); larger systems read the
  // rows of one system directly (uncoalesced).
  if constexpr (std::is_same<Layout, layouts::FullInterleaved>::value) {
    if (!is_host_backend<ExecutionSpace>()) {
      if (m > kWarpTransposedMaxRows && m <= kInterleavedWarpsMaxRows) {
        launch_thomas_warps_interleaved(label, exec, systems, num_systems, m);
        return;
      }
      if (m <= kWarpTransposedMaxRows &&
          with_one_warp_shape(WarpThomasShape::for_rows(m), [&](auto R, auto L) {
            // Only the shapes of up to kWarpTransposedMaxRows rows are compiled here.
            if constexpr (decltype(R)::value * decltype(L)::value <= kWarpTransposedMaxRows)
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
  // Host backends run a team on one thread (its lanes in turn); GPUs a thread
  // per lane.
  const int team_size = !is_host_backend<ExecutionSpace>() ? shape.lanes : 1;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, num_systems, team_size);
  const std::size_t bytes = Functor::scratch_view::shmem_size(shape.scratch_scalars());
  // Systems too large for on-chip scratch use level 1 (device memory, mostly
  // cache-resident).
  const int level = bytes <= solver_scratch0_max(policy) ? 0 : 1;
  policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      label + "_team", policy,
      Functor{{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), record}, shape, level});
}

// The in-memory team schedule: a team of up to 1,024 lanes per system (as many
// as the reduced system's scratch, 8 scalars a lane within
// solver_scratch0_max, and the kernel's registers allow; host backends run the
// lanes in turn on one thread, with the same shape).
template <RowCount kRows, class Layout, class ExecutionSpace, class AV, class BV, class CV,
          class DV, class SizesView, class StatusView>
void launch_thomas_team_in_memory(const std::string& label, const ExecutionSpace& exec, const AV& a,
                                  const BV& b, const CV& c, const DV& d, const SizesView& sizes,
                                  const StatusView& status, bool record, int num_systems, int m) {
  using Functor =
      ThomasTeamInMemory<ExecutionSpace, Layout, AV, BV, CV, DV, SizesView, StatusView, kRows>;
  using T = typename Functor::T;
  const bool gpu = !is_host_backend<ExecutionSpace>();
  Functor functor{{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), record}, {}};
  int max_lanes = InMemoryTeamShape::max_lanes_for(
      solver_scratch0_max(Kokkos::TeamPolicy<ExecutionSpace>(exec, 1, 1)), sizeof(T));
  if (gpu) {
    const int fits = Kokkos::TeamPolicy<ExecutionSpace>(exec, 1, 1)
                         .team_size_max(functor, Kokkos::ParallelForTag());
    while (max_lanes > 1 && max_lanes > fits) max_lanes /= 2;
  }
  functor.shape = InMemoryTeamShape::for_rows(m, max_lanes);
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, num_systems, gpu ? functor.shape.lanes : 1);
  policy.set_scratch_size(
      0, Kokkos::PerTeam(Functor::scratch_view::shmem_size(functor.shape.reduced_scalars())));
  policy.set_scratch_size(
      1, Kokkos::PerTeam(Functor::scratch_view::shmem_size(functor.shape.memory_scalars())));
  Kokkos::parallel_for(label + "_team_in_memory", policy, functor);
}

// The two-pass schedule's warps a block, fitted to the solver map's forced shapes
// (docs/SOLVER_MAP.md, "The two-pass block's warps"): 1 below 768 rows, 2 below 2,000, 4 up
// to 16,384, 8 up to 32,768, 16 past; where the batch leaves fewer than 4 warps an SM (sms:
// the device's SMs, 0 on host backends), twice as many while the system has lane-rows for
// them.
inline int two_pass_warps(int m, long long num_systems, int sms) {
  int warps = m < 768 ? 1 : m < 2000 ? 2 : m <= 16384 ? 4 : m <= 32768 ? 8 : 16;
  const long long lane_rows = (m + kTwoPassRowsPerLane - 1) / kTwoPassRowsPerLane;
  while (warps < 16 && num_systems * warps < 4ll * sms &&
         (lane_rows + kWarpLanes - 1) / kWarpLanes >= 2 * warps)
    warps *= 2;
  return warps;
}

// The systems a two-pass block takes on GPUs for fixed-size Full-Interleaved batches, fitted
// to the solver map (docs/SOLVER_MAP.md, "Full-Interleaved systems past the on-chip
// capacity"): 8 (a row's values are 64 bytes, half the cache lines of 4) where 8 systems'
// reduced systems fit the block's shared memory, or where not even 4 do (both in device
// memory), and the batch leaves at least half as many blocks of 8 as SMs (sms); 4 otherwise.
inline int two_pass_block_systems(long long num_systems, int sms, bool eight_on_chip,
                                  bool four_on_chip) {
  return num_systems >= 4ll * sms && (eight_on_chip || !four_on_chip) ? 8 : 4;
}

// Whether a two-pass block of shape `shape` on scalars T fits what the device gives a block
// on chip (level-0 scratch); else its reduced systems go to device memory (level 1).
template <class T, class ExecutionSpace>
bool two_pass_block_on_chip(const ExecutionSpace& exec, const TwoPassShape& shape) {
  return TeamScratchView<T*, ExecutionSpace>::shmem_size(shape.block_scratch_scalars()) <=
         static_cast<std::size_t>(
             Kokkos::TeamPolicy<ExecutionSpace>(exec, 1, 1).scratch_size_max(0));
}

// The two-pass kernel with P systems a block, `warps` warps (fewer where the kernel's
// registers do not allow them). A reduced system larger than what the device gives a block
// on chip goes to level-1 scratch (device memory, mostly L2-resident: 3 scalars per 8 rows).
template <int P, class ExecutionSpace, class Systems>
void launch_thomas_two_pass_block(const std::string& label, const ExecutionSpace& exec,
                                  const Systems& systems, int num_systems, int m, int warps) {
  constexpr bool gpu = !is_host_backend<ExecutionSpace>();
  using Functor = ThomasTwoPass<ExecutionSpace, Systems, P>;
  Functor functor{systems, {}, 0, num_systems};
  // One system a block: no launch bounds. The kernel takes about 127 registers a thread on
  // sm_90 (four blocks of 4 warps an SM), and bounds of several blocks made Kokkos 3.4 refuse
  // blocks whose shared memory that many blocks cannot share ("requested too large team
  // size"). Several: blocks of up to 16 warps, which fit an SM only at <= 128 registers (the
  // lane code takes about 134 unbounded): say so to nvcc.
  using Policy = typename std::conditional<
      (P > 1), Kokkos::TeamPolicy<ExecutionSpace, Kokkos::LaunchBounds<16 * kWarpLanes, 1>>,
      Kokkos::TeamPolicy<ExecutionSpace>>::type;
  for (;;) {
    using T = typename Functor::T;
    functor.shape = TwoPassShape::for_rows(m, warps, P, sizeof(T));
    functor.scratch_level = two_pass_block_on_chip<T>(exec, functor.shape) ? 0 : 1;
    // Device memory has no banks to spread the systems over: their arrays back to back.
    if (functor.scratch_level == 1)
      functor.shape.system_stride = static_cast<int>(functor.shape.scratch_scalars());
    Policy policy(exec, (num_systems + P - 1) / P, gpu ? functor.shape.warps : 1,
                  gpu ? kWarpLanes : 1);
    policy.set_scratch_size(
        functor.scratch_level,
        Kokkos::PerTeam(Functor::scratch_view::shmem_size(functor.shape.block_scratch_scalars())));
    if (gpu && warps > 1 && policy.team_size_max(functor, Kokkos::ParallelForTag()) < warps) {
      warps /= 2;
      continue;
    }
    Kokkos::parallel_for(label + "_two_pass", policy, functor);
    return;
  }
}

// The two-pass schedule: a block of two_pass_warps() warps per system. On GPUs, fixed-size
// Full-Interleaved batches take two_pass_block_systems() systems a block (4 or 8) with as
// many times the warps (up to 16), so that a warp's loads are whole sectors. warps > 0
// forces the block's warps, block_systems > 0 its systems (4 or 8, Full-Interleaved on
// GPUs only; the solver map and the tests use them).
template <RowCount kRows, class Layout, class ExecutionSpace, class AV, class BV, class CV,
          class DV, class SizesView, class StatusView>
void launch_thomas_two_pass(const std::string& label, const ExecutionSpace& exec, const AV& a,
                            const BV& b, const CV& c, const DV& d, const SizesView& sizes,
                            const StatusView& status, bool record, int num_systems, int m,
                            int warps = 0, int block_systems = 0) {
  using Systems = PaddedSystems<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows>;
  constexpr bool gpu = !is_host_backend<ExecutionSpace>();
  const Systems systems{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), record};
  // SMs of 2,048 threads (H100, H200); GPUs of fewer threads an SM count fewer SMs here, so
  // they double the warps for slightly fewer systems.
  const int sms = gpu ? exec.concurrency() / 2048 : 0;
  const int per_system = two_pass_warps(m, num_systems, sms);
  if constexpr (gpu && kRows == RowCount::Fixed &&
                std::is_same<Layout, layouts::FullInterleaved>::value) {
    const auto block_warps = [&](int P) {
      return warps > 0 ? warps : std::min(16, P * per_system);
    };
    if (block_systems != 4 && block_systems != 8) {
      using T = typename Systems::scalar_type;
      const auto on_chip = [&](int P) {
        return two_pass_block_on_chip<T>(exec,
                                         TwoPassShape::for_rows(m, block_warps(P), P, sizeof(T)));
      };
      block_systems = two_pass_block_systems(num_systems, sms, on_chip(8), on_chip(4));
    }
    if (block_systems == 8)
      launch_thomas_two_pass_block<8>(label, exec, systems, num_systems, m, block_warps(8));
    else
      launch_thomas_two_pass_block<4>(label, exec, systems, num_systems, m, block_warps(4));
  } else {
    (void)block_systems;
    launch_thomas_two_pass_block<1>(label, exec, systems, num_systems, m,
                                    warps > 0 ? warps : per_system);
  }
}

// The on-chip schedule; scratch_rows > 0 keeps fewer rows than fit (tests reach
// the swept part with it on every backend). False (nothing launched) where a
// row's int offset from its system's first could overflow: the caller runs the
// ThomasBatch paper's kernel.
template <RowCount kRows, class Layout, class ExecutionSpace, class AV, class BV, class CV,
          class DV, class SizesView, class StatusView>
bool launch_thomas_on_chip(const std::string& label, const ExecutionSpace& exec, const AV& a,
                           const BV& b, const CV& c, const DV& d, const SizesView& sizes,
                           const StatusView& status, bool record, int num_systems, int m,
                           int scratch_rows) {
  if (d.span() > static_cast<std::size_t>(INT_MAX)) return false;
  // Systems that stop at their own sizes, interleaved on a GPU, step through the rows together.
  constexpr bool in_step = kRows == RowCount::NoComputingPadding &&
                           std::is_same<Layout, layouts::FullInterleaved>::value &&
                           !is_host_backend<ExecutionSpace>();
  using Functor = ThomasPerSystemOnChip<ExecutionSpace, Layout, AV, BV, CV, DV, SizesView,
                                        StatusView, kRows, in_step>;
  using T = typename Functor::T;
  const int lanes = on_chip_lanes<ExecutionSpace>();
  const int kept = on_chip_kept<T, ExecutionSpace>(m, scratch_rows);
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, (num_systems + lanes - 1) / lanes, lanes);
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(kept, lanes)));
  Kokkos::parallel_for(
      label + "_on_chip", policy,
      Functor{{a, b, c, d, sizes, status, m, block_size_of<Layout>(d), record}, num_systems, kept});
  return true;
}

// The systems a ThomasBatch call solves: num_systems (-1: all `slots` the
// storage holds), checked against what the storage (`holds`, for the message)
// has room for and INT_MAX.
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

// The tile schedule on storage of equal sizes: Block-Interleaved tiles as they are, Full-
// Interleaved systems in tiles of interleaved_tile_lanes, Flat ones of flat_tile_lanes. False
// where the four arrays' strides differ (the caller runs PerSystem).
template <class Layout, class ExecutionSpace, class AV, class BV, class CV, class DV,
          class StatusView>
bool launch_thomas_simd_tiles(const std::string& label, const ExecutionSpace& exec, const AV& a,
                              const BV& b, const CV& c, const DV& d, const StatusView& status,
                              bool record, int num_systems, int m) {
  // The tile pointers assume one row stride (and for Flat storage one system stride) for
  // the four arrays.
  if (a.stride(1) != d.stride(1) || b.stride(1) != d.stride(1) || c.stride(1) != d.stride(1) ||
      a.stride(0) != d.stride(0) || b.stride(0) != d.stride(0) || c.stride(0) != d.stride(0))
    return false;
  const int bs = tile_block_size<Layout, scalar_of<DV>, ExecutionSpace>(
      Layout::tiled ? static_cast<int>(d.extent(2)) : 0, m);
  const int tiles = (num_systems + bs - 1) / bs;
  Kokkos::parallel_for(label + "_simd_tiles", simd_tile_policy(exec, tiles, bs),
                       ThomasSimdTiles<AV, BV, CV, DV, StatusView, ExecutionSpace>{
                           a, b, c, d, status, m, bs, num_systems, tiles, record});
  return true;
}

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
  if (resolved == ThomasSchedule::TeamPerSystemTwoPass) {
    launch_thomas_two_pass<RowCount::Fixed, Layout>(label, exec, a, b, c, d, SizesView(), status,
                                                    record, static_cast<int>(n), m);
    return;
  }
  if (resolved == ThomasSchedule::TeamPerSystemInMemory) {
    launch_thomas_team_in_memory<RowCount::Fixed, Layout>(label, exec, a, b, c, d, SizesView(),
                                                          status, record, static_cast<int>(n), m);
    return;
  }
  if (resolved == ThomasSchedule::PerSystemOnChip &&
      launch_thomas_on_chip<RowCount::Fixed, Layout>(label, exec, a, b, c, d, SizesView(), status,
                                                     record, static_cast<int>(n), m, on_chip_rows))
    return;
  if (resolved == ThomasSchedule::SimdTiles &&
      launch_thomas_simd_tiles<Layout>(label, exec, a, b, c, d, status, record, static_cast<int>(n),
                                       m))
    return;
  Kokkos::parallel_for(
      label, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(n)),
      ThomasPerSystem<Layout, AV, BV, CV, DV, SizesView, StatusView, RowCount::Fixed>{
          {a, b, c, d, SizesView(), status, m, block_size_of<Layout>(d), record}});
}

// Host checks of the padded storage against sizes: extents only, never the
// values.
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

// The schedule a padded ThomasVBatch of n systems of at most m_max rows runs. Auto on GPUs
// (double, Flat or Full-Interleaved): the ThomasVBatch map's table for that storage, by m_max
// and the padded rows (computing the padding or not favour different schedules: one thread
// per system, coalesced in Full-Interleaved storage whether its threads sweep m_max rows or
// step through them together, wins where the systems fill the GPU; docs/SOLVER_MAP.md);
// otherwise what ThomasBatch takes at m_max.
template <RowCount kRows, class ExecutionSpace, class Layout, class Scalar>
ThomasSchedule resolve_vbatch_schedule(ThomasSchedule schedule, int m_max, long long n) {
  constexpr bool flat = std::is_same<Layout, layouts::Flat>::value;
  constexpr bool interleaved = std::is_same<Layout, layouts::FullInterleaved>::value;
  constexpr bool cp = kRows == RowCount::ComputingPadding;
  if (schedule == ThomasSchedule::Auto && !is_host_backend<ExecutionSpace>() &&
      std::is_same<Scalar, double>::value && (flat || interleaved)) {
    const int m = m_max < 1 ? 1 : m_max;
    if (flat)
      schedule = cp ? nearest_auto_schedule(auto_table(ThomasAutoTable::VBatchFlatCp), m, n)
                    : nearest_auto_schedule(auto_table(ThomasAutoTable::VBatchFlatNcp), m, n);
    else
      schedule =
          cp ? nearest_auto_schedule(auto_table(ThomasAutoTable::VBatchFullInterleavedCp), m, n)
             : nearest_auto_schedule(auto_table(ThomasAutoTable::VBatchFullInterleavedNcp), m, n);
  }
  return resolve_schedule<ExecutionSpace, Layout, Scalar>(schedule, m_max, n);
}

// What Auto takes for packed ThomasVBatch on GPUs in double before looking at the offsets: the
// ThomasVBatch map's table for packed storage, by the mean size of its n systems in total_rows
// rows (one thread a system for small systems, the warp schedule from about 100 rows), so
// that one thread a system needs no pass over the offsets. Auto otherwise.
template <class ExecutionSpace, class Scalar>
ThomasSchedule packed_auto_by_table(ThomasSchedule schedule, long long total_rows, long long n) {
  if (schedule != ThomasSchedule::Auto || is_host_backend<ExecutionSpace>() ||
      !std::is_same<Scalar, double>::value)
    return schedule;
  const long long mean = std::max<long long>(1, total_rows / std::max<long long>(1, n));
  return nearest_auto_schedule(auto_table(ThomasAutoTable::VBatchPacked),
                               static_cast<int>(std::min<long long>(mean, INT_MAX)),
                               std::max<long long>(1, n));
}

// The schedule packed ThomasVBatch runs (PerSystem or WarpPerSystem) for n systems in total_rows
// rows whose largest has `largest` rows (< 1: none valid). Auto: PerSystem on hosts; on GPUs
// the table (packed_auto_by_table) in double, the warp schedule in float. Every schedule but
// PerSystem runs the warp schedule where the largest system fits it (kWarpMaxRows).
template <class ExecutionSpace, class Scalar>
ThomasSchedule resolve_packed_schedule(ThomasSchedule schedule, long long largest,
                                       long long total_rows, long long n) {
  if (schedule == ThomasSchedule::Auto && is_host_backend<ExecutionSpace>())
    return ThomasSchedule::PerSystem;
  schedule = packed_auto_by_table<ExecutionSpace, Scalar>(schedule, total_rows, n);
  if (schedule == ThomasSchedule::PerSystem || schedule == ThomasSchedule::SimdTiles)
    return ThomasSchedule::PerSystem;
  return largest >= 1 && largest <= kWarpMaxRows ? ThomasSchedule::WarpPerSystem
                                                 : ThomasSchedule::PerSystem;
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
      resolve_vbatch_schedule<kRows, ExecutionSpace, Layout, typename Checks::scalar_type>(
          schedule, row_extent(d), n);
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
  if (resolved == ThomasSchedule::TeamPerSystemTwoPass) {
    launch_thomas_two_pass<kRows, Layout>(std::string(where) + "_" + Layout::name, exec, a, b, c, d,
                                          sizes, status, record, n, row_extent(d));
    return;
  }
  if (resolved == ThomasSchedule::TeamPerSystemInMemory) {
    launch_thomas_team_in_memory<kRows, Layout>(std::string(where) + "_" + Layout::name, exec, a, b,
                                                c, d, sizes, status, record, n, row_extent(d));
    return;
  }
  if (resolved == ThomasSchedule::PerSystemOnChip &&
      launch_thomas_on_chip<kRows, Layout>(std::string(where) + "_" + Layout::name, exec, a, b, c,
                                           d, sizes, status, record, n, row_extent(d),
                                           on_chip_rows))
    return;
  // Systems that stop at their own sizes, interleaved on a GPU, step through the rows together.
  constexpr bool in_step = kRows == RowCount::NoComputingPadding &&
                           std::is_same<Layout, layouts::FullInterleaved>::value &&
                           !is_host_backend<ExecutionSpace>();
  Kokkos::parallel_for(
      std::string(where) + "_" + Layout::name, Kokkos::RangePolicy<ExecutionSpace>(exec, 0, n),
      ThomasPerSystem<Layout, AV, BV, CV, DV, SizesView, StatusView, kRows, in_step>{
          {a, b, c, d, sizes, status, row_extent(d), block_size_of<Layout>(d), record}});
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
                "hinesbatch::thomas_vbatch_packed: a, b, c and d must be rank-1 Views of "
                "all "
                "systems back to back");
  using T = scalar_of<DV>;
  static_assert(std::is_same<scalar_of<AV>, T>::value && std::is_same<scalar_of<BV>, T>::value &&
                    std::is_same<scalar_of<CV>, T>::value,
                "hinesbatch::thomas_vbatch_packed: a, b, c and d must hold the "
                "same scalar type");
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
                "hinesbatch::thomas_vbatch_packed: offsets must be a rank-1 "
                "View of integers");
  check_status_type<ExecutionSpace, StatusView>();
  require_same_extents(where, a, b, c, d);
  if (offsets.extent(0) < 1)
    throw InputError(std::string(where) + ": offsets needs N + 1 >= 1 entries", {}, 0, "0");
  const long long n = static_cast<long long>(offsets.extent(0)) - 1;
  if (n > INT_MAX)
    throw InputError(std::string(where) + ": more than INT_MAX systems", {}, 0, std::to_string(n));
  if (n == 0) return;
  const long long total_rows = static_cast<long long>(d.extent(0));
  if (schedule == ThomasSchedule::Auto && is_host_backend<ExecutionSpace>())
    schedule = ThomasSchedule::PerSystem;
  if (schedule == ThomasSchedule::SimdTiles) schedule = ThomasSchedule::PerSystem;  // no tiles
  schedule = packed_auto_by_table<ExecutionSpace, T>(schedule, total_rows, n);
  if (schedule != ThomasSchedule::PerSystem) {
    // The warp schedule's register shape needs the largest size: one pass over the offsets
    // (bad offsets are left to the solve, which records them). An atomic max rather than a
    // parallel_reduce: Kokkos 3.4's CUDA reduction is warp-synchronous code that
    // compute-sanitizer's racecheck reports (warnings only). The pass costs more than the
    // solve of many systems of a few rows, which Auto's table gives one thread each first.
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
    if (resolve_packed_schedule<ExecutionSpace, T>(schedule, largest, total_rows, n) ==
        ThomasSchedule::WarpPerSystem) {
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
  throw SolverError("hinesbatch::thomas: system " + std::to_string(system) + ", row " +
                        std::to_string(row) +
                        (pivot ? ": zero or non-finite pivot" : ": non-finite solution") +
                        " (input has a zero or non-finite coefficient, or is not diagonally "
                        "dominant)",
                    system, row);
}

[[noreturn]] inline void throw_bad_size(long long system, const std::string& detail) {
  throw InputError("hinesbatch::thomas_vbatch: system " + std::to_string(system) +
                       " has an invalid size (" + detail + "); it was not solved",
                   {}, 0, std::to_string(system));
}

}  // namespace impl
}  // namespace hinesbatch
