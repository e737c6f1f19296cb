// Every real cell runs, whatever its size, on every schedule of every backend, with the
// same raster: each file of ../shared/morphologies alone and all of them mixed, hh on every
// section and hh in the soma with pas elsewhere, nseg by d_lambda and by 20 um, synapses on
// random dendrites. And the on-chip launch plan (on_chip_launch_plan.hpp) against what a
// device allows: no cell is ever given a launch the device refuses.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/on_chip_launch_plan.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "support/backends.hpp"
#include "support/config_runs.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

// --- the launch plan against fake devices ------------------------------------------------

// A device as Kokkos 3.4 with the opt-in patch reports an H100 (or, small = true, a K80
// without opt-in): the warp kind takes a team only where 28 (16) teams share an SM, the
// team kinds any team of up to 1,024 lanes whose scratch fits.
OnChipDevice fake_gpu(bool small = false) {
  OnChipDevice d;
  d.gpu = true;
  d.multiprocessors = small ? 13 : 132;
  d.shared_per_sm = small ? 112 * 1024 : 228 * 1024;
  d.scratch0_max = small ? 40 * 1024 : 219 * 1024;
  d.scratch1_max = 20 * 1024 * 1024;
  const std::size_t per_sm = d.shared_per_sm;
  const int min_blocks = small ? 16 : 28;
  d.warp_team_max = [per_sm, min_blocks](std::size_t bytes) {
    return per_sm / (bytes + 1024) >= std::size_t(min_blocks) ? 32 : 0;
  };
  const std::size_t max0 = d.scratch0_max;
  d.team_max = [max0](std::size_t bytes, int level) {
    return level == 1 || bytes <= max0 ? 1024 : 0;
  };
  return d;
}

OnChipDevice fake_host() {
  OnChipDevice d;
  d.scratch0_max = 64 * 1024;
  d.scratch1_max = std::size_t(1) << 31;
  d.team_max = [](std::size_t, int) { return 1; };
  d.warp_team_max = [](std::size_t) { return 1; };
  return d;
}

// Cells of the given sizes (sorted, largest first), each its own tree, a critical path
// that shrinks with the lanes down to the tree's depth (a chain of a fifth of the nodes).
OnChipCells fake_cells(std::vector<int> nodes, bool hh) {
  std::sort(nodes.rbegin(), nodes.rend());
  OnChipCells c;
  c.nodes = nodes;
  for (std::size_t s = 0; s < nodes.size(); ++s) {
    c.hh_nodes.push_back(hh ? nodes[s] : 1);
    c.tree.push_back(static_cast<int>(s));
  }
  c.critical_path = [nodes](int tree, int lanes, bool) {
    const int n = nodes[tree];
    return std::max(n / 5, n / lanes) + 4 * 8;
  };
  return c;
}

// Every plan covers the slots in order, once, and every launch is one the device takes:
// its lanes within what Kokkos allows for its kind and scratch, the scratch within the
// level's limit, the largest cell of the launch its first.
void expect_valid_plan(const std::vector<OnChipLaunch>& plan, const OnChipCells& c,
                       const OnChipDevice& d) {
  ASSERT_FALSE(plan.empty());
  int next = 0;
  for (const OnChipLaunch& l : plan) {
    SCOPED_TRACE(l.why);
    EXPECT_EQ(l.slot_begin, next);
    ASSERT_GT(l.slot_end, l.slot_begin);
    next = l.slot_end;
    EXPECT_EQ(l.scratch_nodes, c.nodes[l.slot_begin]);
    const std::size_t bytes = (l.fill ? 24 : 16) * std::size_t(l.scratch_nodes);
    if (l.kind == OnChipLaunch::kWarpPerCell) {
      EXPECT_LE(bytes, d.scratch0_max);
      EXPECT_GE(d.warp_team_max(bytes), l.lanes);
    } else {
      EXPECT_LE(bytes, l.scratch_level() == 0 ? d.scratch0_max : d.scratch1_max);
      EXPECT_GE(d.team_max(bytes, l.scratch_level()), l.lanes);
    }
    if (d.gpu) {
      EXPECT_EQ(l.lanes % 32, 0);
      EXPECT_LE(l.lanes, 1024);
    } else {
      EXPECT_EQ(l.lanes, 1);
    }
    EXPECT_FALSE(l.why.empty());
  }
  EXPECT_EQ(next, static_cast<int>(c.nodes.size()));
}

