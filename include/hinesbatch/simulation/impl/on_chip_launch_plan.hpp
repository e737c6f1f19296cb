#pragma once
// How the on-chip step schedule (cell_epoch_on_chip.hpp) launches a rank's cells: which
// slots go together, how many lanes a team gives one cell, and where its d and rhs live.
// Decided on the host, before any launch, from what the Kokkos in use reports for the
// kernel and the device (team_size_max, scratch_size_max), so that no valid cell is ever
// refused at launch:
//  - slots (sorted by node count, largest first) are cut into launches of cells of alike
//    size, so that small cells do not pay for the scratch of the largest;
//  - per launch, every kind the device accepts is modelled (a warp per cell with many
//    cells per SM; a team of 32-1,024 lanes per cell with d and rhs in shared memory; the
//    same with them in the team's memory when no block holds them), teams in shared
//    memory also with lane plans that split long spines (a shorter path for 8 more bytes
//    of scratch per node), and the fastest modelled one runs (on_chip_modelled_rate).
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "hinesbatch/core/impl/enum_names.hpp"
#include "hinesbatch/simulation/run_options.hpp"  // OnChipForce

namespace hinesbatch {

// One launch of the epoch kernel.
struct OnChipLaunch {
  enum Kind : int {
    kWarpPerCell = 0,  // OnChipWarpBounds, level-0 scratch, 32 lanes (1 on a host)
    kTeamPerCell = 1,  // OnChipTeamBounds, level-0 scratch
    kTeamInMemory = 2  // OnChipTeamBounds, level-1 scratch (the team's memory)
  };
  int slot_begin = 0, slot_end = 0;  // slots [begin, end)
  Kind kind = kWarpPerCell;
  int lanes = 1;            // the team's size (a cell's lanes)
  int scratch_nodes = 1;    // nodes of its largest cell (16 B of scratch each; 24 with fill)
  bool fill = false;        // a plan of its cells splits spines: fill in scratch too
  double cells_per_sm = 0;  // resident cells per SM, as modelled (0 on a host)
  std::string why;          // for the metrics: the choice and what bounded it

  int scratch_level() const { return kind == kTeamInMemory ? 1 : 0; }
  const char* kind_name() const;
};

// The kinds' names in run.on_chip_kind and the metrics.
inline constexpr impl::EnumName<OnChipLaunch::Kind> kOnChipKindNames[] = {
    {OnChipLaunch::kWarpPerCell, "warp_per_cell", nullptr},
    {OnChipLaunch::kTeamPerCell, "team_per_cell", nullptr},
    {OnChipLaunch::kTeamInMemory, "team_in_memory", nullptr},
};
inline const char* OnChipLaunch::kind_name() const {
  return impl::enum_to_string(kOnChipKindNames, kind);
}

// What the device allows the epoch kernel.
struct OnChipDevice {
  bool gpu = false;
  int multiprocessors = 1;        // SMs
  std::size_t shared_per_sm = 0;  // bytes of shared memory an SM holds
  std::size_t scratch0_max = 0;   // Kokkos' scratch_size_max(0) for a team
  std::size_t scratch1_max = 0;   // and (1)
  // The largest team Kokkos accepts with `bytes` of scratch: the warp kind (level 0), and
  // the team kinds at `level`; 0 when it accepts none.
  std::function<int(std::size_t bytes)> warp_team_max;
  std::function<int(std::size_t bytes, int level)> team_max;
};

// The cells to launch: per slot (largest first) its nodes, its nodes with hh and its tree;
// critical_path(tree, lanes, split): the modelled steps of one sweep of that tree's
// CellLanePlan, made with or without splitting spines; fill(tree, lanes): whether the plan
// made with splitting splits any (CellLanePlan::fill; none where fill is not given).
struct OnChipCells {
  std::vector<int> nodes, hh_nodes, tree;
  std::function<int(int tree, int lanes, bool split)> critical_path;
  std::function<bool(int tree, int lanes)> fill;
};

// Throws InputError naming the cell and the limit only where no kind can take a cell (its
// scratch exceeds even the team's memory).
std::vector<OnChipLaunch> plan_on_chip_launches(const OnChipCells& cells,
                                                const OnChipDevice& device, OnChipForce force = {});

// The model behind the choice: modelled cell-steps per second per SM, relative (only
// comparisons between candidates mean anything). Exposed for tests.
double on_chip_modelled_rate(const OnChipLaunch& launch, const OnChipCells& cells,
                             const OnChipDevice& device);

}  // namespace hinesbatch
