// Prints, per template of a config: nodes and the lane plan's critical path at 32..1024 lanes.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <fstream>
#include <sstream>
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
using namespace hinesbatch;
int main(int argc, char** argv) {
  Kokkos::ScopeGuard g(argc, argv);
  std::ifstream f(argv[1]); std::stringstream ss; ss << f.rdbuf();
  SimulationConfig c = parse_simulation_config(ss.str(), argv[1], "");
  for (const CellTemplate& t : c.templates) {
    const auto& comp = t.compartments;
    std::vector<int> parents(comp.size());
    for (int i = 0; i < comp.size(); ++i) parents[i] = comp.tree.parent(i);
    std::printf("%s %d", t.morphology.source.c_str(), comp.size());
    for (int lanes = 32; lanes <= 1024; lanes *= 2)
      std::printf(" %d", CellLanePlan::build(parents, lanes).critical_path());
    std::printf("\n");
  }
}
