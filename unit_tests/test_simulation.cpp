// Network simulation: the fused time step against a dense long-double reference
// (support/dense_network.hpp), event delivery, and rasters that do not depend on the epoch
// length, overlap, dry-run replication or the backend (the schedules against each other:
// test_simulation_schedules.cpp; the cell's model: test_neuron_sections.cpp).
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <sstream>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/morphology/cable_matrix.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/device_events.hpp"
#include "hinesbatch/simulation/impl/events.hpp"
#include "hinesbatch/simulation/impl/host_exp.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "support/backends.hpp"
#include "support/dense_network.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

template <class T>
class Simulation : public ::testing::Test {};
using SimSpaces = AsGtestTypes<EnabledExecutionSpaces>::type;
TYPED_TEST_SUITE(Simulation, SimSpaces);

// The device event queue gives, step by step, the same events as the host queue
// (events.hpp), ordered by synapse; an event that would be late is an error. With details
// each event also carries its connection's vector (here the connection's index + 100, every
// third connection none) and its own time, a spike's step times dt plus the connection's
// delay (external events: the time given).
TYPED_TEST(Simulation, DeviceEventsMatchTheHostQueue) {
  using Exec = TypeParam;
  const double dt = 0.025;
  const int sources = 60, synapses = 150, D = 10;
  std::vector<std::int64_t> src;
  std::vector<int> syn;
  std::vector<double> w, delay;
  ConnectionTable table;
  for (int k = 0; k < 1200; ++k) {
    src.push_back(static_cast<std::int64_t>(uniform01(3, k, 0) * sources) * 7);  // gaps in gids
    syn.push_back(static_cast<int>(uniform01(3, k, 1) * synapses));
    w.push_back(uniform01(3, k, 2));
    delay.push_back(0.5 + 3 * uniform01(3, k, 3));
    table.add(src.back(), {syn.back(), w.back(), delay.back()});
  }
  table.finalize();
  std::vector<int> vector(src.size());
  std::map<double, int> connection_of_weight;  // the weights are distinct
  for (std::size_t k = 0; k < src.size(); ++k) {
    vector[k] = k % 3 == 2 ? -1 : static_cast<int>(k) + 100;
    connection_of_weight[w[k]] = static_cast<int>(k);
  }
  ASSERT_EQ(connection_of_weight.size(), src.size());
  const Exec exec;
  for (const bool details : {false, true}) {
    SCOPED_TRACE(details ? "with details" : "without details");
    DeviceEventQueue<Exec> dev(exec, src, syn, w, delay, synapses, dt, details, vector);
    EXPECT_EQ(dev.num_connections(), 1200);
    EXPECT_EQ(dev.details(), details);
    EventQueue host;
    dev.push_external(exec, {3, 3}, {5, 5}, {0.25, 0.5}, {0.064, 0.074}, {7, -1});
    host.push(3, {5, 0.25, 3 * dt, -1});
    host.push(3, {5, 0.5, 3 * dt, -1});
    std::size_t total = 0, checked = 0;
    for (int e = 0; e < 30; ++e) {
      std::vector<int> hb, hs, db;
      std::vector<double> hw;
      host.take(e * D, D, hb, hs, hw);
      dev.take(exec, e * D, D, db);
      ASSERT_EQ(hb, db) << "epoch " << e;
      auto ds = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.synapse());
      auto dw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.weight());
      auto dtime = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.time());
      auto dvec = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.vector());
      if (!details) {
        EXPECT_EQ(dtime.extent(0), 0u);
        EXPECT_EQ(dvec.extent(0), 0u);
      }
      for (int s = 0; s < D; ++s) {
        std::vector<std::pair<int, double>> a, b;
        for (int i = hb[s]; i < hb[s + 1]; ++i) {
          a.push_back({hs[i], hw[i]});
          b.push_back({ds(i), dw(i)});
          if (i > hb[s]) EXPECT_LE(ds(i - 1), ds(i));  // by synapse within a step
          if (!details) continue;
          const std::int64_t step = e * D + s;
          EXPECT_EQ(delivery_step(dtime(i), dt), step) << "event " << i;
          const auto c = connection_of_weight.find(dw(i));
          if (dw(i) == 0.25 || dw(i) == 0.5) {  // the external events
            EXPECT_EQ(dtime(i), dw(i) == 0.25 ? 0.064 : 0.074);
            EXPECT_EQ(dvec(i), dw(i) == 0.25 ? 7 : -1);
          } else if (c != connection_of_weight.end()) {
            EXPECT_EQ(dvec(i), vector[c->second]);
            const double spike_steps = (dtime(i) - delay[c->second]) / dt;
            EXPECT_NEAR(spike_steps, std::round(spike_steps), 1e-9) << "event " << i;
            ++checked;
          } else {
            ADD_FAILURE() << "event " << i << " of weight " << dw(i) << " of no connection";
          }
        }
        std::sort(a.begin(), a.end());
        std::sort(b.begin(), b.end());
        EXPECT_EQ(a, b) << "step " << e * D + s;
        total += a.size();
      }
      // Spikes of this epoch (steps e D + 1 .. (e + 1) D), sorted by (step, gid).
      std::vector<Spike> spikes;
      for (int g = 0; g < sources * 7; g += 7)
        if (uniform01(9, e, g) < 0.3)
          spikes.push_back({g, e * D + 1 + static_cast<std::int64_t>(uniform01(8, e, g) * D)});
      std::sort(spikes.begin(), spikes.end());
      const std::int64_t open = (e + 1) * D;
      EXPECT_EQ(host.push_spikes(spikes, table, dt, open),
                static_cast<std::size_t>(dev.push_spikes(exec, spikes, open)));
    }
    EXPECT_GT(total, 1000u);
    if (details) EXPECT_GT(checked, 1000u);
  }
  // A delay shorter than the epoch: the event would arrive in a step that already ran.
  DeviceEventQueue<Exec> late(exec, {1}, {0}, {1.0}, {0.05}, 1, dt);
  EXPECT_THROW(late.push_spikes(exec, {{1, 5}}, 20), std::logic_error);
}

