#pragma once
// How a mono-morphology Hines batch is scheduled (HinesSchedule) and the schedules' names.
// The solver: hines_batch_solve.hpp.
#include <string_view>

#include "hinesbatch/core/impl/enum_names.hpp"

namespace hinesbatch {

// How a mono-morphology batch is scheduled. The choice changes what is left in d.
enum class HinesSchedule {
  // The fastest measured schedule for the batch's layout and backend: on GPUs, for Flat
  // and Full-Interleaved batches in double, the schedule of the nearest point of the solver
  // map (docs/SOLVER_MAP.md; src/solvers/auto_hines_table.hpp, by tree size, height and nodes in
  // the
  // batch); otherwise, for Flat batches (whose one-thread sweeps are uncoalesced)
  // WarpPerSystem up to kWarpScheduleAutoMaxNodes nodes and TeamPerSystem above, for the
  // interleaved layouts PerSystemOnChip when the whole tree fits in scratch
  // (on_chip_capacity) and PerSystem otherwise; on host backends SimdTiles. Block-Shared
  // batches run cuHinesBatch's Block-Shared kernel. d afterwards holds the eliminated
  // diagonal or its input values.
  Auto,
  // cuHinesBatch's kernel: one thread per system; d <- eliminated diagonal. About 80 B of
  // memory traffic per node in double.
  PerSystem,
  // A team per system (hines_team.hpp): read once, eliminated in team scratch, x written
  // once (40 B per node in double); u, l and d are only read.
  TeamPerSystem,
  // A tile of W systems per thread, the lane loop vectorised (simd_tiles_solve.hpp):
  // Block-Interleaved batches in their tiles, Full-Interleaved ones in tiles of
  // interleaved_tile_lanes consecutive systems, Flat ones of flat_tile_lanes (not
  // Block-Shared); d <- eliminated diagonal.
  SimdTiles,
  // G lanes per system, 32 / G systems per warp (hines_warp.hpp): read once, each lane
  // eliminates its range of nodes in team scratch, one thread the few ports left; x
  // written once (40 B per node in double); u, l and d are only read.
  WarpPerSystem,
  // cuHinesBatch's one thread per system with the eliminated values of as many nodes as fit kept in
  // team scratch (hines_on_chip.hpp): 40 B per node for those, 80 for the rest; the lanes
  // of a warp take consecutive systems, so interleaved storage is read coalesced. d holds
  // its input on the kept nodes and the eliminated diagonal on the others. A batch of
  // more than 2^31 elements per array runs PerSystem (the schedule's offsets are ints).
  PerSystemOnChip,
  // A team of several warps per system (hines_block.hpp) for large trees: d and rhs (and
  // the tree's lane plan) in team scratch, u and l read from memory, each lane eliminating
  // whole pieces of the tree level by level; x written once (40 B per node in double, read
  // coalesced from Flat storage); u, l and d are only read. On host backends one thread
  // per system.
  BlockPerSystem,
  // cuHinesBatch's sweeps with 32 systems a team whose rows pass through team scratch in
  // chunks of 16 that the team loads and stores together (hines_staged.hpp): PerSystem's
  // 80 B per node, but Flat storage moves in whole cache lines and a chunk's loads are in
  // flight together. Under Auto the solver map's table may name another chunk shape (on
  // GPUs, double Flat and Full-Interleaved batches: 32 rows copied to scratch
  // asynchronously). d <- eliminated diagonal.
  PerSystemStaged,
  // cuHinesBatch's sweeps with K lanes per system instead of one thread, cut along the
  // tree (hines_split.hpp): a team of K warps takes 32 systems, warp k eliminating and
  // substituting lane k's subtrees of each, one thread per system the junction left at
  // the root. For batches of large trees too few to fill the GPU with one thread each; K
  // from mono_split_lanes (1 on host backends). Under Auto the solver map's table takes it
  // where it measured fastest (GPUs, double Full-Interleaved batches). d <- eliminated
  // diagonal.
  Split,
};

// Names: the enumerator's (labels, messages) and the Python module's short one.
inline constexpr impl::EnumName<HinesSchedule> kHinesScheduleNames[] = {
    {HinesSchedule::Auto, "Auto", "auto"},
    {HinesSchedule::PerSystem, "PerSystem", "per_system"},
    {HinesSchedule::TeamPerSystem, "TeamPerSystem", "team"},
    {HinesSchedule::SimdTiles, "SimdTiles", "simd_tiles"},
    {HinesSchedule::WarpPerSystem, "WarpPerSystem", "warp"},
    {HinesSchedule::PerSystemOnChip, "PerSystemOnChip", "on_chip"},
    {HinesSchedule::BlockPerSystem, "BlockPerSystem", "block"},
    {HinesSchedule::PerSystemStaged, "PerSystemStaged", "staged"},
    {HinesSchedule::Split, "Split", "split"},
};

inline const char* to_string(HinesSchedule s) {
  return impl::enum_to_string(kHinesScheduleNames, s);
}

// Either name of a schedule; false (s unchanged) for any other text.
inline bool from_string(std::string_view text, HinesSchedule& s) {
  return impl::enum_from_string(kHinesScheduleNames, text, s);
}

}  // namespace hinesbatch
