// The simulation's schedules against each other and the dense network: lanes (SIMD tiles)
// and cells on the host, on chip on every backend, partial tiles, cells too large for
// scratch, and non-physical cells named the same way by every schedule.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "support/backends.hpp"
#include "support/dense_network.hpp"
#include "support/mixed_trees.hpp"

namespace hinesbatch::test {
namespace {

// The tiles schedule (cell_tiles.hpp) against the cells schedule and the dense network on
// mixed_trees, with cell counts per tree that are not multiples of W (partial tiles). Same
// raster, same voltages at every recorded node.
TEST(SimulationSchedules, LanesMatchCellsWithMixedTreesAndPartialTiles) {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const int W = impl::cell_tile_lanes<Host>();
  // per tree 1.5 (W + 1), 1.5 (W + 1), 3 (W + 1): partial tiles
  const MixedTrees m = mixed_trees(6 * (W + 1));
  const auto& templates = m.templates;
  const NetworkSpec& net = m.net;
  const SimulationParameters& p = m.p;
  const auto& gids = m.gids;
  const auto& rec = m.rec;
  ASSERT_EQ(templates[0].compartments.size(), templates[1].compartments.size());
  ASSERT_NE(templates[0].compartments.size(), templates[3].compartments.size());
  const DenseNetworkResult ref = dense_network_reference(templates, net, p, rec);
  ASSERT_GE(ref.raster.size(), static_cast<std::size_t>(net.cells) / 2);
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
        NetworkSimulation<Exec> sim(exec, templates, net, gids, p, ex, o, rec);
        EXPECT_STREQ(sim.metrics().schedule.c_str(), to_string(schedule));
        sim.run();
        EXPECT_EQ(sim.metrics().tile_cells, schedule == HostSchedule::Tiles ? W : 1);
        EXPECT_EQ(sim.metrics().team_lanes, 1);
        rasters.push_back(sim.spikes());
        traces.push_back(sim.traces());
      }
      EXPECT_EQ(rasters[1], rasters[0]) << "lanes vs cells";
      EXPECT_EQ(rasters[0], ref.raster) << "cells vs the dense reference";
      ASSERT_EQ(traces[0].size(), ref.traces.size());
      ASSERT_EQ(traces[1].size(), ref.traces.size());
      double worst = 0, worst_ref = 0;
      for (std::size_t k = 0; k < ref.traces.size(); ++k)
        for (std::size_t j = 0; j < rec.size(); ++j) {
          ASSERT_TRUE(std::isfinite(traces[1][k][j])) << "row " << k << " record " << j;
          worst = std::max(worst, std::fabs(traces[1][k][j] - traces[0][k][j]));
          worst_ref = std::max(worst_ref, std::fabs(traces[1][k][j] - ref.traces[k][j]));
        }
      EXPECT_LE(worst, 1e-9) << "max |v_lanes - v_cells| in mV";
      std::ostringstream worst_text;
      worst_text << worst;  // 0 where both compile alike (no FMA contraction difference)
      ::testing::Test::RecordProperty(std::string("max_abs_v_lanes_minus_cells_mV_") + Exec::name(),
                                      worst_text.str());
      EXPECT_LT(worst_ref, 1e-6) << "max |v_lanes - v_ref| in mV";
    }
  };
  std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
}

// A ring whose odd gids (template 1) get an IClamp of 1e10 nA: non-physical cells that
// stop a run with a named error.
Ring ring_with_non_physical_cells(int cells) {
  Ring r = ring(cells, 0, 1.0, 2.0);
  r.templates.push_back(r.templates[0]);
  r.templates[1].iclamps = {IClampSpec{{1, 0.5}, 0.5, 5, 1e10}};
  r.net.templates = 2;
  return r;
}
std::vector<std::int64_t> all_gids(std::int64_t cells) {
  std::vector<std::int64_t> gids(cells);
  for (std::int64_t g = 0; g < cells; ++g) gids[g] = g;
  return gids;
}

// A non-physical cell in the middle of a tile (an IClamp of 1e10 nA on every other cell)
// stops both schedules with the same error: same gid, node and time.
TEST(SimulationSchedules, NonPhysicalCellIsNamedTheSameByBothSchedules) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const Ring r = ring_with_non_physical_cells(2 * impl::cell_tile_lanes<Exec>() + 3);
  const std::vector<std::int64_t> gids = all_gids(r.net.cells);
  std::vector<std::string> errors;
  for (HostSchedule schedule : {HostSchedule::Cells, HostSchedule::Tiles}) {
    LocalExchange ex;
    RunOptions o;
    o.host_schedule = schedule;
    NetworkSimulation<Exec> sim(Exec(), r.templates, r.net, gids, r.p, ex, o);
    try {
      sim.run();
      ADD_FAILURE() << to_string(schedule) << ": ran";
    } catch (const SolverError& e) {
      errors.push_back(e.what());
    }
  }
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[1], errors[0]);
  EXPECT_NE(errors[0].find("at gid 1, node "), std::string::npos) << errors[0];
}