// The connections' CSR by source: each source's connections in the order they were added
// (the order events on one synapse are summed in), whether it is built by counting (dense
// gids) or by sorting keys (sparse gids, or a source with a larger fan-out than one thread
// sorts); checked against a stable sort on the host.
TYPED_TEST(Simulation, ConnectionsOrderedBySourceAsAdded) {
  using Exec = TypeParam;
  using mem = typename Exec::memory_space;
  const Exec exec;
  struct Case {
    const char* name;
    std::int64_t n, gids, stride, hub_fan_out;
    bool counting;  // expected to be built by counting
  };
  const Case cases[] = {{"dense gids", 20000, 500, 1, 0, true},
                        {"sparse gids", 3000, 200, 1000003, 0, false},
                        {"one source of large fan-out", 40000, 50, 1, 20000, false},
                        {"one connection", 1, 1, 1, 0, true}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Kokkos::View<std::int64_t*, mem> src("src", c.n);
    auto h = Kokkos::create_mirror_view(src);
    for (std::int64_t i = 0; i < c.n; ++i)
      h(i) = i < c.hub_fan_out ? 7 * c.stride
                               : static_cast<std::int64_t>(uniform01(21, i, 0) * c.gids) * c.stride;
    // Fresh order: the hub's connections shuffled among the others.
    for (std::int64_t i = c.n - 1; i > 0; --i)
      std::swap(h(i), h(static_cast<std::int64_t>(uniform01(22, i, 0) * (i + 1))));
    Kokkos::deep_copy(src, h);
    std::int64_t max_gid = 0;
    for (std::int64_t i = 0; i < c.n; ++i) max_gid = std::max(max_gid, h(i));
    std::vector<std::int64_t> expect(c.n);
    std::iota(expect.begin(), expect.end(), std::int64_t(0));
    std::stable_sort(expect.begin(), expect.end(),
                     [&](std::int64_t a, std::int64_t b) { return h(a) < h(b); });
    std::vector<std::int64_t> gids, begins;
    for (std::int64_t k = 0; k < c.n; ++k)
      if (k == 0 || h(expect[k]) != h(expect[k - 1])) {
        gids.push_back(h(expect[k]));
        begins.push_back(k);
      }
    begins.push_back(c.n);
    auto check = [&](const impl::CsrBySource<mem>& csr, const char* how) {
      SCOPED_TRACE(how);
      ASSERT_EQ(static_cast<std::int64_t>(csr.order.extent(0)), c.n);
      auto order = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.order);
      auto sg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.source_gid);
      auto sb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), csr.source_begin);
      for (std::int64_t k = 0; k < c.n; ++k) ASSERT_EQ(order(k), expect[k]) << "slot " << k;
      ASSERT_EQ(csr.num_sources, static_cast<int>(gids.size()));
      ASSERT_EQ(sb.extent(0), begins.size());
      for (std::size_t k = 0; k < gids.size(); ++k) EXPECT_EQ(sg(k), gids[k]) << "source " << k;
      for (std::size_t k = 0; k < begins.size(); ++k) EXPECT_EQ(sb(k), begins[k]) << "begin " << k;
    };
    const auto counted = impl::csr_by_counting(exec, src, max_gid);
    EXPECT_EQ(counted.order.extent(0) > 0, c.counting);
    if (c.counting) check(counted, "by counting");
    check(impl::csr_by_key(exec, src, max_gid), "by key");
  }
  // A negative source gid is named, not sorted somewhere.
  EXPECT_THROW(DeviceEventQueue<Exec>(exec, {3, -2}, {0, 0}, {1.0, 1.0}, {1.0, 1.0}, 1, 0.025),
               std::invalid_argument);
  // The largest gid there is: no count per gid, so the key sort; with two connections
  // (source, index) still fits 64 bits and a spike from it is delivered, with three it
  // does not and the queue says so.
  const std::int64_t top = std::numeric_limits<std::int64_t>::max();
  DeviceEventQueue<Exec> huge(exec, {3, top}, {0, 0}, {1.0, 1.0}, {1.0, 1.0}, 1, 0.025);
  EXPECT_EQ(huge.push_spikes(exec, {{top, 5}}, 6), 1);
  EXPECT_THROW(DeviceEventQueue<Exec>(exec, {3, top, 4}, {0, 0, 0}, {1.0, 1.0, 1.0},
                                      {1.0, 1.0, 1.0}, 1, 0.025),
               std::length_error);
}

