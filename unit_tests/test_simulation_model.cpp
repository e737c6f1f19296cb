// A model built from code: the config reader in the library (from a file or from JSON
// text), run_simulation (what hinesbatch-sim runs), and networks listed by hand
// (NetworkSpec::Explicit) that reproduce the generated ones exactly, with every bad entry
// named.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/mechanism_entry.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch::test {
namespace {

// A busyring of ball-and-stick cells (hh soma) with weight-zero extra synapses.
const char* const kRing = R"({
  "dt": 0.025, "tstop": 30,
  "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 5, "Ra": 100,
           "mechanisms": [{"name": "hh", "region": "soma", "gnabar": 0.25},
                          {"name": "pas", "region": "dend", "g": 0.0002, "e": -65}]},
  "network": {"type": "ring", "cells": 16, "ring_size": 8, "weight": 0.05,
              "delay": [1.0, 2.0], "extra_synapses": 3, "synapse_location": "random_dendrites",
              "kick": {"time": 1.0, "weight": 0.2}, "seed": 5},
  "record": [{"gid": 0}, {"gid": 9, "location": {"section": 1, "x": 0.3}}],
  "run": {"progress_every_s": 0}
})";

// A random network driven by kicks and tonic clamps, weights and delays drawn.
const char* const kRandom = R"({
  "dt": 0.025, "tstop": 20,
  "cell": {"morphology": ["synthetic:ball-and-stick", "synthetic:p3"], "nseg": 1,
           "mechanisms": [{"name": "hh", "region": "all"}]},
  "network": {"type": "random", "cells": 14, "synapses_per_cell": 5, "weight": 0.002,
              "weight_max": 0.02, "delay": [0.5, 3], "tau": 3, "e": 0,
              "stimulus": {"amp": 0.05, "start_max": 5},
              "kick": {"time": 1, "weight": 0.05, "cells": 3}, "seed": 9},
  "record": [{"gid": 2}],
  "run": {"progress_every_s": 0}
})";

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

void expect_same_run(const SimulationResult& a, const SimulationResult& b) {
  EXPECT_EQ(a.spike_gids, b.spike_gids);
  EXPECT_EQ(a.spike_times, b.spike_times);
  EXPECT_EQ(a.times, b.times);
  EXPECT_EQ(a.traces, b.traces);  // bit for bit
}

// The same run on another backend: a GPU contracts a * b + c into FMAs and has its own exp,
// so its traces differ from the host's in the last bits; the raster is the same.
void expect_same_run_other_backend(const SimulationResult& device, const SimulationResult& host) {
  using DeviceMemory = Kokkos::DefaultExecutionSpace::memory_space;
  if (Kokkos::SpaceAccessibility<Kokkos::HostSpace, DeviceMemory>::accessible)
    return expect_same_run(device, host);  // the device is the host: bit for bit
  EXPECT_EQ(device.spike_gids, host.spike_gids);
  EXPECT_EQ(device.spike_times, host.spike_times);
  EXPECT_EQ(device.times, host.times);
  ASSERT_EQ(device.traces.size(), host.traces.size());
  for (std::size_t k = 0; k < host.traces.size(); ++k) {
    ASSERT_EQ(device.traces[k].size(), host.traces[k].size());
    for (std::size_t j = 0; j < host.traces[k].size(); ++j)
      ASSERT_NEAR(device.traces[k][j], host.traces[k][j], 1e-6) << "record " << k << ", step " << j;
  }
}

