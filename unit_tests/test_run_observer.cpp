// Simulation::run with an EpochObserver (progress, streamed traces and interrupts of
// hinesbatch-sim and Python), and cell templates built from JSON by the config reader's
// own schema (parse_cell_template, parse_simulation_config with templates given).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch::test {
namespace {

// Two chains of hh cells kicked at 1 ms; 30 ms of 1,200 steps, epochs of at most 40 steps.
const char* const kChain = R"({
  "dt": 0.025, "tstop": 30,
  "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 3,
           "mechanisms": [{"name": "hh", "region": "soma"}]},
  "network": {"type": "ring", "cells": 8, "ring_size": 4, "weight": 0.05, "delay": 1.0,
              "synapse_location": {"section": 0, "x": 0.5},
              "kick": {"time": 1.0, "weight": 0.2}, "seed": 3},
  "record": [{"gid": 0}, {"gid": 5, "location": {"section": 1, "x": 0.5}}],
  "run": {"progress_every_s": 0, "overlap": false}
})";

TEST(RunObserver, EveryEpochOnceWithEveryTraceRowOnceAndInOrder) {
  const SimulationConfig c = parse_simulation_config(kChain, "chain", "");
  LocalExchange ex;
  Simulation sim(c, ex);
  const std::thread::id caller = std::this_thread::get_id();
  std::vector<EpochReport> reports;
  std::vector<std::vector<double>> rows;
  const SimulationResult r = sim.run([&](EpochReport& e) {
    EXPECT_EQ(std::this_thread::get_id(), caller);  // one rank: on the calling thread
    EXPECT_EQ(e.first_row, static_cast<std::int64_t>(rows.size()));
    rows.insert(rows.end(), e.rows.begin(), e.rows.end());
    reports.push_back(e);
  });
  const std::int64_t steps = c.params.steps();
  const std::int64_t epochs = (steps + sim.epoch_steps() - 1) / sim.epoch_steps();
  ASSERT_EQ(static_cast<std::int64_t>(reports.size()), epochs + 1);  // and the last one
  for (std::size_t k = 0; k + 1 < reports.size(); ++k) {
    EXPECT_FALSE(reports[k].last);
    EXPECT_EQ(reports[k].steps_done, std::min<std::int64_t>((k + 1) * sim.epoch_steps(), steps));
    EXPECT_EQ(reports[k].steps, steps);
    if (k > 0) {
      EXPECT_GE(reports[k].spikes, reports[k - 1].spikes);
      EXPECT_GE(reports[k].wall_s, reports[k - 1].wall_s);
    }
    EXPECT_FALSE(reports[k].rows.empty());  // each epoch's rows come with its report
  }
  EXPECT_TRUE(reports.back().last);
  EXPECT_EQ(reports.back().steps_done, steps);
  EXPECT_EQ(reports.back().spikes, static_cast<std::int64_t>(r.spike_gids.size()));
  ASSERT_GT(r.spike_gids.size(), 4u);
  // The rows reported are the result's traces, every one.
  ASSERT_EQ(rows.size(), r.times.size());
  for (std::size_t j = 0; j < rows.size(); ++j)
    for (std::size_t k = 0; k < r.traces.size(); ++k) ASSERT_EQ(rows[j][k], r.traces[k][j]);
}

// Streamed only (keep_traces false, as hinesbatch-sim with a traces file): the same rows,
// every one reported once and in order, none kept in the result.
TEST(RunObserver, StreamedRowsAreTheKeptRowsAndAreNotKept) {
  const SimulationConfig c = parse_simulation_config(kChain, "chain", "");
  LocalExchange ex_kept, ex_streamed;
  Simulation kept(c, ex_kept), streamed(c, ex_streamed);
  const SimulationResult r = kept.run();
  std::vector<std::vector<double>> rows;
  std::size_t largest_report = 0;
  const SimulationResult s = streamed.run(
      [&](EpochReport& e) {
        EXPECT_EQ(e.first_row, static_cast<std::int64_t>(rows.size()));
        largest_report = std::max(largest_report, e.rows.size());
        rows.insert(rows.end(), e.rows.begin(), e.rows.end());
      },
      /*keep_traces=*/false);
  EXPECT_TRUE(s.traces.empty() || s.traces.front().empty());
  EXPECT_TRUE(s.times.empty());
  EXPECT_EQ(s.spike_gids, r.spike_gids);
  EXPECT_EQ(s.spike_times, r.spike_times);
  // No report carries more than an epoch's rows (and the first one the row at t = 0).
  EXPECT_LE(largest_report, static_cast<std::size_t>(streamed.epoch_steps()) + 1);
  ASSERT_EQ(rows.size(), r.times.size());
  for (std::size_t j = 0; j < rows.size(); ++j)
    for (std::size_t k = 0; k < r.traces.size(); ++k) ASSERT_EQ(rows[j][k], r.traces[k][j]);
}