// The largest |a - b| over every row and column of two traces of one shape (infinity where a
// value of `a` is not finite).
double max_abs_difference(const std::vector<std::vector<double>>& a,
                          const std::vector<std::vector<double>>& b) {
  double worst = 0;
  for (std::size_t k = 0; k < b.size(); ++k)
    for (std::size_t j = 0; j < b[k].size(); ++j)
      worst = std::isfinite(a[k][j]) ? std::max(worst, std::fabs(a[k][j] - b[k][j]))
                                     : std::numeric_limits<double>::infinity();
  return worst;
}

TYPED_TEST(Simulation, SingleCellMatchesDenseReference) {
  using Exec = TypeParam;
  for (bool with_hh : {false, true}) {
    SCOPED_TRACE(with_hh ? "hh soma" : "passive");
    const CellTemplate t = ball_and_stick(with_hh);
    SimulationParameters p;
    p.tstop = 25;
    const auto rec = every_node(t);
    ASSERT_EQ(static_cast<int>(rec.size()), t.compartments.size());
    NetworkSpec net;
    LocalExchange ex;
    NetworkSimulation<Exec> sim(Exec(), {t}, net, {0}, p, ex, {}, rec);
    sim.run();
    const auto ref = dense_reference(t, p, rec);
    ASSERT_EQ(sim.traces().size(), ref.size());
    EXPECT_LT(max_abs_difference(sim.traces(), ref), 1e-7) << "max |v - v_ref| in mV";
    if (with_hh) {
      EXPECT_GE(sim.spikes().size(), 2u);  // it really fired
    } else {
      EXPECT_TRUE(sim.spikes().empty());
    }
  }
}

