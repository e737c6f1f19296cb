// Discretisation into compartments and the cable-equation Hines coefficients.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/discretize.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "shared_data.hpp"

namespace hb = hinesbatch;

namespace {

constexpr double kPi = 3.14159265358979323846;
const std::string kMorphologyDir = hinesbatch::test::morphology_dir();

hb::SwcMorphology parse(const std::string& text) {
  std::istringstream in(text);
  return hb::parse_swc(in, "test.swc");
}

hb::DiscretizationOptions nseg(int n) {
  hb::DiscretizationOptions o;
  o.nseg_per_section = n;
  return o;
}

hb::DiscretizationOptions max_length(double um) {
  hb::DiscretizationOptions o;
  o.max_compartment_length_um = um;
  return o;
}

double sum(const std::vector<double>& v, std::size_t from = 0) {
  double s = 0;
  for (std::size_t i = from; i < v.size(); ++i) s += v[i];
  return s;
}

// Soma region, cable length and cable area straight from the SWC points, by the rules in
// discretize.hpp (the soma-to-neurite edge takes the neurite point's radius at both ends).
struct SwcTotals {
  bool soma = false;
  double length = 0, area = 0;
};
SwcTotals swc_totals(const hb::SwcMorphology& m) {
  SwcTotals t;
  std::vector<char> soma(m.size(), 0);
  soma[0] = m.points[0].type == 1;
  t.soma = soma[0];
  for (int k = 1; k < m.size(); ++k) {
    const int p = m.parent[k];
    soma[k] = soma[0] && m.points[k].type == 1 && soma[p];
    if (soma[k]) continue;
    const auto& a = m.points[p];
    const auto& b = m.points[k];
    const double h = std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                               (a.z - b.z) * (a.z - b.z));
    const double ra = soma[p] ? b.radius : a.radius, rb = b.radius;
    t.length += h;
    t.area += kPi * (ra + rb) * std::sqrt(h * h + (ra - rb) * (ra - rb));
  }
  return t;
}

// Symmetric, off-diagonals negative, d strictly diagonally dominant, everything finite.
void expect_good_matrix(const hb::Compartments& c, const hb::HinesCoefficients& h) {
  const int n = c.size();
  ASSERT_EQ(static_cast<int>(h.u.size()), n);
  ASSERT_EQ(static_cast<int>(h.l.size()), n);
  ASSERT_EQ(static_cast<int>(h.d.size()), n);
  EXPECT_EQ(h.u[0], 0.0);
  EXPECT_EQ(h.l[0], 0.0);
  std::vector<double> off(n, 0.0);
  for (int i = 1; i < n; ++i) {
    ASSERT_TRUE(std::isfinite(h.u[i])) << i;
    EXPECT_EQ(h.u[i], h.l[i]) << i;
    EXPECT_LT(h.u[i], 0.0) << i;
    off[i] += std::fabs(h.u[i]);
    off[c.tree.parent(i)] += std::fabs(h.l[i]);
  }
  for (int i = 0; i < n; ++i) {
    ASSERT_TRUE(std::isfinite(h.d[i])) << i;
    EXPECT_GT(h.d[i], 0.0) << i;
    EXPECT_GT(h.d[i], off[i]) << i;
  }
}

void expect_hines(const hb::Compartments& c) {
  ASSERT_EQ(static_cast<int>(c.length_um.size()), c.size());
  ASSERT_EQ(static_cast<int>(c.radius_um.size()), c.size());
  ASSERT_EQ(static_cast<int>(c.area_um2.size()), c.size());
  EXPECT_EQ(c.tree.parent(0), -1);
  for (int i = 1; i < c.size(); ++i) EXPECT_LT(c.tree.parent(i), i);
  for (int i = 0; i < c.size(); ++i) {
    EXPECT_GE(c.length_um[i], 0.0);
    EXPECT_GT(c.radius_um[i], 0.0);
    EXPECT_GE(c.area_um2[i], 0.0);
  }
}

