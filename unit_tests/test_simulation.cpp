// Network simulation: the fused time step against a dense long-double reference, event
// delivery, and rasters that do not depend on the epoch length, overlap, dry-run
// replication, the schedule or the backend (the cell's model: test_neuron_sections.cpp).
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
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "support/backends.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

// --- the time step against a dense long-double reference -----------------------------

CellTemplate ball_and_stick(bool with_hh, std::vector<ExpSynSpec> syn = {}) {
  std::vector<DensityMechanism> dens;
  DensityMechanism pas;
  pas.kind = DensityMechanism::Pas;
  pas.region = with_hh ? Region::Dend : Region::All;
  pas.pas = {0.0002, -65};
  dens.push_back(pas);
  if (with_hh) {
    DensityMechanism hh;
    hh.kind = DensityMechanism::HH;
    hh.region = Region::Soma;
    hh.hh.gnabar = 0.25;
    dens.push_back(hh);
  }
  IClampSpec stim{{0, 0.5}, 1, 15, with_hh ? 0.4 : 0.1};  // passive: about +20 mV
  DetectorSpec det{true, {0, 0.5}, 10};
  return make_cell_template(synthetic_sections("ball-and-stick"), 100, 1, dens, {stim},
                            std::move(syn), det);
}

std::vector<RecordSpec> every_node(const CellTemplate& t) {
  std::vector<RecordSpec> r;
  r.push_back({0, {0, 0}});
  for (int s = 0; s < t.morphology.size(); ++s) {
    const int nseg = t.morphology.sections[s].nseg;
    for (int j = 0; j < nseg; ++j) r.push_back({0, {s, (j + 0.5) / nseg}});
    r.push_back({0, {s, 1}});
  }
  return r;
}

// NEURON's fixed step written out densely for one cell: assemble, Gaussian elimination
// with partial pivoting in long double, v += dv, hh gates by cnexp, ExpSyn decay, and the
// threshold detector (a spike when v at the detector rises above the threshold).
struct DenseCell {
  const CellTemplate& t;
  const SimulationParameters& p;
  int n;
  std::vector<long double> v, m, h, nn, syn_g;
  std::vector<double> gpas, epas, gna, gk, gl, el;
  std::vector<char> has_hh;
  std::vector<IClampSpec> stims;
  int det_node = -1;
  bool det_flag = false;

  DenseCell(const CellTemplate& tmpl, const SimulationParameters& params,
            std::vector<IClampSpec> extra_stims = {})
      : t(tmpl), p(params), n(tmpl.compartments.size()) {
    const auto& c = t.compartments;
    v.assign(n, p.v_init);
    m.assign(n, 0);
    h.assign(n, 0);
    nn.assign(n, 0);
    gpas.assign(n, 0);
    epas.assign(n, 0);
    gna.assign(n, 0);
    gk.assign(n, 0);
    gl.assign(n, 0);
    el.assign(n, 0);
    has_hh.assign(n, 0);
    syn_g.assign(t.synapses.size(), 0);
    for (const auto& d : t.density)
      for (int s : t.sections_of(d))
        for (int i = c.first_centre[s]; i < c.first_centre[s] + c.section_nseg[s]; ++i) {
          const double a = c.area_um2[i] * 1e-2;
          if (d.kind == DensityMechanism::Pas) {
            gpas[i] = d.pas.g * a;
            epas[i] = d.pas.e;
          } else {
            has_hh[i] = 1;
            gna[i] = d.hh.gnabar * a;
            gk[i] = d.hh.gkbar * a;
            gl[i] = d.hh.gl * a;
            el[i] = d.hh.el;
          }
        }
    const HHRates r = hh_rates(p.v_init, hh_q10(p.celsius));
    for (int i = 0; i < n; ++i) {
      m[i] = r.minf;
      h[i] = r.hinf;
      nn[i] = r.ninf;
    }
    stims = t.iclamps;
    stims.insert(stims.end(), extra_stims.begin(), extra_stims.end());
    if (t.detector.present) {
      det_node = c.node_at(t.detector.where);
      det_flag = p.v_init > t.detector.threshold;
    }
  }

