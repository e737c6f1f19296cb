#pragma once
// Simulation's implementation (run.hpp) per backend and mechanism catalogue: the setup
// hinesbatch-sim did in its main (which gids this rank holds, dry runs), NetworkSimulation
// on the chosen execution space, and the results as plain vectors. run.cpp instantiates it
// with the library's default catalogue; catalogue_simulation.hpp with a program's own.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <functional>
#include <memory>
#include <stdexcept>
#include <thread>

#include "hinesbatch/simulation/impl/mechanism_entry.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch {

namespace impl {

// The end of an epoch as the simulation exposes it: its one call of all_gather per epoch
// (with and without overlap). Forwards everything to the real exchange and, after each
// gather, tells the observer how far the run is.
class ObservedExchange final : public SpikeExchange {
 public:
  explicit ObservedExchange(SpikeExchange& inner) : inner_(&inner) {}
  int rank() const override { return inner_->rank(); }
  int size() const override { return inner_->size(); }
  std::vector<Spike> all_gather(const std::vector<Spike>& local) override {
    std::vector<Spike> all = inner_->all_gather(local);
    if (!on_epoch_) return all;  // not observed: nothing added to the run
    ++epochs_;
    for (const Spike& s : all) spikes_ += s.step < steps_;
    on_epoch_(std::min(epochs_ * epoch_steps_, steps_), spikes_);
    return all;
  }
  double max(double x) override { return inner_->max(x); }
  double sum(double x) override { return inner_->sum(x); }
  std::string name() const override { return inner_->name(); }

  void begin(std::int64_t steps, int epoch_steps,
             std::function<void(std::int64_t, std::int64_t)> on_epoch) {
    steps_ = steps;
    epoch_steps_ = epoch_steps;
    epochs_ = spikes_ = 0;
    on_epoch_ = std::move(on_epoch);
  }
  void end() { on_epoch_ = nullptr; }

 private:
  SpikeExchange* inner_;
  std::int64_t steps_ = 0, epochs_ = 0, spikes_ = 0;
  int epoch_steps_ = 1;
  std::function<void(std::int64_t, std::int64_t)> on_epoch_;
};

}  // namespace impl

// What does not depend on the backend: the gids of this rank and the exchange (a dry run
// replaces the caller's with an emulation of dry_run_ranks ranks).
struct Simulation::Impl {
  Impl(const SimulationConfig& c, SpikeExchange& ex) : network(c.network), exchange(&ex) {
    if (c.dry_run_ranks > 1) {
      if (ex.size() != 1) throw InputError("dry_run_ranks needs a single real rank", c.path);
      // The network is defined over dry_run_ranks x cells; this rank simulates block 0.
      network = simulated_network(c);
      const std::int64_t per_rank = c.network.cells;
      for (std::int64_t g = 0; g < per_rank; ++g) gids.push_back(g);
      dry = std::make_unique<DryRunExchange>(c.dry_run_ranks, per_rank);
      exchange = dry.get();
    } else {
      gids = partition_gids(c.network, c.templates, ex.size(), c.partition)[ex.rank()];
    }
    observed = std::make_unique<impl::ObservedExchange>(*exchange);
  }
  virtual ~Impl() = default;
  virtual const std::vector<RecordSpec>& local_records() const = 0;
  virtual std::int64_t local_nodes() const = 0;
  virtual int epoch_steps() const = 0;
  virtual bool overlap() const = 0;
  virtual std::string backend_name() const = 0;
  virtual SimulationResult run(const EpochObserver& observer, bool keep_traces) = 0;

  NetworkSpec network;
  std::vector<std::int64_t> gids;
  std::unique_ptr<DryRunExchange> dry;
  SpikeExchange* exchange;
  std::unique_ptr<impl::ObservedExchange> observed;  // what the simulation exchanges through
  std::int64_t steps = 0;
  bool ran = false;
};

namespace impl {

// Catalogue: the compiled catalogue of the templates' generated mechanisms.
template <class ExecutionSpace, class Catalogue>
struct BackendSimulation final : Simulation::Impl {
  BackendSimulation(const SimulationConfig& c, SpikeExchange& ex)
      : Impl(c, ex),
        dt(c.params.dt),
        record_interval(c.params.record_interval()),
        sim(ExecutionSpace(), c.templates, network, gids, c.params, *observed, c.run, c.records) {
    steps = c.params.steps();
  }
  const std::vector<RecordSpec>& local_records() const override { return sim.local_records(); }
  std::int64_t local_nodes() const override { return sim.metrics().local_nodes; }
  int epoch_steps() const override { return sim.epoch_steps(); }
  bool overlap() const override { return sim.metrics().overlap; }
  std::string backend_name() const override { return ExecutionSpace::name(); }