// Soma of radius 5 at the origin; one straight dendrite of radius 1 from x = 50 to 100,
// so its single section is 100 um long (the first 50 um leave the soma point).
const char* kStick =
    "1 1 0 0 0 5 -1\n"
    "2 3 50 0 0 1 1\n"
    "3 3 100 0 0 1 2\n";

// Soma, a dendrite that branches at x = 30 into two 40 um children.
const char* kFork =
    "1 1 0 0 0 4 -1\n"
    "2 3 10 0 0 2 1\n"
    "3 3 30 0 0 2 2\n"
    "4 3 70 0 0 1 3\n"
    "5 3 30 40 0 1 3\n";

}  // namespace

TEST(Discretize, CompartmentCountsByNseg) {
  const auto m = parse(kFork);
  for (int k : {1, 2, 5}) {
    const auto c = hb::discretize(m, nseg(k));
    expect_hines(c);
    EXPECT_EQ(c.size(), 1 + 3 * k);  // soma + 3 sections
  }
  const auto c = hb::discretize(m, nseg(2));
  // Soma 0; trunk 1-2; children hang from the trunk's last compartment.
  EXPECT_EQ(c.tree.parents(), (std::vector<int>{-1, 0, 1, 2, 3, 2, 5}));
  for (int i = 1; i <= 2; ++i) EXPECT_NEAR(c.length_um[i], 15.0, 1e-12);
  for (int i = 3; i <= 6; ++i) EXPECT_NEAR(c.length_um[i], 20.0, 1e-12);
}

TEST(Discretize, CompartmentCountsByMaxLength) {
  const auto m = parse(kStick);
  EXPECT_EQ(hb::discretize(m, max_length(30)).size(), 1 + 4);  // ceil(100 / 30)
  EXPECT_EQ(hb::discretize(m, max_length(25)).size(), 1 + 4);
  EXPECT_EQ(hb::discretize(m, max_length(1000)).size(), 1 + 1);
  const auto c = hb::discretize(m, max_length(7));
  EXPECT_EQ(c.size(), 1 + 15);
  for (int i = 1; i < c.size(); ++i) EXPECT_LE(c.length_um[i], 7.0);
}

TEST(Discretize, SomaGeometry) {
  auto c = hb::discretize(parse(kStick), nseg(1));
  EXPECT_NEAR(c.length_um[0], 10.0, 1e-12);
  EXPECT_NEAR(c.radius_um[0], 5.0, 1e-12);
  EXPECT_NEAR(c.area_um2[0], 4 * kPi * 25, 1e-9);
  // A NeuroMorpho 3-point soma has the area of the sphere.
  c = hb::discretize(parse("1 1 0 0 0 6 -1\n2 1 0 -6 0 6 1\n3 1 0 6 0 6 1\n4 3 10 0 0 1 1\n"),
                     nseg(1));
  ASSERT_EQ(c.size(), 2);
  EXPECT_NEAR(c.length_um[0], 12.0, 1e-12);
  EXPECT_NEAR(c.radius_um[0], 6.0, 1e-12);
  EXPECT_NEAR(c.area_um2[0], 4 * kPi * 36, 1e-9);
  // A lone point of any type is a spherical soma.
  c = hb::discretize(parse("7 3 0 0 0 2 -1\n"), nseg(3));
  ASSERT_EQ(c.size(), 1);
  EXPECT_NEAR(c.area_um2[0], 4 * kPi * 4, 1e-9);
}