TEST(OnChipLaunchPlan, EveryCellSizeAndCountGetsALaunchTheDeviceTakes) {
  for (const bool small : {false, true})
    for (const int count : {1, 7, 200, 2000})
      for (const int n : {1, 76, 481, 509, 510, 1151, 2461, 3631, 7001, 14001, 30001, 200001}) {
        SCOPED_TRACE(std::to_string(count) + " cells of " + std::to_string(n) + " nodes" +
                     (small ? " on the small GPU" : ""));
        const OnChipDevice d = fake_gpu(small);
        const OnChipCells c = fake_cells(std::vector<int>(count, n), true);
        expect_valid_plan(plan_on_chip_launches(c, d), c, d);
        const OnChipDevice h = fake_host();
        expect_valid_plan(plan_on_chip_launches(c, h), c, h);
      }
}

TEST(OnChipLaunchPlan, MixedSizesGoInLaunchesOfAlikeCells) {
  std::vector<int> nodes;
  for (int k = 0; k < 12; ++k)
    for (int r = 0; r < 500; ++r) nodes.push_back(123 + 211 * k);  // 123 .. 2,444
  const OnChipCells c = fake_cells(nodes, true);
  const OnChipDevice d = fake_gpu();
  const auto plan = plan_on_chip_launches(c, d);
  expect_valid_plan(plan, c, d);
  EXPECT_GE(plan.size(), 3u);
  for (const OnChipLaunch& l : plan)  // each launch a cell per SM at least, or all the rest
    EXPECT_TRUE(l.slot_end - l.slot_begin >= d.multiprocessors ||
                l.slot_end == static_cast<int>(nodes.size()));
  for (const OnChipLaunch& l : plan)  // alike: at least half the first's nodes, or merged
    EXPECT_TRUE(2 * c.nodes[l.slot_end - 1] > l.scratch_nodes ||
                l.slot_end - l.slot_begin <= 2 * d.multiprocessors ||
                l.slot_end == static_cast<int>(nodes.size()))
        << l.why;
  // The largest cells, too large for 28 per SM, in teams.
  EXPECT_NE(plan.front().kind, OnChipLaunch::kWarpPerCell) << plan.front().why;
}

TEST(OnChipLaunchPlan, ManyP3SizedCellsTakeAWarpEach) {
  const OnChipDevice d = fake_gpu();
  const auto plan = plan_on_chip_launches(fake_cells(std::vector<int>(100000, 450), false), d);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, OnChipLaunch::kWarpPerCell) << plan[0].why;
  EXPECT_EQ(plan[0].lanes, 32);
}

TEST(OnChipLaunchPlan, FewLargeCellsTakeMoreLanesThanMany) {
  const OnChipDevice d = fake_gpu();
  const auto few = plan_on_chip_launches(fake_cells(std::vector<int>(20, 3631), false), d);
  const auto many = plan_on_chip_launches(fake_cells(std::vector<int>(20000, 3631), false), d);
  ASSERT_EQ(few.size(), 1u);
  ASSERT_EQ(many.size(), 1u);
  EXPECT_GE(few[0].lanes, many[0].lanes) << few[0].why << " / " << many[0].why;
  EXPECT_GT(few[0].lanes, 32) << few[0].why;
}

TEST(OnChipLaunchPlan, CellsBeyondSharedMemoryRunInTheTeamsMemory) {
  const OnChipDevice d = fake_gpu();
  const auto plan = plan_on_chip_launches(fake_cells({30001, 30001}, true), d);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, OnChipLaunch::kTeamInMemory) << plan[0].why;
  EXPECT_EQ(plan[0].scratch_level(), 1);
}