// cm and Ra by region (NEURON's sec.cm, sec.Ra), on every host schedule and on chip, against
// the dense reference with each node's own cm.
TYPED_TEST(Simulation, CmAndRaByRegionMatchDenseReference) {
  using Exec = TypeParam;
  CellTemplate t = ball_and_stick(true);
  const CellTemplate uniform = t;
  // Listed after Dend: the later entry wins on section 1, the only dendrite.
  set_membrane_by_region(t, {{Region::Dend, 2.5, {}}, {Region::Listed, 3.0, {1}}},
                         {{Region::Listed, 150.0, {1}}});
  ASSERT_EQ(t.section_cm(), (std::vector<double>{1.0, 3.0}));
  ASSERT_EQ(t.section_Ra(), (std::vector<double>{100.0, 150.0}));
  // The dendrite's axial conductances scale with 1/Ra, the soma's do not; areas stay.
  const NeuronCompartments& a = uniform.compartments;
  const NeuronCompartments& b = t.compartments;
  for (int i = 1; i < b.size(); ++i) {
    ASSERT_EQ(b.area_um2[i], a.area_um2[i]);
    if (b.section_of_node[i] == 1 && b.tree.parent(i) != a.first_centre[0])
      EXPECT_NEAR(b.g_axial_uS[i], a.g_axial_uS[i] * 100.0 / 150.0, 1e-12 * a.g_axial_uS[i]);
    if (b.section_of_node[i] == 0) EXPECT_EQ(b.g_axial_uS[i], a.g_axial_uS[i]);
  }
  SimulationParameters p;
  p.tstop = 25;
  const auto rec = every_node(t);
  const auto ref = dense_reference(t, p, rec);
  const auto ref_uniform = dense_reference(uniform, p, rec);
  double moved = 0;
  for (std::size_t k = 0; k < ref.size(); ++k)
    for (std::size_t j = 0; j < rec.size(); ++j)
      moved = std::max(moved, std::fabs(ref[k][j] - ref_uniform[k][j]));
  EXPECT_GT(moved, 1.0) << "cm and Ra by region must change the voltages (mV)";
  for (const HostSchedule schedule : {HostSchedule::Tiles, HostSchedule::Cells})
    for (const OnChipSteps on_chip : {OnChipSteps::Off, OnChipSteps::On}) {
      SCOPED_TRACE(std::string(schedule == HostSchedule::Tiles ? "tiles" : "cells") +
                   (on_chip == OnChipSteps::On ? ", on chip" : ""));
      RunOptions o;
      o.host_schedule = schedule;
      o.on_chip = on_chip;
      NetworkSpec net;
      LocalExchange ex;
      NetworkSimulation<Exec> sim(Exec(), {t}, net, {0}, p, ex, o, rec);
      sim.run();
      ASSERT_EQ(sim.traces().size(), ref.size());
      EXPECT_LT(max_abs_difference(sim.traces(), ref), 1e-7) << "max |v - v_ref| in mV";
      EXPECT_GE(sim.spikes().size(), 1u);
    }
}

TYPED_TEST(Simulation, RingRasterDoesNotDependOnEpochOverlapOrDryRun) {
  using Exec = TypeParam;
  Ring r = ring(18, 3, 1.0, 2.5);
  std::vector<std::int64_t> gids(18);
  for (int g = 0; g < 18; ++g) gids[g] = g;
  LocalExchange ex;
  NetworkSimulation<Exec> base(Exec(), r.templates, r.net, gids, r.p, ex, {true, 0, 0});
  base.run();
  const auto raster = base.spikes();
  ASSERT_GE(raster.size(), 18u) << "the kick must travel round the rings";
  // Every ring (3 of 6 cells) fires in order: cell i after cell i-1.
  for (int variant = 0; variant < 3; ++variant) {
    RunOptions o;
    o.overlap = variant != 1;
    o.epoch_steps = variant == 2 ? 3 : 0;
    NetworkSimulation<Exec> sim(Exec(), r.templates, r.net, gids, r.p, ex, o);
    sim.run();
    EXPECT_EQ(sim.spikes(), raster) << "variant " << variant;
  }
  // Dry run: 3 emulated ranks of 18 cells each = the network of 54 cells' first block.
  // Its rings (6 cells) are those of the 18-cell network and the extra synapses carry
  // weight 0, so the local cells must fire exactly as the 18-cell network did, and every
  // spike must come back once per emulated rank at that rank's gid offset: an expected
  // raster computed from the base run, not from the dry run's own output.
  Ring big = ring(54, 3, 1.0, 2.5);
  DryRunExchange dry(3, 18);
  NetworkSimulation<Exec> d(Exec(), big.templates, big.net, gids, big.p, dry, {});
  d.run();
  std::vector<Spike> expected;
  for (std::int64_t rank = 0; rank < 3; ++rank)
    for (const Spike& s : raster) expected.push_back({s.gid + 18 * rank, s.step});
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(d.spikes(), expected);
}