TEST(Discretize, TaperedFrustum) {
  // One edge from radius 2 to 1 over 10 um, cut in two.
  const auto c = hb::discretize(parse("1 2 0 0 0 2 -1\n2 2 10 0 0 1 1\n"), nseg(2));
  ASSERT_EQ(c.size(), 2);  // no soma: the root's section alone
  EXPECT_NEAR(c.area_um2[0] + c.area_um2[1], kPi * 3 * std::sqrt(101.0), 1e-9);
  EXPECT_NEAR(c.area_um2[0], kPi * 3.5 * std::sqrt(25.25), 1e-9);
  EXPECT_NEAR(c.radius_um[0], std::sqrt(2 * 1.5), 1e-12);  // equal axial resistance
  EXPECT_NEAR(c.radius_um[1], std::sqrt(1.5 * 1), 1e-12);
}

TEST(Discretize, NoSomaBranchingRoot) {
  // Axon-only: the root point has two children; the second section hangs from
  // compartment 0, the first compartment of the first section.
  const auto m = parse("1 2 0 0 0 1 -1\n2 2 10 0 0 1 1\n3 2 -10 0 0 1 1\n4 2 -20 0 0 1 3\n");
  const auto c = hb::discretize(m, nseg(2));
  expect_hines(c);
  EXPECT_EQ(c.tree.parents(), (std::vector<int>{-1, 0, 0, 2}));
  EXPECT_NEAR(sum(c.length_um), 30.0, 1e-12);
}

TEST(Discretize, ZeroRadiiStayFinite) {
  // Zero-radius soma (as in v_e_purk2), zero-radius dendrite points, and a zero-length
  // section (duplicate point at a branch).
  const auto m = parse(
      "1 1 0 0 0 0 -1\n"
      "2 3 5 0 0 0 1\n"
      "3 3 10 0 0 1.5 2\n"
      "4 3 20 0 0 0 3\n"
      "5 3 20 0 0 0 4\n"
      "6 3 30 0 0 1 4\n");
  for (int k : {1, 3}) {
    const auto c = hb::discretize(m, nseg(k));
    expect_hines(c);
    EXPECT_NEAR(c.radius_um[0], 1.5, 1e-12);  // soma takes its neurite's radius
    const auto h = hb::cable_coefficients(c, hb::CableParameters{});
    expect_good_matrix(c, h);
  }
  // The all-zero limit falls back to kMinRadiusUm.
  const auto c = hb::discretize(parse("1 3 0 0 0 0 -1\n2 3 0 0 0 0 1\n"), nseg(2));
  expect_hines(c);
  for (double r : c.radius_um) EXPECT_EQ(r, hb::kMinRadiusUm);
  expect_good_matrix(c, hb::cable_coefficients(c, hb::CableParameters{}));
}

TEST(Discretize, CoefficientsByHand) {
  const auto c = hb::discretize(parse(kStick), nseg(1));
  ASSERT_EQ(c.size(), 2);
  hb::CableParameters p;
  p.axial_resistivity_ohm_cm = 100;
  p.membrane_capacitance_uF_per_cm2 = 2;
  p.dt_ms = 0.5;
  const auto h = hb::cable_coefficients(c, p);
  // Half resistances [ohm]: 1e4 * Ra * (L/2) / (pi r^2); conductance in uS.
  const double r_soma = 1e4 * 100 * 5 / (kPi * 25), r_dend = 1e4 * 100 * 50 / (kPi * 1);
  const double g = 1e6 / (r_soma + r_dend);
  EXPECT_NEAR(h.u[1], -g, 1e-12 * g);
  const double c_soma = 2 * 4 * kPi * 25 * 1e-8 * 1e3;  // uF/cm^2 * cm^2 -> uF -> nF
  const double c_dend = 2 * 2 * kPi * 100 * 1e-8 * 1e3;
  EXPECT_NEAR(h.d[0], c_soma / 0.5 + g, 1e-12);
  EXPECT_NEAR(h.d[1], c_dend / 0.5 + g, 1e-12);
  expect_good_matrix(c, h);
}