// How far the on-chip schedule's voltages may be from the cells schedule's, in mV. The
// on-chip schedule solves its system for v itself and the cells schedule (as NEURON) for dv,
// so a step's rounding is relative to v and grows with the tree's conditioning: 2e-11 mV
// on mixed_trees before the first spike, 3e-11 between spikes, 1.3e-8 at worst during an
// upstroke, which amplifies any difference and lets it decay again (it does not
// accumulate). Both are within 1e-6 mV of the dense reference; rasters are identical.
constexpr double kOnChipVsCellsMv = 1e-7;

// The on-chip schedule (cell_epoch_on_chip.hpp) forced on every backend, against the
// cells schedule of the same backend and the dense network, on mixed_trees: events arrive
// inside epochs of 20 steps (delays 1-2 ms) and of 7. Same raster; voltages at every
// recorded node agree to rounding (kOnChipVsCellsMv).
TEST(SimulationSchedules, OnChipMatchesCellsOnEveryBackend) {
  const MixedTrees m = mixed_trees(30);
  const DenseNetworkResult ref = dense_network_reference(m.templates, m.net, m.p, m.rec);
  ASSERT_GE(ref.raster.size(), 15u) << "the kick must travel round the rings";
  auto run_on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    std::vector<std::vector<Spike>> rasters;
    std::vector<std::vector<std::vector<double>>> traces;
    for (const int epoch_steps : {0, 7})
      for (OnChipSteps mode : {OnChipSteps::Off, OnChipSteps::On}) {
        LocalExchange ex;
        RunOptions o;
        o.host_schedule = HostSchedule::Cells;
        o.on_chip = mode;
        o.epoch_steps = epoch_steps;
        NetworkSimulation<Exec> sim(exec, m.templates, m.net, m.gids, m.p, ex, o, m.rec);
        EXPECT_STREQ(sim.metrics().schedule.c_str(), mode == OnChipSteps::On ? "on_chip" : "cells");
        // A warp per cell of these small trees on a GPU, a thread on a host.
        EXPECT_EQ(sim.metrics().team_lanes, mode == OnChipSteps::On ? on_chip_lanes<Exec>() : 1)
            << sim.metrics().schedule_detail;
        // One rank never overlaps: the whole minimum delay (1 ms) is one epoch.
        EXPECT_EQ(sim.epoch_steps(), epoch_steps ? epoch_steps : 40);
        EXPECT_FALSE(sim.metrics().overlap);
        sim.run();
        rasters.push_back(sim.spikes());
        traces.push_back(sim.traces());
      }
    double worst = 0, worst_ref = 0, worst_ref_of[2] = {0, 0};  // cells, on chip
    for (std::size_t b = 0; b < rasters.size(); ++b) {
      EXPECT_EQ(rasters[b], ref.raster) << "run " << b;
      ASSERT_EQ(traces[b].size(), ref.traces.size());
      for (std::size_t k = 0; k < ref.traces.size(); ++k)
        for (std::size_t j = 0; j < m.rec.size(); ++j) {
          ASSERT_TRUE(std::isfinite(traces[b][k][j])) << "run " << b << " row " << k;
          worst = std::max(worst, std::fabs(traces[b][k][j] - traces[b & ~std::size_t{1}][k][j]));
          worst_ref = std::max(worst_ref, std::fabs(traces[b][k][j] - ref.traces[k][j]));
          worst_ref_of[b & 1] =
              std::max(worst_ref_of[b & 1], std::fabs(traces[b][k][j] - ref.traces[k][j]));
        }
    }
    EXPECT_LE(worst, kOnChipVsCellsMv) << "max |v_on_chip - v_cells| in mV";
    std::ostringstream worst_text;
    worst_text << worst;
    ::testing::Test::RecordProperty(std::string("max_abs_v_on_chip_minus_cells_mV_") + Exec::name(),
                                    worst_text.str());
    for (int on = 0; on < 2; ++on) {
      std::ostringstream text;
      text << worst_ref_of[on];
      ::testing::Test::RecordProperty(
          std::string("max_abs_v_minus_dense_mV_") + (on ? "on_chip_" : "cells_") + Exec::name(),
          text.str());
    }
    EXPECT_LT(worst_ref, 1e-6) << "max |v - v_ref| in mV";
  };
  std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
}

