#pragma once
// NEURON's hh.mod with its exact rate functions (NEURON with usetable_hh = 0): sodium,
// potassium and leak currents from the gates m, h, n, which advance by cnexp at the new
// voltage. Conductances per node in uS; ena, ek global. Device code.
#include <Kokkos_Core.hpp>
#include <cmath>

namespace hinesbatch {

// hh.mod's vtrap(x, y) = x / (exp(x / y) - 1), with its small-x expansion where
// |x / y| < 1e-6, given u = x / y and exp(u).
KOKKOS_INLINE_FUNCTION bool hh_vtrap_expands(double u) {
  using std::fabs;
  return fabs(u) < 1e-6;
}
KOKKOS_INLINE_FUNCTION double hh_vtrap(double x, double y, double u, double exp_u) {
  return hh_vtrap_expands(u) ? y * (1 - u / 2) : x / (exp_u - 1);
}

struct HHRates {
  double minf, mtau, hinf, htau, ninf, ntau;
};

// The rates need exp of six arguments of v; they are split from the rest so that a host
// schedule can take the exps of many nodes at once (same arguments, same results).
constexpr int kHHRateExps = 6;

// hh_rates' exp arguments at v, a[j * stride] for j < kHHRateExps.
KOKKOS_INLINE_FUNCTION void hh_rate_exp_args(double v, double* a, int stride) {
  a[0 * stride] = -(v + 40) / 10;  // m's alpha (vtrap's x / y)
  a[1 * stride] = -(v + 65) / 18;  // m's beta
  a[2 * stride] = -(v + 65) / 20;  // h's alpha
  a[3 * stride] = -(v + 35) / 10;  // h's beta
  a[4 * stride] = -(v + 55) / 10;  // n's alpha (vtrap's x / y)
  a[5 * stride] = -(v + 65) / 80;  // n's beta
}

// The rates at v from hh_rate_exp_args' a and e[j * stride] = exp(a[j * stride]).
// Expansion = false leaves out vtrap's small-x branch (plain arithmetic, which a host
// vectorises): the same rates wherever neither vtrap argument expands.
template <bool Expansion>
KOKKOS_INLINE_FUNCTION double hh_vtrap_10(double x, double u, double exp_u) {
  if (Expansion) return hh_vtrap(x, 10, u, exp_u);
  return x / (exp_u - 1);
}

template <bool Expansion = true>
KOKKOS_INLINE_FUNCTION HHRates hh_rates(double v, double q10, const double* a, const double* e,
                                        int stride) {
  HHRates r;
  double alpha = .1 * hh_vtrap_10<Expansion>(-(v + 40), a[0], e[0]), beta = 4 * e[1 * stride];
  double sum = alpha + beta;
  r.mtau = 1 / (q10 * sum);
  r.minf = alpha / sum;
  alpha = .07 * e[2 * stride];
  beta = 1 / (e[3 * stride] + 1);
  sum = alpha + beta;
  r.htau = 1 / (q10 * sum);
  r.hinf = alpha / sum;
  alpha = .01 * hh_vtrap_10<Expansion>(-(v + 55), a[4 * stride], e[4 * stride]);
  beta = .125 * e[5 * stride];
  sum = alpha + beta;
  r.ntau = 1 / (q10 * sum);
  r.ninf = alpha / sum;
  return r;
}

KOKKOS_INLINE_FUNCTION HHRates hh_rates(double v, double q10) {
  using std::exp;
  double a[kHHRateExps], e[kHHRateExps];
  hh_rate_exp_args(v, a, 1);
  for (int j = 0; j < kHHRateExps; ++j) e[j] = exp(a[j]);
  return hh_rates(v, q10, a, e, 1);
}

// hh.mod's temperature factor 3^((celsius - 6.3) / 10) (host: computed once per run).
inline double hh_q10(double celsius) { return std::pow(3.0, (celsius - 6.3) / 10); }

namespace mechanisms {

// The node's hh conductance (gna m^3 h + gk n^4 + gl) into the diagonal and its current
// into the rhs.
KOKKOS_INLINE_FUNCTION void hh_current(const double gnabar, const double gkbar, const double gl,
                                       const double el, const double m, const double h,
                                       const double n, const double v, const double ena,
                                       const double ek, double& d, double& rhs) {
  const double gna = gnabar * m * m * m * h;
  const double gk = gkbar * n * n * n * n;
  d += gna + gk + gl;
  rhs -= gna * (v - ena) + gk * (v - ek) + gl * (v - el);
}

// The gates at rest at v (NEURON's finitialize).
KOKKOS_INLINE_FUNCTION void hh_initial_states(const double v, const double q10, double& m,
                                              double& h, double& n) {
  const HHRates r = hh_rates(v, q10);
  m = r.minf;
  h = r.hinf;
  n = r.ninf;
}

// cnexp over one step at the new voltage v: x += (1 - exp(-dt / tau)) (inf - x), given
// exp(-dt / tau).
KOKKOS_INLINE_FUNCTION double hh_cnexp(const double x, const double inf, const double exp_step) {
  return x + (1 - exp_step) * (inf - x);
}

KOKKOS_INLINE_FUNCTION void hh_advance_states(const double v, const double dt, const double q10,
                                              double& m, double& h, double& n) {
  using std::exp;
  const HHRates r = hh_rates(v, q10);
  m = hh_cnexp(m, r.minf, exp(-dt / r.mtau));
  h = hh_cnexp(h, r.hinf, exp(-dt / r.htau));
  n = hh_cnexp(n, r.ninf, exp(-dt / r.ntau));
}

}  // namespace mechanisms
}  // namespace hinesbatch
