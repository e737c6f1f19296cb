#pragma once
// The cells one rank simulates, on the device of ExecutionSpace, and the fused time step
// (issue #5): one work item per cell does NEURON's fixed step in one pass, so a step is
// one kernel launch:
//   assemble  d = C/dt + sum g_axial + g_mech,  rhs = I_mech(v) + I_axial(v) + I_stim
//   solve     the cell's Hines system for dv (hines_system.hpp)
//   update    v += dv; hh gates by cnexp at the new v; ExpSyn g decays
//   detect    v at the detector crosses the threshold from below -> a spike at t + dt
// (StepCells: one member function per phase; each mechanism's currents and state updates
// are device functions of its own header in mechanisms/).
// Storage is (cell, node) in the execution space's preferred layout: LayoutLeft on
// CUDA (cells interleaved: CoreNEURON's one-thread-per-cell scheme, cells sorted by size
// so a warp's cells are alike), LayoutRight on the host (a cell's nodes contiguous).
// On a host the default is the lanes schedule instead (cell_tiles.hpp: a work item steps
// a tile of W cells of one tree, vectorised over them); HostSchedule::Cells keeps this one.
// On a GPU the default is the on-chip schedule (cell_epoch_on_chip.hpp: a team per cell
// runs a whole epoch with the cell's system in team scratch) for every cell; how each run
// of alike cells is launched is on_chip_launch_plan.hpp's choice.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "hinesbatch/core/device_copy.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/morphology/cable_matrix.hpp"
#include "hinesbatch/simulation/cell_epoch_on_chip.hpp"
#include "hinesbatch/simulation/cell_tiles.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/mechanisms/detector.hpp"
#include "hinesbatch/simulation/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/mechanisms/hh.hpp"
#include "hinesbatch/simulation/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/mechanisms/pas.hpp"
#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/simulation/on_chip_launch_plan.hpp"
#include "hinesbatch/simulation/run_options.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"
#include "hinesbatch/simulation/voltage_check.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/hines_system.hpp"

namespace hinesbatch {

template <class ExecutionSpace>
struct CellGroupViews {
  using memory_space = typename ExecutionSpace::memory_space;
  using layout = typename ExecutionSpace::array_layout;
  using nodes_d = Kokkos::View<double**, layout, memory_space>;
  using nodes_i = Kokkos::View<int**, layout, memory_space>;
  using nodes_u8 = Kokkos::View<unsigned char**, layout, memory_space>;
  using vec_d = Kokkos::View<double*, memory_space>;
  using vec_i = Kokkos::View<int*, memory_space>;

  vec_i size;  // nodes per cell slot
  nodes_i parent;
  nodes_d v, d, rhs;      // voltage (mV); the step's diagonal and rhs (then dv)
  nodes_d minus_g_axial;  // -g_axial to the parent: the symmetric off-diagonal (uS)
  nodes_d d0;             // the constant part of d: C/dt + sum of g_axial
  nodes_u8 mechs;
  nodes_d pas_g, pas_e, hh_gna, hh_gk, hh_gl, hh_el, hh_m, hh_h, hh_n;  // absolute (uS)
  vec_i syn_begin, syn_node;
  vec_d syn_decay, syn_e, syn_g;
  vec_i stim_begin, stim_node;
  vec_d stim_del, stim_dur, stim_amp;
  vec_i det_node, det_flag;
  vec_d det_threshold;
  Kokkos::View<int, memory_space> spike_count;
  vec_i spike_slot, spike_step;
  SolveStatus<memory_space> status;
};

namespace impl {

// NEURON's fixed step for one cell (one work item): assemble -> solve -> update -> detect.
template <class ExecutionSpace>
struct StepCells {
  CellGroupViews<ExecutionSpace> c;
  double dt, t_mid, ena, ek, q10;
  int step_end;  // global index of the step's end time (spike time = step_end * dt)
  int max_nodes;

  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const int n = c.size(s);
    assemble(s, n);
    solve(s, n);
    update(s, n);
    detect(s);
  }

  // d = C/dt + sum g_axial + g_mech and rhs = I_mech(v) + I_axial(v) + I_stim at v, root to
  // leaves: a node's axial current to its parent goes into the parent's rhs, which was
  // written earlier in this loop (parent < node).
  KOKKOS_INLINE_FUNCTION void assemble(const int s, const int n) const {
    for (int i = 0; i < n; ++i) {
      const double vi = c.v(s, i);
      double di = c.d0(s, i), ri = 0;
      const unsigned char mk = c.mechs(s, i);
      if (mk & kPasBit) mechanisms::pas_current(c.pas_g(s, i), c.pas_e(s, i), vi, di, ri);
      if (mk & kHHBit)
        mechanisms::hh_current(c.hh_gna(s, i), c.hh_gk(s, i), c.hh_gl(s, i), c.hh_el(s, i),
                               c.hh_m(s, i), c.hh_h(s, i), c.hh_n(s, i), vi, ena, ek, di, ri);
      if (i > 0) {
        const int p = c.parent(s, i);
        const double current = -c.minus_g_axial(s, i) * (c.v(s, p) - vi);
        ri += current;
        c.rhs(s, p) -= current;
      }
      c.d(s, i) = di;
      c.rhs(s, i) = ri;
    }
    for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k) {
      const int node = c.syn_node(k);
      mechanisms::expsyn_current(c.syn_g(k), c.syn_e(k), c.v(s, node), c.d(s, node),
                                 c.rhs(s, node));
    }
    for (int k = c.stim_begin(s); k < c.stim_begin(s + 1); ++k)
      mechanisms::iclamp_current(t_mid, c.stim_del(k), c.stim_dur(k), c.stim_amp(k),
                                 c.rhs(s, c.stim_node(k)));
  }

  // The cell's Hines system (off-diagonal -g_axial, symmetric) for dv, left in rhs.
  KOKKOS_INLINE_FUNCTION void solve(const int s, const int n) const {
    const auto off_diagonal = Kokkos::subview(c.minus_g_axial, s, Kokkos::ALL);
    const auto f = hines_solve_system(Kokkos::subview(c.parent, s, Kokkos::ALL), n, off_diagonal,
                                      off_diagonal, Kokkos::subview(c.d, s, Kokkos::ALL),
                                      Kokkos::subview(c.rhs, s, Kokkos::ALL));
    record_failure(c.status, f, static_cast<long long>(s) * max_nodes);
  }

  // v += dv; the mechanisms' states at the new v.
  KOKKOS_INLINE_FUNCTION void update(const int s, const int n) const {
    for (int i = 0; i < n; ++i) {
      const double vi = c.v(s, i) + c.rhs(s, i);
      c.v(s, i) = vi;
      if (c.mechs(s, i) & kHHBit)
        mechanisms::hh_advance_states(vi, dt, q10, c.hh_m(s, i), c.hh_h(s, i), c.hh_n(s, i));
    }
    for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k)
      mechanisms::expsyn_decay(c.syn_decay(k), c.syn_g(k));
  }

  // v at the detector above the threshold, from below: a spike at the step's end.
  KOKKOS_INLINE_FUNCTION void detect(const int s) const {
    const int det = c.det_node(s);
    if (det >= 0) mechanisms::detect_threshold_crossing(c, s, c.v(s, det), step_end);
  }
};

