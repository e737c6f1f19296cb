// Generated (NMODL) mechanisms in the network simulation: the default catalogue's hh and
// pas (mechanisms/default, compiled by tools/nmodl) run by the cells, tiles (host) and
// on-chip schedules (on a GPU, every shape of on-chip launch) reproduce the hand-written hh
// and pas on a real cell (same raster, voltages to rounding) on every enabled backend;
// templates that use them run on the schedule asked for, lanes included; the tiles schedule
// gives the cells schedule's raster and voltages with several templates, tiles that mix
// templates and partial tiles; the per-template layout resolves regions, parameters and
// distance functions.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/catalogue_iclamp.hpp"
#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/mechanism_entry.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "hinesbatch/simulation/nmodl/defaults/defaults.hpp"
#include "support/backends.hpp"
#include "support/config_runs.hpp"
#include "support/dense_network.hpp"
#include "support/mixed_trees.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

// The built-in pas and hh of a template as the same mechanisms of the default catalogue;
// its synapses stay the built-in ExpSyn.
CellTemplate as_generated(CellTemplate t) {
  std::vector<ExpSynSpec> synapses = t.synapses;
  std::vector<CellTemplate> one{std::move(t)};
  impl::builtins_from_catalogue(one, default_catalogue());
  one[0].synapses = std::move(synapses);
  return std::move(one[0]);
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

// The config's IClamps run the default catalogue's iclamp.mod (the step's generated hooks
// pick it by name and shape); its electrode current is the hand-written one's to the last
// bit, at the edges del and del + dur too, so the two paths give the same voltages.
static_assert(std::is_same_v<impl::StimulusIClamp<nmodl::defaults::defaults::mechanisms>,
                             nmodl::defaults::IClamp>);
static_assert(!impl::is_stimulus_iclamp<nmodl::defaults::ExpSyn>());
static_assert(!impl::is_stimulus_iclamp<nmodl::defaults::pas>());
static_assert(std::is_void_v<impl::StimulusIClamp<std::tuple<nmodl::defaults::hh>>>);

TEST(GeneratedMechanisms, CatalogueIClampGivesTheHandWrittenCurrentToTheBit) {
  using Gen = impl::GeneratedCells<Kokkos::DefaultHostExecutionSpace, nmodl::defaults::defaults>;
  static_assert(Gen::kStimuliFromCatalogue);
  Gen gen;
  gen.g.dt = 0.025;
  gen.g.celsius = 6.3;
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-2, 2);
  int on = 0;
  for (int k = 0; k < 4000; ++k) {
    const double del = std::fabs(u(rng)) * 5, dur = std::fabs(u(rng)) * 5, amp = u(rng);
    // times on, off and exactly at both edges
    const double t = k % 4 == 0 ? del : k % 4 == 1 ? del + dur : std::fabs(u(rng)) * 6;
    const double v = u(rng) * 40, rhs0 = u(rng), d0 = 1 + std::fabs(u(rng));
    double i = -1, gm = -1;
    gen.stimulus_current(del, dur, amp, t, v, i, gm);
    double rhs_hand = rhs0;
    mechanisms::iclamp_current(t, del, dur, amp, rhs_hand);
    on += rhs_hand != rhs0;
    // the cells and tiles schedules' use, and the on-chip one's (system for the new v)
    EXPECT_EQ(rhs0 - i, rhs_hand) << "t " << t << " del " << del << " dur " << dur;
    EXPECT_EQ(rhs0 + (gm * v - i), rhs_hand);
    EXPECT_EQ(d0 + gm, d0);
    // Without generated mechanisms every schedule applies the hand-written one as (i, g)
    // the same way: the same bits again.
    double i_hand = -1, g_hand = -1;
    impl::NoGenerated{}.stimulus_current(del, dur, amp, t, v, i_hand, g_hand);
    EXPECT_EQ(rhs0 - i_hand, rhs_hand);
    EXPECT_EQ(rhs0 + (g_hand * v - i_hand), rhs_hand);
    EXPECT_EQ(d0 + g_hand, d0);
  }
  EXPECT_GT(on, 1000);  // both branches taken
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
      // The cells schedule, the on-chip one as it plans itself, on a host the lanes one,
      // and on a GPU every kind of launch (a warp per cell; teams of several warps, whose
      // lanes share a mechanism's nodes and wait for each other between mechanisms that
      // share a node).
      struct Shape {
        const char* name;
        OnChipSteps on_chip;
        OnChipForce force;
        HostSchedule host = HostSchedule::Cells;
      };
      std::vector<Shape> shapes{{"cells", OnChipSteps::Off, {}}, {"on_chip", OnChipSteps::On, {}}};
      if (is_host_backend<Exec>())
        shapes.push_back({"tiles", OnChipSteps::Off, {}, HostSchedule::Tiles});
      if (!is_host_backend<Exec>()) {
        shapes.push_back({"on_chip warp", OnChipSteps::On, {OnChipLaunch::kWarpPerCell, 32}});
        for (int lanes : {64, 256})
          shapes.push_back({"on_chip team", OnChipSteps::On, {OnChipLaunch::kTeamPerCell, lanes}});
        shapes.push_back(
            {"on_chip in memory", OnChipSteps::On, {OnChipLaunch::kTeamInMemory, 128}});
      }
      for (const Shape& shape : shapes) {
        SCOPED_TRACE(std::string(shape.name) + " " + std::to_string(shape.force.lanes));
        const Outcome gen = run<Exec>(c, generated, shape.host, shape.on_chip, shape.force);
        EXPECT_EQ(gen.metrics.schedule, shape.on_chip == OnChipSteps::On    ? "on_chip"
                                        : shape.host == HostSchedule::Tiles ? "tiles"
                                                                            : "cells");
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

TEST(GeneratedMechanisms, TemplatesWithThemRunOnTheScheduleAskedFor) {
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
    for (const HostSchedule host : {HostSchedule::Tiles, HostSchedule::Cells})
      for (const OnChipSteps chip : {OnChipSteps::On, OnChipSteps::Off, OnChipSteps::Auto}) {
        const std::string asked = run<Exec>(c, c.templates, host, chip).metrics.schedule;
        const Outcome r = run<Exec>(c, generated, host, chip);
        // Lanes included: no schedule falls back to another for generated mechanisms.
        EXPECT_EQ(r.metrics.schedule, asked);
        EXPECT_EQ(r.metrics.schedule_detail.find("instead of"), std::string::npos)
            << asked << ": " << r.metrics.schedule_detail;
        EXPECT_NE(r.metrics.schedule_detail.find("generated mechanisms"), std::string::npos)
            << asked << ": " << r.metrics.schedule_detail;
        EXPECT_EQ(r.spikes, reference.spikes);
        EXPECT_LT(max_difference(r, reference), 1e-9);
      }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

// A template whose generated mechanisms are all leaks (pas alone: folded into the passive
// terms, no block) beside one with blocks, in either order: the second template's per-node
// tables (ion values, areas) start where its own offsets say, so its hh reads its own ena and
// ek and fires as the built-in one does.
TEST(GeneratedMechanisms, ALeakOnlyTemplateLeavesTheNextTemplatesTablesInPlace) {
  for (const bool passive_first : {true, false}) {
    SCOPED_TRACE(passive_first ? "passive template first" : "active template first");
    const std::string passive = R"({"name": "passive", "count": 3,
        "morphology": "synthetic:ball-and-stick", "nseg": 5,
        "mechanisms": [{"name": "pas", "g": 0.001, "e": -65}]})";
    const std::string active = R"({"name": "active", "count": 4,
        "morphology": "synthetic:ball-and-stick", "nseg": 5,
        "mechanisms": [{"name": "hh", "region": "soma"},
                       {"name": "pas", "region": "dend", "g": 0.0002, "e": -65}],
        "iclamp": [{"location": {"section": 0, "x": 0.5}, "del": 1, "dur": 20, "amp": 0.5}],
        "detector": {"location": {"section": 0, "x": 0.5}, "threshold": 0}})";
    const SimulationConfig c = parse_simulation_config(
        std::string(R"({"dt": 0.025, "tstop": 25, "cells": [)") +
            (passive_first ? passive + ", " + active : active + ", " + passive) +
            R"(], "network": {"type": "single"}, "record": [{"gid": 0}, {"gid": 3}, {"gid": 6}]})",
        "leak_only.json", "");
    std::vector<CellTemplate> generated;
    for (const CellTemplate& t : c.templates) generated.push_back(as_generated(t));
    auto on = [&](auto exec) {
      using Exec = decltype(exec);
      SCOPED_TRACE(Exec::name());
      const Outcome hand = run<Exec>(c, c.templates);
      EXPECT_GE(hand.spikes.size(), 4u) << "each hh cell fires";
      for (const HostSchedule host : {HostSchedule::Tiles, HostSchedule::Cells})
        for (const OnChipSteps chip : {OnChipSteps::On, OnChipSteps::Off}) {
          const Outcome gen = run<Exec>(c, generated, host, chip);
          EXPECT_EQ(gen.spikes, hand.spikes);
          EXPECT_LT(max_difference(gen, hand), 1e-7);
        }
    };
    std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
  }
}