// the synthetic:p3 cell with hh on every node (as CoreNEURON's ringtest has it) fits the on-chip
// schedule's scratch: its constants live in the template's block, its voltages and gates in
// memory, the scratch keeps d and rhs. On a GPU backend auto picks it. Forced on every
// backend, against the cells schedule: same raster, every spike of a 20 ms ring with events
// inside epochs, voltages at every recorded node equal to rounding.
TEST(SimulationSchedules, OnChipKeepsP3CellsWithHHOnEveryNode) {
  DensityMechanism hh_all;
  hh_all.kind = DensityMechanism::HH;
  hh_all.region = Region::All;
  hh_all.hh.gnabar = 0.25;
  const std::vector<ExpSynSpec> syn(2, ExpSynSpec{{0, 0.5}, 2.0, 0.0});
  Ring r = ring(12, 1, 1.0, 2.0);
  r.templates = {make_cell_template(synthetic_sections("p3"), 100, 1, {hh_all}, {}, syn,
                                    DetectorSpec{true, {0, 0.5}, 10})};
  r.p.tstop = 20;
  const int nodes = r.templates[0].compartments.size();
  ASSERT_GE(nodes, 400) << "the synthetic:p3 cell";
  const std::vector<std::int64_t> gids = all_gids(r.net.cells);
  std::vector<RecordSpec> rec;
  for (std::int64_t g : {std::int64_t{0}, std::int64_t{7}})
    for (const RecordSpec& x : every_node(r.templates[0])) rec.push_back({g, x.where});
  auto run_on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    if (!is_host_backend<Exec>()) {
      LocalExchange ex;
      RunOptions o;
      o.on_chip = OnChipSteps::Auto;
      NetworkSimulation<Exec> sim(exec, r.templates, r.net, gids, r.p, ex, o);
      EXPECT_STREQ(sim.metrics().schedule.c_str(), "on_chip") << nodes << " nodes, all with hh";
    }
    std::vector<std::vector<Spike>> rasters;
    std::vector<std::vector<std::vector<double>>> traces;
    for (OnChipSteps mode : {OnChipSteps::Off, OnChipSteps::On}) {
      LocalExchange ex;
      RunOptions o;
      o.host_schedule = HostSchedule::Cells;
      o.on_chip = mode;
      NetworkSimulation<Exec> sim(exec, r.templates, r.net, gids, r.p, ex, o, rec);
      EXPECT_STREQ(sim.metrics().schedule.c_str(), mode == OnChipSteps::On ? "on_chip" : "cells");
      sim.run();
      rasters.push_back(sim.spikes());
      traces.push_back(sim.traces());
    }
    // The kick reaches gid 0 at 1 ms; every cell of both rings fires once it goes round.
    EXPECT_GE(rasters[0].size(), static_cast<std::size_t>(r.net.cells)) << "the ring must run";
    EXPECT_EQ(rasters[1], rasters[0]);
    ASSERT_EQ(traces[1].size(), traces[0].size());
    double worst = 0;
    for (std::size_t k = 0; k < traces[0].size(); ++k)
      for (std::size_t j = 0; j < rec.size(); ++j) {
        ASSERT_TRUE(std::isfinite(traces[1][k][j])) << "row " << k << " column " << j;
        worst = std::max(worst, std::fabs(traces[1][k][j] - traces[0][k][j]));
      }
    EXPECT_LE(worst, kOnChipVsCellsMv) << "max |v_on_chip - v_cells| in mV";
    std::ostringstream worst_text;
    worst_text << worst;
    ::testing::Test::RecordProperty(
        std::string("max_abs_v_on_chip_minus_cells_p3_hh_mV_") + Exec::name(), worst_text.str());
  };
  std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
}

