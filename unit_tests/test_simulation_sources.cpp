// Several cell templates in one network (a config's "cells" blocks) and artificial spike
// sources (NetStim-like): the trains drawn from (seed, gid, n) alone, the same whatever the
// epochs they are taken in, their connections, and runs driven by them.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/events.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch::test {
namespace {

// Two templates (passive, hh soma) and a regular and a Poisson source group; the clock feeds
// every cell, the Poisson group only the hh block.
const char* const kTwoTemplates = R"({
  "dt": 0.025, "tstop": 60,
  "cells": [
    {"name": "passive", "count": 2, "morphology": "synthetic:ball-and-stick", "nseg": 3,
     "mechanisms": [{"name": "pas", "g": 0.001, "e": -65}]},
    {"name": "active", "count": 3, "morphology": ["synthetic:ball-and-stick", "synthetic:p3"],
     "nseg": 3, "mechanisms": [{"name": "hh", "region": "soma"}]}
  ],
  "sources": [
    {"name": "clock", "start": 5, "interval": 20, "number": 2,
     "connect": {"per_cell": 1, "weight": 0.1, "delay": 1}},
    {"name": "noise", "count": 6, "type": "poisson", "rate": 80, "seed": 4,
     "connect": {"per_cell": 3, "weight": 0.0005, "delay": 2, "tau": 5, "e": -80,
                 "to": ["active"]}}
  ],
  "network": {"type": "single", "synapse_location": {"section": 0, "x": 0.5}},
  "record": [{"gid": 0}, {"gid": 2}],
  "run": {"progress_every_s": 0}
})";

std::vector<Spike> take_in_chunks(const NetworkSpec& n, double dt, std::int64_t steps,
                                  std::int64_t chunk) {
  SourceSpikes s(n, dt);
  std::vector<Spike> all;
  for (std::int64_t b = 0; b < steps; b += chunk) {
    const auto part = s.take(b, std::min(steps, b + chunk));
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

TEST(SpikeSources, RegularTrainsAreExactAndPoissonTrainsDependOnSeedAndGidOnly) {
  NetworkSpec n;
  n.cells = 10;
  SourceGroup regular;
  regular.name = "r";
  regular.count = 2;
  regular.start = 1.5;
  regular.interval = 2.5;
  regular.number = 3;
  SourceGroup poisson;
  poisson.name = "p";
  poisson.first = 2;
  poisson.count = 50;
  poisson.type = SourceGroup::Poisson;
  poisson.interval = 4;
  poisson.seed = 17;
  n.sources = {regular, poisson};
  n.validate();
  EXPECT_EQ(n.num_sources(), 52);
  EXPECT_TRUE(n.is_source(10) && n.is_source(61) && !n.is_source(9) && !n.is_source(62));
  const double dt = 0.025;
  const auto whole = take_in_chunks(n, dt, 4000, 4000);
  // Regular: gids 10 and 11 at steps 60, 160, 260 (1.5, 4, 6.5 ms), nothing more.
  std::vector<std::int64_t> steps10;
  for (const Spike& s : whole)
    if (s.gid == 10) steps10.push_back(s.step);
  EXPECT_EQ(steps10, (std::vector<std::int64_t>{60, 160, 260}));
  // Taken in epochs of any length: the same spikes.
  for (std::int64_t chunk : {1, 7, 40, 999}) EXPECT_EQ(take_in_chunks(n, dt, 4000, chunk), whole);
  // Poisson: the n-th spike from (seed, gid, n); mean interval 4 ms over 100 ms x 50 sources.
  std::int64_t count = 0;
  for (const Spike& s : whole) count += s.gid >= 12;
  EXPECT_NEAR(double(count), 50 * 100 / 4.0, 5 * std::sqrt(50 * 100 / 4.0));
  EXPECT_EQ(SourceSpikes::spike_time(poisson, 20, 3, 7.0),
            SourceSpikes::spike_time(poisson, 20, 3, 7.0));
  EXPECT_NE(SourceSpikes::spike_time(poisson, 20, 3, 7.0),
            SourceSpikes::spike_time(poisson, 21, 3, 7.0));
  NetworkSpec other = n;
  other.sources[1].seed = 18;
  EXPECT_NE(take_in_chunks(other, dt, 4000, 4000), whole);
  // More cells shift the gids, never a source's own train (it is keyed by its gid).
  NetworkSpec bigger = n;
  bigger.cells = 11;
  const auto shifted = take_in_chunks(bigger, dt, 4000, 4000);
  std::vector<std::int64_t> steps11;
  for (const Spike& s : shifted)
    if (s.gid == 11) steps11.push_back(s.step);
  EXPECT_EQ(steps11, steps10);
}

TEST(SpikeSources, BadGroupsAreNamed) {
  NetworkSpec n;
  SourceGroup g;
  g.name = "bg";
  g.interval = 0;
  n.sources = {g};
  try {
    n.validate();
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("source group 'bg': interval must be > 0"),
              std::string::npos)
        << e.what();
  }
}

TEST(TemplateBlocks, ConfigCellsGiveBlocksSynapsesAndConnections) {
  const SimulationConfig c = parse_simulation_config(kTwoTemplates, "two", "");
  const NetworkSpec& n = c.network;
  ASSERT_EQ(n.cells, 5);
  ASSERT_EQ(c.templates.size(), 3u);  // passive; active x 2 morphologies
  ASSERT_EQ(n.blocks.size(), 2u);
  EXPECT_EQ(n.template_of(0), 0);
  EXPECT_EQ(n.template_of(1), 0);
  EXPECT_EQ(n.template_of(2), 1);  // the active block's morphologies round-robin
  EXPECT_EQ(n.template_of(3), 2);
  EXPECT_EQ(n.template_of(4), 1);
  // Synapses: the clock's one everywhere, the noise's three on the active templates only,
  // with their own tau and e.
  EXPECT_EQ(c.templates[0].synapses.size(), 1u);
  ASSERT_EQ(c.templates[1].synapses.size(), 4u);
  EXPECT_EQ(c.templates[1].synapses[3].tau, 5);
  EXPECT_EQ(c.templates[1].synapses[3].e, -80);
  EXPECT_EQ(c.templates[1].synapses[0].tau, 2);  // network.tau
  ASSERT_EQ(n.num_sources(), 7);
  EXPECT_EQ(n.min_delay(), 1);
  EXPECT_TRUE(n.connected());
  const auto in0 = n.incoming(0), in2 = n.incoming(2);
  ASSERT_EQ(in0.size(), 1u);
  EXPECT_EQ(in0[0].source, 5);  // the clock: the first gid after the cells
  EXPECT_EQ(in0[0].delay, 1);
  ASSERT_EQ(in2.size(), 4u);
  for (int k = 1; k < 4; ++k) {
    EXPECT_GE(in2[k].source, 6);
    EXPECT_LE(in2[k].source, 11);
    EXPECT_EQ(in2[k].synapse, k);
    EXPECT_EQ(in2[k].weight, 0.0005);
  }
  // Fractions: cumulative rounding, every cell in a block.
  const std::string fractions = R"({"tstop": 1, "network": {"cells": 10},
    "cells": [{"name": "a", "fraction": 0.25, "morphology": "synthetic:ball-and-stick"},
              {"name": "b", "fraction": 0.25, "morphology": "synthetic:ball-and-stick"},
              {"name": "c", "fraction": 0.5, "morphology": "synthetic:ball-and-stick"}]})";
  const SimulationConfig f = parse_simulation_config(fractions, "f", "");
  ASSERT_EQ(f.network.blocks.size(), 3u);
  EXPECT_EQ(f.network.blocks[0].count + f.network.blocks[1].count, 5);
  EXPECT_EQ(f.network.blocks[2].count, 5);
}