std::string number(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// The explicit-network JSON of `l` (every number written so that it reads back exactly).
std::string explicit_json(const ExplicitNetwork& l, const std::string& extra) {
  std::ostringstream o;
  o << R"({"type": "explicit", "cells": )" << l.cells << R"(, "connections": [)";
  for (std::size_t i = 0; i < l.connections.size(); ++i) {
    const ExplicitConnection& c = l.connections[i];
    o << (i ? ", " : "") << "[" << c.source << ", " << c.target << ", " << c.synapse << ", "
      << number(c.weight) << ", " << number(c.delay) << "]";
  }
  o << R"(], "events": [)";
  for (std::size_t i = 0; i < l.events.size(); ++i) {
    const ExplicitEvent& e = l.events[i];
    o << (i ? ", " : "") << "[" << e.gid << ", " << e.synapse << ", " << number(e.time) << ", "
      << number(e.weight) << "]";
  }
  o << R"(], "iclamps": [)";
  for (std::size_t i = 0; i < l.iclamps.size(); ++i) {
    const ExplicitIClamp& c = l.iclamps[i];
    o << (i ? ", " : "") << R"({"gid": )" << c.gid << R"(, "location": {"section": )"
      << c.clamp.where.section << R"(, "x": )" << number(c.clamp.where.x) << R"(}, "del": )"
      << number(c.clamp.del) << R"(, "dur": )" << number(c.clamp.dur) << R"(, "amp": )"
      << number(c.clamp.amp) << "}";
  }
  o << "]" << extra << "}";
  return o.str();
}

// --- config in the library ------------------------------------------------------------

TEST(SimulationConfigReader, TextAndFileReadTheSameAndRelativePathsUseTheBaseDir) {
  char tmpl[] = "/tmp/hinesbatch-config-test-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  {
    std::ofstream swc(dir + "/cell.swc");
    swc << "1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 40 0 0 1 2\n";
  }
  const std::string text = R"({"tstop": 5, "cell": {"morphology": "cell.swc", "nseg": 3},
                               "output": {"spikes": "out/s.txt"}})";
  {
    std::ofstream cfg(dir + "/model.json");
    cfg << text;
  }
  const SimulationConfig a = load_simulation_config(dir + "/model.json", {"tstop=7"});
  const SimulationConfig b = parse_simulation_config(text, "from-python", dir, {"tstop=7"});
  EXPECT_EQ(a.path, dir + "/model.json");
  EXPECT_EQ(b.path, "from-python");
  EXPECT_EQ(a.params.tstop, 7);
  EXPECT_EQ(b.params.tstop, 7);
  ASSERT_EQ(a.templates.size(), 1u);
  ASSERT_EQ(b.templates.size(), 1u);
  EXPECT_EQ(a.templates[0].morphology.source, dir + "/cell.swc");
  EXPECT_EQ(b.templates[0].morphology.source, dir + "/cell.swc");
  EXPECT_EQ(a.templates[0].compartments.size(), b.templates[0].compartments.size());
  EXPECT_EQ(b.outputs.spikes, dir + "/out/s.txt");
  // Another base folder: the SWC file is not there, and the error names it.
  const std::string missing =
      error_of([&] { parse_simulation_config(text, "from-python", "/nonexistent"); });
  EXPECT_TRUE(contains(missing, "/nonexistent/cell.swc")) << missing;
  std::remove((dir + "/cell.swc").c_str());
  std::remove((dir + "/model.json").c_str());
  rmdir(dir.c_str());
}

TEST(SimulationConfigReader, ErrorsNameTheSourceKeyLineAndValue) {
  EXPECT_EQ(error_of([] {
              parse_simulation_config(
                  R"({"cell": {"morphology": "synthetic:ball-and-stick", "Ra": "big"}})", "dict",
                  "");
            }),
            "dict: config key 'cell.Ra': must be a number (value '\"big\"')");
  EXPECT_EQ(error_of([] { parse_simulation_config("{\n\"dt\": 0.1,\n\"netwrok\": {}}", "d", ""); }),
            "d: config key 'netwrok': unknown key (value '{}')");
  const std::string syntax =
      error_of([] { parse_simulation_config("{\n\"dt\": 0.1,\n", "d", ""); });
  EXPECT_TRUE(contains(syntax, "d:3: invalid JSON")) << syntax;
  EXPECT_THROW(load_simulation_config("/nonexistent/model.json"), InputError);
}

