#pragma once
// A parsed config run on one backend and schedule, and the largest difference between two
// runs' traces: what the generated-mechanism and synapse tests compare.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"

namespace hinesbatch::test {

struct Outcome {
  std::vector<Spike> spikes;
  std::vector<std::vector<double>> traces;
  RunMetrics metrics;
};

// Config c's network (gids 0..cells-1, one rank) with `templates` in place of its own.
template <class Exec>
Outcome run(const SimulationConfig& c, const std::vector<CellTemplate>& templates,
            HostSchedule host = HostSchedule::Cells, OnChipSteps on_chip = OnChipSteps::Off,
            OnChipForce force = {}) {
  std::vector<std::int64_t> gids(c.network.cells);
  for (std::int64_t g = 0; g < c.network.cells; ++g) gids[g] = g;
  LocalExchange ex;
  RunOptions o = c.run;
  o.host_schedule = host;
  o.on_chip = on_chip;
  o.on_chip_force = force;
  NetworkSimulation<Exec> sim(Exec(), templates, c.network, gids, c.params, ex, o, c.records);
  sim.run();
  return {sim.spikes(), sim.traces(), sim.metrics()};
}

template <class Exec>
Outcome run(const SimulationConfig& c, HostSchedule host = HostSchedule::Cells,
            OnChipSteps on_chip = OnChipSteps::Off, OnChipForce force = {}) {
  return run<Exec>(c, c.templates, host, on_chip, force);
}

// max |v_a - v_b| over every row and record (mV); the traces must have as many rows.
inline double max_difference(const Outcome& a, const Outcome& b) {
  double worst = 0;
  EXPECT_EQ(a.traces.size(), b.traces.size());
  for (std::size_t r = 0; r < std::min(a.traces.size(), b.traces.size()); ++r)
    for (std::size_t k = 0; k < a.traces[r].size(); ++k)
      worst = std::max(worst, std::fabs(a.traces[r][k] - b.traces[r][k]));
  return worst;
}

}  // namespace hinesbatch::test