// A non-physical cell under the on-chip schedule stops the run naming its gid, as the
// cells schedule does; a cell too large for shared memory (4,003 nodes: 64 KB of scratch)
// still runs on chip, auto and on, with the cells schedule's raster.
TEST(SimulationSchedules, OnChipNamesFailuresAndTakesCellsOfAnySize) {
  auto run_on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    const Ring r = ring_with_non_physical_cells(9);
    const std::vector<std::int64_t> gids = all_gids(r.net.cells);
    std::vector<std::string> errors;
    for (OnChipSteps mode : {OnChipSteps::Off, OnChipSteps::On}) {
      LocalExchange ex;
      RunOptions o;
      o.host_schedule = HostSchedule::Cells;
      o.on_chip = mode;
      NetworkSimulation<Exec> sim(exec, r.templates, r.net, gids, r.p, ex, o);
      try {
        sim.run();
        ADD_FAILURE() << to_string(mode) << ": ran";
      } catch (const SolverError& e) {
        errors.push_back(e.what());
      }
    }
    ASSERT_EQ(errors.size(), 2u);
    EXPECT_NE(errors[1].find("at gid 1, node "), std::string::npos) << errors[1];
    EXPECT_NE(errors[0].find("at gid 1, node "), std::string::npos) << errors[0];

    const SimulationConfig big = parse_simulation_config(
        R"({"dt": 0.025, "tstop": 6, "cell": {"morphology": "synthetic:ball-and-stick",
            "nseg": 4001, "mechanisms": [{"name": "hh", "region": "all"}],
            "iclamp": [{"location": {"section": 0, "x": 0.5}, "del": 0.5, "dur": 1, "amp": 2}],
            "detector": {"location": {"section": 0, "x": 0.5}, "threshold": 10}},
            "network": {"type": "single"}})",
        "big", "");
    ASSERT_GT(big.templates[0].compartments.size(), 4000);
    std::vector<std::vector<Spike>> rasters;
    for (OnChipSteps mode : {OnChipSteps::Off, OnChipSteps::On, OnChipSteps::Auto}) {
      LocalExchange ex;
      RunOptions o;
      o.host_schedule = HostSchedule::Cells;
      o.on_chip = mode;
      NetworkSimulation<Exec> sim(exec, big.templates, big.network, {0}, big.params, ex, o);
      EXPECT_STREQ(
          sim.metrics().schedule.c_str(),
          mode == OnChipSteps::Off || (mode == OnChipSteps::Auto && is_host_backend<Exec>())
              ? "cells"
              : "on_chip");
      sim.run();
      rasters.push_back(sim.spikes());
    }
    ASSERT_FALSE(rasters[0].empty()) << "the kick must fire the cell";
    EXPECT_EQ(rasters[1], rasters[0]);
    EXPECT_EQ(rasters[2], rasters[0]);
  };
  std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
}

// Cells too large for a tile's d and rhs in team scratch (the host's level-1 limit is a
// few MB: here 2 x 16 lanes x 96,000 nodes x 8 B) keep them in memory: same voltages.
TEST(SimulationSchedules, TilesBeyondScratchKeepTheirTemporariesInMemory) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  SectionedMorphology big = synthetic_sections("ball-and-stick");
  for (int k = 0; k < 3; ++k) {  // 3 dendrites of 32,000 segments of 0.01 um
    Section d = big.sections[1];
    d.nseg = 32000;
    d.pt3d[1].x = d.pt3d[0].x + 320;
    big.sections.push_back(d);
  }
  big.sections.erase(big.sections.begin() + 1);
  DensityMechanism pas, hh;
  pas.kind = DensityMechanism::Pas;
  pas.region = Region::Dend;
  hh.kind = DensityMechanism::HH;
  hh.region = Region::Soma;
  const CellTemplate t = make_cell_template(big, 100, 1, {pas, hh}, {IClampSpec{{0, 0.5}, 0, 1, 2}},
                                            {}, DetectorSpec{true, {0, 0.5}, 10});
  ASSERT_GT(t.compartments.size(), 96000);
  NetworkSpec net;
  net.cells = 3;  // one partial tile
  SimulationParameters p;
  p.tstop = 0.5;
  const std::vector<std::int64_t> gids{0, 1, 2};
  {
    CellGroup<Exec> lanes(Exec(), {t}, net, gids, p, 1, HostSchedule::Tiles);
    ASSERT_EQ(lanes.num_tiles(), 1);
    const std::size_t scratch =
        2 * sizeof(double) * impl::cell_tile_lanes<Exec>() * t.compartments.size();
    EXPECT_EQ(lanes.tiles_in_scratch(),
              scratch <= static_cast<std::size_t>(impl::SimdTilePolicy<Exec>::scratch_size_max(1)));
    if (lanes.tiles_in_scratch()) GTEST_SKIP() << "the host's scratch holds " << scratch << " B";
  }
  std::vector<RecordSpec> rec;
  for (int g = 0; g < 3; ++g)
    for (const double x : {0.0, 0.5, 1.0})
      for (int sec = 0; sec < 4; ++sec) rec.push_back({g, {sec, x}});
  std::vector<std::vector<std::vector<double>>> traces;
  for (HostSchedule schedule : {HostSchedule::Cells, HostSchedule::Tiles}) {
    LocalExchange ex;
    RunOptions o;
    o.host_schedule = schedule;
    NetworkSimulation<Exec> sim(Exec(), {t}, net, gids, p, ex, o, rec);
    sim.run();
    traces.push_back(sim.traces());
  }
  ASSERT_EQ(traces[0].size(), traces[1].size());
  double worst = 0, moved = 0;
  for (std::size_t k = 0; k < traces[0].size(); ++k)
    for (std::size_t j = 0; j < rec.size(); ++j) {
      worst = std::max(worst, std::fabs(traces[1][k][j] - traces[0][k][j]));
      moved = std::max(moved, std::fabs(traces[0][k][j] - p.v_init));
    }
  EXPECT_LE(worst, 1e-9) << "max |v_lanes - v_cells| in mV";
  EXPECT_GT(moved, 1.0) << "the clamp must move the soma";
}

}  // namespace
}  // namespace hinesbatch::test