// cell.cm and cell.Ra by region and cell.section_lists: each section's values, the d_lambda
// rule with each section's own cm and Ra, section lists as mechanism regions, and every
// bad entry named.
TEST(SimulationConfigReader, MembraneByRegionAndSectionLists) {
  // A sphere soma, a basal dendrite (section 1) and an apical one (section 2).
  const std::string swc = ::testing::TempDir() + "membrane_by_region.swc";
  std::ofstream(swc) << "1 1 0 0 0 10 -1\n2 3 10 0 0 1 1\n3 3 400 0 0 1 2\n"
                        "4 4 -10 0 0 1.5 1\n5 4 -600 0 0 1.5 4\n";
  const auto config = [&](const std::string& cell_extra) {
    return R"({"dt": 0.025, "tstop": 1, "network": {"type": "single"},
               "cell": {"morphology": ")" +
           swc + R"(", "d_lambda": 0.05)" + cell_extra + "}}";
  };
  const SimulationConfig uniform = parse_simulation_config(config(R"(, "Ra": 100)"), "u", "");
  const SimulationConfig c = parse_simulation_config(config(R"(, "section_lists": {"tips": [1]},
                 "Ra": [{"region": "all", "value": 100}, {"region": "tips", "value": 150}],
                 "cm": [{"region": "dend", "value": 2}, {"region": "tips", "value": 3}],
                 "mechanisms": [{"name": "pas", "region": "tips", "g": 0.0002},
                                {"name": "hh", "region": "soma"}])"),
                                                     "c", "");
  const CellTemplate& t = c.templates.at(0);
  // NEURON's cm 1 where no entry applies; the later entry wins where two do.
  EXPECT_EQ(t.section_cm(), (std::vector<double>{1.0, 3.0, 2.0}));
  EXPECT_EQ(t.section_Ra(), (std::vector<double>{100.0, 150.0, 100.0}));
  ASSERT_EQ(t.density.size(), 2u);
  EXPECT_EQ(t.density[0].region, Region::Listed);
  EXPECT_EQ(t.sections_of(t.density[0]), std::vector<int>{1});
  EXPECT_EQ(t.sections_of(t.density[1]), std::vector<int>{0});
  // d_lambda: the dendrite's nseg from its own cm and Ra, more segments than with cm 1, Ra 100.
  SectionOptions o;
  o.d_lambda = 0.05;
  o.Ra_ohm_cm = 150;
  o.cm_uF_cm2 = 3;
  const int own = nseg_for(t.morphology.sections[1], o);
  EXPECT_EQ(t.morphology.sections[1].nseg, own);
  EXPECT_GT(own, uniform.templates.at(0).morphology.sections[1].nseg);
  EXPECT_EQ(t.compartments.section_nseg[1], own);
  // The same values as one number: the same cell.
  const SimulationConfig one = parse_simulation_config(
      config(R"(, "Ra": [{"region": "all", "value": 100}], "cm": [{"value": 1}])"), "one", "");
  EXPECT_EQ(one.templates.at(0).compartments.g_axial_uS,
            uniform.templates.at(0).compartments.g_axial_uS);
  EXPECT_EQ(one.templates.at(0).section_cm(), uniform.templates.at(0).section_cm());

  const auto error = [&](const std::string& extra) {
    return error_of([&] { parse_simulation_config(config(extra), "bad", ""); });
  };
  EXPECT_EQ(error(R"(, "cm": [{"region": "trunk", "value": 2}])"),
            "bad: config key 'cell.cm[0].region': must be soma, axon, dend, apic, basal, all or "
            "a section list of section_lists (none given) (value '\"trunk\"')");
  EXPECT_TRUE(contains(
      error(R"(, "section_lists": {"a": [1]}, "mechanisms": [{"name": "pas", "region": "b"}])"),
      "'cell.mechanisms[].region': must be soma, axon, dend, apic, basal, all or a "
      "section list of section_lists (a)"));
  EXPECT_TRUE(contains(error(R"(, "cm": [{"region": "dend", "value": 0}])"),
                       "'cell.cm[0].value': must be > 0 (uF/cm2)"));
  EXPECT_TRUE(
      contains(error(R"(, "Ra": [{"region": "dend"}])"), "'cell.Ra[0].value': is required"));
  EXPECT_TRUE(contains(error(R"(, "Ra": [])"), "'cell.Ra': must be a number or a non-empty list"));
  EXPECT_TRUE(contains(error(R"(, "cm": [{"region": "dend", "value": 2, "where": 1}])"),
                       "'cell.cm[0].where': unknown key"));
  EXPECT_TRUE(contains(error(R"(, "section_lists": {"soma": [0]})"),
                       "'cell.section_lists.soma': names a section list as a region is named"));
  EXPECT_TRUE(contains(error(R"(, "section_lists": {"a": []})"),
                       "'cell.section_lists.a': must be a non-empty list of section indices"));
  EXPECT_TRUE(
      contains(error(R"(, "section_lists": {"a": [0, 1.5]})"),
               "'cell.section_lists.a': must list section indices (integers >= 0) (value '1.5')"));
  EXPECT_TRUE(contains(error(R"(, "section_lists": {"a": [1, 0, 1]})"),
                       "'cell.section_lists.a': lists a section twice (value '1')"));
  EXPECT_TRUE(contains(
      error(R"(, "section_lists": {"a": [0, 7]})"),
      "'cell.section_lists.a': names section 7, but " + swc + " has 3 sections (value '7')"));
  EXPECT_TRUE(
      contains(error(R"(, "section_lists": [1])"), "'cell.section_lists': must be an object"));
}

