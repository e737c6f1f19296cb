// Synapses that run a point process of the catalogue (network.synapse, a source group's
// connect.synapse): the default catalogue's ExpSyn (compiled from NMODL by tools/nmodl)
// reproduces the built-in ExpSyn (same raster, same voltages) on every schedule, several
// events of one step on one synapse included;
// Exp2Syn gives the same raster and voltages on the cells, tiles and on-chip schedules;
// its synapses change the run (they are really used); the config refuses what cannot be a
// synapse, naming the key.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "support/backends.hpp"
#include "support/config_runs.hpp"

namespace hinesbatch::test {
namespace {

// Two rings of 6 cells (hh soma, pas dendrite), kicked at 1 ms, 3 weight-zero synapses
// more per cell, and two source groups: a regular one onto every cell and a Poisson one
// of 4 sources, 3 synapses per cell drawn with replacement (so several events reach one
// synapse in one step). `network` and `source` are extra keys of the network section and
// of the Poisson group's connect ("" for none). Recorded: the soma and the dendrite's end
// of cells 0 and 7.
std::string ring_config(const std::string& network, const std::string& source) {
  return R"({"dt": 0.025, "tstop": 40, "celsius": 6.3,
    "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 7, "Ra": 100,
             "mechanisms": [{"name": "hh", "region": "soma", "gnabar": 0.25},
                            {"name": "pas", "region": "dend", "g": 0.0002, "e": -65}],
             "detector": {"location": {"section": 0, "x": 0.5}, "threshold": 0}},
    "network": {"type": "ring", "cells": 12, "ring_size": 6, "weight": 0.02,
                "delay": [1.0, 2.0], "extra_synapses": 3, "seed": 5,
                "synapse_location": "random_dendrites",
                "kick": {"time": 1.0, "weight": 0.2})" +
         (network.empty() ? "" : ", " + network) + R"(},
    "sources": [{"name": "clock", "start": 5, "interval": 9, "number": 3,
                 "connect": {"per_cell": 1, "weight": 0.01, "delay": 1}},
                {"name": "noise", "count": 4, "type": "poisson", "rate": 300, "seed": 4,
                 "connect": {"per_cell": 3, "weight": 0.004, "delay": 2)" +
         (source.empty() ? "" : ", " + source) + R"(}}],
    "record": [{"gid": 0, "location": {"section": 0, "x": 0.5}},
               {"gid": 0, "location": {"section": 1, "x": 1.0}},
               {"gid": 7, "location": {"section": 0, "x": 0.5}},
               {"gid": 7, "location": {"section": 1, "x": 0.9}}],
    "run": {"progress_every_s": 0}})";
}

// The schedules a backend runs: cells, on-chip (as it plans itself), lanes on a host,
// and on a GPU every kind of on-chip launch.
struct Shape {
  const char* name;
  OnChipSteps on_chip;
  OnChipForce force;
  HostSchedule host = HostSchedule::Cells;
};
template <class Exec>
std::vector<Shape> shapes() {
  std::vector<Shape> s{{"cells", OnChipSteps::Off, {}}, {"on_chip", OnChipSteps::On, {}}};
  if (is_host_backend<Exec>()) s.push_back({"tiles", OnChipSteps::Off, {}, HostSchedule::Tiles});
  if (!is_host_backend<Exec>()) {
    s.push_back({"on_chip warp", OnChipSteps::On, {OnChipLaunch::kWarpPerCell, 32}});
    s.push_back({"on_chip team", OnChipSteps::On, {OnChipLaunch::kTeamPerCell, 64}});
    s.push_back({"on_chip in memory", OnChipSteps::On, {OnChipLaunch::kTeamInMemory, 128}});
  }
  return s;
}

const char* schedule_of(const Shape& s) {
  return s.on_chip == OnChipSteps::On    ? "on_chip"
         : s.host == HostSchedule::Tiles ? "tiles"
                                         : "cells";
}

TEST(PointProcessSynapses, GeneratedExpSynReproducesTheBuiltInOne) {
  const SimulationConfig builtin = parse_simulation_config(
      ring_config(R"("tau": 2, "e": 0)", R"("tau": 5, "e": -80)"), "builtin.json", "");
  const SimulationConfig generated = parse_simulation_config(
      ring_config(R"("synapse": {"name": "ExpSyn", "parameters": {"tau": 2, "e": 0}})",
                  R"("synapse": {"name": "ExpSyn", "parameters": {"tau": 5, "e": -80}})"),
      "generated.json", "");
  ASSERT_EQ(generated.templates[0].synapses.size(), 1u + 3u + 1u + 3u);
  for (const ExpSynSpec& s : generated.templates[0].synapses) EXPECT_EQ(s.mechanism.name, "ExpSyn");
  for (const ExpSynSpec& s : builtin.templates[0].synapses) EXPECT_TRUE(s.mechanism.builtin());
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    for (const Shape& shape : shapes<Exec>()) {
      SCOPED_TRACE(shape.name);
      // The built-in ExpSyn on the same schedule: every cell fires, the sources' events
      // arrive.
      const Outcome hand = run<Exec>(builtin, shape.host, shape.on_chip, shape.force);
      EXPECT_GE(hand.spikes.size(), 12u);
      EXPECT_GT(hand.metrics.events_delivered, 100);
      const Outcome gen = run<Exec>(generated, shape.host, shape.on_chip, shape.force);
      EXPECT_EQ(gen.metrics.schedule, schedule_of(shape));
      EXPECT_NE(gen.metrics.schedule_detail.find("synapses' point processes"), std::string::npos)
          << gen.metrics.schedule_detail;
      EXPECT_EQ(gen.metrics.events_delivered, hand.metrics.events_delivered);
      EXPECT_EQ(gen.spikes, hand.spikes);
      const double worst = max_difference(gen, hand);
      // The same arithmetic in the same order (g (v - e), g exp(-dt/tau), g + w).
      EXPECT_LT(worst, 1e-12) << "max |dv| " << worst << " mV";
      std::printf("[ synapses ] %s, %s: generated ExpSyn, %zu spikes, max |dv| %.3g mV\n",
                  Exec::name(), shape.name, gen.spikes.size(), worst);
    }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

TEST(PointProcessSynapses, Exp2SynGivesTheSameRunOnEverySchedule) {
  const SimulationConfig c = parse_simulation_config(
      ring_config(
          R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": 5}})",
          R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": 1, "tau2": 3, "e": -80}})"),
      "exp2syn.json", "");
  // A source group without a synapse of its own takes the network's.
  const SimulationConfig inherit = parse_simulation_config(
      ring_config(R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": 5}})", ""),
      "inherit.json", "");
  for (const ExpSynSpec& s : inherit.templates[0].synapses) EXPECT_EQ(s.mechanism.name, "Exp2Syn");
  // The built-in ExpSyn with the same decay: Exp2Syn's rise makes another run.
  const SimulationConfig expsyn = parse_simulation_config(
      ring_config(R"("tau": 5, "e": 0)", R"("tau": 3, "e": -80)"), "expsyn.json", "");
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    const Outcome cells = run<Exec>(c);
    EXPECT_GE(cells.spikes.size(), 12u);
    EXPECT_GT(max_difference(cells, run<Exec>(expsyn)), 1.0);
    for (const Shape& shape : shapes<Exec>()) {
      SCOPED_TRACE(shape.name);
      const Outcome r = run<Exec>(c, shape.host, shape.on_chip, shape.force);
      EXPECT_EQ(r.metrics.schedule, schedule_of(shape));
      EXPECT_EQ(r.spikes, cells.spikes);
      const double worst = max_difference(r, cells);
      // Lanes: the cells schedule's arithmetic per lane. On-chip: the system for v, not dv
      // (GeneratedMechanisms' tests): rounding, amplified by the spikes.
      EXPECT_LT(worst, shape.on_chip == OnChipSteps::On ? 1e-8 : 1e-12)
          << "max |dv| " << worst << " mV";
      std::printf("[ synapses ] %s, %s: Exp2Syn, %zu spikes, max |dv| %.3g mV from cells\n",
                  Exec::name(), shape.name, r.spikes.size(), worst);
    }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

// Several events reach one synapse in one step (weights whose sum depends on the order):
// an explicit network of 3 cells, events listed at equal times, a connection on top.
std::string events_config(const std::string& synapse) {
  return R"({"dt": 0.025, "tstop": 30,
    "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 5, "Ra": 100,
             "mechanisms": [{"name": "hh", "region": "soma", "gnabar": 0.25},
                            {"name": "pas", "region": "dend", "g": 0.0002, "e": -65}],
             "detector": {"location": {"section": 0, "x": 0.5}, "threshold": 0}},
    "network": {"type": "explicit", "cells": 3, "synapse_location": {"section": 1, "x": 0.5},
                "connections": [[0, 1, 1, 0.03, 1.5], [0, 2, 0, 0.02, 1.5], [0, 2, 0, 0.01, 1.5]],
                "events": [[0, 0, 1.0, 0.1], [0, 0, 1.0, 0.2], [0, 0, 1.0, 0.3], [0, 1, 1.0, 0.05],
                           [1, 0, 1.0, 0.07], [1, 0, 1.0, 1e-17], [2, 1, 4.0, 0.004],
                           [2, 1, 4.0, 0.002], [0, 0, 12.0, 0.3], [0, 0, 12.0, 0.1]],
                )" +
         synapse + R"(},
    "record": [{"gid": 0, "location": {"section": 1, "x": 0.5}},
               {"gid": 1, "location": {"section": 0, "x": 0.5}},
               {"gid": 2, "location": {"section": 1, "x": 0.5}}],
    "run": {"progress_every_s": 0}})";
}