// A cell that shared memory holds once per SM (8,269 nodes: 132 KB) runs faster from the
// team's memory with more cells per SM (H100, 2,000 such cells: 5.7e9 against 4.3e9
// compartment-steps/s); one that it holds five times per SM does not (2,245 nodes: 0.5x).
TEST(OnChipLaunchPlan, CellsSharedMemoryHoldsOncePerSMRunFromTheTeamsMemory) {
  const OnChipDevice d = fake_gpu();
  const auto huge = plan_on_chip_launches(fake_cells(std::vector<int>(2000, 8269), false), d);
  ASSERT_EQ(huge.size(), 1u);
  EXPECT_EQ(huge[0].kind, OnChipLaunch::kTeamInMemory) << huge[0].why;
  const auto large = plan_on_chip_launches(fake_cells(std::vector<int>(2000, 2245), false), d);
  ASSERT_EQ(large.size(), 1u);
  EXPECT_EQ(large[0].kind, OnChipLaunch::kTeamPerCell) << large[0].why;
}

TEST(OnChipLaunchPlan, ForcedShapesAreTakenWhereAllowedAndSaidWhereNot) {
  const OnChipDevice d = fake_gpu();
  const OnChipCells c = fake_cells(std::vector<int>(1000, 1151), true);
  OnChipForce f;
  f.kind = OnChipLaunch::kTeamInMemory;
  f.lanes = 128;
  auto plan = plan_on_chip_launches(c, d, f);
  ASSERT_EQ(plan.size(), 1u);
  EXPECT_EQ(plan[0].kind, OnChipLaunch::kTeamInMemory);
  EXPECT_EQ(plan[0].lanes, 128);
  f.kind = OnChipLaunch::kWarpPerCell;  // 18 KB: fewer than 28 per SM, not allowed
  f.lanes = 0;
  plan = plan_on_chip_launches(c, d, f);
  EXPECT_NE(plan[0].kind, OnChipLaunch::kWarpPerCell);
  EXPECT_NE(plan[0].why.find("not allowed"), std::string::npos) << plan[0].why;
}

// Plans that split spines (a third of the scratch more, a shorter path) are taken only by
// teams with d and rhs in shared memory, where the model or the force says so, and never
// where the force says no.
TEST(OnChipLaunchPlan, SplitSpinesOnlyForTeamsInSharedMemory) {
  const OnChipDevice d = fake_gpu();
  for (const int n : {300, 1151, 3000, 20000}) {
    OnChipCells c = fake_cells(std::vector<int>(2000, n), true);
    const auto plain = c.critical_path;
    c.critical_path = [plain](int tree, int lanes, bool split) {
      return split && lanes >= 64 ? plain(tree, lanes, false) / 2 : plain(tree, lanes, false);
    };
    c.fill = [](int, int lanes) { return lanes >= 64; };
    for (const int force : {-1, 0, 1}) {
      SCOPED_TRACE(std::to_string(n) + " nodes, split_spines " + std::to_string(force));
      OnChipForce f;
      f.split_spines = force;
      const auto plan = plan_on_chip_launches(c, d, f);
      expect_valid_plan(plan, c, d);
      for (const OnChipLaunch& l : plan) {
        if (l.fill) {
          EXPECT_EQ(l.kind, OnChipLaunch::kTeamPerCell) << l.why;
          EXPECT_GE(l.lanes, 64) << l.why;
          EXPECT_NE(l.why.find("split spines"), std::string::npos) << l.why;
        }
        if (force == 0) EXPECT_FALSE(l.fill) << l.why;
        if (force == 1 && l.kind == OnChipLaunch::kTeamPerCell && l.lanes >= 64 &&
            l.scratch_level() == 0)
          EXPECT_TRUE(l.fill) << l.why;
      }
    }
  }
}