// --- running from code -------------------------------------------------------------------

TEST(RunSimulation, SameAsTheDriverOnEveryBackendAndExchange) {
  const SimulationConfig c = parse_simulation_config(kRing, "ring", "");
  const SimulationResult r = run_simulation(c);
  ASSERT_GE(r.spike_gids.size(), 16u) << "the kicks must travel round both rings";
  EXPECT_EQ(r.cells, 16);
  ASSERT_EQ(r.records.size(), 2u);
  ASSERT_EQ(r.traces.size(), 2u);
  EXPECT_EQ(r.times.size(), static_cast<std::size_t>(c.params.steps() + 1));
  EXPECT_EQ(r.traces[1].size(), r.times.size());
  EXPECT_EQ(r.metrics.spikes, static_cast<std::int64_t>(r.spike_gids.size()));
  for (std::size_t i = 1; i < r.spike_gids.size(); ++i)  // sorted by (time, gid)
    EXPECT_TRUE(
        r.spike_times[i - 1] < r.spike_times[i] ||
        (r.spike_times[i - 1] == r.spike_times[i] && r.spike_gids[i - 1] < r.spike_gids[i]));
  // The driver itself, by hand.
  std::vector<std::int64_t> gids(16);
  for (int g = 0; g < 16; ++g) gids[g] = g;
  LocalExchange ex;
  using Exec = Kokkos::DefaultExecutionSpace;
  // run_simulation takes pas, hh and ExpSyn from the default catalogue.
  std::vector<CellTemplate> templates = c.templates;
  impl::builtins_from_catalogue(templates, default_catalogue());
  NetworkSimulation<Exec> sim(Exec(), templates, c.network, gids, c.params, ex, c.run, c.records);
  sim.run();
  ASSERT_EQ(sim.spikes().size(), r.spike_gids.size());
  for (std::size_t i = 0; i < r.spike_gids.size(); ++i) {
    EXPECT_EQ(sim.spikes()[i].gid, r.spike_gids[i]);
    EXPECT_EQ(sim.spikes()[i].step * c.params.dt, r.spike_times[i]);
  }
  for (std::size_t k = 0; k < r.times.size(); ++k) EXPECT_EQ(sim.traces()[k][1], r.traces[1][k]);
  // Host backend, no overlap, and the Simulation object: the same run.
  const SimulationResult on_host = run_simulation(c, Backend::Host);
  expect_same_run_other_backend(r, on_host);
  SimulationConfig no_overlap = c;
  no_overlap.run.overlap = false;
  expect_same_run(on_host, run_simulation(no_overlap, Backend::Host));
  hinesbatch::Simulation s(c, ex, parse_backend("host"));
  EXPECT_EQ(s.local_gids(), gids);
  EXPECT_EQ(s.cells(), 16);
  EXPECT_GT(s.local_nodes(), 16);
  EXPECT_FALSE(c.run.overlap);  // the default
  EXPECT_FALSE(s.overlap());    // one rank has no exchange to overlap
  expect_same_run(on_host, s.run());
  EXPECT_THROW(s.run(), std::logic_error);
  EXPECT_THROW(parse_backend("gpu"), InputError);
}