// Adds a step's events to their synapses' conductances (ExpSyn's NET_RECEIVE: g += w;
// when an event is due is events.hpp's delivery_step): the first event of each run of
// equal synapses adds the whole run in order (events are sorted), so sums are the same
// on every backend and for any number of ranks.
template <class MemorySpace>
struct ApplySynapticEvents {
  Kokkos::View<const int*, MemorySpace> synapse;
  Kokkos::View<const double*, MemorySpace> weight;
  Kokkos::View<double*, MemorySpace> syn_g;
  int begin, end;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    mechanisms::expsyn_receive(synapse, weight, syn_g, i, begin, end);
  }
};

template <class ExecutionSpace>
struct InitCells {
  CellGroupViews<ExecutionSpace> c;
  double v_init, q10;
  bool gates;  // false: the on-chip schedule sets its own (InitOnChipGates)
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    for (int i = 0; i < c.size(s); ++i) {
      c.v(s, i) = v_init;
      if (gates && (c.mechs(s, i) & kHHBit))
        mechanisms::hh_initial_states(v_init, q10, c.hh_m(s, i), c.hh_h(s, i), c.hh_n(s, i));
    }
    for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k) c.syn_g(k) = 0;
    if (c.det_node(s) >= 0) c.det_flag(s) = v_init > c.det_threshold(s) ? 1 : 0;
  }
};

// The on-chip schedule's gates (OnChipCellLists::gates) at rest at v_init, as InitCells
// sets the other schedules' (hh_initial_states).
template <class ExecutionSpace>
struct InitOnChipGates {
  OnChipCellLists<typename ExecutionSpace::memory_space> l;
  Kokkos::View<const int*, typename ExecutionSpace::memory_space> size;
  int hh_capacity;
  double v_init, q10;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    double* g = l.gates.data() + std::size_t(3) * hh_capacity * s;
    const int b = l.constant_begin(s);
    for (int i = 0; i < size(s); ++i) {
      const int h = l.hh_slot(b + i);
      if (h >= 0)
        mechanisms::hh_initial_states(v_init, q10, g[h], g[hh_capacity + h],
                                      g[2 * hh_capacity + h]);
    }
  }
};

template <class ExecutionSpace,
          class Voltages = Kokkos::View<const double**, typename ExecutionSpace::array_layout,
                                        typename ExecutionSpace::memory_space>>
struct RecordVoltages {
  Voltages v;  // (slot, node)
  Kokkos::View<const int*, typename ExecutionSpace::memory_space> slot, node;
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space> trace;
  int row;
  KOKKOS_INLINE_FUNCTION void operator()(const int r) const { trace(row, r) = v(slot(r), node(r)); }
};

// The distinct trees (identical parent arrays) of a group's templates: tree_of_template[k]
// indexes parents. The lanes schedule groups cells of one tree into tiles; the on-chip
// schedule plans each tree's solve once.
struct TemplateTrees {
  std::vector<int> tree_of_template;
  std::vector<std::vector<int>> parents;
};
inline TemplateTrees distinct_trees(const std::vector<CellTemplate>& templates) {
  TemplateTrees out;
  std::map<std::vector<int>, int> index;
  for (const CellTemplate& t : templates) {
    const NeuronCompartments& comp = t.compartments;
    std::vector<int> parents(comp.size());
    for (int i = 0; i < comp.size(); ++i) parents[i] = comp.tree.parent(i);
    const auto found = index.emplace(parents, static_cast<int>(out.parents.size()));
    if (found.second) out.parents.push_back(std::move(parents));
    out.tree_of_template.push_back(found.first->second);
  }
  return out;
}

// f(node) for every node that density mechanism m of template t covers.
template <class F>
void for_each_node_of(const CellTemplate& t, const DensityMechanism& m, F&& f) {
  for (int sec : t.sections_of(m)) {
    const int first = t.compartments.first_centre[sec];
    for (int i = first; i < first + t.compartments.section_nseg[sec]; ++i) f(i);
  }
}

// One template's per-node constants and synapses, which every cell of it shares: the
// constructor computes them once per template, copies them into each slot's row for the
// cells and lanes schedules, and hands the on-chip schedule one block per template.
struct TemplateNodes {
  std::vector<int> parent;
  std::vector<unsigned char> mechs;
  std::vector<double> d0, minus_g_axial, c_dt, pas_g, pas_e, gna, gk, gl, el;  // uS, mV
  std::vector<int> syn_node;  // per synapse of the template
  std::vector<double> syn_decay, syn_e;
  // The synapses grouped by node, as the on-chip schedule reads them: nodes in increasing
  // order, group g has synapses group_syn[group_first[g] .. group_first[g + 1]) (indices
  // into the template's synapses, increasing).
  std::vector<int> group_node, group_first{0}, group_syn;
};
inline TemplateNodes template_nodes(const CellTemplate& t, double dt) {
  const NeuronCompartments& comp = t.compartments;
  const int n = comp.size();
  const CableMatrix cable = cable_matrix(comp, t.cm, dt);
  TemplateNodes k;
  k.parent.resize(n);
  for (int i = 0; i < n; ++i) k.parent[i] = comp.tree.parent(i);
  k.d0 = cable.d0;
  k.minus_g_axial = cable.minus_g_axial;
  k.c_dt = cable.c_dt;
  k.mechs.assign(n, 0);
  for (auto* x : {&k.pas_g, &k.pas_e, &k.gna, &k.gk, &k.gl, &k.el}) x->assign(n, 0.0);
  for (const DensityMechanism& m : t.density)
    for_each_node_of(t, m, [&](const int i) {
      if (m.kind == DensityMechanism::Pas) {
        k.mechs[i] |= kPasBit;
        k.pas_g[i] = membrane_uS(comp, i, m.pas.g);
        k.pas_e[i] = m.pas.e;
      } else {
        k.mechs[i] |= kHHBit;
        k.gna[i] = membrane_uS(comp, i, m.hh.gnabar);
        k.gk[i] = membrane_uS(comp, i, m.hh.gkbar);
        k.gl[i] = membrane_uS(comp, i, m.hh.gl);
        k.el[i] = m.hh.el;
      }
    });
  for (const ExpSynSpec& syn : t.synapses) {
    k.syn_node.push_back(comp.node_at(syn.where));
    k.syn_decay.push_back(std::exp(-dt / syn.tau));
    k.syn_e.push_back(syn.e);
  }
  std::vector<int> order(k.syn_node.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return k.syn_node[a] < k.syn_node[b]; });
  for (std::size_t q = 0; q < order.size(); ++q) {
    if (q > 0 && k.syn_node[order[q]] != k.syn_node[order[q - 1]]) {
      k.group_first.push_back(static_cast<int>(k.group_syn.size()));
      k.group_node.push_back(k.syn_node[order[q - 1]]);
    }
    k.group_syn.push_back(order[q]);
  }
  if (!order.empty()) {
    k.group_first.push_back(static_cast<int>(k.group_syn.size()));
    k.group_node.push_back(k.syn_node[order.back()]);
  }
  return k;
}