TEST(SimulationBackends, SameRasterAndTracesOnEveryBackend) {
  Ring r = ring(12, 2, 1.0, 2.0);
  std::vector<std::int64_t> gids(12);
  for (int g = 0; g < 12; ++g) gids[g] = g;
  const std::vector<RecordSpec> rec{{0, {0, 0.5}}, {7, {1, 0.5}}};
  // Every backend, the first (or only) one included, against the sequential dense network;
  // on a host both schedules (lanes, cells), on a GPU the one it has (twice).
  const DenseNetworkResult ref = dense_network_reference(r.templates, r.net, r.p, rec);
  ASSERT_GE(ref.raster.size(), 12u) << "the kick must travel round the rings";
  std::vector<std::vector<Spike>> rasters;
  std::vector<std::vector<std::vector<double>>> traces;
  auto run_on = [&](auto exec) {
    using Exec = decltype(exec);
    for (HostSchedule schedule : {HostSchedule::Tiles, HostSchedule::Cells}) {
      LocalExchange ex;
      RunOptions o;
      o.host_schedule = schedule;
      NetworkSimulation<Exec> sim(exec, r.templates, r.net, gids, r.p, ex, o, rec);
      sim.run();
      rasters.push_back(sim.spikes());
      traces.push_back(sim.traces());
    }
  };
  std::apply([&](auto... e) { (run_on(e), ...); }, EnabledExecutionSpaces{});
  ASSERT_FALSE(rasters.empty());
  for (std::size_t b = 0; b < rasters.size(); ++b) {
    EXPECT_EQ(rasters[b], ref.raster) << "run " << b << " vs the dense reference";
    ASSERT_EQ(traces[b].size(), ref.traces.size());
    double worst = 0;
    for (std::size_t k = 0; k < ref.traces.size(); ++k)
      for (std::size_t j = 0; j < rec.size(); ++j)
        worst = std::max(worst, std::fabs(traces[b][k][j] - ref.traces[k][j]));
    EXPECT_LT(worst, 1e-6) << "run " << b << ": max |v - v_ref| in mV";
  }
}

// Records of a synapse's variable: the catalogue's ExpSyn on every synapse of the rings,
// its g recorded at synapses that events reach and at one of weight zero, beside v, on
// every schedule of every backend, against the dense network's conductances.
TEST(SimulationRecords, SynapseConductanceMatchesTheDenseNetwork) {
  Ring r = ring(12, 2, 1.0, 2.0);
  for (ExpSynSpec& s : r.templates[0].synapses) {
    ParameterValue tau, e;
    tau.value = s.tau;
    e.value = s.e;
    s.mechanism = {"ExpSyn", {{"tau", tau}, {"e", e}}};
  }
  std::vector<std::int64_t> gids(12);
  for (int g = 0; g < 12; ++g) gids[g] = g;
  std::vector<RecordSpec> rec{{0, {0, 0.5}}, {0, {}, "g", 0}, {7, {}, "g", 0}, {3, {}, "g", 2}};
  const DenseNetworkResult ref = dense_network_reference(r.templates, r.net, r.p, rec);
  ASSERT_GE(ref.raster.size(), 12u);
  double g_max = 0;
  for (const auto& row : ref.traces) g_max = std::max(g_max, row[1]);
  ASSERT_GT(g_max, 0.5 * r.net.weight) << "events must reach synapse 0 of gid 0";
  auto on = [&](auto exec) {
    using Exec = decltype(exec);
    SCOPED_TRACE(Exec::name());
    struct Shape {
      const char* name;
      HostSchedule host;
      OnChipSteps on_chip;
    };
    for (const Shape& shape : {Shape{"cells", HostSchedule::Cells, OnChipSteps::Off},
                               Shape{"tiles", HostSchedule::Tiles, OnChipSteps::Off},
                               Shape{"on_chip", HostSchedule::Cells, OnChipSteps::On}}) {
      SCOPED_TRACE(shape.name);
      LocalExchange ex;
      RunOptions o;
      o.host_schedule = shape.host;
      o.on_chip = shape.on_chip;
      NetworkSimulation<Exec> sim(exec, r.templates, r.net, gids, r.p, ex, o, rec);
      sim.run();
      EXPECT_EQ(sim.spikes(), ref.raster);
      const auto traces = sim.traces();
      ASSERT_EQ(traces.size(), ref.traces.size());
      double worst_v = 0, worst_g = 0;
      for (std::size_t k = 0; k < traces.size(); ++k) {
        worst_v = std::max(worst_v, std::fabs(traces[k][0] - ref.traces[k][0]));
        for (std::size_t j = 1; j < rec.size(); ++j)
          worst_g = std::max(worst_g, std::fabs(traces[k][j] - ref.traces[k][j]));
        EXPECT_EQ(traces[k][3], 0.0) << k;  // a synapse of weight zero
      }
      EXPECT_LT(worst_v, 1e-6) << "max |v - v_ref| in mV";
      // g exp(-dt/tau) and g + w in double against long double: rounding.
      EXPECT_LT(worst_g, 1e-14) << "max |g - g_ref| in uS";
      std::printf("[ records ] %s, %s: synapse g against the dense network %.3g uS (max g %.3g)\n",
                  Exec::name(), shape.name, worst_g, g_max);
    }
  };
  std::apply([&](auto... e) { (on(e), ...); }, EnabledExecutionSpaces{});
}