// pas, hh and ExpSyn given as built-ins run as the default catalogue's .mod files, unless the
// run asks for the hand-written ones: the same raster, the voltages to rounding.
TEST(RunSimulation, PasHHAndExpSynComeFromTheCatalogueUnlessBuiltinIsAsked) {
  const SimulationConfig c = parse_simulation_config(kRing, "ring", "");
  EXPECT_FALSE(c.run.builtin_mechanisms);  // the default
  const SimulationConfig b =
      parse_simulation_config(kRing, "ring", "", {"run.mechanisms=\"builtin\""});
  EXPECT_TRUE(b.run.builtin_mechanisms);
  for (const Backend backend : {Backend::Device, Backend::Host}) {
    SCOPED_TRACE(backend == Backend::Host ? "host" : "device");
    const SimulationResult catalogue = run_simulation(c, backend);
    const SimulationResult builtin = run_simulation(b, backend);
    EXPECT_NE(catalogue.metrics.schedule_detail.find("generated mechanisms"), std::string::npos)
        << catalogue.metrics.schedule_detail;
    EXPECT_EQ(builtin.metrics.schedule_detail.find("generated mechanisms"), std::string::npos)
        << builtin.metrics.schedule_detail;
    ASSERT_GE(builtin.spike_gids.size(), 16u);
    EXPECT_EQ(catalogue.spike_gids, builtin.spike_gids);
    EXPECT_EQ(catalogue.spike_times, builtin.spike_times);
    ASSERT_EQ(catalogue.traces.size(), builtin.traces.size());
    double worst = 0;
    for (std::size_t j = 0; j < builtin.traces.size(); ++j)
      for (std::size_t k = 0; k < builtin.traces[j].size(); ++k)
        worst = std::max(worst, std::fabs(catalogue.traces[j][k] - builtin.traces[j][k]));
    EXPECT_LT(worst, 1e-7) << "max |dv| " << worst << " mV";
  }
  EXPECT_THROW(parse_simulation_config(kRing, "ring", "", {"run.mechanisms=\"neuron\""}),
               InputError);
}

// Each built-in entry becomes the catalogue's mechanism with every parameter, ahead of the
// template's own generated entries; what the catalogue lacks stays built-in.
TEST(RunSimulation, BuiltinsFromTheCatalogueKeepTheEntriesOrderAndParameters) {
  const SimulationConfig c = parse_simulation_config(R"({
    "dt": 0.025, "tstop": 1,
    "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 3,
             "mechanisms": [{"name": "pas", "region": "all", "g": 0.0002, "e": -65},
                            {"name": "pas", "region": "dend", "parameters": {"g": 0.0003}},
                            {"name": "hh", "region": "soma", "gnabar": 0.25}]},
    "network": {"type": "ring", "cells": 2, "ring_size": 2, "weight": 0.01,
                "delay": [1.0, 1.0], "tau": 3.0, "e": -10}})",
                                                     "order", "");
  std::vector<CellTemplate> t = c.templates;
  ASSERT_EQ(t[0].density.size(), 2u);
  impl::builtins_from_catalogue(t, default_catalogue());
  EXPECT_TRUE(t[0].density.empty());
  ASSERT_EQ(t[0].generated.size(), 3u);
  EXPECT_EQ(t[0].generated[0].name, "pas");
  EXPECT_EQ(t[0].generated[0].region, Region::All);
  ASSERT_EQ(t[0].generated[0].parameters.size(), 2u);
  EXPECT_EQ(t[0].generated[0].parameters[1].name, "e");
  EXPECT_EQ(t[0].generated[0].parameters[1].value.value, -65);
  EXPECT_EQ(t[0].generated[1].name, "hh");
  EXPECT_EQ(t[0].generated[1].region, Region::Soma);
  ASSERT_EQ(t[0].generated[1].parameters.size(), 4u);
  EXPECT_EQ(t[0].generated[1].parameters[0].value.value, 0.25);
  EXPECT_EQ(t[0].generated[1].parameters[3].name, "el");
  EXPECT_EQ(t[0].generated[1].parameters[3].value.value, -54.3);
  EXPECT_EQ(t[0].generated[2].region, Region::Dend);  // the generated entry, last: it wins
  ASSERT_FALSE(t[0].synapses.empty());
  for (const ExpSynSpec& s : t[0].synapses) {
    EXPECT_EQ(s.mechanism.name, "ExpSyn");
    ASSERT_EQ(s.mechanism.parameters.size(), 2u);
    EXPECT_EQ(s.mechanism.parameters[0].value.value, 3.0);
    EXPECT_EQ(s.mechanism.parameters[1].value.value, -10);
  }
  // A catalogue without hh (or without ExpSyn) leaves them built-in.
  MechanismCatalogue only_pas = default_catalogue();
  std::vector<CatalogueMechanism> kept;
  for (const CatalogueMechanism& m : only_pas.mechanisms)
    if (m.name == "pas") kept.push_back(m);
  only_pas.mechanisms = kept;
  t = c.templates;
  impl::builtins_from_catalogue(t, only_pas);
  ASSERT_EQ(t[0].density.size(), 1u);
  EXPECT_EQ(t[0].density[0].kind, DensityMechanism::HH);
  EXPECT_EQ(t[0].generated.size(), 2u);
  for (const ExpSynSpec& s : t[0].synapses) EXPECT_TRUE(s.mechanism.builtin());
}

