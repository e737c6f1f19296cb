// Generated (NMODL) mechanisms in the network simulation: the default catalogue's hh and
// pas (mechanisms/default, compiled by tools/nmodl) run by the cells and on-chip schedules
// (on a GPU, every shape of on-chip launch) reproduce the hand-written hh and pas on a real
// cell (same raster, voltages to rounding) on every enabled backend; templates that use
// them run on the schedule asked for, except lanes (then cells, and the metrics say why);
// the per-template layout resolves regions, parameters and distance functions.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "support/backends.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

// The built-in pas and hh of a template as the same mechanisms of the default catalogue.
CellTemplate as_generated(CellTemplate t) {
  for (const DensityMechanism& d : t.density) {
    GeneratedMechanism g;
    g.region = d.region;
    const auto set = [&](const char* name, double x) {
      MechanismParameter p;
      p.name = name;
      p.value.value = x;
      g.parameters.push_back(p);
    };
    if (d.kind == DensityMechanism::Pas) {
      g.name = "pas";
      set("g", d.pas.g);
      set("e", d.pas.e);
    } else {
      g.name = "hh";
      set("gnabar", d.hh.gnabar);
      set("gkbar", d.hh.gkbar);
      set("gl", d.hh.gl);
      set("el", d.hh.el);
    }
    t.generated.push_back(g);
  }
  t.density.clear();
  return t;
}

std::string real_cell_file() {
  for (const std::string& f : real_morphology_files())
    if (f.find("cnic_004") != std::string::npos) return f;
  return {};
}

// Six cnic_004 cells (a pyramidal cell: soma, basal and apical dendrites; 2,034
// compartments at d_lambda 0.1) in a random network, synapses on random dendrites, a
// current step into the soma of each (hh in the soma alone fires repeatedly at 0.2 nA; hh
// everywhere fires once at 0.25 nA).
std::string real_network_config(const std::string& file, bool hh_everywhere) {
  std::ostringstream j;
  j << R"({"dt": 0.025, "tstop": 60, "celsius": 16, "v_init": -65,
           "cell": {"morphology": ")"
    << file << R"(", "d_lambda": 0.1, "Ra": 100, "cm": 1, "mechanisms": )"
    << (hh_everywhere ? R"([{"name": "hh", "region": "all"}])"
                      : R"([{"name": "pas", "region": "dend", "g": 0.0001, "e": -65},
                           {"name": "hh", "region": "soma", "gnabar": 0.25}])")
    << R"(, "iclamp": [{"location": {"section": 0, "x": 0.5}, "del": 2, "dur": 50, "amp": )"
    << (hh_everywhere ? 0.25 : 0.2) << R"(}],
           "detector": {"location": {"section": 0, "x": 0.5}, "threshold": 0}},
     "network": {"type": "random", "cells": 6, "synapses_per_cell": 3, "weight": 0.05,
                 "delay": [1.0, 2.0], "tau": 2.0, "e": 0.0, "synapse_location": "random_dendrites",
                 "seed": 5},
     "record": [{"gid": 0, "location": {"section": 0, "x": 0.5}},
                {"gid": 3, "location": {"section": 5, "x": 0.5}},
                {"gid": 5, "location": {"section": 40, "x": 1.0}}]})";
  return j.str();
}

struct Outcome {
  std::vector<Spike> spikes;
  std::vector<std::vector<double>> traces;
  RunMetrics metrics;
};

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

double max_difference(const Outcome& a, const Outcome& b) {
  double worst = 0;
  EXPECT_EQ(a.traces.size(), b.traces.size());
  for (std::size_t r = 0; r < std::min(a.traces.size(), b.traces.size()); ++r)
    for (std::size_t k = 0; k < a.traces[r].size(); ++k)
      worst = std::max(worst, std::fabs(a.traces[r][k] - b.traces[r][k]));
  return worst;
}

