// The lanes variants (current_lanes<W>, state_lanes<W>) of every mechanism of the validation
// catalogue (mechanisms/default, the L5PC set, NEURON's demos, the compiler's test files)
// against the scalar current() and state() run lane by lane: on fresh random inputs per lane
// (voltages, states, parameters, ion values; some lanes at the voltages where the .mod
// files guard a division by zero), every value written, every current and conductance equal
// to the bit. Host code: the tiles schedule runs them there.
#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <hinesbatch/simulation/impl/host_exp.hpp>
#include <random>
#include <string>
#include <tuple>
#include <validation/validation.hpp>
#include <vector>

namespace {

namespace nm = hinesbatch::nmodl;
using Catalogue = hinesbatch::nmodl::validation::validation;
constexpr int W = 8;

// One instance's values; what the scalar functions read and write.
struct Instance {
  std::vector<double> vars, ions;  // per variable, per ion variable (K)
  double v = 0, i = 0, g = 0;
  std::vector<double> ion_i, ion_didv;
};

// The scalar accessor over one Instance.
template <class M>
struct ScalarAccessor {
  Instance& x;
  const double* globals_;
  double t_, dt_, celsius_, area_, diam_;
  KOKKOS_INLINE_FUNCTION double v() const { return x.v; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return dt_; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  KOKKOS_INLINE_FUNCTION double area() const { return area_; }
  KOKKOS_INLINE_FUNCTION double diam() const { return diam_; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    return x.vars[I];
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double y) const {
    x.vars[I] = y;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return globals_[I];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion() const {
    return x.ions[K];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(double y) const {
    x.ions[K] = y;
  }
  KOKKOS_INLINE_FUNCTION void add_current(double i, double g) const {
    x.i += i;
    x.g += g;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(double i, double didv) const {
    x.ion_i[K] += i;
    x.ion_didv[K] += didv;
  }
};

// The lanes accessor over W Instances.
template <class M>
struct LanesAccessor {
  Instance* x;
  const double* globals_;
  double t_, dt_, celsius_, area_, diam_;
  KOKKOS_INLINE_FUNCTION double v(int l) const { return x[l].v; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return dt_; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  KOKKOS_INLINE_FUNCTION double area() const { return area_; }
  KOKKOS_INLINE_FUNCTION double diam() const { return diam_; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get(int l) const {
    return x[l].vars[I];
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(int l, double y) const {
    x[l].vars[I] = y;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return globals_[I];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion(int l) const {
    return x[l].ions[K];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(int l, double y) const {
    x[l].ions[K] = y;
  }
  KOKKOS_INLINE_FUNCTION void add_current(int l, double i, double g) const {
    x[l].i += i;
    x[l].g += g;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(int l, double i, double didv) const {
    x[l].ion_i[K] += i;
    x[l].ion_didv[K] += didv;
  }
  template <int N>
  KOKKOS_INLINE_FUNCTION void exp_lanes(double* y) const {
#if defined(HINESBATCH_HOST_VECTOR_EXP)
    if (hinesbatch::impl::host_vector_exp_usable()) {
      hinesbatch::impl::host_vector_exp(y, y, N);
      return;
    }
#endif
    for (int l = 0; l < N; ++l) y[l] = std::exp(y[l]);
  }
};

bool same_bits(double a, double b) {
  return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b));
}

// Fresh inputs for one lane: v in [-100, 50] mV (lane 1 at each voltage a .mod file guards
// against, in turn), states in [0, 1], parameters around their defaults, ion values around
// NEURON's.
template <class M>
Instance random_instance(std::mt19937_64& rng, int lane, int round) {
  std::uniform_real_distribution<double> u(0, 1);
  Instance x;
  static const double guarded[] = {-27, -35, -40, -45, -25, -66, -50, -60, -30, -38, -48, -65};
  x.v = lane == 1 ? guarded[round % 12] : -100 + 150 * u(rng);
  for (const auto& var : M::variables) {
    if (var.kind == nm::VariableKind::State)
      x.vars.push_back(u(rng));
    else
      x.vars.push_back(var.default_value * (0.5 + u(rng)) + (var.default_value == 0 ? u(rng) : 0));
  }
  for (const auto& iv : M::ion_variables) {
    switch (iv.role) {
      case nm::IonRole::Reversal:
        x.ions.push_back(-90 + 150 * u(rng));
        break;
      case nm::IonRole::Inside:
        x.ions.push_back(1e-5 + 1e-3 * u(rng));
        break;
      case nm::IonRole::Outside:
        x.ions.push_back(1 + 100 * u(rng));
        break;
      default:
        x.ions.push_back(0);
    }
  }
  x.ion_i.assign(M::ion_variables.size() + 1, 0.0);
  x.ion_didv.assign(M::ion_variables.size() + 1, 0.0);
  return x;
}

template <class M>
void check_mechanism(std::mt19937_64& rng, int& checked) {
  if constexpr (nm::HasLanes<M>::value) {
    SCOPED_TRACE(M::name);
    std::vector<double> globals;
    for (const auto& gl : M::globals) globals.push_back(gl.default_value);
    globals.push_back(0);
    const double t = 12.5, dt = 0.025, celsius = 34, area = 1234.5, diam = 3.7;
    for (int round = 0; round < 24; ++round) {
      std::vector<Instance> scalar(W), lanes;
      for (int l = 0; l < W; ++l) {
        scalar[l] = random_instance<M>(rng, l, round);
        // The per-instance invariants from the lane's parameters, as initialisation leaves them.
        ScalarAccessor<M> a{scalar[l], globals.data(), t, dt, celsius, area, diam};
        M::invariants(a);
      }
      for (int phase : {0, 1}) {  // current, then state on what current left
        if (phase == 1 && !M::has_state) continue;
        lanes = scalar;
        for (int l = 0; l < W; ++l) {
          ScalarAccessor<M> a{scalar[l], globals.data(), t, dt, celsius, area, diam};
          if (phase == 0)
            M::current(a);
          else
            M::state(a);
        }
        LanesAccessor<M> a{lanes.data(), globals.data(), t, dt, celsius, area, diam};
        if (phase == 0)
          M::template current_lanes<W>(a);
        else if constexpr (M::has_state)
          M::template state_lanes<W>(a);
        for (int l = 0; l < W; ++l) {
          SCOPED_TRACE("lane " + std::to_string(l) + " v " + std::to_string(scalar[l].v) +
                       (phase == 0 ? " current" : " state"));
          for (std::size_t k = 0; k < scalar[l].vars.size(); ++k)
            EXPECT_TRUE(same_bits(lanes[l].vars[k], scalar[l].vars[k]))
                << M::variables[k].name << ": " << lanes[l].vars[k] << " vs " << scalar[l].vars[k];
          for (std::size_t k = 0; k < scalar[l].ions.size(); ++k)
            EXPECT_TRUE(same_bits(lanes[l].ions[k], scalar[l].ions[k])) << "ion variable " << k;
          EXPECT_TRUE(same_bits(lanes[l].i, scalar[l].i)) << lanes[l].i << " vs " << scalar[l].i;
          EXPECT_TRUE(same_bits(lanes[l].g, scalar[l].g)) << lanes[l].g << " vs " << scalar[l].g;
          for (std::size_t k = 0; k < scalar[l].ion_i.size(); ++k) {
            EXPECT_TRUE(same_bits(lanes[l].ion_i[k], scalar[l].ion_i[k]));
            EXPECT_TRUE(same_bits(lanes[l].ion_didv[k], scalar[l].ion_didv[k]));
          }
        }
      }
    }
    ++checked;
  }
}

TEST(GeneratedLanes, EqualTheScalarFunctionsLaneByLaneForEveryMechanism) {
  std::mt19937_64 rng(20261126);
  int checked = 0;
  std::apply([&](auto... m) { (check_mechanism<decltype(m)>(rng, checked), ...); },
             Catalogue::mechanisms{});
  // hh and pas, the twelve L5PC mechanisms (when ../shared is there) and most of the demos
  // have lanes variants.
#ifdef HINESBATCH_VALIDATION_HAS_L5PC
  EXPECT_GE(checked, 14);
#else
  EXPECT_GE(checked, 2);
#endif
  std::printf("[ lanes ] %d mechanisms with lanes variants checked\n", checked);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  Kokkos::ScopeGuard kokkos(argc, argv);
  return RUN_ALL_TESTS();
}