TEST(RunSimulation, DryRunEmulatesRanksFromTheConfig) {
  SimulationConfig c = parse_simulation_config(kRing, "ring", "");
  c.records.clear();
  const SimulationResult one = run_simulation(c);
  c.dry_run_ranks = 3;  // the rings of 8 cells are the same in the 48-cell network
  c.run.overlap = true;
  const SimulationResult three = run_simulation(c);
  EXPECT_EQ(three.cells, 48);
  EXPECT_EQ(three.spike_gids.size(), 3 * one.spike_gids.size());
  EXPECT_EQ(three.metrics.ranks, 3);
  EXPECT_EQ(three.metrics.overlap, c.run.overlap);  // emulated ranks overlap as real ones
  EXPECT_FALSE(one.metrics.overlap);
}

// --- networks listed by hand -------------------------------------------------------------

TEST(ExplicitNetwork, ListedRingAndRandomNetworksGiveTheSameRasterAndTraces) {
  for (const char* text : {kRing, kRandom}) {
    const SimulationConfig generated = parse_simulation_config(text, "generated", "");
    SCOPED_TRACE(generated.network.type == NetworkSpec::Ring ? "ring" : "random");
    const SimulationResult want = run_simulation(generated);
    ASSERT_GE(want.spike_gids.size(), 10u);
    const ExplicitNetwork lists = list_network(generated.network, generated.templates);
    ASSERT_FALSE(lists.connections.empty());
    ASSERT_FALSE(lists.events.empty());
    SimulationConfig listed = generated;
    listed.network = make_explicit_network(lists, generated.templates);
    EXPECT_EQ(listed.network.type, NetworkSpec::Explicit);
    // The shortest listed delay: drawn from [delay_min, delay_max].
    EXPECT_GE(listed.network.min_delay(), generated.network.min_delay());
    EXPECT_LE(listed.network.min_delay(), generated.network.delay_max);
    for (std::int64_t g = 0; g < generated.network.cells; ++g) {
      EXPECT_EQ(listed.network.template_of(g), generated.network.template_of(g));
      EXPECT_EQ(listed.network.incoming(g).size(), generated.network.incoming(g).size());
    }
    expect_same_run(want, run_simulation(listed));
    // The same lists as JSON ("network": {"type": "explicit", ...}): the same run again.
    // The synapses (3 ring extras, or synapses_per_cell) come from the largest index used.
    const std::string net = explicit_json(
        lists, generated.network.type == NetworkSpec::Ring
                   ? R"(, "synapse_location": "random_dendrites", "seed": 5)"
                   : R"(, "tau": 3, "seed": 9, "templates": [)" + [&] {
                       std::string t;
                       for (std::int64_t g = 0; g < generated.network.cells; ++g)
                         t += (g ? ", " : "") + std::to_string(g % 2);
                       return t + "]";
                     }());
    const SimulationConfig from_json =
        parse_simulation_config(text, "explicit", "", {"network=" + net});
    EXPECT_EQ(from_json.network.type, NetworkSpec::Explicit);
    ASSERT_EQ(from_json.templates.size(), generated.templates.size());
    for (std::size_t t = 0; t < generated.templates.size(); ++t) {
      ASSERT_EQ(from_json.templates[t].synapses.size(), generated.templates[t].synapses.size());
      for (std::size_t k = 0; k < generated.templates[t].synapses.size(); ++k) {
        EXPECT_EQ(from_json.templates[t].synapses[k].where.section,
                  generated.templates[t].synapses[k].where.section);
        EXPECT_EQ(from_json.templates[t].synapses[k].where.x,
                  generated.templates[t].synapses[k].where.x);
      }
    }
    expect_same_run(want, run_simulation(from_json));
  }
}