// The templates' per-node constants as one block per template of a group, in the order of
// their first slots: slot s's node i is entry begin[s] + i. hh_slot numbers a template's hh
// nodes in node order (-1: no hh).
struct TemplateBlocks {
  std::vector<int> begin;  // per slot
  std::vector<int> parent, hh_slot;
  std::vector<unsigned char> mechs;
  std::vector<double> d0, c_dt, minus_g_axial, pas_g, pas_e, gna, gk, gl, el;
};
inline TemplateBlocks template_blocks(const std::vector<int>& template_of_slot,
                                      const std::vector<TemplateNodes>& nodes_of_template) {
  TemplateBlocks b;
  std::vector<int> begin_of_template(nodes_of_template.size(), -1);
  const auto append = [](auto& to, const auto& from) {
    to.insert(to.end(), from.begin(), from.end());
  };
  for (const int t : template_of_slot) {
    if (begin_of_template[t] < 0) {
      begin_of_template[t] = static_cast<int>(b.parent.size());
      const TemplateNodes& k = nodes_of_template[t];
      int hh = 0;
      for (unsigned char m : k.mechs) b.hh_slot.push_back((m & kHHBit) ? hh++ : -1);
      append(b.parent, k.parent);
      append(b.mechs, k.mechs);
      append(b.d0, k.d0);
      append(b.c_dt, k.c_dt);
      append(b.minus_g_axial, k.minus_g_axial);
      append(b.pas_g, k.pas_g);
      append(b.pas_e, k.pas_e);
      append(b.gna, k.gna);
      append(b.gk, k.gk);
      append(b.gl, k.gl);
      append(b.el, k.el);
    }
    b.begin.push_back(begin_of_template[t]);
  }
  return b;
}