TEST(SimulationErrors, DelaysTooShortForOverlapAndMissingSynapses) {
  Ring r = ring(6, 0, 0.04, 0.04);  // 0.04 ms < 2 dt = 0.05
  std::vector<std::int64_t> gids{0, 1, 2, 3, 4, 5};
  LocalExchange ex;
  DryRunExchange two_ranks(2, 6);
  using Exec = Kokkos::DefaultHostExecutionSpace;
  try {
    NetworkSimulation<Exec> sim(Exec(), r.templates, r.net, gids, r.p, two_ranks, {true, 0, 0});
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("cannot overlap"), std::string::npos) << e.what();
  }
  EXPECT_NO_THROW(
      (NetworkSimulation<Exec>(Exec(), r.templates, r.net, gids, r.p, two_ranks, {false, 0, 0})));
  // One rank has nothing to overlap: the same delays are fine with overlap asked for.
  NetworkSimulation<Exec> one(Exec(), r.templates, r.net, gids, r.p, ex, {true, 0, 0});
  EXPECT_FALSE(one.metrics().overlap);
  EXPECT_EQ(one.epoch_steps(), 1);
  EXPECT_THROW((NetworkSimulation<Exec>(Exec(), r.templates, r.net, gids, r.p, ex, {false, 5, 0})),
               InputError);  // epoch longer than the delay
  Ring s = ring(6, 4, 1, 2);
  s.templates[0].synapses.resize(2);  // the network needs 5
  EXPECT_THROW((NetworkSimulation<Exec>(Exec(), s.templates, s.net, gids, s.p, ex, {})),
               InputError);
  EXPECT_THROW(make_cell_template(synthetic_sections("ball-and-stick"), 100, 1, {}, {}, {},
                                  {true, {3, 0.5}, 10}),
               InputError);  // detector on a section that does not exist
  EXPECT_THROW(make_cell_template(synthetic_sections("ball-and-stick"), -1, 1, {}, {}, {}, {}),
               InputError);
}