TEST(ExplicitNetwork, HandBuiltCellsWithTheirOwnSynapsesAndPerGidTemplates) {
  // Two kinds of cell: one with two synapses, one with none (driven by a clamp only).
  const SimulationConfig base = parse_simulation_config(kRing, "ring", "");
  std::vector<CellTemplate> t{base.templates[0], base.templates[0]};
  t[0].synapses.resize(2);
  t[1].synapses.clear();
  for (CellTemplate& x : t) x.density[0].hh.gnabar = 0.12;  // at rest without input
  ExplicitNetwork l;
  l.cells = 3;
  l.templates = {1, 0, 0};
  IClampSpec clamp;
  clamp.where = {0, 0.5};
  clamp.del = 1;
  clamp.dur = 2;
  clamp.amp = 1.0;
  l.iclamps.push_back({0, clamp});
  l.connections = {{0, 1, 0, 0.05, 1.5}, {1, 2, 1, 0.05, 1.0}};
  SimulationConfig c = base;
  c.templates = t;
  c.network = make_explicit_network(l, t);
  c.records.clear();
  const SimulationResult r = run_simulation(c);
  // The clamp fires gid 0, which fires 1 through its synapse 0, which fires 2 through its
  // synapse 1: each one's first spike after the previous one's plus the delay.
  auto first_spike = [](const SimulationResult& x, std::int64_t gid) {
    for (std::size_t i = 0; i < x.spike_gids.size(); ++i)
      if (x.spike_gids[i] == gid) return x.spike_times[i];
    return -1.0;
  };
  ASSERT_GT(first_spike(r, 0), 1.0);
  EXPECT_GT(first_spike(r, 1), first_spike(r, 0) + 1.5);
  EXPECT_GT(first_spike(r, 2), first_spike(r, 1) + 1.0);
  // Without the connection into gid 2 it stays silent; the others fire as before.
  l.connections.pop_back();
  c.network = make_explicit_network(l, t);
  const SimulationResult without = run_simulation(c);
  EXPECT_EQ(first_spike(without, 2), -1.0);
  EXPECT_EQ(first_spike(without, 1), first_spike(r, 1));
  // No connection at all: the delays do not bound the epoch (dt 1 ms would be refused).
  l.connections.clear();
  c.network = make_explicit_network(l, t);
  c.params.dt = 1;
  c.params.tstop = 10;
  EXPECT_NO_THROW(run_simulation(c));
}

