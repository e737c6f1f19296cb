// NEURON's sections and compartments from SWC as Import3d makes them, the cable matrix's
// rows, and the half-step rule for event delivery: the simulation's model of a cell, on the
// host, before any step.

#include <gtest/gtest.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <numeric>
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
#include "hinesbatch/simulation/impl/simulation.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "support/backends.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

SwcMorphology swc(const std::string& text) {
  std::istringstream in(text);
  return parse_swc(in, "test.swc");
}

// --- sections ------------------------------------------------------------------------

// Expected values below are NEURON 8.2's (Import3d_SWC_read + Import3d_GUI.instantiate on
// the same text), checked when these tests were written.
TEST(NeuronSections, SpherePointSomaWiresAndStubs) {
  // Soma point; dendrite 2-4 of two own points leaves by a wire; dendrite 5 of one point
  // keeps a stub from the centre with its own diameter.
  const auto s = neuron_sections(
      swc("1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 20 0 0 1 2\n4 3 30 0 0 0.5 3\n5 3 0 -10 0 0.8 1\n"),
      {1, 0});
  ASSERT_EQ(s.size(), 3);
  const auto& soma = s.sections[0];
  ASSERT_EQ(soma.pt3d.size(), 3u);  // x - d/2, x, x + d/2 along x, diam d
  EXPECT_EQ(soma.pt3d[0].x, -5);
  EXPECT_EQ(soma.pt3d[2].x, 5);
  EXPECT_EQ(soma.pt3d[1].diam, 10);
  EXPECT_EQ(s.sections[1].parent, 0);
  EXPECT_EQ(s.sections[1].parent_x, 0.5);
  ASSERT_EQ(s.sections[1].pt3d.size(), 3u);  // wire: starts at its own first point
  EXPECT_EQ(s.sections[1].pt3d[0].x, 10);
  EXPECT_EQ(s.sections[1].pt3d[0].diam, 2);
  EXPECT_EQ(s.sections[2].parent_x, 0.5);
  ASSERT_EQ(s.sections[2].pt3d.size(), 2u);  // stub from the centre
  EXPECT_EQ(s.sections[2].pt3d[0].y, 0);
  EXPECT_EQ(s.sections[2].pt3d[0].diam, 1.6);  // the second point's diameter
  EXPECT_EQ(s.sections[2].name_index, 1);      // dend[1]
}

TEST(NeuronSections, NeuroMorphoThreePointSomaIsASphere) {
  const auto s = neuron_sections(
      swc("1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 5 0 0 1 1\n5 3 15 0 0 1 4\n"),
      {1, 0});
  ASSERT_EQ(s.size(), 2);
  EXPECT_EQ(s.sections[0].pt3d.front().x, -5);
  EXPECT_EQ(s.sections[0].length(), 10);
  EXPECT_EQ(s.sections[1].parent_x, 0.5);
  EXPECT_EQ(s.sections[1].pt3d.front().x, 5);  // wire
}

TEST(NeuronSections, ChainSomaAttachesAtZeroHalfOrOne) {
  // Soma chain 1-2-3; dendrites from 1 (the root's first point), 2 (interior) and 3 (last).
  const auto s = neuron_sections(swc("1 1 0 0 0 4 -1\n2 1 0 5 0 4 1\n3 1 0 10 0 4 2\n"
                                     "4 3 10 0 0 1 1\n5 3 20 0 0 1 4\n"
                                     "6 3 10 5 0 1 2\n7 3 20 5 0 1 6\n"
                                     "8 3 10 10 0 1 3\n9 3 20 10 0 1 8\n"),
                                 {1, 0});
  ASSERT_EQ(s.size(), 4);
  EXPECT_EQ(s.sections[0].pt3d.size(), 3u);
  EXPECT_EQ(s.sections[1].parent_x, 0);
  EXPECT_EQ(s.sections[1].pt3d.size(), 3u);  // copy of soma point 1, diameter of point 4
  EXPECT_EQ(s.sections[1].pt3d[0].diam, 2);
  EXPECT_EQ(s.sections[2].parent_x, 0.5);
  EXPECT_EQ(s.sections[2].pt3d.size(), 2u);  // wire from an interior soma point
  EXPECT_EQ(s.sections[3].parent_x, 1);
  EXPECT_EQ(s.sections[3].pt3d.size(), 3u);
}

