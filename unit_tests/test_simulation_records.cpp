// Records of variables other than v: a generated mechanism's state (m_hh), a parameter
// (gnabar_hh) and an ion value (ena) at the node of a v record, on the cells and on-chip
// schedules of every enabled backend. The gate agrees between the schedules, starts at
// hh's steady state at v_init, stays in [0, 1] and opens with each spike; recording it
// leaves v as it was. Names the simulation cannot record are refused by the config with
// the key and the reason.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "support/backends.hpp"

namespace hinesbatch::test {
namespace {

// A ball and stick: the catalogue's hh in the soma ("parameters" makes it the generated
// one), its pas in the dendrite, a current step that makes the soma fire.
std::string config(const std::string& records) {
  return R"({"dt": 0.025, "tstop": 30, "celsius": 6.3, "v_init": -65,
             "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 5,
                      "mechanisms": [{"name": "hh", "region": "soma", "parameters": {"gnabar": 0.13}},
                                     {"name": "pas", "region": "dend",
                                      "parameters": {"g": 0.0002, "e": -65}}],
                      "iclamp": [{"location": {"section": 0, "x": 0.5}, "del": 2, "dur": 25,
                                  "amp": 0.4}]},
             "network": {"type": "single"},
             "record": )" +
         records + "}";
}

const std::string kRecords =
    R"([{"gid": 0, "location": {"section": 0, "x": 0.5}},
        {"gid": 0, "location": {"section": 0, "x": 0.5}, "variable": "m_hh"},
        {"gid": 0, "location": {"section": 0, "x": 0.5}, "variable": "gnabar_hh"},
        {"gid": 0, "location": {"section": 0, "x": 0.5}, "variable": "ena"}])";

template <class Exec>
std::vector<std::vector<double>> run_traces(const SimulationConfig& c, OnChipSteps on_chip,
                                            HostSchedule host = HostSchedule::Cells) {
  LocalExchange ex;
  RunOptions o = c.run;
  o.host_schedule = host;
  o.on_chip = on_chip;
  NetworkSimulation<Exec> sim(Exec(), c.templates, c.network, {0}, c.params, ex, o, c.records);
  const bool tiles = host == HostSchedule::Tiles && is_host_backend<Exec>();
  EXPECT_EQ(sim.metrics().schedule,
            on_chip == OnChipSteps::On ? "on_chip" : (tiles ? "tiles" : "cells"));
  sim.run();
  return sim.traces();  // [row][record]
}

