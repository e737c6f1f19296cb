#pragma once
// The cells schedule: one work item per cell does NEURON's fixed step in one
// pass, so a step is one kernel launch:
//   assemble  d = C/dt + sum g_axial + g_mech,  rhs = I_mech(v) + I_axial(v) + I_stim
//   solve     the cell's Hines system for dv (hines_system.hpp)
//   update    v += dv; hh gates by cnexp at the new v; ExpSyn g decays (synapses that run
//             a point process: its current and state, generated_synapses.hpp)
//   detect    v at the detector crosses the threshold from below -> a spike at t + dt
// (StepCells: one member function per phase; each mechanism's currents and state updates
// are device functions of its own header in mechanisms/).
// Storage is (cell, node) in the execution space's preferred layout: LayoutLeft on
// CUDA (cells interleaved: CoreNEURON's one-thread-per-cell scheme, cells sorted by size
// so a warp's cells are alike), LayoutRight on the host (a cell's nodes contiguous). Each
// slot's row of constants is its template's (TemplateNodes). The reference schedule:
// HostSchedule::Cells on a host, OnChipSteps::Off on a GPU.
// Generated (NMODL) mechanisms of a catalogue run here too (generated_cells.hpp), inside
// the same kernel: their currents after the cable terms, their states after v += dv. The
// step's kernel is compiled with them only when some template uses one.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/impl/cell_templates.hpp"
#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/mechanisms/detector.hpp"
#include "hinesbatch/simulation/impl/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/impl/mechanisms/pas.hpp"
#include "hinesbatch/simulation/impl/step_schedule.hpp"
#include "hinesbatch/simulation/impl/voltage_check.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch::impl {

// NEURON's fixed step for one cell (one work item): assemble -> solve -> update -> detect.
// Generated: the generated mechanisms' hooks (NoGenerated: none).
template <class ExecutionSpace, class Generated = NoGenerated>
struct StepCells {
  CellGroupViews<ExecutionSpace> c;
  double dt, t_mid, ena, ek, q10;
  int step_end;  // global index of the step's end time (spike time = step_end * dt)
  int max_nodes;
  Generated gen{};

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
    if constexpr (Generated::active) gen.assemble(c, s, t_mid);
    for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k) {
      const int node = c.syn_node(k);
      if constexpr (Generated::active) {
        if (gen.syn.is_generated(k)) {
          gen.syn.current(k, c.v(s, node), t_mid, c.d(s, node), c.rhs(s, node));
          continue;
        }
      }
      mechanisms::expsyn_current(c.syn_g(k), c.syn_e(k), c.v(s, node), c.d(s, node),
                                 c.rhs(s, node));
    }
    for (int k = c.stim_begin(s); k < c.stim_begin(s + 1); ++k) {
      const int node = c.stim_node(k);
      double i, gm;  // the catalogue's IClamp or the hand-written one (the same bits)
      gen.stimulus_current(c.stim_del(k), c.stim_dur(k), c.stim_amp(k), t_mid, c.v(s, node), i, gm);
      c.d(s, node) += gm;
      c.rhs(s, node) -= i;
    }
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
    for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k) {
      if constexpr (Generated::active) {
        if (gen.syn.is_generated(k)) {
          gen.syn.state(k, c.v(s, c.syn_node(k)), step_end * dt);
          continue;
        }
      }
      mechanisms::expsyn_decay(c.syn_decay(k), c.syn_g(k));
    }
    if constexpr (Generated::active) gen.update(c, s, step_end * dt);
  }

  // v at the detector above the threshold, from below: a spike at the step's end.
  KOKKOS_INLINE_FUNCTION void detect(const int s) const {
    const int det = c.det_node(s);
    if (det >= 0) mechanisms::detect_threshold_crossing(c, s, c.v(s, det), step_end);
  }
};