// TemplateBlocks read as the (slot, node) arrays that FillCellTiles copies into the lanes
// schedule's tiles (host memory; raw pointers, as the functor is a device function too).
struct TemplateBlockRows {
  const int *begin_, *parent_;
  const unsigned char* mechs_;
  const double *d0_, *minus_g_axial_, *pas_g_, *pas_e_, *gna_, *gk_, *gl_, *el_;
  explicit TemplateBlockRows(const TemplateBlocks& b)
      : begin_(b.begin.data()),
        parent_(b.parent.data()),
        mechs_(b.mechs.data()),
        d0_(b.d0.data()),
        minus_g_axial_(b.minus_g_axial.data()),
        pas_g_(b.pas_g.data()),
        pas_e_(b.pas_e.data()),
        gna_(b.gna.data()),
        gk_(b.gk.data()),
        gl_(b.gl.data()),
        el_(b.el.data()) {}
  KOKKOS_INLINE_FUNCTION int parent(int s, int i) const { return parent_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION unsigned char mechs(int s, int i) const { return mechs_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double d0(int s, int i) const { return d0_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double minus_g_axial(int s, int i) const {
    return minus_g_axial_[begin_[s] + i];
  }
  KOKKOS_INLINE_FUNCTION double pas_g(int s, int i) const { return pas_g_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double pas_e(int s, int i) const { return pas_e_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_gna(int s, int i) const { return gna_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_gk(int s, int i) const { return gk_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_gl(int s, int i) const { return gl_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_el(int s, int i) const { return el_[begin_[s] + i]; }
};

}  // namespace impl

// One rank's cells. Slots are the cells sorted by node count (descending, ties by gid).
template <class ExecutionSpace>
class CellGroup {
 public:
  using views = CellGroupViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;

  // schedule: HostSchedule::Lanes takes effect on host execution spaces only; on_chip:
  // OnChipSteps (run_options.hpp), which wins over schedule where it applies.
  CellGroup(const ExecutionSpace& exec, const std::vector<CellTemplate>& templates,
            const NetworkSpec& net, const std::vector<std::int64_t>& gids,
            const SimulationParameters& p, int spike_capacity_steps,
            HostSchedule schedule = HostSchedule::Cells, OnChipSteps on_chip = OnChipSteps::Off,
            OnChipForce on_chip_force = {})
      : params_(p) {
    const int nc = static_cast<int>(gids.size());
    on_chip_ = on_chip == OnChipSteps::On ||
               (on_chip == OnChipSteps::Auto && !is_host_execution_space<ExecutionSpace>());
    if (on_chip_) count_on_chip_capacity(templates, net, gids);
    lanes_ =
        !on_chip_ && is_host_execution_space<ExecutionSpace>() && schedule == HostSchedule::Lanes;
    gid_of_slot_.assign(gids.begin(), gids.end());
    const impl::TemplateTrees trees =
        lanes_ || on_chip_ ? impl::distinct_trees(templates) : impl::TemplateTrees{};
    // Lanes: cells of one tree next to each other, so that consecutive slots fill tiles.
    std::stable_sort(gid_of_slot_.begin(), gid_of_slot_.end(), [&](std::int64_t a, std::int64_t b) {
      const int na = templates[net.template_of(a)].compartments.size();
      const int nb = templates[net.template_of(b)].compartments.size();
      if (na != nb) return na > nb;
      const int ta = lanes_ ? trees.tree_of_template[net.template_of(a)] : 0;
      const int tb = lanes_ ? trees.tree_of_template[net.template_of(b)] : 0;
      return ta != tb ? ta < tb : a < b;
    });
    max_nodes_ = 1;
    for (std::int64_t g : gid_of_slot_) {
      const int n = templates[net.template_of(g)].compartments.size();
      max_nodes_ = std::max(max_nodes_, n);
      num_nodes_ += n;
    }
    auto nd = [&](const char* l) {
      return typename views::nodes_d(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(l)), nc, max_nodes_);
    };
    views& c = state_;
    c.size = typename views::vec_i("hb::size", nc);
    // The cells schedule's (slot, node) state; on-chip keeps d and rhs in team scratch and its
    // gates in its own rows (v is loaded from and stored to c.v per epoch); lanes keeps all of
    // it in its tiles.
    if (!lanes_) c.v = nd("hb::v");
    if (!on_chip_ && !lanes_) {
      c.d = nd("hb::d");
      c.rhs = nd("hb::rhs");
      c.hh_m = typename views::nodes_d("hb::m", nc, max_nodes_);
      c.hh_h = typename views::nodes_d("hb::h", nc, max_nodes_);
      c.hh_n = typename views::nodes_d("hb::n", nc, max_nodes_);
    }
    std::vector<impl::TemplateNodes> nodes_of_template;
    for (const CellTemplate& t : templates)
      nodes_of_template.push_back(impl::template_nodes(t, p.dt));
    auto hsize = Kokkos::create_mirror_view(c.size);
    std::vector<int> stim_begin{0}, stim_node, det_node;
    std::vector<double> stim_del, stim_dur, stim_amp, det_thr;
    // Synapses are numbered slot by slot (int indices, as the kernels read them).
    syn_begin_of_slot_.assign(1, 0);
    for (int s = 0; s < nc; ++s) {
      const std::int64_t gid = gid_of_slot_[s];
      slot_of_gid_[gid] = s;
      const CellTemplate& t = templates[net.template_of(gid)];
      hsize(s) = t.compartments.size();
      const std::int64_t syn_end = std::int64_t(syn_begin_of_slot_.back()) + t.synapses.size();
      if (syn_end > std::numeric_limits<int>::max())
        throw InputError("a rank's cells have more than " +
                             std::to_string(std::numeric_limits<int>::max()) +
                             " synapses (at gid " + std::to_string(gid) + "): use more ranks",
                         {}, 0, std::to_string(syn_end));
      syn_begin_of_slot_.push_back(static_cast<int>(syn_end));
      std::vector<IClampSpec> stims = t.iclamps;
      for (const IClampSpec& x : net.stimulus(gid, t).iclamps) stims.push_back(x);
      for (const IClampSpec& x : stims) {
        stim_node.push_back(t.compartments.node_at(x.where));
        stim_del.push_back(x.del);
        stim_dur.push_back(x.dur);
        stim_amp.push_back(x.amp);
      }
      stim_begin.push_back(static_cast<int>(stim_node.size()));
      det_node.push_back(t.detector.present ? t.compartments.node_at(t.detector.where) : -1);
      det_thr.push_back(t.detector.threshold);
    }
    Kokkos::deep_copy(exec, c.size, hsize);
    fill_synapses(exec, net, nodes_of_template);
    // The on-chip and lanes schedules read one block of constants per template (lanes: copied
    // into its tiles below); the cells schedule a row per slot.
    std::vector<int> template_of_slot(nc);
    for (int s = 0; s < nc; ++s) template_of_slot[s] = net.template_of(gid_of_slot_[s]);
    const impl::TemplateBlocks blocks =
        on_chip_ || lanes_ ? impl::template_blocks(template_of_slot, nodes_of_template)
                           : impl::TemplateBlocks{};
    if (on_chip_)
      build_on_chip_lists(exec, trees, net, templates, nodes_of_template, blocks, on_chip_force);
    else if (!lanes_)
      fill_slot_constants(exec, net, nodes_of_template);
    exec.fence();
    c.stim_begin = impl::to_device(exec, stim_begin, "hb::stim_begin");
    c.stim_node = impl::to_device(exec, stim_node, "hb::stim_node");
    c.stim_del = impl::to_device(exec, stim_del, "hb::stim_del");
    c.stim_dur = impl::to_device(exec, stim_dur, "hb::stim_dur");
    c.stim_amp = impl::to_device(exec, stim_amp, "hb::stim_amp");
    c.det_node = impl::to_device(exec, det_node, "hb::det_node");
    c.det_threshold = impl::to_device(exec, det_thr, "hb::det_threshold");
    c.det_flag = typename views::vec_i("hb::det_flag", nc);
    c.spike_count = Kokkos::View<int, memory_space>("hb::spike_count");
    const std::size_t cap = static_cast<std::size_t>(nc) * std::max(1, spike_capacity_steps);
    c.spike_slot = typename views::vec_i("hb::spike_slot", cap);
    c.spike_step = typename views::vec_i("hb::spike_step", cap);
    // Host copies made once: take_spikes() runs every epoch.
    spike_count_host_ = Kokkos::create_mirror_view(c.spike_count);
    spike_slot_host_ = Kokkos::create_mirror_view(c.spike_slot);
    spike_step_host_ = Kokkos::create_mirror_view(c.spike_step);
    q10_ = hh_q10(p.celsius);
    c.status = make_solve_status<memory_space>();
    exec.fence();
    if constexpr (is_host_execution_space<ExecutionSpace>()) {
      if (lanes_) {
        std::vector<int> tree_of_slot(nc);
        for (int s = 0; s < nc; ++s) tree_of_slot[s] = trees.tree_of_template[template_of_slot[s]];
        build_tiles(exec, tree_of_slot, template_of_slot, blocks);
      }
    }
  }

  int num_cells() const { return static_cast<int>(gid_of_slot_.size()); }
  int max_nodes() const { return max_nodes_; }
  std::int64_t num_nodes() const { return num_nodes_; }
  int num_synapses() const { return syn_begin_of_slot_.empty() ? 0 : syn_begin_of_slot_.back(); }
  std::int64_t gid_of_slot(int s) const { return gid_of_slot_[s]; }
  int slot_of_gid(std::int64_t gid) const {
    const auto it = slot_of_gid_.find(gid);
    return it == slot_of_gid_.end() ? -1 : it->second;
  }
  // Local synapse index of (gid, synapse k of its template).
  int synapse_index(std::int64_t gid, int k) const {
    const int s = slot_of_gid(gid);
    return syn_begin_of_slot_[s] + k;
  }
  int synapses_of(std::int64_t gid) const {
    const int s = slot_of_gid(gid);
    return syn_begin_of_slot_[s + 1] - syn_begin_of_slot_[s];
  }
  // The group's Views. Under the lanes schedule the per-node (slot, node) ones are empty
  // (the tiles hold that state); the per-slot and per-synapse ones are the same.
  const views& data() const { return state_; }

  // "on_chip", "lanes" or "cells": the schedule run_steps() runs; cell_lanes() the lanes
  // that step one cell (on_chip: a team's size; lanes: the cells W of a tile; cells: 1).
  const char* schedule_name() const { return on_chip_ ? "on_chip" : lanes_ ? "lanes" : "cells"; }
  int cell_lanes() const {
    if (on_chip_) return launches_.empty() ? 1 : launches_.front().lanes;
    if constexpr (is_host_execution_space<ExecutionSpace>())
      return lanes_ ? cell_tile_lanes<ExecutionSpace>() : 1;
    return 1;
  }
  int num_tiles() const { return tiles_.tiles; }
  // The on-chip schedule's launches (empty under the other schedules), and what they say.
  const std::vector<OnChipLaunch>& on_chip_launches() const { return launches_; }
  std::string schedule_detail() const {
    std::string out;
    for (const OnChipLaunch& l : launches_) out += (out.empty() ? "" : "; ") + l.why;
    return out;
  }
  // Whether a tile's d and rhs live in team scratch (else in memory: cells too large).
  bool tiles_in_scratch() const { return tile_scratch_bytes_ > 0; }

  void initialize(const ExecutionSpace& exec) {
    if constexpr (is_host_execution_space<ExecutionSpace>()) {
      if (lanes_) {
        constexpr int W = cell_tile_lanes<ExecutionSpace>();
        Kokkos::parallel_for(
            "hinesbatch::sim_init_tiles", impl::simd_tile_policy(exec, tiles_.tiles, W),
            impl::InitCellTiles<ExecutionSpace, views, W>{tiles_, state_, params_.v_init, q10_});
        return;
      }
    }
    Kokkos::parallel_for("hinesbatch::sim_init",
                         Kokkos::RangePolicy<ExecutionSpace>(exec, 0, num_cells()),
                         impl::InitCells<ExecutionSpace>{state_, params_.v_init, q10_, !on_chip_});
    if (on_chip_)
      Kokkos::parallel_for("hinesbatch::sim_init_on_chip_gates",
                           Kokkos::RangePolicy<ExecutionSpace>(exec, 0, num_cells()),
                           impl::InitOnChipGates<ExecutionSpace>{lists_, state_.size, on_chip_hh_,
                                                                 params_.v_init, q10_});
  }
  // Global step `step`: from t = step dt to (step + 1) dt. Asynchronous.
  void step(const ExecutionSpace& exec, std::int64_t step) {
    const double dt = params_.dt;
    if constexpr (is_host_execution_space<ExecutionSpace>()) {
      if (lanes_) {
        constexpr int W = cell_tile_lanes<ExecutionSpace>();
        // Tiles handed out one at a time, largest first (slots are sorted by size): a
        // mixed network's tiles differ 20-fold in work, and contiguous chunks of them left
        // most threads idle.
        auto policy = Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(
                          exec, tiles_.tiles, 1)
                          .set_chunk_size(1);
        if (tile_scratch_bytes_) policy.set_scratch_size(1, Kokkos::PerTeam(tile_scratch_bytes_));
        Kokkos::parallel_for(
            "hinesbatch::sim_step_tiles", policy,
            impl::StepCellTiles<ExecutionSpace, views, W>{
                tiles_, state_, dt, (static_cast<double>(step) + 0.5) * dt, params_.ena, params_.ek,
                q10_, static_cast<int>(step + 1), max_nodes_, tile_scratch_bytes_});
        return;
      }
    }
    Kokkos::parallel_for(
        "hinesbatch::sim_step", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, num_cells()),
        impl::StepCells<ExecutionSpace>{state_, dt, (static_cast<double>(step) + 0.5) * dt,
                                        params_.ena, params_.ek, q10_, static_cast<int>(step + 1),
                                        max_nodes_});
  }
  // The recordings: trace column r is v at node[r] of slot[r]. Set once, before run_steps.
  void set_records(const ExecutionSpace& exec, const std::vector<int>& slot,
                   const std::vector<int>& node) {
    rec_slot_ = impl::to_device(exec, slot, "hb::rec_slot");
    rec_node_ = impl::to_device(exec, node, "hb::rec_node");
    if (!on_chip_) return;
    // Per slot, in column order.
    std::vector<int> begin(num_cells() + 1, 0), nodes(slot.size()), columns(slot.size());
    for (int s : slot) ++begin[s + 1];
    for (int s = 0; s < num_cells(); ++s) begin[s + 1] += begin[s];
    std::vector<int> at(begin.begin(), begin.end() - 1);
    for (std::size_t r = 0; r < slot.size(); ++r) {
      nodes[at[slot[r]]] = node[r];
      columns[at[slot[r]]++] = static_cast<int>(r);
    }
    lists_.record_begin = impl::to_device(exec, begin, "hb::rec_begin");
    lists_.record_node = impl::to_device(exec, nodes, "hb::rec_node_of_slot");
    lists_.record_column = impl::to_device(exec, columns, "hb::rec_column");
  }
  // Steps [first, first + count): before step first + j, its events [step_begin[j],
  // step_begin[j + 1]) of (syn, w) (sorted by synapse; step_begin_device: the same offsets
  // on the device) reach their synapses; after it, row j + 1 of trace gets the recordings.
  // Asynchronous.
  void run_steps(const ExecutionSpace& exec, std::int64_t first, int count,
                 const Kokkos::View<const int*, memory_space>& syn,
                 const Kokkos::View<const double*, memory_space>& w,
                 const std::vector<int>& step_begin,
                 const Kokkos::View<const int*, memory_space>& step_begin_device,
                 const Kokkos::View<double**, Kokkos::LayoutRight, memory_space>& trace) {
    if (!on_chip_) {
      for (int j = 0; j < count; ++j) {
        apply_synaptic_events(exec, syn, w, step_begin[j], step_begin[j + 1]);
        step(exec, first + j);
        record(exec, trace, j + 1);
      }
      return;
    }
    const int nc = num_cells();
    Kokkos::View<const int*, memory_space> cell_events;
    if (step_begin[count] > 0) {
      const std::size_t entries = static_cast<std::size_t>(count) * (nc + 1);
      if (cell_events_.extent(0) < entries)
        cell_events_ = Kokkos::View<int*, memory_space>(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::cell_events")),
            entries);
      Kokkos::parallel_for("hinesbatch::sim_locate_cell_events",
                           Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(entries)),
                           impl::LocateCellEvents<memory_space>{
                               syn, step_begin_device, state_.syn_begin, cell_events_, nc});
      cell_events = cell_events_;
    }
    const double dt = params_.dt;
    for (const OnChipLaunch& l : launches_) {
      const int cells = l.slot_end - l.slot_begin;
      const auto bytes = Kokkos::PerTeam(impl::OnChipCell::scratch_bytes(l.scratch_nodes));
      const auto step = [&](auto level) {
        return impl::StepCellEpochOnChip<ExecutionSpace, views, decltype(level)::value>{
            state_,      lists_,       syn,
            w,           cell_events,  trace,
            dt,          params_.ena,  params_.ek,
            q10_,        first,        count,
            nc,          max_nodes_,   on_chip_nodes_,
            on_chip_hh_, l.slot_begin, l.scratch_nodes};
      };
      using level0 = std::integral_constant<int, 0>;
      using level1 = std::integral_constant<int, 1>;
      if (l.kind == OnChipLaunch::kWarpPerCell)
        Kokkos::parallel_for(
            "hinesbatch::sim_epoch_on_chip_warp",
            Kokkos::TeamPolicy<ExecutionSpace, OnChipWarpBounds>(exec, cells, l.lanes)
                .set_scratch_size(0, bytes),
            step(level0{}));
      else if (l.kind == OnChipLaunch::kTeamPerCell)
        Kokkos::parallel_for(
            "hinesbatch::sim_epoch_on_chip_team",
            Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(exec, cells, l.lanes)
                .set_scratch_size(0, bytes),
            step(level0{}));
      else
        Kokkos::parallel_for(
            "hinesbatch::sim_epoch_on_chip_team_in_memory",
            Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(exec, cells, l.lanes)
                .set_scratch_size(1, bytes),
            step(level1{}));
    }
  }
  // Record row `row` of trace from the recordings of set_records. Asynchronous.
  void record(const ExecutionSpace& exec,
              const Kokkos::View<double**, Kokkos::LayoutRight, memory_space>& trace,
              int row) const {
    if (rec_slot_.extent(0) > 0) record_voltages(exec, rec_slot_, rec_node_, trace, row);
  }
  // Adds the events [begin, end) of (synapse, weight), due at this step, to the synapses'
  // conductances. Asynchronous.
  void apply_synaptic_events(const ExecutionSpace& exec,
                             const Kokkos::View<const int*, memory_space>& syn,
                             const Kokkos::View<const double*, memory_space>& w, int begin,
                             int end) {
    if (end <= begin) return;
    Kokkos::parallel_for("hinesbatch::sim_apply_events",
                         Kokkos::RangePolicy<ExecutionSpace>(exec, begin, end),
                         impl::ApplySynapticEvents<memory_space>{syn, w, state_.syn_g, begin, end});
  }
  // Spikes since the last call, as (gid, step); fences exec. Throws SolverError if a
  // solve failed (naming gid and node) or the spike buffer overflowed.
  std::vector<Spike> take_spikes(const ExecutionSpace& exec) {
    Kokkos::deep_copy(exec, spike_count_host_, state_.spike_count);
    exec.fence();
    const int count = spike_count_host_();
    check(exec);
    if (count > static_cast<int>(state_.spike_slot.extent(0)))
      throw SolverError("hinesbatch: spike buffer overflow (" + std::to_string(count) + " spikes)");
    std::vector<Spike> out(count);
    if (count > 0) {
      const auto& hs = spike_slot_host_;
      const auto& ht = spike_step_host_;
      const auto r = std::make_pair(0, count);
      Kokkos::deep_copy(exec, Kokkos::subview(hs, r), Kokkos::subview(state_.spike_slot, r));
      Kokkos::deep_copy(exec, Kokkos::subview(ht, r), Kokkos::subview(state_.spike_step, r));
      exec.fence();
      for (int k = 0; k < count; ++k) out[k] = {gid_of_slot_[hs(k)], ht(k)};
      Kokkos::deep_copy(exec, state_.spike_count, 0);
      exec.fence();
    }
    return out;
  }
  // Throws SolverError if a voltage is non-finite or beyond kMaxAbsVoltageMv (voltage_check.hpp).
  void check_voltages(const ExecutionSpace& exec, double time_ms) const {
    const auto gid = [this](int s) { return gid_of_slot_[s]; };
    if constexpr (is_host_execution_space<ExecutionSpace>()) {
      if (lanes_) {
        hinesbatch::check_voltages(exec, tile_voltages(), state_.size, num_cells(), time_ms, gid);
        return;
      }
    }
    hinesbatch::check_voltages(exec, state_.v, state_.size, num_cells(), time_ms, gid);
  }
  // trace(row, r) = v(slot(r), node(r)) for the r < slot.extent(0) recordings. Asynchronous.
  void record_voltages(const ExecutionSpace& exec, const Kokkos::View<int*, memory_space>& slot,
                       const Kokkos::View<int*, memory_space>& node,
                       const Kokkos::View<double**, Kokkos::LayoutRight, memory_space>& trace,
                       int row) const {
    const auto records = Kokkos::RangePolicy<ExecutionSpace>(exec, 0, slot.extent(0));
    if constexpr (is_host_execution_space<ExecutionSpace>()) {
      if (lanes_) {
        Kokkos::parallel_for("hinesbatch::sim_record", records,
                             impl::RecordVoltages<ExecutionSpace, impl::TileVoltages<memory_space>>{
                                 tile_voltages(), slot, node, trace, row});
        return;
      }
    }
    Kokkos::parallel_for("hinesbatch::sim_record", records,
                         impl::RecordVoltages<ExecutionSpace>{state_.v, slot, node, trace, row});
  }

  void check(const ExecutionSpace& exec) const {
    const auto r = take_solve_status(exec, state_.status);
    if (!r.failed()) return;
    const long long gid = gid_of_slot_[r.key() / max_nodes_], node = r.key() % max_nodes_;
    throw_solve_failure("gid " + std::to_string(gid) + ", node " + std::to_string(node), r.pivot(),
                        {}, gid, node);
  }

 private:
  // The on-chip schedule's rows: the most nodes and hh nodes of any cell (each cell's
  // voltages and gates rows are that long), and the hh nodes of each template.
  void count_on_chip_capacity(const std::vector<CellTemplate>& templates, const NetworkSpec& net,
                              const std::vector<std::int64_t>& gids) {
    hh_of_template_.assign(templates.size(), -1);
    on_chip_nodes_ = 1;
    on_chip_hh_ = 0;
    for (std::int64_t g : gids) {
      const int k = net.template_of(g);
      const CellTemplate& t = templates[k];
      if (hh_of_template_[k] < 0) {
        std::vector<char> hh(t.compartments.size(), 0);
        for (const DensityMechanism& m : t.density)
          if (m.kind == DensityMechanism::HH)
            impl::for_each_node_of(t, m, [&](int i) { hh[i] = 1; });
        hh_of_template_[k] = static_cast<int>(std::count(hh.begin(), hh.end(), 1));
      }
      on_chip_nodes_ = std::max(on_chip_nodes_, t.compartments.size());
      on_chip_hh_ = std::max(on_chip_hh_, hh_of_template_[k]);
    }
  }

  // What the device allows the epoch kernel, as the Kokkos in use reports it for the
  // kernels run_steps launches.
  static OnChipDevice on_chip_device() {
    OnChipDevice d;
    d.gpu = !is_host_execution_space<ExecutionSpace>();
    d.scratch0_max = static_cast<std::size_t>(
        Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(1, 1).scratch_size_max(0));
    d.scratch1_max = static_cast<std::size_t>(
        Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(1, 1).scratch_size_max(1));
    d.warp_team_max = [](std::size_t bytes) {
      return Kokkos::TeamPolicy<ExecutionSpace, OnChipWarpBounds>(1, 1)
          .set_scratch_size(0, Kokkos::PerTeam(bytes))
          .team_size_max(impl::StepCellEpochOnChip<ExecutionSpace, views, 0>{},
                         Kokkos::ParallelForTag());
    };
    d.team_max = [](std::size_t bytes, int level) {
      auto p = Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(1, 1);
      p.set_scratch_size(level, Kokkos::PerTeam(bytes));
      return level == 0 ? p.team_size_max(impl::StepCellEpochOnChip<ExecutionSpace, views, 0>{},
                                          Kokkos::ParallelForTag())
                        : p.team_size_max(impl::StepCellEpochOnChip<ExecutionSpace, views, 1>{},
                                          Kokkos::ParallelForTag());
    };
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) {
      int device = 0, sms = 1, shared = 0;
      cudaGetDevice(&device);
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
      d.multiprocessors = std::max(1, sms);
      d.shared_per_sm = static_cast<std::size_t>(std::max(0, shared));
    }
#endif
    return d;
  }

  // Each slot's synapses (node, decay factor, reversal potential) are its template's, from
  // syn_begin_of_slot_; filled in parallel over slots (P3's literal network has 50 M).
  void fill_synapses(const ExecutionSpace& exec, const NetworkSpec& net,
                     const std::vector<impl::TemplateNodes>& nodes_of_template) {
    views& c = state_;
    const std::size_t total = static_cast<std::size_t>(num_synapses());
    const auto alloc = [&](auto& device_view, const char* label) {
      using View = std::decay_t<decltype(device_view)>;
      device_view =
          View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), total);
      return Kokkos::create_mirror_view(device_view);
    };
    // The on-chip schedule finds a synapse's node through its groups (OnChipCellLists).
    typename views::vec_i::HostMirror hnode;
    if (!on_chip_) hnode = alloc(c.syn_node, "hb::syn_node");
    auto hdecay = alloc(c.syn_decay, "hb::syn_decay");
    auto he = alloc(c.syn_e, "hb::syn_e");
    Kokkos::parallel_for(
        "hinesbatch::sim_fill_synapses",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, num_cells()), [&](const int s) {
          const impl::TemplateNodes& k = nodes_of_template[net.template_of(gid_of_slot_[s])];
          const int b = syn_begin_of_slot_[s];
          for (std::size_t q = 0; q < k.syn_node.size(); ++q) {
            if (!on_chip_) hnode(b + q) = k.syn_node[q];
            hdecay(b + q) = k.syn_decay[q];
            he(b + q) = k.syn_e[q];
          }
        });
    Kokkos::DefaultHostExecutionSpace().fence();
    if (!on_chip_) Kokkos::deep_copy(exec, c.syn_node, hnode);
    Kokkos::deep_copy(exec, c.syn_decay, hdecay);
    Kokkos::deep_copy(exec, c.syn_e, he);
    c.syn_begin = impl::to_device(exec, syn_begin_of_slot_, "hb::syn_begin");
    c.syn_g = typename views::vec_d("hb::syn_g", total);
    exec.fence();  // before the host mirrors go
  }

