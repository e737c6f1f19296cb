#pragma once
// Running a model from code: what hinesbatch-sim does between reading its config and
// writing its files, so that the program and a script (Python) run the same code and get
// the same raster. Needs Kokkos initialised. Only the library's translation unit sees
// the kernels (simulation.hpp); this header names no Kokkos type.
//
//   hinesbatch::SimulationConfig c = hinesbatch::load_simulation_config("ring.json");
//   hinesbatch::LocalExchange one_rank;
//   hinesbatch::SimulationResult r = hinesbatch::run_simulation(c, one_rank);
//   // r.spike_gids[i] fired at r.spike_times[i]; r.traces[k][j] is record k at r.times[j]
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/run_options.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"

namespace hinesbatch {

// Device: Kokkos's default execution space (CUDA on a CUDA build); Host: its default host
// space (OpenMP). Both give the same raster.
enum class Backend { Device, Host };
Backend parse_backend(const std::string& name);  // "device" or "host" (InputError otherwise)

struct SimulationResult {
  // Every spike of the network (all ranks), sorted by (time, gid), as hinesbatch-sim
  // writes them: time = step * dt (ms).
  std::vector<std::int64_t> spike_gids;
  std::vector<double> spike_times;
  // The records held by this rank (all of them with one rank), in the config's order, and
  // their voltages (mV): traces[k][j] is records[k] at times[j] = j * dt, j = 0 .. steps.
  std::vector<RecordSpec> records;
  std::vector<double> times;
  std::vector<std::vector<double>> traces;
  RunMetrics metrics;
  std::string backend;     // the execution space's name ("OpenMP", "Cuda", ...)
  std::int64_t cells = 0;  // of the whole network (dry runs: every emulated rank's)
};

// A model set up for a run (cells on the device, connections, event queues), for callers
// that want to look before running (hinesbatch-sim prints these). Movable, not copyable.
class Simulation {
 public:
  // Uses config.run (overlap, epoch length, progress), config.partition and
  // config.dry_run_ranks; `exchange` must outlive the Simulation. InputError on a model
  // that cannot run (a too short delay, a synapse index a template lacks, ...).
  Simulation(const SimulationConfig& config, SpikeExchange& exchange,
             Backend backend = Backend::Device);
  Simulation(Simulation&&) noexcept;
  Simulation& operator=(Simulation&&) noexcept;
  ~Simulation();

  const std::vector<std::int64_t>& local_gids() const;  // the cells this rank simulates
  const std::vector<RecordSpec>& local_records() const;
  std::int64_t cells() const;        // of the whole network (dry runs included)
  std::int64_t local_nodes() const;  // compartments (nodes) on this rank
  std::int64_t steps() const;
  int epoch_steps() const;
  bool overlap() const;  // whether the exchange overlaps computation (never with one rank)
  std::string exchange_name() const;
  std::string backend_name() const;

  // Runs from t = 0 to tstop; once (a second call is a std::logic_error). Collective:
  // every rank calls it. SolverError or std::runtime_error on a non-physical result.
  SimulationResult run();

  struct Impl;  // per backend (run.cpp)

 private:
  std::unique_ptr<Impl> impl_;
};

// hinesbatch-sim's metrics file: a JSON object (one writer: any config path, quotes,
// backslashes, non-UTF-8 bytes (replaced) or length included) of the run's metrics.
std::string metrics_json(const SimulationResult& r, const std::string& config_path);

// Simulation(config, exchange, backend).run().
SimulationResult run_simulation(const SimulationConfig& config, SpikeExchange& exchange,
                                Backend backend = Backend::Device);
// One process, no MPI (a LocalExchange).
SimulationResult run_simulation(const SimulationConfig& config, Backend backend = Backend::Device);

}  // namespace hinesbatch