// record_dt samples the records every k steps (NEURON's Vector.record(ref, Dt)): the rows
// of a run that records every step at t = 0, k dt, 2 k dt, ... <= tstop, kept or streamed,
// for k that divides the epoch (4), that does not (3, 7), and longer than an epoch (56).
TEST(RunObserver, RecordDtKeepsEveryKthRowOfTheFullTrace) {
  const SimulationConfig c = parse_simulation_config(kChain, "chain", "");
  LocalExchange ex;
  const SimulationResult full = Simulation(c, ex).run();
  ASSERT_EQ(full.times.size(), static_cast<std::size_t>(c.params.steps()) + 1);
  for (const int k : {4, 3, 7, 56}) {
    SCOPED_TRACE("every " + std::to_string(k) + " steps");
    const SimulationConfig ck = parse_simulation_config(
        kChain, "chain", "", std::vector<std::string>{"record_dt=" + std::to_string(k * 0.025)});
    EXPECT_EQ(ck.params.record_every(), k);
    LocalExchange ex_k, ex_s;
    const SimulationResult r = Simulation(ck, ex_k).run();
    EXPECT_EQ(r.spike_gids, full.spike_gids);
    const std::size_t rows = static_cast<std::size_t>(c.params.steps() / k) + 1;
    ASSERT_EQ(r.times.size(), rows);
    for (std::size_t j = 0; j < rows; ++j) {
      EXPECT_NEAR(r.times[j], full.times[j * k], 1e-9);
      for (std::size_t q = 0; q < r.traces.size(); ++q)
        ASSERT_EQ(r.traces[q][j], full.traces[q][j * k]) << "row " << j << ", record " << q;
    }
    // Streamed as hinesbatch-sim writes its traces file: the same rows, reported once.
    std::vector<std::vector<double>> streamed;
    Simulation(ck, ex_s).run(
        [&](EpochReport& e) {
          EXPECT_EQ(e.first_row, static_cast<std::int64_t>(streamed.size()));
          EXPECT_NEAR(e.record_dt, k * 0.025, 1e-12);
          streamed.insert(streamed.end(), e.rows.begin(), e.rows.end());
        },
        /*keep_traces=*/false);
    ASSERT_EQ(streamed.size(), rows);
    for (std::size_t j = 0; j < rows; ++j)
      for (std::size_t q = 0; q < r.traces.size(); ++q) ASSERT_EQ(streamed[j][q], r.traces[q][j]);
  }
}

TEST(RunObserver, RecordDtThatIsNotWholeStepsIsRefusedByName) {
  for (const char* bad : {"record_dt=0.03", "record_dt=0.01", "record_dt=0", "record_dt=-0.1",
                          "record_dt=\"x\"", "record_dt=1e300"}) {
    SCOPED_TRACE(bad);
    try {
      parse_simulation_config(kChain, "chain.json", "", std::vector<std::string>{bad});
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("config key 'record_dt'"), std::string::npos) << what;
      EXPECT_NE(what.find("chain.json"), std::string::npos) << what;
    }
  }
}

TEST(RunObserver, AnExceptionStopsTheRunAtThatEpoch) {
  const SimulationConfig c = parse_simulation_config(kChain, "chain", "");
  LocalExchange ex;
  Simulation sim(c, ex);
  std::int64_t stopped_at = -1;
  EXPECT_THROW(sim.run([&](EpochReport& e) {
    if (e.steps_done >= 200) {
      stopped_at = e.steps_done;
      throw std::runtime_error("interrupted");
    }
  }),
               std::runtime_error);
  EXPECT_GE(stopped_at, 200);
  EXPECT_LT(stopped_at, c.params.steps());
  // A new Simulation of the same model runs to the end as if nothing happened.
  EXPECT_EQ(run_simulation(c).spike_gids, Simulation(c, ex).run().spike_gids);
}

TEST(CellTemplateJson, TemplatesGivenInCodeGiveTheConfigFilesRaster) {
  const SimulationConfig from_file = parse_simulation_config(kChain, "chain", "");
  // The same cell from JSON, with the ring's synapse (soma(0.5), tau 2, e 0) listed.
  // The same cell from JSON, with the ring's synapse (soma(0.5), tau 2, e 0) listed and the
  // detector a network adds (soma(0.5), threshold 10).
  const CellTemplate t = parse_cell_template(
      R"({"morphology": "synthetic:ball-and-stick", "nseg": 3,
          "mechanisms": [{"name": "hh", "region": "soma"}],
          "synapses": [{"location": {"section": 0, "x": 0.5}, "tau": 2, "e": 0}],
          "detector": {}})",
      "<cell>", "");
  EXPECT_EQ(t.synapses.size(), 1u);
  EXPECT_TRUE(t.detector.present);
  EXPECT_FALSE(parse_cell_template(R"({"morphology": "synthetic:ball-and-stick"})", "<cell>", "")
                   .detector.present);  // only when given
  std::string text = kChain;
  const auto cell = text.find("\"cell\"");
  text.erase(cell, text.find("\"network\"") - cell);  // no "cell": the templates are given
  const SimulationConfig given = parse_simulation_config(text, "given", "", {t});
  EXPECT_EQ(run_simulation(given).spike_gids.size(), run_simulation(from_file).spike_gids.size());
  EXPECT_EQ(run_simulation(given).spike_times, run_simulation(from_file).spike_times);
}

TEST(CellTemplateJson, BadEntriesAreNamedAsInAConfigFile) {
  auto error = [](const std::string& json) {
    try {
      parse_cell_template(json, "<cell>", "");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  EXPECT_NE(error(R"({"morphology": "synthetic:ball-and-stick",
                      "synapses": [{"tau": 0}]})")
                .find("config key 'cell.synapses[].tau': must be > 0"),
            std::string::npos);
  EXPECT_NE(error(R"({"morphology": "synthetic:ball-and-stick",
                      "mechanisms": [{"name": "pas", "g": -1}]})")
                .find("config key 'cell.mechanisms[].g': must lie in [0"),
            std::string::npos);
  EXPECT_NE(error(R"({"morphology": "synthetic:ball-and-stick", "nsge": 3})")
                .find("config key 'cell.nsge': unknown key"),
            std::string::npos);
  EXPECT_NE(error(R"({"morphology": "synthetic:ball-and-stick",
                      "synapses": [{"location": {"section": 9}}]})")
                .find("cell.synapses[].location.section"),
            std::string::npos);
  EXPECT_NE(error(R"({"morphology": "synthetic:ball-and-stick", "cell": 1})").find("unknown key"),
            std::string::npos);
}

}  // namespace
}  // namespace hinesbatch::test