// Synapses are numbered per rank in int (what the kernels index with): a rank whose cells
// have more is refused by name before anything is allocated for them.
TEST(SimulationErrors, MoreSynapsesThanARankCanNumberIsNamed) {
  using Exec = Kokkos::DefaultHostExecutionSpace;
  const CellTemplate t =
      make_cell_template(synthetic_sections("ball-and-stick"), 100, 1, {}, {},
                         std::vector<ExpSynSpec>(1 << 20, ExpSynSpec{{0, 0.5}, 2, 0}), {});
  NetworkSpec net;
  net.cells = 2100;  // 2,100 x 2^20 = 2.2e9 synapses
  std::vector<std::int64_t> gids(net.cells);
  std::iota(gids.begin(), gids.end(), 0);
  for (const OnChipSteps on_chip : {OnChipSteps::Off, OnChipSteps::On}) {
    try {
      CellGroup<Exec> group(Exec(), {t}, net, gids, SimulationParameters{}, 1, HostSchedule::Cells,
                            on_chip);
      FAIL() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("synapses (at gid 2047)"), std::string::npos)
          << e.what();
      EXPECT_EQ(e.value(), std::to_string((std::int64_t(1) << 20) * 2048));
    }
  }
}

// The tiles schedule's exp (host_exp.hpp) replaces std::exp only where it gives the same
// bits: every argument class glibc's exp distinguishes, and random ones in the hh range.
TEST(HostVectorExp, SameBitsAsStdExpWhereUsed) {
#if !defined(HINESBATCH_HOST_VECTOR_EXP)
  GTEST_SKIP() << "not in this build (CUDA builds keep the scalar exp on the host)";
#else
  if (!impl::host_vector_exp_usable()) GTEST_SKIP() << "no AVX2/FMA, or not glibc's exp";
  std::vector<double> x = {0.0,
                           -0.0,
                           1e-310,
                           -1e-310,
                           0x1p-54,
                           -0x1p-54,
                           0x1p-60,
                           1e-300,
                           511.9,
                           512.0,
                           -512.0,
                           709.7,
                           709.8,
                           -708.4,
                           -745.1,
                           -746.0,
                           1e300,
                           -1e300,
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()};
  std::mt19937_64 g(7);
  std::uniform_real_distribution<double> hh_range(-20, 20), wide(-800, 800), unit(-1, 1);
  for (int i = 0; i < 400000; ++i) {
    x.push_back(hh_range(g));
    x.push_back(wide(g));
    x.push_back(std::ldexp(unit(g), -static_cast<int>(g() % 70)));
  }
  x.push_back(1.5);  // a count that is not a multiple of 4
  std::vector<double> y(x.size());
  impl::host_vector_exp(x.data(), y.data(), static_cast<int>(x.size()));
  long long different = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double e = std::exp(x[i]);
    std::uint64_t a, b;
    std::memcpy(&a, &e, sizeof a);
    std::memcpy(&b, &y[i], sizeof b);
    if (a != b && !(std::isnan(e) && std::isnan(y[i])))
      if (++different <= 5) ADD_FAILURE() << "exp(" << x[i] << "): " << e << " vs " << y[i];
  }
  EXPECT_EQ(different, 0);
#endif
}

// hh_rates split into exp arguments and the rest gives the whole function's rates, and
// without vtrap's expansion the same rates wherever neither argument expands.
TEST(HHRates, SplitRatesAreTheWholeFunctions) {
  const double q10 = hh_q10(6.3);
  std::vector<double> vs = {-40.0, -55.0, -40.0 + 1e-6, -55.0 - 2e-5, -65.0, 0.0, 50.0, -100.0};
  for (int i = 0; i <= 16000; ++i) vs.push_back(-100.0 + i * 0.01);
  for (const double v : vs) {
    double a[kHHRateExps], e[kHHRateExps];
    hh_rate_exp_args(v, a, 1);
    for (int j = 0; j < kHHRateExps; ++j) e[j] = std::exp(a[j]);
    const HHRates whole = hh_rates(v, q10), split = hh_rates(v, q10, a, e, 1),
                  plain = hh_rates<false>(v, q10, a, e, 1);
    const auto same = [](const HHRates& p, const HHRates& q) {
      return std::memcmp(&p, &q, sizeof(HHRates)) == 0;
    };
    EXPECT_TRUE(same(whole, split)) << "v = " << v;
    if (!hh_vtrap_expands(a[0]) && !hh_vtrap_expands(a[4]))
      EXPECT_TRUE(same(whole, plain)) << "v = " << v;
    else
      EXPECT_TRUE(v == -40.0 || v == -55.0 || std::fabs(v + 40) < 1e-4 || std::fabs(v + 55) < 1e-4);
  }
}

}  // namespace
}  // namespace hinesbatch::test