  // Advances one step; true if the detector fires at its end.
  bool step(long step) {
    const auto& c = t.compartments;
    const double q10 = hh_q10(p.celsius);
    const double tmid = (step + 0.5) * p.dt;
    std::vector<std::vector<long double>> A(n, std::vector<long double>(n + 1, 0));
    for (int i = 0; i < n; ++i) {
      A[i][i] += t.cm * c.area_um2[i] * 1e-5 / p.dt + gpas[i];
      A[i][n] -= gpas[i] * (v[i] - epas[i]);
      if (has_hh[i]) {
        const long double a = gna[i] * m[i] * m[i] * m[i] * h[i];
        const long double b = gk[i] * nn[i] * nn[i] * nn[i] * nn[i];
        A[i][i] += a + b + gl[i];
        A[i][n] -= a * (v[i] - p.ena) + b * (v[i] - p.ek) + gl[i] * (v[i] - el[i]);
      }
      if (i > 0) {
        const int q = c.tree.parent(i);
        const long double g = c.g_axial_uS[i];
        A[i][i] += g;
        A[q][q] += g;
        A[i][q] -= g;
        A[q][i] -= g;
        A[i][n] += g * (v[q] - v[i]);
        A[q][n] -= g * (v[q] - v[i]);
      }
    }
    for (std::size_t k = 0; k < t.synapses.size(); ++k) {
      const int i = c.node_at(t.synapses[k].where);
      A[i][i] += syn_g[k];
      A[i][n] -= syn_g[k] * (v[i] - t.synapses[k].e);
    }
    for (const auto& s : stims)
      if (tmid >= s.del && tmid < s.del + s.dur) A[c.node_at(s.where)][n] += s.amp;
    for (int col = 0; col < n; ++col) {
      int piv = col;
      for (int r = col + 1; r < n; ++r)
        if (std::fabs(A[r][col]) > std::fabs(A[piv][col])) piv = r;
      std::swap(A[col], A[piv]);
      for (int r = col + 1; r < n; ++r) {
        const long double f = A[r][col] / A[col][col];
        for (int k = col; k <= n; ++k) A[r][k] -= f * A[col][k];
      }
    }
    std::vector<long double> x(n);
    for (int r = n - 1; r >= 0; --r) {
      long double s = A[r][n];
      for (int k = r + 1; k < n; ++k) s -= A[r][k] * x[k];
      x[r] = s / A[r][r];
    }
    for (int i = 0; i < n; ++i) {
      v[i] += x[i];
      if (has_hh[i]) {
        const HHRates r = hh_rates(static_cast<double>(v[i]), q10);
        m[i] += (1 - std::exp(-p.dt / r.mtau)) * (r.minf - m[i]);
        h[i] += (1 - std::exp(-p.dt / r.htau)) * (r.hinf - h[i]);
        nn[i] += (1 - std::exp(-p.dt / r.ntau)) * (r.ninf - nn[i]);
      }
    }
    for (std::size_t k = 0; k < t.synapses.size(); ++k)
      syn_g[k] *= std::exp(-p.dt / t.synapses[k].tau);
    if (det_node < 0) return false;
    if (v[det_node] > t.detector.threshold) {
      const bool fired = !det_flag;
      det_flag = true;
      return fired;
    }
    det_flag = false;
    return false;
  }
};

std::vector<std::vector<double>> dense_reference(const CellTemplate& t,
                                                 const SimulationParameters& p,
                                                 const std::vector<RecordSpec>& rec) {
  DenseCell cell(t, p);
  std::vector<int> nodes;
  for (const auto& r : rec) nodes.push_back(t.compartments.node_at(r.where));
  std::vector<std::vector<double>> out;
  auto snapshot = [&] {
    std::vector<double> row;
    for (int k : nodes) row.push_back(static_cast<double>(cell.v[k]));
    out.push_back(row);
  };
  snapshot();
  for (long step = 0; step < p.steps(); ++step) {
    cell.step(step);
    snapshot();
  }
  return out;
}