TEST(NeuronSections, BreadthFirstFileIsReadDepthFirstNotAsImport3dsZigZag) {
  // Import3d joins points 3, 4, 5 into one section although 4 hangs from 2 (NEURON 8.2:
  // dend[1] = (0,10) -> (20,0)); the correct reading has three dendrite paths.
  const auto m =
      swc("1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 0 10 0 1 1\n4 3 20 0 0 1 2\n5 3 0 20 0 1 3\n");
  bool reread = false;
  const auto s = neuron_sections(m, {1, 0}, &reread);
  EXPECT_TRUE(reread);
  ASSERT_EQ(s.size(), 3);
  for (int k = 1; k < 3; ++k) {
    const auto& p = s.sections[k].pt3d;
    EXPECT_EQ(s.sections[k].parent, 0);
    EXPECT_EQ(s.sections[k].parent_x, 0.5);
    ASSERT_EQ(p.size(), 2u);  // wires: 2 -> 4 and 3 -> 5
    EXPECT_EQ(p[0].x == 10 ? p[1].x : p[1].y, 20);
  }
  bool plain = true;
  neuron_sections(swc("1 1 0 0 0 5 -1\n2 3 10 0 0 1 1\n3 3 20 0 0 1 2\n"), {1, 0}, &plain);
  EXPECT_FALSE(plain);
}

TEST(NeuronSections, NoSomaRootChildrenAttachAtZero) {
  const auto s = neuron_sections(
      swc("1 2 0 0 0 1 -1\n2 2 10 0 0 1 1\n3 2 20 0 0 1 2\n4 2 0 10 0 1 1\n5 2 0 20 0 1 4\n"),
      {1, 0});
  ASSERT_EQ(s.size(), 2);
  EXPECT_EQ(s.sections[0].pt3d.size(), 3u);  // 1 -> 2 -> 3
  EXPECT_EQ(s.sections[1].parent, 0);
  EXPECT_EQ(s.sections[1].parent_x, 0);
  EXPECT_EQ(s.sections[1].pt3d.front().x, 0);  // starts at the root point
}

