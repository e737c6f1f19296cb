#pragma once
// What a run is asked to do and what it measured: the options, the recordings and the
// metrics of a network simulation (simulation.hpp runs it; config.hpp reads them from JSON).
// Kept apart from simulation.hpp so that a caller can describe a run without the kernels.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/enum_names.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/morphology/neuron_compartments.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"

namespace hinesbatch {

// The most steps one run may take (2^31: 15 hours of simulated time at dt 0.025 ms).
constexpr double kMaxSimulationSteps = 2147483648.0;

// How a host backend (OpenMP, Serial) steps its cells (unless on_chip is on). Lanes: one work item
// advances a tile of W = 16 cells of the same tree, the lane loop vectorised (cell_tiles.hpp:
// cell_tile_lanes). Cells: one work item per cell, (cell, node) storage (the reference). Both give
// the same raster and traces.
enum class HostSchedule { Tiles, Cells };
inline constexpr impl::EnumName<HostSchedule> kHostScheduleNames[] = {
    {HostSchedule::Tiles, "tiles", nullptr},
    {HostSchedule::Cells, "cells", nullptr},
};
inline const char* to_string(HostSchedule s) { return impl::enum_to_string(kHostScheduleNames, s); }
inline bool from_string(std::string_view text, HostSchedule& s) {
  return impl::enum_from_string(kHostScheduleNames, text, s);
}
HostSchedule parse_host_schedule(const std::string& name);  // from_string, else InputError

// The on-chip schedule (cell_epoch_on_chip.hpp): a team per cell runs every step of an
// epoch with the cell's d and rhs in team scratch; on_chip_launch_plan.hpp decides, from
// what Kokkos reports for the kernel and the device, how cells of alike size are launched
// together, the team's size (a warp, or up to 1,024 lanes for large cells or few cells) and
// whether d and rhs fit shared memory or live in the team's memory. Auto: on GPUs, for
// every cell (no size is refused); never on hosts. On: on every backend. Off: never. Same
// raster as the other schedules; voltages agree to rounding (it solves for v, the others
// for dv).
// A launch shape of the on-chip schedule to force where the device allows it (benchmarks
// map the choice with it): lanes > 0, kind >= 0 (an OnChipLaunch::Kind), split_spines 0 or
// 1 (lane plans that split long spines, CellLanePlan::fill: never, or wherever they do);
// otherwise the launch plan's model chooses.
struct OnChipForce {
  int kind = -1;
  int lanes = 0;
  int split_spines = -1;
};

enum class OnChipSteps { Auto, On, Off };
inline constexpr impl::EnumName<OnChipSteps> kOnChipStepsNames[] = {
    {OnChipSteps::Auto, "auto", nullptr},
    {OnChipSteps::On, "on", nullptr},
    {OnChipSteps::Off, "off", nullptr},
};
inline const char* to_string(OnChipSteps s) { return impl::enum_to_string(kOnChipStepsNames, s); }
inline bool from_string(std::string_view text, OnChipSteps& s) {
  return impl::enum_from_string(kOnChipStepsNames, text, s);
}
OnChipSteps parse_on_chip_steps(const std::string& name);  // from_string, else InputError

struct RunOptions {
  // Off by default: with one rank per GPU (and on host ranks) overlapping halves the epoch,
  // and the step kernels gain more from long epochs than the exchange costs (docs/SCALING.md).
  bool overlap = false;
  int epoch_steps = 0;          // 0: the largest the delays allow
  double progress_every_s = 0;  // > 0: rank 0 prints a progress line this often (stderr)
  HostSchedule host_schedule = HostSchedule::Tiles;
  OnChipSteps on_chip = OnChipSteps::Auto;
  OnChipForce on_chip_force;  // a launch shape to force (benchmarks); default: the model's
  // pas, hh and ExpSyn as the hand-written references (the tests' and benchmarks'
  // comparisons) instead of the catalogue's mechanisms of those names.
  bool builtin_mechanisms = false;
};

// "auto", "warp_per_cell", "team_per_cell" or "team_in_memory" (-1 for auto).
int parse_on_chip_kind(const std::string& name);

struct SimulationConfig;

// One key of a config's "run" section. The config reader checks JSON run.* and --set run.*
// against this table only, and hinesbatch-sim's run flags are shorthands built from it
// (`--host-schedule cells` is `--set run.host_schedule=cells`): one check and one message per
// key, whichever way its value comes.
struct RunKey {
  enum Type { Boolean, Integer, Number, Choice };
  std::string name;  // run.<name>
  Type type = Boolean;
  std::string default_json;          // the value when the key is absent, as JSON text
  double lo = 0, hi = 0;             // Integer, Number: the range
  std::vector<std::string> choices;  // Choice: the names it takes
  std::string flag;  // hinesbatch-sim's shorthand ("--host-schedule"; a Boolean's also has
                     // "--no-..." for false), or empty
  std::string help;  // what the flag's --help says
  // Sets the checked value into the config: number for Boolean (0 or 1), Integer and
  // Number; choice for Choice.
  void (*apply)(SimulationConfig& config, double number, const std::string& choice) = nullptr;
};
const std::vector<RunKey>& run_keys();
// The --set override that a run flag's VALUE stands for: "run.<name>=VALUE", a Choice's value
// quoted as a JSON string (so that any text is read as the name it is).
std::string run_key_override(const RunKey& key, const std::string& value);

// What a record samples every step at (gid, where): "v" (mV), an ion value ("cai", "eca",
// "ica": mM, mV, mA/cm2) or a generated mechanism's variable as NEURON names it
// ("m_hh": <variable>_<mechanism>, the mechanism's units). With synapse >= 0, a variable
// of the cell's synapse of that index instead (its point process's own name: "g" of
// ExpSyn, NEURON's syn._ref_g); `where` is then the synapse's location. docs/SIMULATION.md
// lists what may be recorded.
struct RecordSpec {
  std::int64_t gid = 0;
  Location where;
  std::string variable = "v";
  int synapse = -1;
  // gid is an artificial cell (a source past the cells): variable is its mechanism's, where
  // and synapse unused.
  bool artificial = false;
};

struct RunMetrics {
  std::string exchange;
  std::string schedule;  // "on_chip", "tiles" or "cells" (the step's schedule on this backend)
  int team_lanes = 1;    // threads that step one cell together: on_chip's team (its first launch's)
  int tile_cells = 1;    // cells one work item steps at once: a tile's W (tiles)
  std::string schedule_detail;  // on_chip: each launch's shape and why; any: generated mechanisms
  int ranks = 1;
  bool overlap = false;
  int epoch_steps = 0;
  std::int64_t steps = 0, epochs = 0;
  std::int64_t local_cells = 0, local_nodes = 0, global_nodes = 0, local_connections = 0;
  double setup_s = 0, wall_rank_s = 0;  // this rank
  double setup_cells_s = 0;             // of setup_s: the cells (CellGroup: constants, synapses)
  double setup_connections_s = 0;       // of setup_s: drawing the connections, device CSR
  double compute_s = 0;                 // launching and finishing the steps
  double exchange_s = 0;                // inside all_gather
  double exposed_exchange_s = 0;        // main thread waiting for the exchange
  double events_s = 0;                  // queueing, sorting and uploading events
  double compute_max_s = 0, compute_mean_s = 0;  // over ranks
  double wall_s = 0;  // the run's wall time: the slowest rank's (the metrics' wall_s)
  std::int64_t spikes = 0, events_delivered = 0, max_spikes_per_epoch = 0;
  double simulated_ms = 0;
  // Derived.
  double wall_s_per_simulated_s() const { return wall_s / (simulated_ms * 1e-3); }
  double compartment_steps_per_s() const { return global_nodes * double(steps) / wall_s; }
  double spikes_per_epoch() const { return epochs ? double(spikes) / epochs : 0; }
  double bytes_per_epoch() const { return spikes_per_epoch() * sizeof(Spike); }
  double exposed_comm_fraction() const {
    return wall_rank_s > 0 ? exposed_exchange_s / wall_rank_s : 0;
  }
  double load_balance() const { return compute_mean_s > 0 ? compute_max_s / compute_mean_s : 1; }
};

// The largest epoch (in steps) that min_delay allows; InputError when none.
inline int max_epoch_steps(double min_delay, double dt, bool overlap) {
  // In double first: a long delay (1e12 ms) would overflow the int and read as "too short".
  const double steps = std::floor(min_delay / (overlap ? 2 * dt : dt) + 1e-9);
  if (!(steps >= 1)) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  overlap ? "minimum delay %g ms is shorter than 2 dt = %g ms: the spike exchange "
                            "cannot overlap computation (set overlap to false or reduce dt)"
                          : "minimum delay %g ms is shorter than dt = %g ms",
                  min_delay, overlap ? 2 * dt : dt);
    throw InputError(buf, {}, 0, format_value(min_delay));
  }
  return static_cast<int>(std::min(steps, 1e9));  // an epoch never needs more steps
}

}  // namespace hinesbatch
