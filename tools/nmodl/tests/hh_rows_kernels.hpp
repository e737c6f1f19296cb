#pragma once
// Isolated hh compartments, one per (slot, node), stepped as NEURON does (currents, implicit
// Euler v, states at the new v) by the generated hh on node rows (per-template gnabar that
// grows along the nodes) and by the simulator's hand-written hh on plain (slot, node) Views:
// the same model two ways, for nmodl_unit_tests and nmodl_rows_bench.
#include <Kokkos_Core.hpp>
#include <hinesbatch/simulation/impl/mechanisms/hh.hpp>
#include <hinesbatch/simulation/nmodl/defaults/defaults.hpp>
#include <hinesbatch/simulation/nmodl/impl/node_rows.hpp>

namespace hinesbatch::nmodl::testing {

using HH = hinesbatch::nmodl::defaults::hh;

struct HHRowsSetup {
  int slots = 8, nodes = 16, templates = 2, steps = 400;
  double dt = 0.025, celsius = 6.3, v_init = -65, ena = 50, ek = -77;
  // gnabar of node n of template t, and the injected current density (mA/cm2).
  KOKKOS_INLINE_FUNCTION static double gnabar(int t, int n) {
    return 0.12 * (1 + 0.02 * n + 0.1 * t);
  }
  KOKKOS_INLINE_FUNCTION static double injected(int s, int n) { return 0.002 * ((s + n) % 9); }
};

template <class ExecutionSpace>
struct GeneratedHHRows {
  using Views2 = Kokkos::View<double**, typename ExecutionSpace::array_layout,
                              typename ExecutionSpace::memory_space>;
  NodeRowViews<ExecutionSpace> rows;
  Views2 v;
  HHRowsSetup p;
  int kena, kek;

  GeneratedHHRows(const HHRowsSetup& setup, int ena_index, int ek_index)
      : rows(make_node_rows<HH, ExecutionSpace>(setup.slots, setup.nodes, setup.templates)),
        v("v", setup.slots, setup.nodes),
        p(setup),
        kena(ena_index),
        kek(ek_index) {
    constexpr int ign = RowPositions<HH>::in_store(0);  // gnabar: variable 0, a constant
    static_assert(!HH::variables[0].written, "hh's gnabar is a per-template constant");
    auto c = Kokkos::create_mirror_view(rows.constants);
    Kokkos::deep_copy(c, rows.constants);
    for (int t = 0; t < p.templates; ++t)
      for (int n = 0; n < p.nodes; ++n) c(t, n, ign) = HHRowsSetup::gnabar(t, n);
    Kokkos::deep_copy(rows.constants, c);
  }

  KOKKOS_INLINE_FUNCTION NodeRowAccessor<HH, ExecutionSpace> at(int s, int n, double vn) const {
    NodeRowAccessor<HH, ExecutionSpace> a{
        rows, s, n, s % p.templates, vn, 0.0, p.dt, p.celsius, 1000.0, 17.8, {}};
    a.ion_value[kena] = p.ena;
    a.ion_value[kek] = p.ek;
    return a;
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    for (int n = 0; n < p.nodes; ++n) {
      v(s, n) = p.v_init;
      auto a = at(s, n, p.v_init);
      HH::initial(a);
    }
    for (int step = 0; step < p.steps; ++step)
      for (int n = 0; n < p.nodes; ++n) {
        auto a = at(s, n, v(s, n));
        HH::current(a);
        const double vn = v(s, n) + (HHRowsSetup::injected(s, n) - a.i) / (1e-3 / p.dt + a.g);
        v(s, n) = vn;
        auto b = at(s, n, vn);
        HH::state(b);
      }
  }
  void run(const ExecutionSpace& exec) {
    Kokkos::parallel_for("nmodl_generated_hh_rows",
                         Kokkos::RangePolicy<ExecutionSpace>(exec, 0, p.slots), *this);
  }
};

template <class ExecutionSpace>
struct HandWrittenHHRows {
  using Views2 = Kokkos::View<double**, typename ExecutionSpace::array_layout,
                              typename ExecutionSpace::memory_space>;
  Views2 v, m, h, n_, gna;
  HHRowsSetup p;
  double q10;

  explicit HandWrittenHHRows(const HHRowsSetup& setup)
      : v("v", setup.slots, setup.nodes),
        m("m", setup.slots, setup.nodes),
        h("h", setup.slots, setup.nodes),
        n_("n", setup.slots, setup.nodes),
        gna("gnabar", setup.templates, setup.nodes),
        p(setup),
        q10(hinesbatch::hh_q10(setup.celsius)) {
    auto g = Kokkos::create_mirror_view(gna);
    for (int t = 0; t < p.templates; ++t)
      for (int k = 0; k < p.nodes; ++k) g(t, k) = HHRowsSetup::gnabar(t, k);
    Kokkos::deep_copy(gna, g);
  }
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    for (int k = 0; k < p.nodes; ++k) {
      v(s, k) = p.v_init;
      mechanisms::hh_initial_states(p.v_init, q10, m(s, k), h(s, k), n_(s, k));
    }
    for (int step = 0; step < p.steps; ++step)
      for (int k = 0; k < p.nodes; ++k) {
        double d = 0, rhs = 0;
        mechanisms::hh_current(gna(s % p.templates, k), 0.036, 0.0003, -54.3, m(s, k), h(s, k),
                               n_(s, k), v(s, k), p.ena, p.ek, d, rhs);
        const double vn = v(s, k) + (HHRowsSetup::injected(s, k) + rhs) / (1e-3 / p.dt + d);
        v(s, k) = vn;
        mechanisms::hh_advance_states(vn, p.dt, q10, m(s, k), h(s, k), n_(s, k));
      }
  }
  void run(const ExecutionSpace& exec) {
    Kokkos::parallel_for("nmodl_hand_written_hh_rows",
                         Kokkos::RangePolicy<ExecutionSpace>(exec, 0, p.slots), *this);
  }
};

}  // namespace hinesbatch::nmodl::testing