TEST(NeuronSections, NsegRulesAndZeroLengthSections) {
  const auto m = swc("1 1 0 0 0 5 -1\n2 3 0 0 0 1 1\n3 3 100 0 0 1 2\n4 3 200 0 0 1 3\n");
  // Dendrite 2-3-4 by a wire: 200 um of diameter 2.
  EXPECT_EQ(neuron_sections(m, {0, 20}).sections[1].nseg, 11);
  EXPECT_EQ(neuron_sections(m, {0, 30}).sections[1].nseg, 7);  // ceil(6.67) = 7
  EXPECT_EQ(neuron_sections(m, {0, 500}).sections[1].nseg, 1);
  EXPECT_EQ(neuron_sections(m, {4, 0}).sections[1].nseg, 4);
  SectionOptions dl;
  dl.d_lambda = 0.1;
  dl.Ra_ohm_cm = 100;
  dl.cm_uF_cm2 = 1;
  // lambda_f(100 Hz) of a 2 um cable = 1e5 sqrt(2 / (4 pi 100 100 1)) = 398.9 um:
  // nseg = int((200 / 39.89 + 0.9) / 2) * 2 + 1 = 5.
  EXPECT_EQ(neuron_sections(m, dl).sections[1].nseg, 5);
  // A zero-length two-point neurite is dropped (Import3d's chk_valid); three coincident
  // points are an error naming the line.
  EXPECT_EQ(neuron_sections(swc("1 1 0 0 0 5 -1\n2 3 0 0 0 1 1\n"), {1, 0}).size(), 1);
  try {
    neuron_sections(swc("1 1 0 0 0 5 -1\n2 3 7 0 0 1 1\n3 3 7 0 0 1 2\n4 3 7 0 0 1 3\n"), {1, 0});
    FAIL() << "zero-length section accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("test.swc:2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(neuron_sections(m, {0, 0}), InputError);
  EXPECT_THROW(neuron_sections(m, {1, 20}), InputError);
}

// --- compartments --------------------------------------------------------------------

TEST(NeuronCompartmentsTest, CylinderAreasConductancesAndNodes) {
  SectionedMorphology m;
  m.source = "cylinder";
  Section s;
  s.nseg = 5;
  s.pt3d = {{0, 0, 0, 2}, {100, 0, 0, 2}};
  m.sections.push_back(s);
  const double Ra = 100;
  const auto c = neuron_compartments(m, Ra);
  ASSERT_EQ(c.size(), 7);  // 0-end, 5 centres, 1-end
  const double dx = 20, gfull = 1 / (4 * Ra * dx / (kPi * 4) * 1e-2);
  EXPECT_EQ(c.area_um2[0], 0);
  EXPECT_EQ(c.area_um2[6], 0);
  for (int i = 1; i <= 5; ++i) {
    EXPECT_NEAR(c.area_um2[i], kPi * 2 * dx, 1e-9);
    EXPECT_NEAR(c.g_axial_uS[i], i == 1 ? 2 * gfull : gfull, 1e-9 * gfull);
  }
  EXPECT_NEAR(c.g_axial_uS[6], 2 * gfull, 1e-9 * gfull);
  EXPECT_EQ(c.node_at({0, 0}), 0);
  EXPECT_EQ(c.node_at({0, 1}), 6);
  EXPECT_EQ(c.node_at({0, 0.5}), 3);
  EXPECT_EQ(c.node_at({0, 0.05}), 1);
  EXPECT_THROW(c.node_at({1, 0.5}), InputError);
  EXPECT_THROW(c.node_at({0, 1.5}), InputError);
}

TEST(NeuronCompartmentsTest, TaperedAreaAddsUpToTheFrustum) {
  SectionedMorphology m;
  Section s;
  s.nseg = 7;
  s.pt3d = {{0, 0, 0, 4}, {30, 0, 0, 3}, {50, 0, 0, 1}};
  m.sections.push_back(s);
  const auto c = neuron_compartments(m, 35.4);
  double area = 0;
  for (double a : c.area_um2) area += a;
  auto frustum = [](double d0, double d1, double l) {
    return kPi * (d0 + d1) / 2 * std::sqrt(l * l + (d0 - d1) * (d0 - d1) / 4);
  };
  EXPECT_NEAR(area, frustum(4, 3, 30) + frustum(3, 1, 20), 1e-9);
  // Series resistance from end to end = sum of the conductances' inverses.
  double r = 0;
  for (int i = 1; i < c.size(); ++i) r += 1 / c.g_axial_uS[i];
  EXPECT_NEAR(r, 4 * 35.4 / kPi * 1e-2 * (30 / (4.0 * 3) + 20 / (3.0 * 1)), 1e-9);
}

// What the removed second pipeline (morphology/discretize) checked that the tests above do
// not: cells with zero radii and zero-length sections still give a Hines tree of finite,
// non-negative areas and finite, positive conductances; on real files the total area is the
// sections' frusta whatever nseg, and nseg 3 adds two nodes per section to nseg 1.
void expect_physical(const NeuronCompartments& c, const std::string& what) {
  for (int i = 0; i < c.size(); ++i) {
    ASSERT_TRUE(std::isfinite(c.area_um2[i]) && c.area_um2[i] >= 0) << what << " node " << i;
    if (i == 0) continue;
    ASSERT_LT(c.tree.parent(i), i) << what;
    ASSERT_TRUE(std::isfinite(c.g_axial_uS[i]) && c.g_axial_uS[i] > 0) << what << " node " << i;
  }
}

double frusta_area(const SectionedMorphology& m) {
  double area = 0;
  for (const auto& s : m.sections)
    for (std::size_t k = 1; k < s.pt3d.size(); ++k) {
      const Pt3d &a = s.pt3d[k - 1], &b = s.pt3d[k];
      const double l = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y) +
                                 (b.z - a.z) * (b.z - a.z));
      area += kPi * (a.diam + b.diam) / 2 *
              std::sqrt(l * l + (a.diam - b.diam) * (a.diam - b.diam) / 4);
    }
  return area;
}

TEST(NeuronCompartmentsTest, ZeroRadiiAndZeroLengthSectionsStayFinite) {
  // Zero-radius soma (as in v_e_purk2), zero-radius dendrite points, and a duplicate point
  // at a branch.
  const auto m =
      swc("1 1 0 0 0 0 -1\n2 3 5 0 0 0 1\n3 3 10 0 0 1.5 2\n4 3 20 0 0 0 3\n5 3 20 0 0 0 4\n"
          "6 3 30 0 0 1 4\n");
  for (int nseg : {1, 3}) {
    const auto sections = neuron_sections(m, {nseg, 0});
    for (const auto& sec : sections.sections)
      for (const auto& p : sec.pt3d) EXPECT_GE(p.diam, 2 * kMinRadiusUm);
    expect_physical(neuron_compartments(sections, 35.4), "nseg " + std::to_string(nseg));
  }
  expect_physical(
      neuron_compartments(neuron_sections(swc("1 3 0 0 0 0 -1\n2 3 5 0 0 0 1\n"), {2, 0}), 35.4),
      "all-zero radii");
}