  SimulationResult run(const EpochObserver& observer, bool keep_traces) override {
    if (observer) {
      // Rows are read from the simulation's traces only on this thread: with overlap the
      // exchange's thread would race with the next epoch's rows being appended.
      const auto t0 = std::chrono::steady_clock::now();
      const std::thread::id caller = std::this_thread::get_id();
      std::size_t reported = 0;
      std::vector<std::vector<double>> pending;  // streamed rows not reported yet
      if (!keep_traces)
        sim.stream_trace_rows(
            [&](std::vector<double>&& row) { pending.push_back(std::move(row)); });
      auto report = [&, t0](std::int64_t done, std::int64_t spikes, bool last) {
        EpochReport e;
        e.steps_done = done;
        e.steps = steps;
        e.dt = dt;
        e.record_dt = record_interval;
        e.spikes = spikes;
        e.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        e.last = last;
        e.first_row = static_cast<std::int64_t>(reported);
        if (std::this_thread::get_id() == caller) {
          if (keep_traces) {
            const auto& rows = sim.traces();
            e.rows.assign(rows.begin() + static_cast<std::ptrdiff_t>(reported), rows.end());
          } else {
            e.rows = std::move(pending);
            pending.clear();
          }
          reported += e.rows.size();
        }
        observer(e);
      };
      observed->begin(steps, sim.epoch_steps(),
                      [&](std::int64_t done, std::int64_t spikes) { report(done, spikes, false); });
      try {
        sim.run();
      } catch (...) {
        observed->end();
        throw;
      }
      observed->end();
      report(steps, static_cast<std::int64_t>(sim.spikes().size() + sim.artificial_spikes().size()),
             true);
    } else {
      sim.run();
    }
    SimulationResult r;
    // The cells' and drawn sources' spikes (at their steps) merged with the artificial
    // cells' (at their exact times), in (time, gid) order.
    const std::vector<Spike>& spikes = sim.spikes();
    const std::vector<TimedSpike>& timed = sim.artificial_spikes();
    r.spike_gids.reserve(spikes.size() + timed.size());
    r.spike_times.reserve(spikes.size() + timed.size());
    std::size_t a = 0;
    for (const Spike& s : spikes) {
      const double time = s.step * dt;
      for (; a < timed.size() && timed[a] < TimedSpike{s.gid, time}; ++a) {
        r.spike_gids.push_back(timed[a].gid);
        r.spike_times.push_back(timed[a].time);
      }
      r.spike_gids.push_back(s.gid);
      r.spike_times.push_back(time);
    }
    for (; a < timed.size(); ++a) {
      r.spike_gids.push_back(timed[a].gid);
      r.spike_times.push_back(timed[a].time);
    }
    r.records = sim.local_records();
    const auto& rows = sim.traces();
    r.times.resize(rows.size());
    for (std::size_t k = 0; k < rows.size(); ++k)
      r.times[k] = static_cast<double>(k) * record_interval;
    r.traces.assign(r.records.size(), std::vector<double>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k)
      for (std::size_t j = 0; j < r.records.size(); ++j) r.traces[j][k] = rows[k][j];
    r.metrics = sim.metrics();
    r.backend = ExecutionSpace::name();
    r.cells = network.cells;
    return r;
  }

  double dt, record_interval;  // ms: a step, and between trace rows
  NetworkSimulation<ExecutionSpace, Catalogue> sim;
};

// The backend's implementation for `config` as it stands (its memory checked first).
template <class Catalogue>
std::unique_ptr<Simulation::Impl> backend_simulation_as_given(const SimulationConfig& config,
                                                              SpikeExchange& exchange,
                                                              Backend backend) {
  check_memory(config, exchange.size());
  if (backend == Backend::Host)
    return std::make_unique<BackendSimulation<Kokkos::DefaultHostExecutionSpace, Catalogue>>(
        config, exchange);
  return std::make_unique<BackendSimulation<Kokkos::DefaultExecutionSpace, Catalogue>>(config,
                                                                                       exchange);
}

// The backend's implementation for `config` (its memory checked first), with Catalogue: pas,
// hh and ExpSyn from Catalogue unless the run asks for the built-in ones.
template <class Catalogue>
std::unique_ptr<Simulation::Impl> make_backend_simulation(const SimulationConfig& config,
                                                          SpikeExchange& exchange,
                                                          Backend backend) {
  if (!config.run.builtin_mechanisms) {
    SimulationConfig lowered = config;
    builtins_from_catalogue(lowered.templates, nmodl::description<Catalogue>());
    return backend_simulation_as_given<Catalogue>(lowered, exchange, backend);
  }
  return backend_simulation_as_given<Catalogue>(config, exchange, backend);
}

}  // namespace impl
}  // namespace hinesbatch