TEST(Discretize, RealFilesPreserveLengthAndArea) {
  if (!std::ifstream(kMorphologyDir + "/README.md").good())
    GTEST_SKIP() << "no morphologies at " << kMorphologyDir;
  const char* files[] = {
      "96ML.CNG.swc",         "mp_ma_40984_gc2.CNG.swc", "1220882a.CNG.swc",
      "CT12T2.CNG.swc",       "v_e_moto1.CNG.swc",       "cnic_004.CNG.swc",
      "HSN-fluoro02.CNG.swc", "951118a.CNG.swc",         "v_e_purk2.CNG.swc",
      "l22.CNG.swc",          "AKO60sdax2lay.CNG.swc",   "10-2012-02-09-001.CNG.swc"};
  for (const char* f : files) {
    SCOPED_TRACE(f);
    const auto m = hb::read_swc(kMorphologyDir + "/" + f);
    const SwcTotals t = swc_totals(m);
    const int s = t.soma ? 1 : 0;
    const auto c1 = hb::discretize(m, nseg(1));
    const auto c3 = hb::discretize(m, nseg(3));
    expect_hines(c1);
    expect_hines(c3);
    EXPECT_EQ(c3.size() - s, 3 * (c1.size() - s));
    for (const auto* c : {&c1, &c3}) {
      EXPECT_NEAR(sum(c->length_um, s), t.length, 1e-9 * t.length);
      EXPECT_NEAR(sum(c->area_um2, s), t.area, 1e-9 * t.area);
    }
    const auto cm = hb::discretize(m, max_length(20));
    expect_hines(cm);
    EXPECT_NEAR(sum(cm.length_um, s), t.length, 1e-9 * t.length);
    EXPECT_GE(cm.size() - s, static_cast<int>(std::ceil(t.length / 20)));
    for (int i = s; i < cm.size(); ++i) EXPECT_LE(cm.length_um[i], 20 * (1 + 1e-12));
    for (const auto* c : {&c1, &c3, &cm}) expect_good_matrix(*c, hb::cable_coefficients(*c, {}));
  }
}

TEST(Discretize, OptionErrors) {
  const auto m = parse(kStick);
  EXPECT_THROW(hb::discretize(m, hb::DiscretizationOptions{}), hb::InputError);
  hb::DiscretizationOptions both;
  both.nseg_per_section = 2;
  both.max_compartment_length_um = 10;
  EXPECT_THROW(hb::discretize(m, both), hb::InputError);
  EXPECT_THROW(hb::discretize(m, nseg(-1)), hb::InputError);
  EXPECT_THROW(hb::discretize(m, max_length(-5)), hb::InputError);
  EXPECT_THROW(hb::discretize(m, max_length(std::numeric_limits<double>::quiet_NaN())),
               hb::InputError);
  EXPECT_THROW(hb::discretize(m, max_length(1e-12)), hb::InputError);  // too many
  EXPECT_THROW(hb::discretize(hb::SwcMorphology{}, nseg(1)), hb::InputError);
}

TEST(Discretize, CableParameterErrors) {
  const auto c = hb::discretize(parse(kStick), nseg(1));
  const double bad_values[] = {0.0, -1.0, std::numeric_limits<double>::infinity()};
  for (double bad : bad_values) {
    hb::CableParameters p;
    p.dt_ms = bad;
    EXPECT_THROW(hb::cable_coefficients(c, p), hb::InputError);
    p = {};
    p.axial_resistivity_ohm_cm = bad;
    EXPECT_THROW(hb::cable_coefficients(c, p), hb::InputError);
    p = {};
    p.membrane_capacitance_uF_per_cm2 = bad;
    EXPECT_THROW(hb::cable_coefficients(c, p), hb::InputError);
  }
  try {
    hb::CableParameters p;
    p.dt_ms = -0.25;
    hb::cable_coefficients(c, p);
    FAIL() << "no exception";
  } catch (const hb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("-0.25"), std::string::npos) << e.what();
  }
  hb::Compartments broken = c;
  broken.area_um2.pop_back();
  EXPECT_THROW(hb::cable_coefficients(broken, {}), hb::InputError);
}