// A whole network on one core, independent of NetworkSimulation, CellGroup, the event
// queue and every backend: dense cells, and NEURON's delivery rule written out (an event
// of time te reaches its synapse at the start of the first step k with te <= k dt + dt/2).
struct DenseNetworkResult {
  std::vector<Spike> raster;                // sorted by (step, gid)
  std::vector<std::vector<double>> traces;  // rows t = 0, dt, ...; one column per record
};
DenseNetworkResult dense_network_reference(const std::vector<CellTemplate>& templates,
                                           const NetworkSpec& net, const SimulationParameters& p,
                                           const std::vector<RecordSpec>& rec) {
  const long steps = p.steps();
  auto arrival = [&](double te) {
    const double k = std::ceil(te / p.dt - 0.5 - 1e-9);
    return k < 0 ? 0L : static_cast<long>(k);
  };
  std::vector<DenseCell> cells;
  // pending[gid][step] -> (synapse, weight) events to add before that step
  std::vector<std::map<long, std::vector<std::pair<int, double>>>> pending(net.cells);
  std::vector<std::vector<Connection>> outgoing_of(net.cells);  // by source
  std::vector<std::vector<std::int64_t>> targets_of(net.cells);
  for (std::int64_t g = 0; g < net.cells; ++g) {
    const CellTemplate& t = templates[net.template_of(g)];
    cells.emplace_back(t, p, net.stimulus(g, t).iclamps);
    for (const Connection& k : net.incoming(g)) {
      outgoing_of[k.source].push_back(k);
      targets_of[k.source].push_back(g);
    }
    for (const ExternalEvent& e : net.external_events(g))
      pending[g][arrival(e.time)].push_back({e.synapse, e.weight});
  }
  DenseNetworkResult out;
  auto snapshot = [&] {
    std::vector<double> row;
    for (const auto& r : rec) {
      const auto& cell = cells[r.gid];
      row.push_back(static_cast<double>(cell.v[cell.t.compartments.node_at(r.where)]));
    }
    out.traces.push_back(row);
  };
  snapshot();
  for (long step = 0; step < steps; ++step) {
    for (std::int64_t g = 0; g < net.cells; ++g) {
      const auto it = pending[g].find(step);
      if (it != pending[g].end())
        for (const auto& e : it->second) cells[g].syn_g[e.first] += e.second;
    }
    for (std::int64_t g = 0; g < net.cells; ++g) {
      if (!cells[g].step(step)) continue;
      const long spike_step = step + 1;
      if (spike_step < steps) out.raster.push_back({g, spike_step});
      for (std::size_t k = 0; k < outgoing_of[g].size(); ++k) {
        const Connection& c = outgoing_of[g][k];
        pending[targets_of[g][k]][arrival(spike_step * p.dt + c.delay)].push_back(
            {c.synapse, c.weight});
      }
    }
    snapshot();
  }
  std::sort(out.raster.begin(), out.raster.end());
  return out;
}

template <class T>
class Simulation : public ::testing::Test {};
using SimSpaces = AsGtestTypes<EnabledExecutionSpaces>::type;
TYPED_TEST_SUITE(Simulation, SimSpaces);

// The device event queue gives, step by step, the same events as the host queue
// (events.hpp), ordered by synapse; an event that would be late is an error.
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
  const Exec exec;
  DeviceEventQueue<Exec> dev(exec, src, syn, w, delay, synapses, dt);
  EXPECT_EQ(dev.num_connections(), 1200);
  EventQueue host;
  dev.push_external(exec, {3, 3}, {5, 5}, {0.25, 0.5});
  host.push(3, {5, 0.25, 3 * dt, -1});
  host.push(3, {5, 0.5, 3 * dt, -1});
  std::size_t total = 0;
  for (int e = 0; e < 30; ++e) {
    std::vector<int> hb, hs, db;
    std::vector<double> hw;
    host.take(e * D, D, hb, hs, hw);
    dev.take(exec, e * D, D, db);
    ASSERT_EQ(hb, db) << "epoch " << e;
    auto ds = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.synapse());
    auto dw = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dev.weight());
    for (int s = 0; s < D; ++s) {
      std::vector<std::pair<int, double>> a, b;
      for (int i = hb[s]; i < hb[s + 1]; ++i) {
        a.push_back({hs[i], hw[i]});
        b.push_back({ds(i), dw(i)});
        if (i > hb[s]) EXPECT_LE(ds(i - 1), ds(i));  // by synapse within a step
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
    double worst = 0;
    for (std::size_t k = 0; k < ref.size(); ++k)
      for (std::size_t j = 0; j < rec.size(); ++j) {
        ASSERT_TRUE(std::isfinite(sim.traces()[k][j])) << "step " << k << " node " << j;
        worst = std::max(worst, std::fabs(sim.traces()[k][j] - ref[k][j]));
      }
    EXPECT_LT(worst, 1e-7) << "max |v - v_ref| in mV";
    if (with_hh) {
      EXPECT_GE(sim.spikes().size(), 2u);  // it really fired
    } else {
      EXPECT_TRUE(sim.spikes().empty());
    }
  }
}

