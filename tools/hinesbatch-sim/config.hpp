#pragma once
// hinesbatch-sim's JSON configuration (schema: docs/SIMULATION.md). Every error names
// the config file and the offending key and value; unknown keys are errors too, so a
// typo never silently falls back to a default.
#include <cstdint>
#include <string>
#include <vector>

#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/simulation/simulation.hpp"

namespace hinesbatch::sim_tool {

struct Outputs {
  std::string spikes, traces, metrics, model;
};

struct SimConfig {
  std::string path;
  SimulationParameters params;
  std::vector<CellTemplate> templates;
  NetworkSpec network;
  std::vector<RecordSpec> records;
  RunOptions run;
  Partition partition = Partition::Contiguous;
  int dry_run_ranks = 0;  // > 1: emulate that many ranks (one real)
  Outputs outputs;
};

// Limits checked before anything is sized by them (issue #12): they name the key and value.
constexpr std::int64_t kMaxCells = std::int64_t(1) << 40;
constexpr std::int64_t kMaxSynapsesPerCell = 1000000;

// overrides: "key.path=value" (value parsed as JSON, else taken as a string).
SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

// InputError naming network.cells (or tstop) when the run would need more memory than
// available_bytes (0: this machine's physical memory) on one of `ranks` ranks: checked
// before the gid lists and the cells are allocated.
void check_memory(const SimConfig& c, int ranks, double available_bytes = 0);

// Writes the instantiated model of `gids` for scripts/validation/neuron_run.py.
void export_model(const SimConfig& c, const std::vector<std::int64_t>& gids,
                  const std::string& file);

}  // namespace hinesbatch::sim_tool