// mixed_trees (support/mixed_trees.hpp): templates 0 and 2 share a tree (pas on the dendrite
// and hh in the soma; hh everywhere), so its tiles mix them. `generated`: which templates'
// pas and hh are the default catalogue's (the others keep the built-in ones).
using SeveralTemplates = MixedTrees;
SeveralTemplates several_templates(int cells, const std::vector<bool>& generated) {
  SeveralTemplates m = mixed_trees(cells);
  for (std::size_t k = 0; k < m.templates.size(); ++k)
    if (generated[k]) m.templates[k] = as_generated(m.templates[k]);
  return m;
}

// The tiles schedule runs generated mechanisms inside its tiles' step: on several
// templates, with cell counts per tree that are not multiples of W (partial tiles), tiles
// whose cells have different templates (one tree, other mechanisms) and, in the second
// case, tiles that mix generated and built-in mechanisms, it gives the cells schedule's
// raster and its voltages at every recorded node. Each lane does the cells schedule's
// arithmetic in its order (test_simulation_schedules.cpp's reasoning): equal to rounding,
// 0 where both compile alike. The generated run's raster is also the built-in one's.
TEST(GeneratedMechanisms, LanesMatchCellsWithSeveralTemplatesAndPartialTiles) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const int W = impl::cell_tile_lanes<Host>();
  const int cells = 6 * (W + 1);  // per tree 1.5 (W + 1), 1.5 (W + 1), 3 (W + 1)
  const SeveralTemplates builtin = several_templates(cells, {false, false, false, false});
  for (const std::vector<bool>& generated :
       {std::vector<bool>{true, true, true, true}, std::vector<bool>{true, true, false, true}}) {
    SCOPED_TRACE(generated[2] ? "all generated" : "template 2 built-in");
    const SeveralTemplates m = several_templates(cells, generated);
    auto run_on = [&](auto exec) {
      using Exec = decltype(exec);
      if constexpr (is_host_backend<Exec>()) {
        SCOPED_TRACE(Exec::name());
        std::vector<std::vector<Spike>> rasters;
        std::vector<std::vector<std::vector<double>>> traces;
        for (HostSchedule schedule : {HostSchedule::Cells, HostSchedule::Tiles}) {
          LocalExchange ex;
          RunOptions o;
          o.host_schedule = schedule;
          NetworkSimulation<Exec> sim(exec, m.templates, m.net, m.gids, m.p, ex, o, m.rec);
          sim.run();
          EXPECT_EQ(sim.metrics().schedule, to_string(schedule));
          EXPECT_EQ(sim.metrics().tile_cells, schedule == HostSchedule::Tiles ? W : 1);
          EXPECT_NE(sim.metrics().schedule_detail.find("generated mechanisms"), std::string::npos)
              << sim.metrics().schedule_detail;
          rasters.push_back(sim.spikes());
          traces.push_back(sim.traces());
        }
        LocalExchange ex;
        NetworkSimulation<Exec> hand(exec, builtin.templates, builtin.net, builtin.gids, builtin.p,
                                     ex, RunOptions{}, builtin.rec);
        hand.run();
        const std::vector<std::vector<double>> hand_traces = hand.traces();
        ASSERT_GE(rasters[0].size(), static_cast<std::size_t>(cells) / 2);
        EXPECT_EQ(rasters[1], rasters[0]) << "lanes vs cells";
        EXPECT_EQ(rasters[0], hand.spikes()) << "generated vs built-in, cells";
        ASSERT_EQ(traces[1].size(), traces[0].size());
        ASSERT_EQ(hand_traces.size(), traces[0].size());
        double worst = 0, worst_hand = 0;
        for (std::size_t k = 0; k < traces[0].size(); ++k) {
          ASSERT_EQ(traces[1][k].size(), m.rec.size());
          for (std::size_t j = 0; j < m.rec.size(); ++j) {
            ASSERT_TRUE(std::isfinite(traces[1][k][j])) << "row " << k << " record " << j;
            worst = std::max(worst, std::fabs(traces[1][k][j] - traces[0][k][j]));
            worst_hand = std::max(worst_hand, std::fabs(traces[1][k][j] - hand_traces[k][j]));
          }
        }
        EXPECT_LE(worst, 1e-9) << "max |v_lanes - v_cells| in mV";
        // As the real cell's (DefaultHHAndPas...): NMODL's cnexp and S/cm2 times area.
        EXPECT_LT(worst_hand, 1e-7) << "max |v_lanes - v_built_in| in mV";
        std::printf(
            "[ generated ] %s lanes: %zu spikes, max |v - v_cells| %.3g mV, "
            "max |v - v_built_in| %.3g mV\n",
            Exec::name(), rasters[1].size(), worst, worst_hand);
      }
    };
    std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
  }
}

