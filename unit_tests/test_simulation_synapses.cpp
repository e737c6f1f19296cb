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
// of cells 0 and 7, then `records` (more entries of the list, "" for none).
std::string ring_config(const std::string& network, const std::string& source,
                        const std::string& records = "") {
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
               {"gid": 7, "location": {"section": 1, "x": 0.9}})" +
         (records.empty() ? "" : ", " + records) + R"(],
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

// Records of a synapse's variables: Exp2Syn's states A and B and tau2 (a parameter, in its
// constants) at the ring synapse of cell 0, B and tau1 (a parameter its INITIAL may adjust,
// in its rows) at a Poisson group's synapse of cell 7, on every schedule. Between events A
// and B decay by exp(-dt/tau) each step, and g = B - A >= 0.
TEST(PointProcessSynapses, RecordsOfExp2SynVariablesOnEverySchedule) {
  const std::string records =
      R"({"gid": 0, "synapse": 0, "variable": "A"}, {"gid": 0, "synapse": 0, "variable": "B"},
         {"gid": 0, "synapse": 0, "variable": "tau2"},
         {"gid": 7, "synapse": 5, "variable": "B"}, {"gid": 7, "synapse": 5, "variable": "tau1"})";
  const SimulationConfig c = parse_simulation_config(
      ring_config(
          R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": 0.5, "tau2": 5}})",
          R"("synapse": {"name": "Exp2Syn", "parameters": {"tau1": 1, "tau2": 3, "e": -80}})",
          records),
      "exp2syn_records.json", "");
  ASSERT_EQ(c.records.size(), 4u + 5u);
  EXPECT_EQ(c.records[4].synapse, 0);
  EXPECT_EQ(c.records[4].variable, "A");
  // Synapse 5 is one of the Poisson group's (1 ring + 3 extra + 1 clock + 3 Poisson).
  const Location syn5 = c.templates[0].synapses[5].where;
  EXPECT_EQ(c.records[7].where.section, syn5.section);
  EXPECT_EQ(c.records[7].where.x, syn5.x);
  const double decay1 = std::exp(-0.025 / 0.5), decay2 = std::exp(-0.025 / 5.0);
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    const Outcome cells = run<Exec>(c);
    for (const Shape& shape : shapes<Exec>()) {
      SCOPED_TRACE(shape.name);
      const Outcome r = run<Exec>(c, shape.host, shape.on_chip, shape.force);
      EXPECT_EQ(r.spikes, cells.spikes);
      double a_max = 0, b7_max = 0, worst_ratio = 0, worst_from_cells = 0;
      int decays = 0;
      for (std::size_t k = 0; k < r.traces.size(); ++k) {
        const std::vector<double>& x = r.traces[k];
        const double a = x[4], b = x[5];
        EXPECT_GE(a, 0.0) << k;
        EXPECT_GE(b - a, -1e-15) << k;  // g = B - A
        EXPECT_EQ(x[6], 5.0) << k;      // tau2, as set
        EXPECT_EQ(x[8], 1.0) << k;      // tau1 of the Poisson group's synapses
        a_max = std::max(a_max, a);
        b7_max = std::max(b7_max, x[7]);
        for (std::size_t j = 4; j < x.size(); ++j)
          worst_from_cells =
              std::max(worst_from_cells, std::fabs(x[j] - cells.traces[k][j]) / (1e-3 + x[j]));
        if (k == 0) continue;
        // A step without an event on the synapse: both states decay by exactly their factor.
        const std::vector<double>& p = r.traces[k - 1];
        if (p[4] > 0 && a < p[4]) {
          ++decays;
          worst_ratio = std::max(worst_ratio, std::fabs(a / p[4] - decay1));
          worst_ratio = std::max(worst_ratio, std::fabs(b / p[5] - decay2));
        }
      }
      EXPECT_GT(a_max, 0.0) << "events reach synapse 0 of gid 0";
      EXPECT_GT(b7_max, 0.0) << "the Poisson group's events reach synapse 5 of gid 7";
      EXPECT_GT(decays, 100);
      EXPECT_LT(worst_ratio, 1e-12);
      EXPECT_LT(worst_from_cells, shape.on_chip == OnChipSteps::On ? 1e-9 : 1e-15);
      std::printf(
          "[ synapses ] %s, %s: Exp2Syn records, %d decays exact to %.3g, %.3g from "
          "cells\n",
          Exec::name(), shape.name, decays, worst_ratio, worst_from_cells);
    }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

TEST(PointProcessSynapses, ConfigRefusesSynapseRecordsItCannotKeep) {
  const std::string exp2syn = R"("synapse": {"name": "Exp2Syn"})";
  struct Case {
    std::string network, record, key, what;
  };
  const std::vector<Case> cases{
      {exp2syn, R"({"gid": 0, "synapse": 8, "variable": "A"})", "record[].synapse",
       "is not a synapse of gid 0 (it has 8)"},
      {exp2syn, R"({"gid": 0, "synapse": -1, "variable": "A"})", "record[].synapse",
       "must be an integer in [0,"},
      {exp2syn, R"({"gid": 0, "synapse": 0, "variable": "C"})", "record[].variable",
       "Exp2Syn has no RANGE variable 'C' (recordable at a synapse: tau1, tau2, e, A, B)"},
      {exp2syn, R"({"gid": 0, "synapse": 0, "variable": "factor"})", "record[].variable",
       "Exp2Syn has no RANGE variable 'factor'"},
      {exp2syn, R"({"gid": 0, "synapse": 0, "variable": "i"})", "record[].variable",
       "only outputs"},
      {exp2syn, R"({"gid": 0, "synapse": 0, "variable": "m_hh"})", "record[].variable",
       "has no RANGE variable 'm_hh'"},
      {exp2syn, R"({"gid": 0, "synapse": 0})", "record[].variable", "is required"},
      {exp2syn, R"({"gid": 0, "synapse": 0, "variable": "A", "location": {"section": 0}})",
       "record[].location", "is not given with record[].synapse"},
      {R"("synapse": "ExpSyn")", R"({"gid": 0, "synapse": 0, "variable": "hb_invariant0"})",
       "record[].variable", "ExpSyn has no RANGE variable 'hb_invariant0'"},
  };
  for (const Case& k : cases) {
    SCOPED_TRACE(k.record);
    try {
      parse_simulation_config(ring_config(k.network, "", k.record), "bad.json", "");
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("'" + k.key + "'"), std::string::npos) << m;
      EXPECT_NE(m.find(k.what), std::string::npos) << m;
      EXPECT_NE(m.find("bad.json"), std::string::npos) << m;
    }
  }
  // The network's tau and e run the catalogue's ExpSyn, whose g is recorded; with the
  // hand-written mechanisms, the built-in ExpSyn records nothing.
  const std::string g = R"({"gid": 0, "synapse": 0, "variable": "g"})";
  EXPECT_EQ(parse_simulation_config(ring_config(R"("tau": 2)", "", g), "ok.json", "")
                .records.back()
                .variable,
            "g");
  std::string builtin = ring_config(R"("tau": 2)", "", g);
  builtin.replace(builtin.find(R"("run": {)"), 8, R"("run": {"mechanisms": "builtin", )");
  try {
    parse_simulation_config(builtin, "builtin.json", "");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is the built-in ExpSyn"), std::string::npos) << e.what();
  }
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
