// Simulation / run_simulation (run.hpp) with the library's default mechanism catalogue
// (impl/backend_simulation.hpp does the work). The only translation unit that
// instantiates the kernels for library callers.
#include "hinesbatch/simulation/run.hpp"

#include <Kokkos_Core.hpp>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "hinesbatch/simulation/impl/backend_simulation.hpp"

namespace hinesbatch {

Backend parse_backend(const std::string& name) {
  if (name == "device") return Backend::Device;
  if (name == "host") return Backend::Host;
  throw InputError("backend must be device or host", {}, 0, name);
}

HostSchedule parse_host_schedule(const std::string& name) {
  HostSchedule s{};
  if (from_string(name, s)) return s;
  throw InputError("host schedule must be tiles or cells", {}, 0, name);
}

OnChipSteps parse_on_chip_steps(const std::string& name) {
  OnChipSteps s{};
  if (from_string(name, s)) return s;
  throw InputError("on_chip must be auto, on or off", {}, 0, name);
}

int parse_on_chip_kind(const std::string& name) {
  if (name == "auto") return -1;
  OnChipLaunch::Kind kind{};
  if (impl::enum_from_string(kOnChipKindNames, name, kind)) return kind;
  throw InputError("on_chip_kind must be auto, warp_per_cell, team_per_cell or team_in_memory", {},
                   0, name);
}

Simulation::Simulation(const SimulationConfig& config, SpikeExchange& exchange, Backend backend)
    : impl_(impl::make_backend_simulation<nmodl::defaults::defaults>(config, exchange, backend)) {}
Simulation::Simulation(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Simulation::Simulation(Simulation&&) noexcept = default;
Simulation& Simulation::operator=(Simulation&&) noexcept = default;
Simulation::~Simulation() = default;

const std::vector<std::int64_t>& Simulation::local_gids() const { return impl_->gids; }
const std::vector<RecordSpec>& Simulation::local_records() const { return impl_->local_records(); }
std::int64_t Simulation::cells() const { return impl_->network.cells; }
std::int64_t Simulation::local_nodes() const { return impl_->local_nodes(); }
std::int64_t Simulation::steps() const { return impl_->steps; }
int Simulation::epoch_steps() const { return impl_->epoch_steps(); }
bool Simulation::overlap() const { return impl_->overlap(); }
std::string Simulation::exchange_name() const { return impl_->exchange->name(); }
std::string Simulation::backend_name() const { return impl_->backend_name(); }

SimulationResult Simulation::run() { return run(EpochObserver()); }

SimulationResult Simulation::run(const EpochObserver& observer, bool keep_traces) {
  if (!impl_) throw std::logic_error("hinesbatch: Simulation::run on a moved-from Simulation");
  if (impl_->ran) throw std::logic_error("hinesbatch: Simulation::run called twice");
  impl_->ran = true;
  return impl_->run(observer, keep_traces);
}

SimulationResult run_simulation(const SimulationConfig& config, SpikeExchange& exchange,
                                Backend backend, const EpochObserver& observer) {
  return Simulation(config, exchange, backend).run(observer);
}

SimulationResult run_simulation(const SimulationConfig& config, Backend backend) {
  LocalExchange one_rank;
  return run_simulation(config, one_rank, backend);
}

}  // namespace hinesbatch