// A team's lanes wait before a block only where a lane could touch a node that another lane
// touched since the last wait, the lanes' pass over all nodes (cable terms, v = x) counted
// first: with any partition of a range over lanes, a node's lane is fixed by its position
// and the block's length; where lanes take positions in turn, by its position alone.
TEST(GeneratedMechanisms, BlocksWaitOnlyWhereTwoLanesCouldShareANode) {
  impl::GeneratedTemplate t;
  t.num_nodes = 4;
  t.nodes = {0, 1, 2, 3, /* soma */ 0, /* two dendrites */ 1, 2, /* all again */ 0, 1, 2, 3};
  for (const auto& [begin, end] :
       std::vector<std::pair<int, int>>{{0, 4}, {4, 5}, {5, 7}, {7, 11}}) {
    impl::GeneratedBlock b;
    b.node_begin = begin;
    b.node_end = end;
    t.blocks.push_back(b);
  }
  // All nodes as the pass had them: no wait; the soma alone is another length; the
  // dendrites' nodes are untouched since that wait; all again meets the soma's node 0.
  EXPECT_EQ(impl::generated_block_syncs(t), (std::vector<int>{0, 1, 0, 1}));
  // By position: the soma's node 0 stands at position 0 as in the pass; node 1 at position
  // 0 of the dendrites' block does not.
  EXPECT_EQ(impl::generated_block_syncs(t, true), (std::vector<int>{0, 0, 1, 1}));
  // Kokkos' CUDA backend hands a team range's positions to the lanes in turn; a host
  // backend is never asked.
  EXPECT_EQ(impl::team_range_by_position(Kokkos::DefaultExecutionSpace()),
            !is_host_backend<Kokkos::DefaultExecutionSpace>());
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
  const impl::LeakOfNodes leak = impl::folded_leak(pas, p, mv);
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
  // A parameter hh lacks: the same reason (one schema, mechanism_entry.hpp) from the layout
  // of a template given in code and from the config reader, which names the entry's key.
  t.generated = {GeneratedMechanism{"hh", Region::All, {{"gnabr", {}}}}};
  const auto reason = [](const std::string& what) {
    const std::size_t at = what.find("unknown parameter of hh (its parameters: ");
    return at == std::string::npos ? std::string() : what.substr(at, what.find(')', at) - at);
  };
  std::string in_code, in_config;
  try {
    impl::generated_template(t, cat, p);
    ADD_FAILURE() << "no error for a parameter hh lacks";
  } catch (const InputError& e) {
    in_code = e.what();
    EXPECT_NE(in_code.find("parameter 'gnabr': unknown parameter of hh"), std::string::npos)
        << in_code;
  }
  try {
    parse_cell_template(R"({"morphology": "synthetic:ball-and-stick",
        "mechanisms": [{"name": "hh", "parameters": {"gnabr": 0.1}}]})",
                        "cell.json", "");
    ADD_FAILURE() << "no error for a parameter hh lacks";
  } catch (const InputError& e) {
    in_config = e.what();
    EXPECT_NE(in_config.find("mechanisms[0].parameters.gnabr': unknown parameter of hh"),
              std::string::npos)
        << in_config;
  }
  EXPECT_FALSE(reason(in_code).empty()) << in_code;
  EXPECT_EQ(reason(in_code), reason(in_config));
  t.generated = {GeneratedMechanism{"ExpSyn", Region::All, {}}};
  EXPECT_THROW(impl::generated_template(t, cat, p), InputError);
}

}  // namespace
}  // namespace hinesbatch::test