TEST(TemplateBlocks, SourceDrivenRunIsTheSameOnEveryScheduleAndBackend) {
  const SimulationConfig c = parse_simulation_config(kTwoTemplates, "two", "");
  const SimulationResult r = run_simulation(c);
  std::vector<int> per_gid(12, 0);
  for (std::int64_t g : r.spike_gids) ++per_gid[g];
  EXPECT_EQ(per_gid[0] + per_gid[1], 0) << "the passive template never fires";
  for (int g = 2; g < 5; ++g) EXPECT_GE(per_gid[g], 2) << "gid " << g << " (hh) answers the clock";
  EXPECT_EQ(per_gid[5], 2);  // the clock's two spikes, at 5 and 25 ms
  // The passive cell's answer to the clock: a depolarisation that starts after the delay.
  const auto& v = r.traces[0];
  const int before = static_cast<int>(std::lround(6.0 / c.params.dt));
  const int after = static_cast<int>(std::lround(8.0 / c.params.dt));
  EXPECT_NEAR(v[before], -65, 1e-6);
  EXPECT_GT(v[after], -64);
  for (const char* schedule : {"cells", "tiles"}) {
    SimulationConfig other = c;
    other.run.host_schedule = parse_host_schedule(schedule);
    const SimulationResult h = run_simulation(other, Backend::Host);
    EXPECT_EQ(h.spike_gids, r.spike_gids) << schedule;
    EXPECT_EQ(h.spike_times, r.spike_times) << schedule;
  }
  SimulationConfig overlapped = c;
  overlapped.run.overlap = true;
  overlapped.dry_run_ranks = 0;
  EXPECT_EQ(run_simulation(overlapped).spike_times, r.spike_times);
}

TEST(TemplateBlocks, GivenTemplatesTakeSourcesThroughListedConnections) {
  const SimulationConfig base = parse_simulation_config(kTwoTemplates, "two", "");
  std::vector<CellTemplate> templates = {base.templates[1]};
  const std::string config = R"({"tstop": 30,
    "sources": [{"name": "s", "start": 2, "interval": 10, "number": 2}],
    "network": {"type": "explicit", "cells": 2, "connections": [[2, 1, 0, 0.1, 1]]},
    "run": {"progress_every_s": 0}})";
  const SimulationConfig c = parse_simulation_config(config, "given", "", templates);
  EXPECT_EQ(c.network.num_sources(), 1);
  const SimulationResult r = run_simulation(c);
  std::vector<std::int64_t> gids = r.spike_gids;
  EXPECT_EQ(gids, (std::vector<std::int64_t>{2, 1, 2, 1}));
  const std::string connect = R"({"tstop": 30,
    "sources": [{"name": "s", "connect": {"per_cell": 1}}],
    "network": {"type": "explicit", "cells": 2}})";
  try {
    parse_simulation_config(connect, "given", "", templates);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("sources[0].connect"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hinesbatch::test
