#pragma once
// NEURON's hh.mod with its exact rate functions (NEURON with usetable_hh = 0): sodium,
// potassium and leak currents from the gates m, h, n, which advance by cnexp at the new
// voltage. Conductances per node in uS; ena, ek global. Device code.
#include <Kokkos_Core.hpp>
#include <cmath>

namespace hinesbatch {

// hh.mod's vtrap(x, y) = x / (exp(x / y) - 1), with its small-x expansion.
KOKKOS_INLINE_FUNCTION double hh_vtrap(double x, double y) {
  using std::exp;
  using std::fabs;
  return fabs(x / y) < 1e-6 ? y * (1 - x / y / 2) : x / (exp(x / y) - 1);
}

struct HHRates {
  double minf, mtau, hinf, htau, ninf, ntau;
};

KOKKOS_INLINE_FUNCTION HHRates hh_rates(double v, double q10) {
  using std::exp;
  HHRates r;
  double alpha = .1 * hh_vtrap(-(v + 40), 10), beta = 4 * exp(-(v + 65) / 18);
  double sum = alpha + beta;
  r.mtau = 1 / (q10 * sum);
  r.minf = alpha / sum;
  alpha = .07 * exp(-(v + 65) / 20);
  beta = 1 / (exp(-(v + 35) / 10) + 1);
  sum = alpha + beta;
  r.htau = 1 / (q10 * sum);
  r.hinf = alpha / sum;
  alpha = .01 * hh_vtrap(-(v + 55), 10);
  beta = .125 * exp(-(v + 65) / 80);
  sum = alpha + beta;
  r.ntau = 1 / (q10 * sum);
  r.ninf = alpha / sum;
  return r;
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

// cnexp over one step at the new voltage v: x += (1 - exp(-dt / tau)) (inf - x).
KOKKOS_INLINE_FUNCTION void hh_advance_states(const double v, const double dt, const double q10,
                                              double& m, double& h, double& n) {
  using std::exp;
  const HHRates r = hh_rates(v, q10);
  m += (1 - exp(-dt / r.mtau)) * (r.minf - m);
  h += (1 - exp(-dt / r.htau)) * (r.hinf - h);
  n += (1 - exp(-dt / r.ntau)) * (r.ninf - n);
}

}  // namespace mechanisms
}  // namespace hinesbatch