TEST(GeneratedMechanisms, DefaultHHAndPasReproduceTheHandWrittenOnesOnARealCell) {
  const std::string file = real_cell_file();
  if (file.empty()) GTEST_SKIP() << "cnic_004.CNG.swc not in " << morphology_dir();
  for (const bool everywhere : {false, true}) {
    SCOPED_TRACE(everywhere ? "hh everywhere" : "hh soma, pas dendrites");
    const SimulationConfig c =
        parse_simulation_config(real_network_config(file, everywhere), "generated.json", "");
    std::vector<CellTemplate> generated;
    for (const CellTemplate& t : c.templates) generated.push_back(as_generated(t));
    auto on = [&](auto exec) {
      using Exec = decltype(exec);
      SCOPED_TRACE(Exec::name());
      const Outcome hand = run<Exec>(c, c.templates);
      // The cells schedule, the on-chip one as it plans itself, and on a GPU every kind of
      // launch (a warp per cell; teams of several warps, whose lanes share a mechanism's
      // nodes and wait for each other between mechanisms that share a node).
      struct Shape {
        const char* name;
        OnChipSteps on_chip;
        OnChipForce force;
      };
      std::vector<Shape> shapes{{"cells", OnChipSteps::Off, {}}, {"on_chip", OnChipSteps::On, {}}};
      if (!is_host_backend<Exec>()) {
        shapes.push_back({"on_chip warp", OnChipSteps::On, {OnChipLaunch::kWarpPerCell, 32}});
        for (int lanes : {64, 256})
          shapes.push_back({"on_chip team", OnChipSteps::On, {OnChipLaunch::kTeamPerCell, lanes}});
        shapes.push_back(
            {"on_chip in memory", OnChipSteps::On, {OnChipLaunch::kTeamInMemory, 128}});
      }
      for (const Shape& shape : shapes) {
        SCOPED_TRACE(std::string(shape.name) + " " + std::to_string(shape.force.lanes));
        const Outcome gen =
            run<Exec>(c, generated, HostSchedule::Cells, shape.on_chip, shape.force);
        EXPECT_EQ(gen.metrics.schedule, shape.on_chip == OnChipSteps::On ? "on_chip" : "cells");
        EXPECT_NE(gen.metrics.schedule_detail.find("generated mechanisms"), std::string::npos)
            << gen.metrics.schedule_detail;
        // Every cell fires (twice with hh in the soma), and the synapses carry events.
        EXPECT_GE(hand.spikes.size(), everywhere ? 6u : 12u);
        EXPECT_GT(gen.metrics.events_delivered, 0);
        EXPECT_EQ(gen.spikes, hand.spikes);
        const double worst = max_difference(gen, hand);
        // cnexp written as NMODL's SymPy writes it (inf - (inf - x) exp(-dt/tau)) and the
        // conductances in S/cm2 times area; the on-chip schedule solves for v, not dv:
        // rounding, amplified by the spikes.
        EXPECT_LT(worst, 1e-7) << "max |dv| " << worst << " mV";
        std::printf("[ generated ] %s, %s, %s: %zu spikes, max |dv| %.3g mV\n", Exec::name(),
                    everywhere ? "hh everywhere" : "hh soma, pas", shape.name, gen.spikes.size(),
                    worst);
      }
    };
    std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
  }
}

TEST(GeneratedMechanisms, TemplatesWithThemRunOnTheScheduleAskedForButLanes) {
  const SimulationConfig c = parse_simulation_config(
      R"({"dt": 0.025, "tstop": 10,
          "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 5,
                   "mechanisms": [{"name": "hh", "region": "soma"},
                                  {"name": "pas", "region": "dend", "g": 0.0002, "e": -65}],
                   "iclamp": [{"location": {"section": 0, "x": 0.5}, "del": 1, "dur": 5, "amp": 0.4}]},
          "network": {"type": "single"},
          "record": [{"gid": 0, "location": {"section": 0, "x": 0.5}}]})",
      "schedules.json", "");
  std::vector<CellTemplate> generated{as_generated(c.templates[0])};
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    const Outcome reference = run<Exec>(c, c.templates);
    for (const HostSchedule host : {HostSchedule::Lanes, HostSchedule::Cells})
      for (const OnChipSteps chip : {OnChipSteps::On, OnChipSteps::Off, OnChipSteps::Auto}) {
        const std::string asked = run<Exec>(c, c.templates, host, chip).metrics.schedule;
        const Outcome r = run<Exec>(c, generated, host, chip);
        EXPECT_EQ(r.metrics.schedule, asked == "lanes" ? "cells" : asked);
        // The metrics say why where lanes was asked for.
        EXPECT_EQ(r.metrics.schedule_detail.find("instead of lanes") != std::string::npos,
                  asked == "lanes")
            << asked << ": " << r.metrics.schedule_detail;
        EXPECT_EQ(r.spikes, reference.spikes);
        EXPECT_LT(max_difference(r, reference), 1e-9);
      }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

