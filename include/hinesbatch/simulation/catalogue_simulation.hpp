#pragma once
// A Simulation (run.hpp) whose templates' generated mechanisms come from a program's own
// compiled catalogue (hinesbatch_add_mechanisms) instead of the library's default one. The
// program's translation unit that includes this header compiles the kernels (as the
// library's run.cpp does for the default catalogue).
//
//   #include <mine/mine.hpp>
//   #include <hinesbatch/simulation/catalogue_simulation.hpp>
//   using Mine = hinesbatch::nmodl::mine::mine;
//   auto config = hinesbatch::load_simulation_config("cell.json", {},
//                                                    hinesbatch::catalogue_description<Mine>());
//   hinesbatch::LocalExchange one_rank;
//   auto result = hinesbatch::make_simulation<Mine>(config, one_rank).run();
#include "hinesbatch/simulation/impl/backend_simulation.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"

namespace hinesbatch {

// What the config reader checks cell.mechanisms against, for Catalogue.
template <class Catalogue>
const MechanismCatalogue& catalogue_description() {
  return nmodl::description<Catalogue>();
}

template <class Catalogue>
Simulation make_simulation(const SimulationConfig& config, SpikeExchange& exchange,
                           Backend backend = Backend::Device) {
  return Simulation(impl::make_backend_simulation<Catalogue>(config, exchange, backend));
}

}  // namespace hinesbatch