// A ring of ball-and-stick cells with hh somata and weight-zero extra synapses.
struct Ring {
  std::vector<CellTemplate> templates;
  NetworkSpec net;
  SimulationParameters p;
};
Ring ring(int cells, int extra, double dmin, double dmax) {
  Ring r;
  r.net.type = NetworkSpec::Ring;
  r.net.cells = cells;
  r.net.ring_size = 6;
  r.net.extra_synapses = extra;
  r.net.weight = 0.05;
  r.net.delay_min = dmin;
  r.net.delay_max = dmax;
  r.net.kick_weight = 0.2;
  r.net.seed = 11;
  std::vector<ExpSynSpec> syn(1 + extra, ExpSynSpec{{0, 0.5}, 2.0, 0.0});
  r.templates.push_back(ball_and_stick(true, syn));
  r.templates[0].iclamps.clear();
  r.p.tstop = 60;
  return r;
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
    for (HostSchedule schedule : {HostSchedule::Lanes, HostSchedule::Cells}) {
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

// Four templates round-robin, three trees (two templates share one, with different
// mechanisms: cells of one tree with and without hh), two of the same node count, hh on
// every node of one template, three synapses on one node, IClamps, and `cells` cells in
// rings of 6 kicked at 1 ms. Recorded: every node of one cell per template and of the last
// two cells.
struct MixedTrees {
  std::vector<CellTemplate> templates;
  NetworkSpec net;
  SimulationParameters p;
  std::vector<std::int64_t> gids;
  std::vector<RecordSpec> rec;
};
MixedTrees mixed_trees(int cells) {
  auto with_nseg = [](int nseg) {
    SectionOptions o;
    o.nseg_per_section = nseg;
    return synthetic_sections("ball-and-stick", o);
  };
  SectionedMorphology forked = with_nseg(10);  // soma and two dendrites of 10 segments
  forked.sections.push_back(forked.sections[1]);
  SectionedMorphology straight = with_nseg(21);  // soma and one dendrite of 21
  DensityMechanism pas, hh_soma, hh_all;
  pas.kind = DensityMechanism::Pas;
  pas.region = Region::Dend;
  pas.pas = {0.0002, -65};
  hh_soma.kind = hh_all.kind = DensityMechanism::HH;
  hh_soma.region = Region::Soma;
  hh_all.region = Region::All;
  hh_soma.hh.gnabar = hh_all.hh.gnabar = 0.25;
  const std::vector<ExpSynSpec> syn(3, ExpSynSpec{{0, 0.5}, 2.0, 0.0});
  const IClampSpec stim{{0, 0.5}, 1, 3, 0.4};
  const DetectorSpec det{true, {0, 0.5}, 10};
  MixedTrees m;
  m.templates = {make_cell_template(straight, 100, 1, {pas, hh_soma}, {stim}, syn, det),
                 make_cell_template(forked, 100, 1, {pas, hh_soma}, {}, syn, det),
                 make_cell_template(straight, 100, 1, {hh_all}, {}, syn, det),
                 make_cell_template(with_nseg(9), 100, 1, {pas, hh_soma}, {stim}, syn, det)};
  NetworkSpec& net = m.net;
  net.type = NetworkSpec::Ring;
  net.cells = cells;
  net.ring_size = 6;
  net.templates = 4;
  net.extra_synapses = 2;
  net.weight = 0.05;
  net.delay_min = 1.0;
  net.delay_max = 2.0;
  net.kick_weight = 0.2;
  net.seed = 5;
  m.p.tstop = 30;
  m.gids.resize(net.cells);
  for (int g = 0; g < net.cells; ++g) m.gids[g] = g;
  for (std::int64_t g : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{3},
                         net.cells - 2, net.cells - 1})
    for (const RecordSpec& r : every_node(m.templates[net.template_of(g)]))
      m.rec.push_back({g, r.where});
  return m;
}

// The lanes schedule (cell_tiles.hpp) against the cells schedule and the dense network on
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
      for (HostSchedule schedule : {HostSchedule::Cells, HostSchedule::Lanes}) {
        LocalExchange ex;
        RunOptions o;
        o.host_schedule = schedule;
        NetworkSimulation<Exec> sim(exec, templates, net, gids, p, ex, o, rec);
        EXPECT_STREQ(sim.metrics().schedule.c_str(), to_string(schedule));
        sim.run();
        EXPECT_EQ(sim.metrics().cell_lanes, schedule == HostSchedule::Lanes ? W : 1);
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
  for (HostSchedule schedule : {HostSchedule::Cells, HostSchedule::Lanes}) {
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
        EXPECT_EQ(sim.metrics().cell_lanes, mode == OnChipSteps::On ? on_chip_lanes<Exec>() : 1)
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

// the P3 network's cell with hh on every node (as CoreNEURON's ringtest has it) fits the on-chip
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
  ASSERT_GE(nodes, 400) << "P3's cell";
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

// The on-chip solve's lane plan (cell_lane_plan.hpp) against its definition, and the
// elimination it schedules, emulated level by level and lane by lane as the kernel runs it
// (registers for kept sums included), against the sequential Hines algorithm: random
// trees (parents uniform below each node), chains, stars, the P3 network's cell, 1 to 32 lanes.
TEST(CellLanePlanTest, PiecesAreWholeSubtreesOrChainsAndTheScheduleSolves) {
  using P = CellLanePlan;
  std::vector<std::pair<std::string, std::vector<int>>> trees;
  auto parents_of = [](const NeuronCompartments& c) {
    std::vector<int> p(c.size());
    for (int i = 0; i < c.size(); ++i) p[i] = c.tree.parent(i);
    return p;
  };
  trees.push_back({"p3", parents_of(neuron_compartments(synthetic_sections("p3"), 100))});
  for (int n : {1, 2, 7, 100, 600}) {
    std::vector<int> random(n, -1), chain(n, -1), star(n, -1);
    for (int i = 1; i < n; ++i) {
      random[i] = static_cast<int>(uniform01(21, n, i) * i);
      chain[i] = i - 1;
      star[i] = 0;
    }
    trees.push_back({"random " + std::to_string(n), random});
    trees.push_back({"chain " + std::to_string(n), chain});
    trees.push_back({"star " + std::to_string(n), star});
  }
  for (const auto& tree : trees)
    for (int lanes : {1, 2, 5, 32}) {
      const std::string& name = tree.first;
      const std::vector<int>& parent = tree.second;  // (lambdas below may not capture bindings)
      SCOPED_TRACE(name + ", " + std::to_string(lanes) + " lanes");
      const int n = static_cast<int>(parent.size());
      const P plan = P::build(parent, lanes);
      ASSERT_EQ(static_cast<int>(plan.begin.size()), plan.levels * lanes + 1);
      // Every node eliminated once; a node's parent eliminated by the same lane at the
      // same level (kNode) or pulled at a higher level by the lane owning it (kPieceRoot).
      std::vector<int> level_of(n, -1), lane_of(n, -1), pulled_at(n, -1), pulled_by(n, -1);
      std::vector<char> piece_root(n, 0);
      for (int v = 0; v < plan.levels; ++v)
        for (int k = 0; k < lanes; ++k)
          for (int q = plan.begin[v * lanes + k]; q < plan.begin[v * lanes + k + 1]; ++q) {
            const int e = plan.entries[q], i = P::node_of(e);
            if (q > plan.begin[v * lanes + k])
              EXPECT_GT(P::node_of(plan.entries[q - 1]), i) << "lists run in decreasing order";
            if (P::kind_of(e) == P::kPull) {
              EXPECT_EQ(pulled_at[i], -1) << "node " << i << " pulled twice";
              pulled_at[i] = v;
              pulled_by[i] = k;
              continue;
            }
            ASSERT_EQ(level_of[i], -1) << "node " << i << " twice";
            level_of[i] = v;
            lane_of[i] = k;
            piece_root[i] = P::kind_of(e) == P::kPieceRoot;
          }
      for (int i = 0; i < n; ++i) {
        ASSERT_NE(level_of[i], -1) << "node " << i << " missing";
        if (i == 0) {
          EXPECT_TRUE(piece_root[0]);
          continue;
        }
        const int p = parent[i];
        if (piece_root[i]) {
          EXPECT_GT(level_of[p], level_of[i]) << "piece root " << i;
          EXPECT_EQ(pulled_at[i], level_of[p]) << "piece root " << i;
          EXPECT_EQ(pulled_by[i], lane_of[p]) << "piece root " << i;
        } else {
          EXPECT_EQ(level_of[p], level_of[i]) << "node " << i;
          EXPECT_EQ(lane_of[p], lane_of[i]) << "node " << i;
          EXPECT_EQ(pulled_at[i], -1) << "node " << i;
        }
      }
      if (lanes == 1) EXPECT_EQ(plan.levels, 1);
      if (name == "p3" && lanes == 32) EXPECT_LT(plan.critical_path(), n / 6);
      // The kernel's order against the sequential solve of a random diagonally dominant
      // system.
      std::vector<double> a(n), d(n), r(n);
      for (int i = 0; i < n; ++i) {
        a[i] = -(0.5 + uniform01(22, n, i));
        d[i] = 3 + uniform01(23, n, i);
        r[i] = uniform01(24, n, i) - 0.5;
      }
      for (int i = 1; i < n; ++i) d[parent[i]] += -a[i];
      std::vector<double> dr = d, rr = r;
      for (int i = n - 1; i > 0; --i) {
        const double f = a[i] / dr[i];
        dr[parent[i]] -= f * a[i];
        rr[parent[i]] -= f * rr[i];
      }
      rr[0] /= dr[0];
      for (int i = 1; i < n; ++i) rr[i] = (rr[i] - a[i] * rr[parent[i]]) / dr[i];
      for (int v = 0; v < plan.levels; ++v)
        for (int k = 0; k < lanes; ++k) {
          bool cached = false;
          double dc = 0, rc = 0;
          for (int q = plan.begin[v * lanes + k]; q < plan.begin[v * lanes + k + 1]; ++q) {
            const int e = plan.entries[q], i = P::node_of(e);
            if (P::kind_of(e) != P::kPull) {
              const double di = cached ? dc : d[i];
              const double ri = cached ? rc : r[i];
              d[i] = 1 / di;
              r[i] = ri;
              cached = false;
              if (P::kind_of(e) == P::kPieceRoot) continue;
            }
            const int p = parent[i];
            const double f = a[i] * d[i];
            const double dp = (cached ? dc : d[p]) - f * a[i];
            const double rp = (cached ? rc : r[p]) - f * r[i];
            cached = (e & P::kKeep) != 0;
            if (cached) {
              dc = dp;
              rc = rp;
            } else {
              d[p] = dp;
              r[p] = rp;
            }
          }
          EXPECT_FALSE(cached) << "a list's last entry keeps nothing";
        }
      std::vector<double> xs(n);
      for (int v = plan.levels - 1; v >= 0; --v)
        for (int k = 0; k < lanes; ++k)
          for (int q = plan.begin[v * lanes + k + 1] - 1; q >= plan.begin[v * lanes + k]; --q) {
            const int e = plan.entries[q], i = P::node_of(e);
            if (P::kind_of(e) != P::kPull) xs[i] = (r[i] - (i ? a[i] * xs[parent[i]] : 0)) * d[i];
          }
      for (int i = 0; i < n; ++i) ASSERT_NEAR(xs[i], rr[i], 1e-12) << "node " << i;
    }
}

// The levels near the root that only the first warp's lanes work on (warp_levels_from):
// from that level on no lane past the warp has an entry, and the level before it has one.
// Random trees give a plan of many lanes some such levels.
TEST(CellLanePlanTest, WarpLevelsAreTheTopLevelsOfTheFirstWarpAlone) {
  for (int n : {7, 600, 3000})
    for (int lanes : {8, 64, 256}) {
      std::vector<int> parent(n, -1);
      for (int i = 1; i < n; ++i) parent[i] = static_cast<int>(uniform01(23, n, i) * i);
      const CellLanePlan plan = CellLanePlan::build(parent, lanes);
      for (int warp : {4, 32}) {
        SCOPED_TRACE(std::to_string(n) + " nodes, " + std::to_string(lanes) + " lanes, warp " +
                     std::to_string(warp));
        const int from = plan.warp_levels_from(warp);
        ASSERT_GE(from, 0);
        ASSERT_LE(from, plan.levels);
        auto past_warp = [&](int v) {
          int entries = 0;
          for (int k = warp; k < lanes; ++k)
            entries += plan.begin[v * lanes + k + 1] - plan.begin[v * lanes + k];
          return entries;
        };
        for (int v = from; v < plan.levels; ++v) EXPECT_EQ(past_warp(v), 0) << "level " << v;
        if (from > 0) EXPECT_GT(past_warp(from - 1), 0);
        if (lanes <= warp) EXPECT_EQ(from, 0);
        if (n == 3000 && lanes == 256 && warp == 32) EXPECT_LT(from, plan.levels);
      }
    }
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
    CellGroup<Exec> lanes(Exec(), {t}, net, gids, p, 1, HostSchedule::Lanes);
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
  for (HostSchedule schedule : {HostSchedule::Cells, HostSchedule::Lanes}) {
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

// The lanes schedule's exp (host_exp.hpp) replaces std::exp only where it gives the same
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
