#pragma once
// The files of a run, written by one code for hinesbatch-sim and Python (the config's
// "output" section; docs/SIMULATION.md): every one through OutputFile, so an earlier file
// of the same name stays until the new one is complete and a failed, interrupted or
// signalled run leaves no partial file.
//  - spikes: "gid time" per line (time with 6 decimals), sorted by (time, gid);
//  - spikes_sonata: a SONATA spike report (HDF5): /spikes/<population>/timestamps (ms,
//    float64, attribute units = "ms") and node_ids (uint64, the gids), sorted by time
//    (the population's attribute sorting = by_time, SONATA's enum);
//  - traces: CSV, a header "t,g<gid>_s<section>_x<x>" and a row per step, written as the
//    run goes (each epoch's rows, flushed) into the temporary that is renamed at the end;
//  - metrics: metrics_json (run.hpp).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch {

// Whether this build writes HDF5 (SONATA) files.
bool have_hdf5();

// The SONATA spike report of (gids[i], times[i]) into `file` (OutputFile: temporary and
// rename). times must be sorted (run results are). InputError when the build has no HDF5.
void write_sonata_spikes(OutputFile& file, const std::vector<std::int64_t>& gids,
                         const std::vector<double>& times, const std::string& population);
void write_sonata_spikes(const std::string& path, const std::vector<std::int64_t>& gids,
                         const std::vector<double>& times, const std::string& population);
// "gid time" lines.
void write_spikes_text(OutputFile& file, const std::vector<std::int64_t>& gids,
                       const std::vector<double>& times);

class RunOutputs {
 public:
  // On rank `rank`: the spikes (both formats) and metrics from rank 0, the traces from each
  // rank at traces_path (empty: none; with several ranks one name per rank). The paths are checked
  // now (OutputFile); nothing is created before the run.
  RunOutputs(const SimulationOutputs& outputs, const std::string& traces_path, int rank);
  // Once the Simulation is built: no traces file on a rank without records.
  void start(const std::vector<RecordSpec>& local_records);
  // The observer's part: this epoch's trace rows into the traces file.
  void on_epoch(const EpochReport& e);
  // Writes the rest and commits every file (InputError naming a file that failed).
  void finish(const SimulationResult& r, const std::string& config_path);
  bool writes_traces() const { return traces_ != nullptr; }

 private:
  SimulationOutputs outputs_;
  std::unique_ptr<OutputFile> spikes_, sonata_, traces_, metrics_;
  bool header_written_ = false;
  std::vector<RecordSpec> records_;
};

}  // namespace hinesbatch
