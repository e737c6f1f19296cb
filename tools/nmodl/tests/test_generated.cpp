// hh, pas and ExpSyn generated from mechanisms/default/*.mod against the simulator's
// hand-written device functions (simulation/mechanisms/*.hpp), over a sweep of voltages and
// gate values, in a kernel of the default execution space.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <hinesbatch/simulation/impl/mechanisms/expsyn.hpp>
#include <hinesbatch/simulation/impl/mechanisms/hh.hpp>
#include <hinesbatch/simulation/impl/mechanisms/pas.hpp>
#include <hinesbatch/simulation/nmodl/defaults/defaults.hpp>
#include <random>
#include <string>

#include "hh_rows_kernels.hpp"

namespace {

namespace gen = hinesbatch::nmodl::defaults;

// A plain accessor: one instance's variables, globals and ions in small arrays.
struct TestAccessor {
  double v_ = 0, t_ = 0, dt_ = 0.025, celsius_ = 6.3;
  double vars[16] = {};
  double globals_[4] = {};
  double ions[8] = {};  // ion variable K's value
  double i = 0, g = 0;
  double ion_i[8] = {}, ion_didv[8] = {};
  KOKKOS_INLINE_FUNCTION double v() const { return v_; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return dt_; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  KOKKOS_INLINE_FUNCTION double area() const { return 1000; }
  KOKKOS_INLINE_FUNCTION double diam() const { return 17.8; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    return vars[I];
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double x) {
    vars[I] = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return globals_[I];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion() const {
    return ions[K];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(double x) {
    ions[K] = x;
  }
  KOKKOS_INLINE_FUNCTION void add_current(double di, double dg) {
    i += di;
    g += dg;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(double di, double didv) {
    ion_i[K] += di;
    ion_didv[K] += didv;
  }
};

template <class M>
int index_of(const char* name) {
  for (int k = 0; k < M::num_variables; ++k)
    if (std::strcmp(M::variables[k].name, name) == 0) return k;
  ADD_FAILURE() << M::name << " has no variable " << name;
  return 0;
}
template <class M>
int ion_index_of(const char* name) {
  for (int k = 0; k < M::num_ion_variables; ++k)
    if (std::strcmp(M::ion_variables[k].name, name) == 0) return k;
  ADD_FAILURE() << M::name << " has no ion variable " << name;
  return 0;
}

// |a - b| <= tol * max(|a|, |b|, floor)
::testing::AssertionResult close(double a, double b, double tol, double floor = 1e-300) {
  const double scale = std::fmax(std::fmax(std::fabs(a), std::fabs(b)), floor);
  if (std::fabs(a - b) <= tol * scale) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b << " (relative difference "
                                       << std::fabs(a - b) / scale << ", tolerance " << tol << ")";
}

TEST(NmodlGenerated, MetadataOfHh) {
  using HH = gen::hh;
  EXPECT_STREQ(HH::name, "hh");
  EXPECT_EQ(HH::kind, hinesbatch::nmodl::MechanismKind::Density);
  EXPECT_DOUBLE_EQ(HH::variables[index_of<HH>("gnabar")].default_value, 0.12);
  EXPECT_DOUBLE_EQ(HH::variables[index_of<HH>("el")].default_value, -54.3);
  EXPECT_EQ(HH::variables[index_of<HH>("m")].kind, hinesbatch::nmodl::VariableKind::State);
  // Parameters the code never assigns may be kept once per template.
  EXPECT_FALSE(HH::variables[index_of<HH>("gnabar")].written);
  // minf, mtau, ...: GLOBAL in the file but always assigned before use: no storage.
  for (const auto& v : HH::variables) EXPECT_STRNE(v.name, "minf");
  const auto& ina = HH::ion_variables[ion_index_of<HH>("ina")];
  EXPECT_STREQ(ina.ion, "na");
  EXPECT_EQ(ina.valence, 1);
  EXPECT_TRUE(ina.write);
  EXPECT_EQ(gen::ExpSyn::kind, hinesbatch::nmodl::MechanismKind::PointProcess);
  EXPECT_EQ(gen::ExpSyn::num_weights, 1);
  // Exp2Syn's factor is read by NET_RECEIVE before any assignment there: kept per instance.
  EXPECT_EQ(gen::Exp2Syn::variables[index_of<gen::Exp2Syn>("factor")].range, false);
}

// The synapses' decay factors are per-instance invariants: computed once, at the end of
// initial() (invariants()), from the parameters as INITIAL leaves them, and read by state()
// instead of an exp per step. On fresh random time constants, with the stored values
// poisoned first: each is the exp the step computed before, to the bit.
TEST(NmodlGenerated, SynapseDecaysAreInvariantsComputedAfterInitial) {
  std::mt19937_64 rng(20261126);
  std::uniform_real_distribution<double> u(0, 1);
  const auto invariant = [](const auto& vars, auto m, int k) {
    using M = decltype(m);
    const int at = index_of<M>(("hb_invariant" + std::to_string(k)).c_str());
    EXPECT_EQ(M::variables[at].kind, hinesbatch::nmodl::VariableKind::Assigned);
    EXPECT_TRUE(M::variables[at].written);
    EXPECT_FALSE(M::variables[at].range);
    EXPECT_FALSE(M::variables[at].output_only);
    return vars[at];
  };
  static_assert(gen::ExpSyn::num_invariants == 1, "exp(-dt/tau)");
  static_assert(gen::Exp2Syn::num_invariants == 2, "exp(-dt/tau1), exp(-dt/tau2)");
  static_assert(gen::hh::num_invariants == 0 && gen::pas::num_invariants == 0, "nothing fixed");
  for (int round = 0; round < 100; ++round) {
    TestAccessor e;
    e.dt_ = 0.005 + 0.1 * u(rng);
    for (double& x : e.vars) x = std::nan("");
    const double tau = 0.1 + 20 * u(rng);
    e.vars[index_of<gen::ExpSyn>("tau")] = tau;
    e.vars[index_of<gen::ExpSyn>("e")] = 0;
    gen::ExpSyn::initial(e);
    EXPECT_EQ(invariant(e.vars, gen::ExpSyn{}, 0), std::exp(-e.dt_ / tau)) << "tau " << tau;
    const double g0 = u(rng);
    e.vars[index_of<gen::ExpSyn>("g")] = g0;
    gen::ExpSyn::state(e);
    EXPECT_EQ(e.vars[index_of<gen::ExpSyn>("g")], g0 * std::exp(-e.dt_ / tau));

    // Exp2Syn's INITIAL moves tau1 below tau2 (half the rounds): the invariant is the one
    // of the moved tau1, the value state() reads.
    TestAccessor b;
    b.dt_ = e.dt_;
    for (double& x : b.vars) x = std::nan("");
    const double tau2 = 0.5 + 20 * u(rng);
    const double tau1 = round % 2 ? tau2 * (0.99995 + 0.1 * u(rng)) : tau2 * 0.9 * u(rng) + 1e-3;
    b.vars[index_of<gen::Exp2Syn>("tau1")] = tau1;
    b.vars[index_of<gen::Exp2Syn>("tau2")] = tau2;
    b.vars[index_of<gen::Exp2Syn>("e")] = 0;
    gen::Exp2Syn::initial(b);
    const double moved = b.vars[index_of<gen::Exp2Syn>("tau1")];
    EXPECT_EQ(moved, round % 2 ? 0.9999 * tau2 : tau1);
    EXPECT_EQ(invariant(b.vars, gen::Exp2Syn{}, 0), std::exp(-b.dt_ / moved));
    EXPECT_EQ(invariant(b.vars, gen::Exp2Syn{}, 1), std::exp(-b.dt_ / tau2));
  }
}

// Generated hh against hh.hpp: initial gates, one cnexp step and the current.
// A free function, not the test body: CUDA refuses device lambdas in a private member.
void hh_matches_hand_written() {
  using HH = gen::hh;
  constexpr int n = 400;
  constexpr int cols = 14;
  Kokkos::View<double**, Kokkos::LayoutRight> out("out", n, cols);
  const int im = index_of<HH>("m"), ih = index_of<HH>("h"), in = index_of<HH>("n");
  const int ign = index_of<HH>("gnabar"), igk = index_of<HH>("gkbar"), igl = index_of<HH>("gl"),
            iel = index_of<HH>("el");
  const int kena = ion_index_of<HH>("ena"), kek = ion_index_of<HH>("ek");
  const double celsius = 16.3, dt = 0.025;
  const double q10 = hinesbatch::hh_q10(celsius);
  Kokkos::parallel_for(
      "nmodl_hh_vs_hand_written", Kokkos::RangePolicy<>(0, n), KOKKOS_LAMBDA(const int s) {
        const double v = -100.0 + 160.0 * s / (n - 1) + 1e-3 * (s % 7);
        TestAccessor a;
        a.v_ = v;
        a.celsius_ = celsius;
        a.dt_ = dt;
        a.vars[ign] = 0.12, a.vars[igk] = 0.036, a.vars[igl] = 0.0003, a.vars[iel] = -54.3;
        a.ions[kena] = 50.0, a.ions[kek] = -77.0;
        HH::initial(a);
        double m, h, nn;
        hinesbatch::mechanisms::hh_initial_states(v, q10, m, h, nn);
        out(s, 0) = a.vars[im], out(s, 1) = m;
        out(s, 2) = a.vars[ih], out(s, 3) = h;
        out(s, 4) = a.vars[in], out(s, 5) = nn;
        // Gates away from rest, then one step at v.
        const double m0 = 0.05 + 0.9 * ((s * 37) % 101) / 100.0;
        const double h0 = 0.05 + 0.9 * ((s * 53) % 101) / 100.0;
        const double n0 = 0.05 + 0.9 * ((s * 71) % 101) / 100.0;
        a.vars[im] = m0, a.vars[ih] = h0, a.vars[in] = n0;
        HH::state(a);
        m = m0, h = h0, nn = n0;
        hinesbatch::mechanisms::hh_advance_states(v, dt, q10, m, h, nn);
        out(s, 6) = a.vars[im], out(s, 7) = m;
        out(s, 8) = a.vars[in], out(s, 9) = nn;
        // Current and conductance at the stepped gates.
        HH::current(a);
        double d = 0, rhs = 0;
        hinesbatch::mechanisms::hh_current(0.12, 0.036, 0.0003, -54.3, a.vars[im], a.vars[ih],
                                           a.vars[in], v, 50.0, -77.0, d, rhs);
        out(s, 10) = a.i, out(s, 11) = -rhs;
        out(s, 12) = a.g, out(s, 13) = d;
      });
  auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int s = 0; s < n; ++s) {
    // Same formulas: to rounding.
    EXPECT_TRUE(close(h_out(s, 0), h_out(s, 1), 1e-14)) << "minf, sample " << s;
    EXPECT_TRUE(close(h_out(s, 2), h_out(s, 3), 1e-14)) << "hinf, sample " << s;
    EXPECT_TRUE(close(h_out(s, 4), h_out(s, 5), 1e-14)) << "ninf, sample " << s;
    // cnexp written two ways (SymPy's x = inf - (inf - x) e^(-dt/tau), NEURON's
    // x += (1 - e^(-dt/tau)) (inf - x)): equal to a few ulps of the gate.
    EXPECT_NEAR(h_out(s, 6), h_out(s, 7), 1e-15) << "m after a step, sample " << s;
    EXPECT_NEAR(h_out(s, 8), h_out(s, 9), 1e-15) << "n after a step, sample " << s;
    EXPECT_TRUE(close(h_out(s, 10), h_out(s, 11), 1e-13, 1e-12)) << "current, sample " << s;
    // di/dv by NEURON's difference quotient over 0.001 mV: exact for a current linear in v
    // but for rounding of i amplified by 1/0.001.
    EXPECT_TRUE(close(h_out(s, 12), h_out(s, 13), 1e-10)) << "conductance, sample " << s;
  }
}

TEST(NmodlGenerated, HhMatchesHandWritten) { hh_matches_hand_written(); }

void pas_and_expsyn_match_hand_written() {
  constexpr int n = 64;
  Kokkos::View<double**, Kokkos::LayoutRight> out("out", n, 8);
  const int pg = index_of<gen::pas>("g"), pe = index_of<gen::pas>("e");
  const int sg = index_of<gen::ExpSyn>("g"), stau = index_of<gen::ExpSyn>("tau"),
            se = index_of<gen::ExpSyn>("e");
  Kokkos::parallel_for(
      "nmodl_pas_expsyn", Kokkos::RangePolicy<>(0, n), KOKKOS_LAMBDA(const int s) {
        const double v = -90.0 + 2.0 * s;
        TestAccessor p;
        p.v_ = v;
        p.vars[pg] = 3e-4, p.vars[pe] = -65.0;
        gen::pas::current(p);
        double d = 0, rhs = 0;
        hinesbatch::mechanisms::pas_current(3e-4, -65.0, v, d, rhs);
        out(s, 0) = p.i, out(s, 1) = -rhs, out(s, 2) = p.g, out(s, 3) = d;
        TestAccessor e;
        e.v_ = v;
        e.vars[stau] = 2.0, e.vars[se] = 0.0, e.vars[sg] = 0.0;
        // Its decay factor, once per instance (initial() ends with this).
        gen::ExpSyn::invariants(e);
        double w[1] = {0.001 * (s + 1)};
        gen::ExpSyn::net_receive(e, w);
        gen::ExpSyn::state(e);
        double g = w[0];
        hinesbatch::mechanisms::expsyn_decay(std::exp(-e.dt_ / 2.0), g);
        out(s, 4) = e.vars[sg], out(s, 5) = g;
        gen::ExpSyn::current(e);
        d = 0, rhs = 0;
        hinesbatch::mechanisms::expsyn_current(g, 0.0, v, d, rhs);
        out(s, 6) = e.i, out(s, 7) = -rhs;
      });
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  for (int s = 0; s < n; ++s) {
    EXPECT_TRUE(close(h(s, 0), h(s, 1), 1e-15, 1e-300)) << "pas current, sample " << s;
    EXPECT_TRUE(close(h(s, 2), h(s, 3), 1e-10)) << "pas conductance, sample " << s;
    EXPECT_TRUE(close(h(s, 4), h(s, 5), 1e-15)) << "ExpSyn g, sample " << s;
    EXPECT_TRUE(close(h(s, 6), h(s, 7), 1e-15, 1e-300)) << "ExpSyn current, sample " << s;
  }
}

TEST(NmodlGenerated, PasAndExpSynMatchHandWritten) { pas_and_expsyn_match_hand_written(); }

// The node-rows accessor: gnabar kept once per (template, node), states in (slot, node)
// rows; isolated hh compartments under 0-16 uA/cm2 stepped 10 ms by the generated hh and by
// the hand-written one.
TEST(NmodlGenerated, NodeRowsHhMatchesHandWritten) {
  using Exec = Kokkos::DefaultExecutionSpace;
  using hinesbatch::nmodl::RowPositions;
  static_assert(RowPositions<gen::hh>::num_constants == 4, "gnabar, gkbar, gl, el");
  static_assert(RowPositions<gen::hh>::num_rows == 3 + 2 + 1, "m h n; gna gk; il");
  hinesbatch::nmodl::testing::HHRowsSetup setup;
  hinesbatch::nmodl::testing::GeneratedHHRows<Exec> generated(setup, ion_index_of<gen::hh>("ena"),
                                                              ion_index_of<gen::hh>("ek"));
  hinesbatch::nmodl::testing::HandWrittenHHRows<Exec> hand(setup);
  Exec exec;
  generated.run(exec);
  hand.run(exec);
  auto vg = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), generated.v);
  auto vh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hand.v);
  auto rows = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), generated.rows.rows);
  auto mh = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hand.m);
  const int im = RowPositions<gen::hh>::in_store(index_of<gen::hh>("m"));
  double worst_v = 0, worst_m = 0;
  for (int s = 0; s < setup.slots; ++s)
    for (int n = 0; n < setup.nodes; ++n) {
      worst_v = std::fmax(worst_v, std::fabs(vg(s, n) - vh(s, n)));
      worst_m = std::fmax(worst_m, std::fabs(rows(s, n, im) - mh(s, n)));
    }
  // cnexp's two spellings and the difference-quotient conductance differ by rounding
  // (measured: 3e-13 mV and 1.5e-15 after 400 steps).
  EXPECT_LT(worst_v, 1e-8) << "mV";
  EXPECT_LT(worst_m, 1e-10);
  std::printf("node rows: max |dv| %.3g mV, max |dm| %.3g over %d x %d nodes\n", worst_v, worst_m,
              setup.slots, setup.nodes);
}