TEST(GeneratedMechanisms, LayoutResolvesRegionsOverridesAndDistances) {
  // Ball and stick: soma (L = diam = 20 um) and a 200 um dendrite of nseg 5.
  SectionOptions o;
  o.nseg_per_section = 5;
  CellTemplate t =
      make_cell_template(synthetic_sections("ball-and-stick", o), 100, 1, {}, {}, {}, {});
  ASSERT_EQ(t.morphology.size(), 2);
  GeneratedMechanism all{"pas", Region::All, {{"g", {}}, {"e", {}}}};
  all.parameters[0].value.value = 1e-4;
  all.parameters[1].value.value = -70;
  GeneratedMechanism dend{"pas", Region::Dend, {{"g", {}}}};
  dend.parameters[0].value.kind = ParameterValue::Exp;
  dend.parameters[0].value.a = 1;
  dend.parameters[0].value.b = 0.01;
  dend.parameters[0].value.c = 2;
  dend.parameters[0].value.scale = 1e-5;
  GeneratedMechanism hh{"hh", Region::Soma, {}};
  t.generated = {all, dend, hh};
  SimulationParameters p;
  p.ena = 55;
  const MechanismCatalogue& cat = default_catalogue();
  // pas, a leak, is folded into the template's passive terms: hh alone is laid out.
  const impl::GeneratedTemplate g = impl::generated_template(t, cat, p);
  ASSERT_EQ(g.blocks.size(), 1u);
  const CatalogueMechanism& pas = cat.mechanisms[cat.index_of("pas")];
  EXPECT_TRUE(static_cast<bool>(pas.leak));
  EXPECT_EQ(cat.mechanisms[g.blocks[0].mech].name, "hh");
  const NeuronCompartments& comp = t.compartments;
  const int soma = comp.first_centre[0];
  const int first_dend = comp.first_centre[1];
  // pas's values per node: the entries in order, distance functions resolved.
  const impl::NodeGeometry geo = impl::node_geometry(t);
  const impl::MechanismValues mv = impl::mechanism_values(t, pas, geo.distance_um);
  const int ng = pas.variable_index("g"), ne = pas.variable_index("e");
  const std::size_t nv = pas.variables.size();
  const impl::LeakOfNodes leak = impl::folded_leak(t, pas, p, geo.distance_um);
  ASSERT_FALSE(leak.empty());
  impl::TemplateNodes nodes = impl::template_nodes(t, p.dt);
  impl::fold_generated_leaks(t, cat, p, nodes);
  int inserted = 0;
  for (int node = 0; node < comp.size(); ++node) {
    if (!mv.inserted[node]) continue;
    ++inserted;
    const double* k = &mv.values[node * nv];
    EXPECT_EQ(k[ne], -70);
    double g_expected = 1e-4;
    if (node != soma) {
      // Path distance from the soma's middle: to where the dendrite hangs, then along it.
      const Section& d = t.morphology.sections[1];
      const int seg = node - first_dend;
      const double x = std::fabs(d.parent_x - 0.5) * t.morphology.sections[0].length() +
                       (seg + 0.5) / 5 * d.length();
      g_expected = 1e-5 * (1 + 2 * std::exp(0.01 * x));
    }
    EXPECT_NEAR(k[ng], g_expected, 1e-18) << "node " << node;
    // Folded: G and E of the leak, the cable's passive terms in uS and mV.
    EXPECT_EQ(leak.g_S_cm2[node], k[ng]);
    EXPECT_NEAR(leak.e_mV[node], -70, 1e-12);
    EXPECT_TRUE(nodes.mechs[node] & kPasBit);
    EXPECT_NEAR(nodes.pas_g[node], membrane_uS(comp, node, k[ng]), 1e-15 * nodes.pas_g[node]);
    EXPECT_NEAR(nodes.pas_e[node], -70, 1e-12);
  }
  EXPECT_EQ(inserted, 1 + 5);
  // hh at the soma only; na's reversal potential the simulation's ena.
  EXPECT_EQ(g.blocks[0].node_end - g.blocks[0].node_begin, 1);
  const int na = cat.ion_index("na");
  ASSERT_GE(na, 0);
  EXPECT_EQ(g.ion_init[na * impl::kIonInitValues + 2], 55);
  EXPECT_TRUE(g.ion_style[soma * g.num_ions + na] & impl::kIonUsed);
  EXPECT_FALSE(g.ion_style[first_dend * g.num_ions + na] & impl::kIonUsed);
  EXPECT_FALSE(g.ion_style[soma * g.num_ions + na] & impl::kIonEFromConc);
  // Names the catalogue lacks are InputErrors naming them.
  t.generated = {GeneratedMechanism{"kdr", Region::All, {}}};
  EXPECT_THROW(impl::generated_template(t, cat, p), InputError);
  t.generated = {GeneratedMechanism{"hh", Region::All, {{"gnabr", {}}}}};
  try {
    impl::generated_template(t, cat, p);
    ADD_FAILURE() << "no error for a parameter hh lacks";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'gnabr' is not a parameter of hh"), std::string::npos)
        << e.what();
  }
  t.generated = {GeneratedMechanism{"ExpSyn", Region::All, {}}};
  EXPECT_THROW(impl::generated_template(t, cat, p), InputError);
}

}  // namespace
}  // namespace hinesbatch::test