TEST(ExplicitNetwork, BadEntriesAreNamed) {
  const SimulationConfig base = parse_simulation_config(kRing, "ring", "");
  std::vector<CellTemplate> t{base.templates[0]};
  t[0].synapses.resize(1);
  auto bad = [&](const ExplicitNetwork& l) {
    return error_of([&] { make_explicit_network(l, t); });
  };
  ExplicitNetwork l;
  l.cells = 4;
  l.connections = {{0, 1, 0, 0.1, 1.0}};
  EXPECT_NO_THROW(make_explicit_network(l, t));
  l.connections[0].target = 4;
  EXPECT_TRUE(contains(bad(l),
                       "network connections[0]: target gid is not a cell of the network "
                       "(cells = 4) (value '4')"))
      << bad(l);
  l.connections[0] = {-1, 1, 0, 0.1, 1.0};
  EXPECT_TRUE(contains(bad(l), "connections[0]: source gid")) << bad(l);
  l.connections[0] = {0, 1, 1, 0.1, 1.0};
  EXPECT_TRUE(contains(bad(l), "connections[0]: names synapse 1 but gid 1's template has 1"))
      << bad(l);
  l.connections[0] = {0, 1, 0, 0.1, 0.0};
  EXPECT_TRUE(contains(bad(l), "connections[0]: delay must be > 0")) << bad(l);
  l.connections[0] = {0, 1, 0, std::nan(""), 1.0};
  EXPECT_TRUE(contains(bad(l), "connections[0]: weight must be finite")) << bad(l);
  l.connections.clear();
  l.events = {{2, 0, 1.0, 0.1}, {7, 0, 1.0, 0.1}};
  EXPECT_TRUE(contains(bad(l), "events[1]: gid is not a cell")) << bad(l);
  l.events = {{2, -1, 1.0, 0.1}};
  EXPECT_TRUE(contains(bad(l), "events[0]: synapse index must be >= 0")) << bad(l);
  l.events.clear();
  l.templates = {0, 0, 1, 0};
  EXPECT_TRUE(contains(bad(l), "templates[2]: names template 1 of 1")) << bad(l);
  l.templates = {0, 0};
  EXPECT_TRUE(contains(bad(l), "templates: must list one template index per cell")) << bad(l);
  l.templates.clear();
  IClampSpec clamp;
  clamp.where = {9, 0.5};
  l.iclamps = {{1, clamp}};
  EXPECT_TRUE(contains(bad(l), "iclamps[0]: names section 9 but gid 1's template has")) << bad(l);
  // Without the templates, a synapse a template lacks is caught when the run is set up.
  ExplicitNetwork e;
  e.cells = 2;
  e.events = {{1, 3, 1.0, 0.1}};
  SimulationConfig c = base;
  c.templates = t;
  c.records.clear();
  c.network = make_explicit_network(e, 1);
  const std::string late = error_of([&] { run_simulation(c); });
  EXPECT_TRUE(contains(late, "external event into gid 1 names synapse 3")) << late;
  // A dry run replicates a generated network's blocks; a listed one has none.
  c.network = make_explicit_network(e, 1);
  c.dry_run_ranks = 2;
  const std::string dry = error_of([&] { run_simulation(c); });
  EXPECT_TRUE(contains(dry, "dry_run_ranks cannot replicate an explicit network")) << dry;

  // In the JSON config every entry is named by its key and index.
  auto json_error = [&](const std::string& net) {
    return error_of([&] { parse_simulation_config(kRing, "cfg", "", {"network=" + net}); });
  };
  EXPECT_EQ(
      json_error(
          R"({"type": "explicit", "cells": 4, "connections": [[0, 1, 0, 0.1, 1], [0, 4, 0, 0.1, 1]]})"),
      "cfg: config key 'network.connections[1].target': must be an integer in [0, 3] "
      "(value '4')");
  EXPECT_EQ(json_error(R"({"type": "explicit", "cells": 4, "connections": [[0, 1, 0, 0.1, 0]]})"),
            "cfg: config key 'network.connections[0].delay': must be > 0 (ms) (value '0')");
  EXPECT_EQ(json_error(R"({"type": "explicit", "cells": 4, "connections": [[0, 1, 0]]})"),
            "cfg: config key 'network.connections[0]': must be [source gid, target gid, synapse, "
            "weight, delay] (value '[0,1,0]')");
  EXPECT_EQ(json_error(R"({"type": "explicit", "cells": 2, "events": [[1, 0, "soon", 0.1]]})"),
            "cfg: config key 'network.events[0].time': must hold numbers (value "
            "'[1,0,\"soon\",0.1]')");
  EXPECT_EQ(json_error(R"({"type": "explicit", "cells": 2, "templates": [0, 1]})"),
            "cfg: config key 'network.templates[1]': names template 1 but cell.morphology lists "
            "1 (value '1')");
  EXPECT_EQ(
      json_error(
          R"({"type": "explicit", "cells": 2, "iclamps": [{"gid": 1, "location": {"section": 5}}]})"),
      "cfg: config key 'network.iclamps[0].location.section': names section 5 but "
      "synthetic:ball-and-stick has 2 sections (0..1) (value '5')");
  EXPECT_EQ(json_error(R"({"type": "explicit", "cells": 2, "weight": 1})"),
            "cfg: config key 'network.weight': unknown key (value '1')");
}

// An output that is a symbolic link (e.g. /dev/stdout while stdout is a file) is written
// through: the link stays, its target gets the data (a rename would replace the link).
TEST(OutputFileTest, WritesThroughASymbolicLink) {
  char tmpl[] = "/tmp/hinesbatch-output-test-XXXXXX";
  const std::string dir = mkdtemp(tmpl);
  const std::string target = dir + "/target.txt", link = dir + "/link.txt";
  {
    std::ofstream old(target);
    old << "stale\n";
  }
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  OutputFile out(link, "spikes file");
  out.write("0 1.300000\n");
  out.commit();
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  std::ifstream in(target);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(), "0 1.300000\n");
  std::remove(link.c_str());
  std::remove(target.c_str());
  rmdir(dir.c_str());
}

}  // namespace
}  // namespace hinesbatch::test