// What a schedule may skip: hh's gna, gk and il and pas's i are outputs only (never read
// back), its states are not; no mechanism of the default catalogue reads an ion current or
// writes an ion's values; q10 = 3^((celsius - 6.3)/10) is hh's one uniform.
TEST(NmodlGenerated, OutputsIonsAndUniformsOfTheDefaults) {
  using hinesbatch::nmodl::RowPositions;
  EXPECT_TRUE(gen::hh::variables[index_of<gen::hh>("gna")].output_only);
  EXPECT_TRUE(gen::hh::variables[index_of<gen::hh>("il")].output_only);
  EXPECT_FALSE(gen::hh::variables[index_of<gen::hh>("m")].output_only);
  EXPECT_TRUE(gen::pas::variables[index_of<gen::pas>("i")].output_only);
  EXPECT_FALSE(gen::ExpSyn::variables[index_of<gen::ExpSyn>("g")].output_only);
  static_assert(RowPositions<gen::hh, false>::num_rows == 3, "m h n");
  EXPECT_EQ((RowPositions<gen::hh, false>::in_store(index_of<gen::hh>("n"))), 2);
  static_assert(RowPositions<gen::pas, false>::num_rows == 0);
  using Ions = hinesbatch::nmodl::CatalogueIons<gen::defaults::mechanisms>;
  for (int k = 0; k < Ions::count; ++k) {
    EXPECT_FALSE(Ions::current_read(k)) << Ions::list.ions[k].name;
    EXPECT_FALSE(Ions::values_written(k)) << Ions::list.ions[k].name;
  }
  static_assert(gen::hh::num_uniforms == 1 && gen::pas::num_uniforms == 0);
  for (const double celsius : {6.3, 16.3, 37.0}) {
    double u[1] = {0};
    gen::hh::uniforms(hinesbatch::nmodl::UniformInputs{celsius, nullptr}, u);
    EXPECT_EQ(u[0], std::pow(3.0, (celsius - 6.3) / 10.0)) << celsius;
    // An accessor without uniform<K>() gets it computed where it is used.
    TestAccessor a;
    a.celsius_ = celsius;
    EXPECT_EQ((hinesbatch::nmodl::uniform<gen::hh, 0>(a)), u[0]);
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard guard(argc, argv);
  return RUN_ALL_TESTS();
}
