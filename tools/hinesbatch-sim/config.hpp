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

// overrides: "key.path=value" (value parsed as JSON, else taken as a string).
SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

// Writes the instantiated model of `gids` for scripts/validation/neuron_run.py.
void export_model(const SimConfig& c, const std::vector<std::int64_t>& gids,
                  const std::string& file);

}  // namespace hinesbatch::sim_tool
