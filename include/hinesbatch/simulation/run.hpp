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
#include <functional>
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
  // their values: traces[k][j] is records[k] at times[j] = j * record_dt (dt where the
  // config sets none), from 0 to tstop.
  std::vector<RecordSpec> records;
  std::vector<double> times;
  std::vector<std::vector<double>> traces;
  RunMetrics metrics;
  std::string backend;     // the execution space's name ("OpenMP", "Cuda", ...)
  std::int64_t cells = 0;  // of the whole network (dry runs: every emulated rank's)
};

// What a run has done when an epoch ends, for an EpochObserver.
struct EpochReport {
  std::int64_t steps_done = 0, steps = 0;  // of the whole run
  double dt = 0;                           // ms: t = steps_done * dt
  double record_dt = 0;                    // ms between rows (dt where the config sets none)
  std::int64_t spikes = 0;                 // of the network, up to this epoch's gather
  double wall_s = 0;                       // since run() began
  // Trace rows not reported before: rows[j] is the local records at
  // t = (first_row + j) * record_dt
  // (row 0 is t = 0). Empty when the epoch ended off the calling thread (see below); those
  // rows come with a later report, so that every row is reported once and in order.
  std::int64_t first_row = 0;
  std::vector<std::vector<double>> rows;
  bool last = false;  // the report after the run: the remaining rows
};
// Called once per epoch and once more at the end (last = true). With one rank, or ranks
// without overlap, every call is on the thread that called run(); with overlapped ranks the
// epoch reports come from the exchange's thread and carry no rows. An exception thrown by
// the observer stops the run at that epoch boundary and leaves run(): with several ranks
// it must be thrown on every rank alike (the others would wait in the next exchange).
using EpochObserver = std::function<void(EpochReport&)>;

// A model set up for a run (cells on the device, connections, event queues), for callers
// that want to look before running (hinesbatch-sim prints these). Movable, not copyable.
class Simulation {
 public:
  // Uses config.run (overlap, epoch length, progress), config.partition and
  // config.dry_run_ranks; `exchange` must outlive the Simulation. InputError on a model
  // that cannot run (a too short delay, a synapse index a template lacks, ...).
  Simulation(const SimulationConfig& config, SpikeExchange& exchange,
             Backend backend = Backend::Device);
  struct Impl;  // per backend and catalogue (impl/backend_simulation.hpp)
  // A backend's implementation made by catalogue_simulation.hpp (a program's own catalogue).
  explicit Simulation(std::unique_ptr<Impl> impl);
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
  // The same, reporting every epoch to `observer` (progress, streamed traces, interrupts).
  // keep_traces false: the trace rows go to the observer only (reports on the calling
  // thread take them out of memory), and the result has no traces; for callers that
  // stream them to a file.
  SimulationResult run(const EpochObserver& observer, bool keep_traces = true);

 private:
  std::unique_ptr<Impl> impl_;
};

// hinesbatch-sim's metrics file: a JSON object (one writer: any config path, quotes,
// backslashes, non-UTF-8 bytes (replaced) or length included) of the run's metrics.
std::string metrics_json(const SimulationResult& r, const std::string& config_path);

// Simulation(config, exchange, backend).run().
SimulationResult run_simulation(const SimulationConfig& config, SpikeExchange& exchange,
                                Backend backend = Backend::Device,
                                const EpochObserver& observer = {});
// One process, no MPI (a LocalExchange).
SimulationResult run_simulation(const SimulationConfig& config, Backend backend = Backend::Device);

}  // namespace hinesbatch
