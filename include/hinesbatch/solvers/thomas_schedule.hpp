#pragma once
// How ThomasBatch / ThomasVBatch are scheduled (ThomasSchedule) and their failure record
// (ThomasStatus). The solvers: thomas_batch.hpp.
#include <Kokkos_Core.hpp>
#include <climits>
#include <string_view>

#include "hinesbatch/core/impl/enum_names.hpp"
#include "hinesbatch/layouts/solve_status.hpp"

namespace hinesbatch {

// How ThomasBatch / ThomasVBatch (padded storage) are scheduled. The choice changes what is
// left in c: only PerSystem and SimdTiles store c' there.
enum class ThomasSchedule {
  // The fastest measured schedule for the layout and backend (docs/PERFORMANCE.md, H100):
  // on GPUs WarpPerSystem for Flat storage up to 8,192 rows (TeamPerSystemTwoPass past
  // that; the one-thread sweep is uncoalesced there: 2.8 G rows/s at m = 256), PerSystemOnChip for
  // Full- and Block-Interleaved storage whose systems fit on chip (on_chip_capacity: 80
  // rows in double, 160 in float), WarpPerSystem for Full-Interleaved storage up to 128
  // rows (transposed through shared memory) and up to 512 rows in batches too small for
  // the ThomasBatch paper's kernel to fill the GPU (fewer systems than a quarter of the threads it
  // holds:
  // impl::interleaved_warp_auto_max_systems), PerSystem otherwise; on host backends
  // SimdTiles. On GPUs, double Flat and Full-Interleaved batches take the schedule the
  // solver map measured fastest nearest to their size and batch (docs/SOLVER_MAP.md); the
  // others, past 8,192 rows, TeamPerSystemTwoPass in Flat storage and TeamPerSystemInMemory
  // in batches too small to fill the GPU (fewer systems than its concurrency / 32:
  // impl::in_memory_team_auto_max_systems). c afterwards holds c' or its input values:
  // callers must not rely on either.
  Auto,
  // the ThomasBatch paper's kernel: one thread per system, the Thomas algorithm; c <- c'. About 80
  // B of
  // memory traffic per row in double.
  PerSystem,
  // A team per system (thomas_team.hpp): read once, eliminated in team scratch, x written
  // once (40 B per row in double); a, b and c are only read. Needs non-zero diagonals
  // (a zero b is reported as a zero pivot even where the sequential Thomas would pass it).
  TeamPerSystem,
  // A warp per system (thomas_warp.hpp): each lane's rows in registers, the reduced system
  // solved over warp shuffles; no scratch, no barrier (up to 12 rows a lane: 384 rows).
  // Systems of 385 to 8,192 rows take 2 to 32 warps of one block, whose reduced system goes
  // through shared memory. On GPUs,
  // Full-Interleaved input of up to 128 rows is transposed through shared memory first, and
  // of 129 to 512 rows taken by 2 to 8 warps on 4 systems at once (a lane's rows of one
  // system, the 4 systems side by side: coalesced loads). Same traffic and pivot rule as
  // TeamPerSystem. Larger systems (kWarpMaxRows) take TeamPerSystem.
  WarpPerSystem,
  // the ThomasBatch paper's one thread per system, the 32 lanes of a warp on consecutive systems,
  // with c' and
  // d' of the first on_chip_capacity rows kept in team scratch (thomas_on_chip.hpp): 40 B
  // per row in double for systems that fit; c of those rows is only read. Rows past them
  // are swept through memory as PerSystem does (c <- c' there). Same pivot rule as
  // PerSystem. Made for interleaved storage (on Flat storage its loads are uncoalesced);
  // packed storage runs WarpPerSystem for it.
  PerSystemOnChip,
  // A team of up to 1,024 lanes per system (thomas_team_in_memory.hpp), for systems past
  // what a block holds in batches of few systems: lane k eliminates its ~32 consecutive
  // rows reading a, b, c, d from the input, keeps their eliminated values in device memory
  // (level-1 scratch), a reduced system of one row per lane is solved on chip by PCR, and
  // each lane writes its x once (88 B per row in double). a, b and c are only read. Same
  // pivot rule as TeamPerSystem. Packed storage runs WarpPerSystem for it.
  TeamPerSystemInMemory,
  // A tile of W consecutive systems per pass, the row loop vectorised over them
  // (thomas_solve_tile, tile_system.hpp): Full-Interleaved storage in tiles of
  // interleaved_tile_lanes systems, Flat storage of flat_tile_lanes, Block-Interleaved storage in
  // its own tiles. On a host W
  // independent sweeps per core (and, interleaved, whole cache lines, where one thread per
  // system reads one value of each). One division per row: x differs from PerSystem's by
  // rounding; c <- c'. ThomasVBatch and packed storage run PerSystem for it.
  SimdTiles,
  // A block of 1-16 warps per system, any size (thomas_two_pass.hpp): its lanes take the
  // system's rows 8 at a time in turn, eliminate them in registers and keep only one row per
  // 8 of a reduced system in shared memory; that system is solved by the block, and each
  // lane reads its rows again to write x (72 B per row in double, 40 where the second read
  // hits L2). a, b and c are only read. Same pivot rule as WarpPerSystem. A reduced system
  // larger than the block's shared memory goes to device memory. Packed storage runs
  // WarpPerSystem for it.
  TeamPerSystemTwoPass,
};

// Names: the enumerator's (labels, messages) and the Python module's short one.
inline constexpr impl::EnumName<ThomasSchedule> kThomasScheduleNames[] = {
    {ThomasSchedule::Auto, "Auto", "auto"},
    {ThomasSchedule::PerSystem, "PerSystem", "per_system"},
    {ThomasSchedule::TeamPerSystem, "TeamPerSystem", "team"},
    {ThomasSchedule::WarpPerSystem, "WarpPerSystem", "warp"},
    {ThomasSchedule::PerSystemOnChip, "PerSystemOnChip", "on_chip"},
    {ThomasSchedule::TeamPerSystemInMemory, "TeamPerSystemInMemory", "team_in_memory"},
    {ThomasSchedule::SimdTiles, "SimdTiles", "simd_tiles"},
    {ThomasSchedule::TeamPerSystemTwoPass, "TeamPerSystemTwoPass", "team_two_pass"},
};

inline const char* to_string(ThomasSchedule s) {
  return impl::enum_to_string(kThomasScheduleNames, s);
}

// Either name of a schedule; false (s unchanged) for any other text.
inline bool from_string(std::string_view text, ThomasSchedule& s) {
  return impl::enum_from_string(kThomasScheduleNames, text, s);
}

// The failure record of every solver (layouts/solve_status.hpp): status(0): smallest flat
// index with a zero or non-finite pivot, or a bad-size code (below); status(1): smallest
// flat index where a non-finite value entered the solution.
template <class MemorySpace>
using ThomasStatus = SolveStatus<MemorySpace>;

// A cleared status in exec's memory space (the clear is enqueued on exec, no fence).
template <class ExecutionSpace>
ThomasStatus<typename ExecutionSpace::memory_space> make_thomas_status(const ExecutionSpace& exec) {
  ThomasStatus<typename ExecutionSpace::memory_space> status(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "hinesbatch::thomas_status"));
  Kokkos::deep_copy(exec, status, LLONG_MAX);
  return status;
}

}  // namespace hinesbatch