TEST(PointProcessSynapses, EventsOfOneStepReachASynapseInTheBuiltInsOrder) {
  const SimulationConfig builtin =
      parse_simulation_config(events_config(R"("tau": 2, "e": 0)"), "builtin.json", "");
  const SimulationConfig expsyn = parse_simulation_config(
      events_config(R"("synapse": {"name": "ExpSyn", "parameters": {"tau": 2}})"), "expsyn.json",
      "");
  const SimulationConfig exp2syn = parse_simulation_config(
      events_config(R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": 0.3, "tau2": 3}})"),
      "exp2syn.json", "");
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    const Outcome cells2 = run<Exec>(exp2syn);
    for (const Shape& shape : shapes<Exec>()) {
      SCOPED_TRACE(shape.name);
      const Outcome hand = run<Exec>(builtin, shape.host, shape.on_chip, shape.force);
      const Outcome gen = run<Exec>(expsyn, shape.host, shape.on_chip, shape.force);
      EXPECT_GE(hand.spikes.size(), 3u);
      EXPECT_EQ(gen.metrics.events_delivered, hand.metrics.events_delivered);
      EXPECT_EQ(gen.spikes, hand.spikes);
      // The same arithmetic in the same order: equal on the host; on a GPU nvcc contracts
      // multiply-adds differently in the two code paths (7e-15 mV on an H100).
      EXPECT_LE(max_difference(gen, hand), is_host_backend<Exec>() ? 0.0 : 1e-12);
      const Outcome two = run<Exec>(exp2syn, shape.host, shape.on_chip, shape.force);
      EXPECT_EQ(two.spikes, cells2.spikes);
      EXPECT_LT(max_difference(two, cells2), shape.on_chip == OnChipSteps::On ? 1e-8 : 1e-12);
    }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

TEST(PointProcessSynapses, ConfigRefusesWhatCannotBeASynapse) {
  struct Case {
    std::string network, source, key, what;
  };
  const std::vector<Case> cases{
      {R"("synapse": "NoSuchSyn")", "", "network.synapse", "unknown point process"},
      {R"("synapse": {"name": "hh"})", "", "network.synapse.name", "is a density mechanism"},
      {R"("synapse": {"name": "IClamp"})", "", "network.synapse.name", "has no NET_RECEIVE"},
      {R"("synapse": {"name": "Exp2Syn", "parameters": {"tau3": 1}})", "",
       "network.synapse.parameters.tau3", "unknown parameter of Exp2Syn"},
      {R"("synapse": {"name": "Exp2Syn", "parameters": {"A": 1}})", "",
       "network.synapse.parameters.A", "not a parameter"},
      {R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": "x"}})", "",
       "network.synapse.parameters.tau1", "must be a number"},
      {R"("synapse": {"name": "Exp2Syn", "weight": 1})", "", "network.synapse.weight",
       "unknown key"},
      {R"("synapse": {"parameters": {}})", "", "network.synapse.name", "is required"},
      {R"("synapse": 3)", "", "network.synapse", "must be a point process's name"},
      {R"("tau": 3, "synapse": "ExpSyn")", "", "network.tau", "not both"},
      {"", R"("synapse": "Exp3Syn")", "sources[1].connect.synapse", "unknown point process"},
      {"", R"("e": 0, "synapse": "ExpSyn")", "sources[1].connect.e", "not both"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.network + " | " + k.source);
    try {
      parse_simulation_config(ring_config(k.network, k.source), "bad.json", "");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("'" + k.key + "'"), std::string::npos) << m;
      EXPECT_NE(m.find(k.what), std::string::npos) << m;
      EXPECT_NE(m.find("bad.json"), std::string::npos) << m;
    }
  }
}

}  // namespace
}  // namespace hinesbatch::test