TEST(OnChipLaunchPlan, ACellNoTeamCanHoldIsRefusedByName) {
  OnChipDevice d = fake_gpu();
  d.scratch1_max = 1 << 20;  // 65,536 nodes
  try {
    plan_on_chip_launches(fake_cells({100001}, true), d);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("a cell of 100001 nodes needs 1600016 B"),
              std::string::npos)
        << e.what();
    EXPECT_EQ(e.value(), "100001");
  }
}

// --- every real morphology through every schedule ----------------------------------------

// Recorded voltages of one backend's schedules agree to this (mV): the on-chip step solves
// for v, the cells schedule for dv, and split spines eliminate in another order.
constexpr double kRealCellsScheduleMv = 1e-6;

struct RealCase {
  std::string name;
  std::vector<std::string> files;
  bool hh_everywhere, d_lambda;
  int cells;
  int segment_um = 20;  // without d_lambda
};

std::string real_config(const RealCase& k, double tstop) {
  std::ostringstream j;
  j << R"({"dt": 0.025, "tstop": )" << tstop << R"(, "cell": {"morphology": [)";
  for (std::size_t i = 0; i < k.files.size(); ++i) j << (i ? ", " : "") << '"' << k.files[i] << '"';
  j << "], "
    << (k.d_lambda ? std::string(R"("d_lambda": 0.1)")
                   : R"("max_segment_length_um": )" + std::to_string(k.segment_um))
    << R"(, "Ra": 100, "cm": 1, "mechanisms": )"
    << (k.hh_everywhere ? R"([{"name": "hh", "region": "all", "gnabar": 0.12}])"
                        : R"([{"name": "pas", "region": "all", "g": 0.0001, "e": -65},
                  {"name": "hh", "region": "soma", "gnabar": 0.12}])")
    << R"(, "detector": {"location": {"section": 0, "x": 0.5}, "threshold": 10}},
          "network": {"type": "random", "cells": )"
    << k.cells << R"(, "synapses_per_cell": )" << std::min(5, k.cells - 1)
    << R"(, "weight": 0.002, "weight_max": 0.004, "delay": [1.0, 3.0], "tau": 2.0, "e": 0.0,
          "synapse_location": "random_dendrites",
          "kick": {"time": 0.5, "weight": 0.5, "cells": )"
    << std::max(1, k.cells / 3) << R"(}, "seed": 3}, "run": {"progress_every_s": 0},
          "record": [{"gid": 0, "location": {"section": 0, "x": 0.5}},
                     {"gid": 1, "location": {"section": 1, "x": 0.9}}]})";
  return j.str();
}

// Whether the SWC file has a soma (a point of type 1): hh in the soma needs one (CT12T2
// has none, and a region that matches nothing is refused).
bool has_soma(const std::string& file) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    long id = 0;
    int type = 0;
    if (line.empty() || line[0] == '#' || !(fields >> id >> type)) continue;
    if (type == 1) return true;
  }
  return false;
}

// mixed: all files in one network (two cells of each), in the four combinations of
// mechanisms and nseg; else each file alone (two cells), hh everywhere with d_lambda and
// hh + pas with 20 um segments, and v_e_moto1 with 10 um segments.
// With hh in the soma only the files that have one take part.
std::vector<RealCase> real_cases(bool mixed) {
  const std::vector<std::string> all = real_morphology_files();
  std::vector<RealCase> cases;
  for (const bool hh : {true, false})
    for (const bool dl : {true, false}) {
      std::vector<std::string> files;
      for (const std::string& f : all)
        if (hh || has_soma(f)) files.push_back(f);
      const std::string suffix =
          std::string(hh ? " hh everywhere" : " hh soma, pas") + (dl ? ", d_lambda" : ", 20 um");
      if (!mixed && hh == dl)  // alone: hh everywhere at d_lambda, hh + pas at 20 um
        for (const std::string& f : files)
          cases.push_back({f.substr(f.rfind('/') + 1) + suffix, {f}, hh, dl, 2});
      else if (!files.empty())
        cases.push_back({"all mixed" + suffix, files, hh, dl, 2 * int(files.size())});
    }
  // The cell of the longest unbranched cables at 10 um segments (8,269 compartments): its
  // lane plans split spines, so the GPU's split-spine schedules run their fill.
  if (!mixed)
    for (const std::string& f : all)
      if (f.find("v_e_moto1") != std::string::npos)
        cases.push_back({"v_e_moto1 hh soma, pas, 10 um", {f}, false, false, 2, 10});
  return cases;
}

