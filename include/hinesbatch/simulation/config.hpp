#pragma once
// A network model from its JSON configuration (schema: docs/SIMULATION.md), as
// hinesbatch-sim and a Python caller read it. Every error is an InputError naming the
// config (file or source name), the offending key and value, and for a JSON syntax error
// the line; unknown keys are errors too, so a typo never silently falls back to a default.
// The JSON reader (nlohmann) is private to the library: nothing here depends on it.
#include <cstdint>
#include <string>
#include <vector>

#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/simulation/run_options.hpp"

namespace hinesbatch {

struct SwcMorphology;  // morphology/swc.hpp

// Where a run's results go (paths resolved against the config's folder; empty: none).
// spikes_sonata: a SONATA spike report (HDF5) of population sonata_population.
struct SimulationOutputs {
  std::string spikes, traces, metrics, model, spikes_sonata;
  std::string sonata_population = "hinesbatch";
};

struct SimulationConfig {
  std::string path;  // the config's file (or source name): errors name it
  SimulationParameters params;
  std::vector<CellTemplate> templates;
  NetworkSpec network;
  std::vector<RecordSpec> records;
  RunOptions run;
  Partition partition = Partition::Contiguous;
  int dry_run_ranks = 0;  // > 1: emulate that many ranks of `network` each (one real)
  SimulationOutputs outputs;
};

// Limits checked before anything is sized by them: they name the key and value.
constexpr std::int64_t kMaxCells = std::int64_t(1) << 40;
constexpr std::int64_t kMaxSynapsesPerCell = 1000000;

// Reads the config file at `path`. overrides: "key.path=value" (the value parsed as JSON,
// else taken as a string), applied before anything is checked. Relative paths in it
// (morphologies, outputs) resolve against the file's folder. `catalogue`: the mechanisms
// that cell.mechanisms may name besides the built-in pas and hh (a program compiled with
// its own catalogue passes nmodl::describe_catalogue<its catalogue>()).
SimulationConfig load_simulation_config(const std::string& path,
                                        const std::vector<std::string>& overrides = {},
                                        const MechanismCatalogue& catalogue = default_catalogue());

// The same from JSON text (e.g. a Python dict through json.dumps). source_name stands for
// the file in messages (and SimulationConfig::path); relative paths resolve against
// base_dir (empty: the current folder).
SimulationConfig parse_simulation_config(const std::string& json_text,
                                         const std::string& source_name,
                                         const std::string& base_dir,
                                         const std::vector<std::string>& overrides = {},
                                         const MechanismCatalogue& catalogue = default_catalogue());

// The same with the cell templates given (built in code, e.g. by parse_cell_template): the
// JSON has no "cell" section; everything else (parameters, network, records, run, output)
// is read and checked as in a config file.
SimulationConfig parse_simulation_config(const std::string& json_text,
                                         const std::string& source_name,
                                         const std::string& base_dir,
                                         std::vector<CellTemplate> templates,
                                         const std::vector<std::string>& overrides = {},
                                         const MechanismCatalogue& catalogue = default_catalogue());

// One cell template from JSON shaped as the config's "cell" section with one morphology
// and its own "synapses" list ([{"location": {...}, "tau": ms, "e": mV}]); no detector
// unless "detector" is given. The schema and the checks are those of a config file.
// `morphology`: used instead of the "morphology" key (which must then be absent).
CellTemplate parse_cell_template(const std::string& json_text, const std::string& source_name,
                                 const std::string& base_dir,
                                 const SwcMorphology* morphology = nullptr,
                                 const MechanismCatalogue& catalogue = default_catalogue());

// The whole network a run of `c` simulates: with dry_run_ranks > 1 `c.network` is one
// rank's block and the run's network spans dry_run_ranks blocks (the real rank holds
// block 0); otherwise c.network.
NetworkSpec simulated_network(const SimulationConfig& c);

// InputError naming network.cells (or tstop) when the run would need more memory than
// available_bytes (0: what this process may use: the smallest of physical memory, the
// address-space limit (ulimit -v) and the cgroup's limit) on one of `ranks` ranks: checked
// before the gid lists and the cells are allocated.
void check_memory(const SimulationConfig& c, int ranks, double available_bytes = 0);

// The instantiated model of `gids` (of simulated_network(c)) as JSON text, the format
// scripts/validation/neuron_run.py rebuilds in NEURON ("hinesbatch-model-1").
std::string model_json(const SimulationConfig& c, const std::vector<std::int64_t>& gids);
// model_json written to `file` (atomically: output_file.hpp).
void export_model(const SimulationConfig& c, const std::vector<std::int64_t>& gids,
                  const std::string& file);

}  // namespace hinesbatch