TEST(NeuronCompartmentsTest, RealFilesKeepTheirAreaWhateverNseg) {
  const std::string dir = morphology_dir();
  if (!std::ifstream(dir + "/README.md").good()) GTEST_SKIP() << "no morphologies at " << dir;
  for (const char* f :
       {"96ML.CNG.swc", "mp_ma_40984_gc2.CNG.swc", "1220882a.CNG.swc", "CT12T2.CNG.swc",
        "v_e_moto1.CNG.swc", "cnic_004.CNG.swc", "HSN-fluoro02.CNG.swc", "951118a.CNG.swc",
        "v_e_purk2.CNG.swc", "l22.CNG.swc", "AKO60sdax2lay.CNG.swc", "10-2012-02-09-001.CNG.swc"}) {
    SCOPED_TRACE(f);
    const auto m = read_swc(dir + "/" + f);
    const auto s1 = neuron_sections(m, {1, 0}), s3 = neuron_sections(m, {3, 0});
    const auto c1 = neuron_compartments(s1, 35.4), c3 = neuron_compartments(s3, 35.4);
    expect_physical(c1, f);
    expect_physical(c3, f);
    EXPECT_EQ(c3.size() - c1.size(), 2 * s1.size());
    double a1 = 0, a3 = 0;
    for (double a : c1.area_um2) a1 += a;
    for (double a : c3.area_um2) a3 += a;
    const double want = frusta_area(s1);
    EXPECT_NEAR(a1, want, 1e-9 * want);
    EXPECT_NEAR(a3, want, 1e-9 * want);
  }
}

// The one builder of the fixed part of the cable matrix (CellGroup and the solver tests and
// benchmarks use it): each row is C/dt on the node's area plus the conductances of its
// edges (C/dt also alone, for the on-chip schedule), the off-diagonal is -g_axial both ways,
// every real file gives a matrix whose rows are diagonally dominant (weakly at zero-area
// ends, strictly elsewhere).
TEST(CableMatrixTest, RowsAreCapacityPlusTheEdgesConductances) {
  std::vector<std::pair<std::string, NeuronCompartments>> cells{
      {"synthetic:p3", neuron_compartments(synthetic_sections("p3"), 100)}};
  const auto files = real_morphology_files();
  const auto neuron = real_neuron_cells();
  for (std::size_t k = 0; k < neuron.size(); ++k) cells.emplace_back(files[k], neuron[k]);
  const double cm = 1.5, dt = 0.02;
  for (const auto& [name, c] : cells) {
    SCOPED_TRACE(name);
    const CableMatrix m = cable_matrix(c, cm, dt);
    ASSERT_EQ(m.size(), c.size());
    EXPECT_EQ(m.minus_g_axial[0], 0);
    std::vector<long double> edges(c.size(), 0);
    for (int i = 1; i < c.size(); ++i) {
      EXPECT_EQ(m.minus_g_axial[i], -c.g_axial_uS[i]) << "node " << i;
      edges[i] += c.g_axial_uS[i];
      edges[c.tree.parent(i)] += c.g_axial_uS[i];
    }
    for (int i = 0; i < c.size(); ++i) {
      const long double capacity = (long double)cm * c.area_um2[i] * 1e-5L / dt;
      EXPECT_NEAR(double(m.d0[i] - edges[i]), double(capacity), 1e-12 * double(edges[i]))
          << "node " << i;
      EXPECT_NEAR(m.c_dt[i], double(capacity), 1e-15 * double(capacity)) << "node " << i;
      EXPECT_GE(m.d0[i], double(edges[i]) * (1 - 1e-15)) << "node " << i;
    }
  }
}

TEST(CableMatrixTest, BadCapacitanceOrStepIsNamed) {
  const auto c = neuron_compartments(synthetic_sections("ball-and-stick", {3, 0}), 100);
  for (double bad : {0.0, -1.0, std::nan("")}) {
    try {
      cable_matrix(c, bad, 0.025);
      ADD_FAILURE() << "cm " << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("capacitance"), std::string::npos) << e.what();
      EXPECT_EQ(e.value(), format_value(bad));
    }
    try {
      cable_matrix(c, 1.0, bad);
      ADD_FAILURE() << "dt " << bad << " accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("time step"), std::string::npos) << e.what();
      EXPECT_EQ(e.value(), format_value(bad));
    }
  }
}

TEST(Events, DeliveryFollowsNeuronsHalfStepRule) {
  const double dt = 0.025;
  EXPECT_EQ(delivery_step(1.0, dt), 40);     // te = t_40 exactly: te <= t_40 + dt/2
  EXPECT_EQ(delivery_step(1.0125, dt), 40);  // te = t_40 + dt/2
  EXPECT_EQ(delivery_step(1.013, dt), 41);
  EXPECT_EQ(delivery_step(0.0, dt), 0);
  EXPECT_EQ(delivery_step(-3, dt), 0);
}

}  // namespace
}  // namespace hinesbatch::test