// How one run is scheduled: the host schedule, on_chip and a forced shape.
struct Schedule {
  std::string name;
  HostSchedule host;
  OnChipSteps on_chip;
  OnChipForce force;
};

std::vector<Schedule> schedules_of(bool gpu) {
  std::vector<Schedule> s{{"cells", HostSchedule::Cells, OnChipSteps::Off, {}},
                          {"on_chip", HostSchedule::Cells, OnChipSteps::On, {}}};
  if (!gpu) {
    s.push_back({"tiles", HostSchedule::Tiles, OnChipSteps::Off, {}});
    s.push_back({"on_chip in memory",
                 HostSchedule::Cells,
                 OnChipSteps::On,
                 {OnChipLaunch::kTeamInMemory, 0}});
  } else {
    s.push_back(
        {"on_chip warp", HostSchedule::Cells, OnChipSteps::On, {OnChipLaunch::kWarpPerCell, 32}});
    for (int lanes : {32, 64, 256})
      s.push_back({"on_chip team " + std::to_string(lanes),
                   HostSchedule::Cells,
                   OnChipSteps::On,
                   {OnChipLaunch::kTeamPerCell, lanes}});
    s.push_back({"on_chip in memory 128",
                 HostSchedule::Cells,
                 OnChipSteps::On,
                 {OnChipLaunch::kTeamInMemory, 128}});
    // Lane plans that split long spines, wherever they do (partitioned elimination).
    for (int lanes : {64, 256})
      s.push_back({"on_chip team " + std::to_string(lanes) + " split spines",
                   HostSchedule::Cells,
                   OnChipSteps::On,
                   {OnChipLaunch::kTeamPerCell, lanes, 1}});
  }
  return s;
}

// Runs every case on every schedule of every enabled backend; the first run's raster is
// the reference, and each backend's cells schedule the reference of that backend's
// recorded voltages (a soma, a dendrite's end), which every other schedule matches to
// rounding. Returns how many cases had spikes.
int expect_one_raster_per_case(const std::vector<RealCase>& cases, double tstop) {
  int spiking = 0;
  for (const RealCase& k : cases) {
    SCOPED_TRACE(k.name);
    const SimulationConfig c = parse_simulation_config(real_config(k, tstop), k.name, "");
    std::vector<std::int64_t> gids(c.network.cells);
    for (std::int64_t g = 0; g < c.network.cells; ++g) gids[g] = g;
    std::vector<Spike> reference;
    bool have_reference = false;
    auto run_on = [&](auto exec) {
      using Exec = decltype(exec);
      const bool gpu = !is_host_backend<Exec>();
      std::vector<std::vector<double>> traces;  // this backend's cells schedule's
      double worst = 0;
      for (const Schedule& s : schedules_of(gpu)) {
        SCOPED_TRACE(std::string(Exec::name()) + ", " + s.name);
        LocalExchange ex;
        RunOptions o = c.run;
        o.host_schedule = s.host;
        o.on_chip = s.on_chip;
        o.on_chip_force = s.force;
        NetworkSimulation<Exec> sim(exec, c.templates, c.network, gids, c.params, ex, o, c.records);
        sim.run();
        if (s.on_chip == OnChipSteps::On) {
          EXPECT_STREQ(sim.metrics().schedule.c_str(), "on_chip");
          EXPECT_FALSE(sim.metrics().schedule_detail.empty());
        }
        if (!have_reference) {
          reference = sim.spikes();
          have_reference = true;
        } else {
          EXPECT_EQ(sim.spikes(), reference) << sim.metrics().schedule_detail;
        }
        const std::vector<std::vector<double>> run_traces = sim.traces();
        if (traces.empty()) {
          traces = run_traces;
          ASSERT_FALSE(traces.empty());
          continue;
        }
        ASSERT_EQ(run_traces.size(), traces.size());
        for (std::size_t r = 0; r < traces.size(); ++r)
          for (std::size_t j = 0; j < traces[r].size(); ++j) {
            ASSERT_TRUE(std::isfinite(run_traces[r][j])) << "row " << r;
            worst = std::max(worst, std::fabs(run_traces[r][j] - traces[r][j]));
          }
        EXPECT_LE(worst, kRealCellsScheduleMv) << sim.metrics().schedule_detail;
      }
      std::ostringstream text;
      text << worst;
      ::testing::Test::RecordProperty(
          "max_abs_v_minus_cells_mV_" + std::string(Exec::name()) + "_" + k.name, text.str());
    };
    std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
    spiking += !reference.empty();
  }
  return spiking;
}