// Catalogue: the compiled catalogue whose mechanisms the templates' `generated` lists name.
template <class ExecutionSpace, class Catalogue>
class CellsSchedule
    : public ScheduleVoltages<CellsSchedule<ExecutionSpace, Catalogue>, ExecutionSpace> {
 public:
  using views = CellGroupViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;
  using Generated = GeneratedCells<ExecutionSpace, Catalogue>;
  using Base = ScheduleVoltages<CellsSchedule<ExecutionSpace, Catalogue>, ExecutionSpace>;
  using Base::c_, Base::params_, Base::q10_, Base::max_nodes_, Base::cells_, Base::generated_;

  static const char* schedule_name() { return "cells"; }
  int team_lanes() const { return 1; }
  int tile_cells() const { return 1; }

  // The catalogue's description, by which templates name its mechanisms.
  static const MechanismCatalogue& catalogue() { return nmodl::description<Catalogue>(); }

  // The shared Views, and the (slot, node) state and constants: each slot's row is its
  // template's.
  void construct(const ScheduleSetup<ExecutionSpace>& setup) {
    this->take_shared(setup);
    const auto nd = [&](const char* l) {
      return typename views::nodes_d(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(l)), cells_, max_nodes_);
    };
    c_.v = nd("hb::v");
    c_.d = nd("hb::d");
    c_.rhs = nd("hb::rhs");
    c_.hh_m = typename views::nodes_d("hb::m", cells_, max_nodes_);
    c_.hh_h = typename views::nodes_d("hb::h", cells_, max_nodes_);
    c_.hh_n = typename views::nodes_d("hb::n", cells_, max_nodes_);
    fill_slot_constants(setup);
    setup_generated(setup);
  }

  const typename Generated::Views& generated_views() const { return gen_.g; }

  void initialize(const ExecutionSpace& exec) {
    init_cells(exec, c_, cells_, params_.v_init, q10_, true, generated_, gen_);
  }

  // A launch per step, after the step's events (ScheduleVoltages::run_steps).
  const auto& generated_synapses() const { return gen_.syn; }

  // Global step `step`: from t = step dt to (step + 1) dt. Asynchronous.
  void step(const ExecutionSpace& exec, std::int64_t step) const {
    const double dt = params_.dt, t_mid = (static_cast<double>(step) + 0.5) * dt;
    const auto policy = Kokkos::RangePolicy<ExecutionSpace>(exec, 0, cells_);
    const int step_end = static_cast<int>(step + 1);
    if (generated_)
      Kokkos::parallel_for(
          "hinesbatch::sim_step", policy,
          StepCells<ExecutionSpace, Generated>{c_, dt, t_mid, params_.ena, params_.ek, q10_,
                                               step_end, max_nodes_, gen_});
    else
      Kokkos::parallel_for("hinesbatch::sim_step", policy,
                           StepCells<ExecutionSpace>{c_, dt, t_mid, params_.ena, params_.ek, q10_,
                                                     step_end, max_nodes_});
  }

  // v (slot, node).
  Kokkos::View<const double**, typename ExecutionSpace::array_layout, memory_space> voltages()
      const {
    return c_.v;
  }

 private:
  void fill_slot_constants(const ScheduleSetup<ExecutionSpace>& setup) {
    const ExecutionSpace& exec = setup.exec;
    views& c = c_;
    const int nc = cells_;
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
    const std::vector<int>& template_of_slot = setup.template_of_slot;
    const std::vector<TemplateNodes>& nodes_of_template = setup.nodes_of_template;
    Kokkos::parallel_for("hinesbatch::sim_fill_slot_constants",
                         Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, nc),
                         [&](const int s) {
                           const TemplateNodes& k = nodes_of_template[template_of_slot[s]];
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

  // The templates' generated mechanisms laid out (generated_layout.hpp) and on the device.
  void setup_generated(const ScheduleSetup<ExecutionSpace>& setup) {
    this->template setup_generated_mechanisms<Catalogue>(setup, "in the cells schedule's step",
                                                         gen_.g, gen_.syn);
  }

  Generated gen_;
};

}  // namespace hinesbatch::impl
