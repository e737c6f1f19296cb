#pragma once
// References for the network simulation's tests, independent of NetworkSimulation, CellGroup,
// the event queue and every backend: NEURON's fixed step written out densely in long double
// for one cell (DenseCell, dense_reference) and for a whole network (dense_network_reference),
// with the cells and networks the tests share (ball_and_stick, every_node, ring).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"

namespace hinesbatch::test {

inline CellTemplate ball_and_stick(bool with_hh, std::vector<ExpSynSpec> syn = {}) {
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

inline std::vector<RecordSpec> every_node(const CellTemplate& t) {
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
  std::vector<double> gpas, epas, gna, gk, gl, el, cm;  // cm per node: its section's
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
    cm.assign(n, 0);
    const std::vector<double> section_cm = t.section_cm();
    for (int i = 0; i < n; ++i) cm[i] = section_cm[c.section_of_node[i]];
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
      A[i][i] += cm[i] * c.area_um2[i] * 1e-5 / p.dt + gpas[i];
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

inline std::vector<std::vector<double>> dense_reference(const CellTemplate& t,
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
inline DenseNetworkResult dense_network_reference(const std::vector<CellTemplate>& templates,
                                                  const NetworkSpec& net,
                                                  const SimulationParameters& p,
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
      // v, or the conductance of the cell's synapse r.synapse (an ExpSyn's g).
      row.push_back(static_cast<double>(
          r.synapse >= 0 ? cell.syn_g[r.synapse] : cell.v[cell.t.compartments.node_at(r.where)]));
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

// A ring of ball-and-stick cells with hh somata and weight-zero extra synapses.
struct Ring {
  std::vector<CellTemplate> templates;
  NetworkSpec net;
  SimulationParameters p;
};
inline Ring ring(int cells, int extra, double dmin, double dmax) {
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

}  // namespace hinesbatch::test