TEST(RealCells, AllMorphologiesMixedGiveOneRasterOnEveryScheduleAndBackend) {
  const std::vector<RealCase> cases = real_cases(true);
  if (cases.empty()) GTEST_SKIP() << "no SWC files in " << morphology_dir();
  // The kick must travel over the dendrites' synapses to other cells.
  EXPECT_EQ(expect_one_raster_per_case(cases, 8), static_cast<int>(cases.size()));
}

TEST(RealCells, EachMorphologyAloneGivesOneRasterOnEveryScheduleAndBackend) {
  const std::vector<RealCase> cases = real_cases(false);
  if (cases.empty()) GTEST_SKIP() << "no SWC files in " << morphology_dir();
  EXPECT_GE(expect_one_raster_per_case(cases, 5), static_cast<int>(cases.size()) / 2);
}

// Enough cells of every file that a GPU's plan cuts them into several launches (a launch
// holds a cell per SM before a smaller cell starts the next), which run side by side on
// streams of their own: the same raster as the cells schedule, voltages to rounding.
TEST(RealCells, SeveralLaunchesSideBySideGiveTheRasterOfTheCellsSchedule) {
  const std::vector<std::string> files = real_morphology_files();
  if (files.empty()) GTEST_SKIP() << "no SWC files in " << morphology_dir();
  const RealCase k{"all mixed, 50 of each", files, true, true, 50 * int(files.size())};
  const SimulationConfig c = parse_simulation_config(real_config(k, 4), k.name, "");
  int gpus = 0;
  auto run_on = [&](auto exec) {
    using Exec = decltype(exec);
    if (is_host_backend<Exec>()) return;
    ++gpus;
    SCOPED_TRACE(Exec::name());
    const Outcome cells = run<Exec>(c, HostSchedule::Cells, OnChipSteps::Off);
    const Outcome on_chip = run<Exec>(c, HostSchedule::Cells, OnChipSteps::On);
    const std::string& detail = on_chip.metrics.schedule_detail;
    int launches = 0;
    for (std::size_t at = detail.find(" cells of <= "); at != std::string::npos;
         at = detail.find(" cells of <= ", at + 1))
      ++launches;
    EXPECT_GE(launches, 2) << detail;
    EXPECT_FALSE(on_chip.spikes.empty());
    EXPECT_EQ(on_chip.spikes, cells.spikes) << detail;
    ASSERT_EQ(on_chip.traces.size(), cells.traces.size());
    for (std::size_t r = 0; r < cells.traces.size(); ++r)
      ASSERT_EQ(on_chip.traces[r].size(), cells.traces[r].size());
    const double worst = max_difference(on_chip, cells);
    EXPECT_LE(worst, kRealCellsScheduleMv) << detail;
  };
  std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
  if (gpus == 0) GTEST_SKIP() << "no GPU backend in this build";
}

}  // namespace
}  // namespace hinesbatch::test