TEST(SimulationRecords, GateParameterAndIonValueOnBothSchedules) {
  const SimulationConfig c = parse_simulation_config(config(kRecords), "records.json", "");
  ASSERT_EQ(c.records.size(), 4u);
  EXPECT_EQ(c.records[0].variable, "v");
  EXPECT_EQ(c.records[1].variable, "m_hh");
  SimulationConfig v_only = c;
  v_only.records.resize(1);
  // hh's m at rest at v_init = -65 mV: alpha / (alpha + beta).
  const double alpha = 0.1 * (-25.0) / (1 - std::exp(2.5));
  const double beta = 4.0;
  const double m_rest = alpha / (alpha + beta);
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    const auto cells = run_traces<Exec>(c, OnChipSteps::Off);
    const auto chip = run_traces<Exec>(c, OnChipSteps::On);
    const auto cells_v = run_traces<Exec>(v_only, OnChipSteps::Off);
    const auto chip_v = run_traces<Exec>(v_only, OnChipSteps::On);
    // The tiles schedule keeps the same per-slot storage and arithmetic as the cells one:
    // the same traces, bit for bit (on a device backend it is the cells schedule itself).
    EXPECT_EQ(run_traces<Exec>(c, OnChipSteps::Off, HostSchedule::Tiles), cells);
    ASSERT_EQ(cells.size(), chip.size());
    ASSERT_EQ(cells.size(), cells_v.size());
    EXPECT_NEAR(cells[0][1], m_rest, 1e-12);
    EXPECT_NEAR(chip[0][1], m_rest, 1e-12);
    double worst_m = 0, worst_v = 0, m_min = 1, m_max = 0, m_at_peak = 0, v_peak = -1e9;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      // Recording other variables leaves v as it was, on both schedules.
      EXPECT_EQ(cells[k][0], cells_v[k][0]) << k;
      EXPECT_EQ(chip[k][0], chip_v[k][0]) << k;
      worst_v = std::max(worst_v, std::fabs(cells[k][0] - chip[k][0]));
      worst_m = std::max(worst_m, std::fabs(cells[k][1] - chip[k][1]));
      for (const auto* t : {&cells, &chip}) {
        EXPECT_EQ((*t)[k][2], 0.13) << k;  // gnabar_hh, as set
        EXPECT_EQ((*t)[k][3], 50.0) << k;  // ena, the run's (no mechanism writes it)
      }
      m_min = std::min(m_min, cells[k][1]);
      m_max = std::max(m_max, cells[k][1]);
      if (cells[k][0] > v_peak) {
        v_peak = cells[k][0];
        m_at_peak = cells[k][1];
      }
    }
    // The schedules agree to rounding (they solve for v and for dv).
    EXPECT_LT(worst_v, 1e-7);
    EXPECT_LT(worst_m, 1e-9);
    std::printf("[ records ] %s: cells vs on_chip: v %.3g mV, m_hh %.3g\n", Exec::name(), worst_v,
                worst_m);
    // The gate stays in [0, 1] and opens as the soma fires.
    EXPECT_GE(m_min, 0.0);
    EXPECT_LE(m_max, 1.0);
    EXPECT_GT(v_peak, 0.0);
    EXPECT_GT(m_at_peak, 0.8);
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

// The config refuses a record variable with its key, the value and why.
void expect_refused(const std::string& record, const std::string& why) {
  SCOPED_TRACE(record);
  try {
    parse_simulation_config(config("[" + record + "]"), "records.json", "");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("record[].variable"), std::string::npos) << what;
    EXPECT_NE(what.find("records.json"), std::string::npos) << what;
    EXPECT_NE(what.find(why), std::string::npos) << what;
  }
}

TEST(SimulationRecords, ConfigRefusesWhatTheSimulationDoesNotStore) {
  const std::string soma = R"({"gid": 0, "location": {"section": 0, "x": 0.5}, "variable": )";
  const std::string dend = R"({"gid": 0, "location": {"section": 1, "x": 0.5}, "variable": )";
  expect_refused(soma + R"("voltage"})", "unknown variable");
  expect_refused(soma + R"("hh.m"})", "unknown variable");
  expect_refused(soma + R"("q_hh"})", "hh has no RANGE variable 'q'");
  expect_refused(soma + R"("gna_hh"})", "the simulation does not store it");
  expect_refused(dend + R"("m_hh"})", "mechanism hh is not inserted");
  expect_refused(soma + R"("g_pas"})", "mechanism pas is not inserted");
  expect_refused(dend + R"("g_pas"})", "pas is a leak");
  expect_refused(dend + R"("ena"})", "uses the ion na");
  expect_refused(soma + R"("ina"})", "does not sum that current");
  expect_refused(soma + R"(3})", "must be a string");
}

// Records given in code (not through a config) are checked by the simulation itself.
TEST(SimulationRecords, SimulationRefusesRecordsGivenInCode) {
  SimulationConfig c = parse_simulation_config(config(kRecords), "records.json", "");
  c.records.resize(1);
  c.records.push_back({0, {0, 0.5}, "gna_hh"});
  using Exec = Kokkos::DefaultHostExecutionSpace;
  LocalExchange ex;
  try {
    NetworkSimulation<Exec> sim(Exec(), c.templates, c.network, {0}, c.params, ex, c.run,
                                c.records);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("record of gid 0 at section 0: variable 'gna_hh': gna "
                                         "of hh is an ASSIGNED variable"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace hinesbatch::test