  // The cells and lanes schedules' (slot, node) constants: each slot's row is its template's.
  void fill_slot_constants(const ExecutionSpace& exec, const NetworkSpec& net,
                           const std::vector<impl::TemplateNodes>& nodes_of_template) {
    views& c = state_;
    const int nc = num_cells();
    const auto alloc = [&](auto& device_view, const char* label) {
      using View = std::decay_t<decltype(device_view)>;
      device_view = View(std::string(label), nc, max_nodes_);
      return Kokkos::create_mirror_view(device_view);
    };
    auto hmechs = alloc(c.mechs, "hb::mechs");
    auto hparent = alloc(c.parent, "hb::parent");
    auto ha = alloc(c.minus_g_axial, "hb::minus_g_axial");
    auto hd0 = alloc(c.d0, "hb::d0");
    auto hpg = alloc(c.pas_g, "hb::pas_g");
    auto hpe = alloc(c.pas_e, "hb::pas_e");
    auto hgna = alloc(c.hh_gna, "hb::gna");
    auto hgk = alloc(c.hh_gk, "hb::gk");
    auto hgl = alloc(c.hh_gl, "hb::gl");
    auto hel = alloc(c.hh_el, "hb::el");
    Kokkos::parallel_for(
        "hinesbatch::sim_fill_slot_constants",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, nc), [&](const int s) {
          const impl::TemplateNodes& k = nodes_of_template[net.template_of(gid_of_slot_[s])];
          for (std::size_t i = 0; i < k.parent.size(); ++i) {
            hparent(s, i) = k.parent[i];
            hmechs(s, i) = k.mechs[i];
            ha(s, i) = k.minus_g_axial[i];
            hd0(s, i) = k.d0[i];
            hpg(s, i) = k.pas_g[i];
            hpe(s, i) = k.pas_e[i];
            hgna(s, i) = k.gna[i];
            hgk(s, i) = k.gk[i];
            hgl(s, i) = k.gl[i];
            hel(s, i) = k.el[i];
          }
        });
    Kokkos::DefaultHostExecutionSpace().fence();
    Kokkos::deep_copy(exec, c.mechs, hmechs);
    Kokkos::deep_copy(exec, c.parent, hparent);
    Kokkos::deep_copy(exec, c.minus_g_axial, ha);
    Kokkos::deep_copy(exec, c.d0, hd0);
    Kokkos::deep_copy(exec, c.pas_g, hpg);
    Kokkos::deep_copy(exec, c.pas_e, hpe);
    Kokkos::deep_copy(exec, c.hh_gna, hgna);
    Kokkos::deep_copy(exec, c.hh_gk, hgk);
    Kokkos::deep_copy(exec, c.hh_gl, hgl);
    Kokkos::deep_copy(exec, c.hh_el, hel);
    exec.fence();  // before the host mirrors go
  }

  // The on-chip schedule's lists: per slot, its synapses grouped by node (its template's
  // groups, offset to the slot's synapses), its tree's CellLanePlan for the team's lanes
  // (one per distinct tree), and the templates' constants.
  void build_on_chip_lists(const ExecutionSpace& exec, const impl::TemplateTrees& trees,
                           const NetworkSpec& net, const std::vector<CellTemplate>& templates,
                           const std::vector<impl::TemplateNodes>& nodes_of_template,
                           const impl::TemplateBlocks& blocks, OnChipForce force) {
    // The launches, from each tree's plans for the lane counts they consider (each plan
    // made once).
    std::map<std::pair<int, int>, CellLanePlan> plan_of;  // (tree, lanes)
    const auto plan_for = [&](int tree, int lanes) -> const CellLanePlan& {
      auto it = plan_of.find({tree, lanes});
      if (it == plan_of.end())
        it = plan_of
                 .emplace(std::make_pair(tree, lanes),
                          CellLanePlan::build(trees.parents[tree], lanes))
                 .first;
      return it->second;
    };
    OnChipCells cells;
    for (int s = 0; s < num_cells(); ++s) {
      const int k = net.template_of(gid_of_slot_[s]);
      cells.nodes.push_back(static_cast<int>(templates[k].compartments.size()));
      cells.hh_nodes.push_back(hh_of_template_[k]);
      cells.tree.push_back(trees.tree_of_template[k]);
    }
    cells.critical_path = [&](int tree, int lanes) {
      return plan_for(tree, lanes).critical_path();
    };
    launches_ = plan_on_chip_launches(cells, on_chip_device(), force);
    std::map<std::pair<int, int>, int> index_of;  // (tree, lanes) -> plan in `plans`
    std::vector<int> plan_of_slot(num_cells());
    LanePlanList plans;
    for (const OnChipLaunch& l : launches_)
      for (int s = l.slot_begin; s < l.slot_end; ++s) {
        const std::pair<int, int> key{cells.tree[s], l.lanes};
        auto it = index_of.find(key);
        if (it == index_of.end())
          it = index_of.emplace(key, plans.add(plan_for(key.first, key.second))).first;
        plan_of_slot[s] = it->second;
      }
    lists_.plan_of_slot = impl::to_device(exec, plan_of_slot, "hb::plan_of_slot");
    lists_.plans = plans.to_device<memory_space>(exec);
    upload_template_blocks(exec, blocks);
    // A slot's groups are its template's; its group_syn entries are a permutation of its
    // synapses, so they start at its first synapse.
    std::vector<int> group_begin{0};
    for (int s = 0; s < num_cells(); ++s)
      group_begin.push_back(
          group_begin.back() +
          static_cast<int>(nodes_of_template[net.template_of(gid_of_slot_[s])].group_node.size()));
    std::vector<int> group_node(group_begin.back()), group_first(group_begin.back() + 1, 0),
        group_syn(num_synapses());
    Kokkos::parallel_for(
        "hinesbatch::sim_group_synapses",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, num_cells()), [&](const int s) {
          const impl::TemplateNodes& k = nodes_of_template[net.template_of(gid_of_slot_[s])];
          const int first_syn = syn_begin_of_slot_[s], first_group = group_begin[s];
          for (std::size_t q = 0; q < k.group_syn.size(); ++q)
            group_syn[first_syn + q] = first_syn + k.group_syn[q];
          for (std::size_t g = 0; g < k.group_node.size(); ++g) {
            group_node[first_group + g] = k.group_node[g];
            group_first[first_group + g + 1] = first_syn + k.group_first[g + 1];
          }
        });
    Kokkos::DefaultHostExecutionSpace().fence();
    lists_.group_begin = impl::to_device(exec, group_begin, "hb::syn_group_begin");
    lists_.group_node = impl::to_device(exec, group_node, "hb::syn_group_node");
    lists_.group_first = impl::to_device(exec, group_first, "hb::syn_group_first");
    lists_.group_syn = impl::to_device(exec, group_syn, "hb::syn_group_syn");
    const std::vector<int> no_records(num_cells() + 1, 0);
    lists_.record_begin = impl::to_device(exec, no_records, "hb::rec_begin");
    lists_.record_node = lists_.record_column = typename views::vec_i("hb::rec_none", 0);
  }

  // The templates' blocks of constants on the device, and the cells' rows of gates and v.
  void upload_template_blocks(const ExecutionSpace& exec, const impl::TemplateBlocks& b) {
    OnChipCellLists<memory_space>& l = lists_;
    l.constant_begin = impl::to_device(exec, b.begin, "hb::constant_begin");
    l.parent = impl::to_device(exec, b.parent, "hb::template_parent");
    l.hh_slot = impl::to_device(exec, b.hh_slot, "hb::template_hh_slot");
    l.mechs = impl::to_device(exec, b.mechs, "hb::template_mechs");
    l.d0 = impl::to_device(exec, b.d0, "hb::template_d0");
    l.c_dt = impl::to_device(exec, b.c_dt, "hb::template_c_dt");
    l.minus_g_axial = impl::to_device(exec, b.minus_g_axial, "hb::template_minus_g_axial");
    l.pas_g = impl::to_device(exec, b.pas_g, "hb::template_pas_g");
    l.pas_e = impl::to_device(exec, b.pas_e, "hb::template_pas_e");
    l.hh_gna = impl::to_device(exec, b.gna, "hb::template_gna");
    l.hh_gk = impl::to_device(exec, b.gk, "hb::template_gk");
    l.hh_gl = impl::to_device(exec, b.gl, "hb::template_gl");
    l.hh_el = impl::to_device(exec, b.el, "hb::template_el");
    l.gates = Kokkos::View<double*, memory_space>(
        "hb::on_chip_gates", std::size_t(3) * std::max(on_chip_hh_, 1) * num_cells());
    l.voltages = Kokkos::View<double*, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::on_chip_voltages")),
        std::size_t(on_chip_nodes_) * num_cells());
  }

  impl::TileVoltages<memory_space> tile_voltages() const {
    return {tiles_.v, tiles_.slot_origin, cell_lanes()};
  }

  // Packs the templates' blocks into tiles of W cells of one tree (consecutive slots;
  // tree_of_slot is constant over a tile): the lanes schedule's only copy of the cells.
  // Full tiles of one template share one constant block.
  void build_tiles(const ExecutionSpace& exec, const std::vector<int>& tree_of_slot,
                   const std::vector<int>& template_of_slot, const impl::TemplateBlocks& blocks) {
    constexpr int W = cell_tile_lanes<ExecutionSpace>();
    using tv = CellTileViews<ExecutionSpace>;
    const int nc = num_cells();
    auto hsize = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), state_.size);
    std::vector<int> row{0}, first, cells, owner;
    std::vector<std::int64_t> origin(nc), const_at;
    std::map<int, std::int64_t> block_of_template;  // full one-template tiles' shared block
    std::int64_t const_elems = 0;
    int max_rows = 0;
    for (int s = 0; s < nc;) {
      int e = s + 1;
      while (e < nc && e - s < W && tree_of_slot[e] == tree_of_slot[s]) ++e;
      for (int k = s; k < e; ++k) origin[k] = static_cast<std::int64_t>(row.back()) * W + (k - s);
      bool uniform = e - s == W;
      for (int k = s; k < e; ++k) uniform = uniform && template_of_slot[k] == template_of_slot[s];
      const auto shared =
          uniform ? block_of_template.find(template_of_slot[s]) : block_of_template.end();
      if (shared != block_of_template.end()) {
        const_at.push_back(shared->second);
        owner.push_back(0);
      } else {
        const_at.push_back(const_elems);
        owner.push_back(1);
        if (uniform) block_of_template[template_of_slot[s]] = const_elems;
        const_elems += static_cast<std::int64_t>(hsize(s)) * W;
      }
      first.push_back(s);
      cells.push_back(e - s);
      row.push_back(row.back() + hsize(s));
      max_rows = std::max(max_rows, static_cast<int>(hsize(s)));
      s = e;
    }
    tv& t = tiles_;
    t.tiles = static_cast<int>(first.size());
    t.tile_row = impl::to_device(exec, row, "hb::tile_row");
    t.tile_slot = impl::to_device(exec, first, "hb::tile_slot");
    t.tile_cells = impl::to_device(exec, cells, "hb::tile_cells");
    t.slot_origin = impl::to_device(exec, origin, "hb::slot_origin");
    t.tile_const = impl::to_device(exec, const_at, "hb::tile_const");
    t.const_owner = impl::to_device(exec, owner, "hb::tile_const_owner");
    const std::size_t rows = static_cast<std::size_t>(row.back()), elems = rows * W;
    const auto alloc = [](const char* label) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
    };
    t.parent = typename tv::vec_i(alloc("hb::tile_parent"), rows);
    t.row_any = typename tv::vec_u8(alloc("hb::tile_row_any"), rows);
    t.row_all = typename tv::vec_u8(alloc("hb::tile_row_all"), rows);
    t.mechs = typename tv::vec_u8(alloc("hb::tile_mechs"), const_elems);
    for (auto* x : {&t.v, &t.hh_m, &t.hh_h, &t.hh_n})
      *x = typename tv::vec_d(alloc("hb::tile_states"), elems);
    for (auto* x :
         {&t.d0, &t.minus_g_axial, &t.pas_g, &t.pas_e, &t.hh_gna, &t.hh_gk, &t.hh_gl, &t.hh_el})
      *x = typename tv::vec_d(alloc("hb::tile_constants"), const_elems);
    // A tile's d and rhs in team scratch when they fit (they do for any real cell).
    tile_scratch_bytes_ = 2 * static_cast<std::size_t>(max_rows) * W * sizeof(double);
    if (tile_scratch_bytes_ >
        static_cast<std::size_t>(impl::SimdTilePolicy<ExecutionSpace>::scratch_size_max(1))) {
      tile_scratch_bytes_ = 0;
      t.d = typename tv::vec_d(alloc("hb::tile_d"), elems);
      t.rhs = typename tv::vec_d(alloc("hb::tile_rhs"), elems);
    }
    Kokkos::parallel_for("hinesbatch::sim_fill_tiles", impl::simd_tile_policy(exec, t.tiles, W),
                         impl::FillCellTiles<ExecutionSpace, impl::TemplateBlockRows, W>{
                             t, impl::TemplateBlockRows(blocks)});
    exec.fence();
  }

  SimulationParameters params_;
  bool lanes_ = false;
  bool on_chip_ = false;  // the on-chip schedule's state:
  int on_chip_nodes_ = 1, on_chip_hh_ = 0;
  std::vector<int> hh_of_template_;
  std::vector<OnChipLaunch> launches_;
  OnChipCellLists<memory_space> lists_;
  Kokkos::View<int*, memory_space> cell_events_;          // LocateCellEvents' output, reused
  Kokkos::View<int*, memory_space> rec_slot_, rec_node_;  // set_records
  CellTileViews<ExecutionSpace> tiles_;                   // the lanes schedule's storage
  std::size_t tile_scratch_bytes_ = 0;
  std::vector<std::int64_t> gid_of_slot_;
  std::unordered_map<std::int64_t, int> slot_of_gid_;
  std::vector<int> syn_begin_of_slot_;
  int max_nodes_ = 1;
  std::int64_t num_nodes_ = 0;
  double q10_ = 1;
  views state_;  // every View of the group (v, the matrix, mechanism states, ...)
  typename Kokkos::View<int, memory_space>::HostMirror spike_count_host_;
  typename views::vec_i::HostMirror spike_slot_host_, spike_step_host_;
};

}  // namespace hinesbatch
