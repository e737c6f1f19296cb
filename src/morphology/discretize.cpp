#include "hinesbatch/morphology/discretize.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

namespace {



double distance(const SwcPoint& a, const SwcPoint& b) {
  const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

// Lateral area of a frustum of height h between radii r0 and r1 (an annulus when h = 0).
double frustum_area(double r0, double r1, double h) {
  return kPi * (r0 + r1) * std::sqrt(h * h + (r1 - r0) * (r1 - r0));
}

// Per-compartment sums while a section is cut up.
struct Accumulator {
  double length = 0, area = 0;
  double resistance = 0;  // sum of h / (r0 r1): the integral of dx / r^2 along a frustum
  double first_radius = -1;
  void add(double x0, double x1, double r0, double r1) {
    const double h = x1 - x0;
    length += h;
    area += frustum_area(r0, r1, h);
    if (h > 0) resistance += h / (r0 * r1);
    if (first_radius < 0) first_radius = 0.5 * (r0 + r1);
  }
};

enum : int { kFromSoma = -1, kFromRoot = -2 };

struct Section {
  std::vector<int> points;  // points[0] is where it starts (soma, root or branch point)
  int parent_section;       // index, kFromSoma or kFromRoot
};

}  // namespace

Compartments discretize(const SwcMorphology& m, const DiscretizationOptions& o) {
  const bool by_nseg = o.nseg_per_section > 0;
  const bool by_length = o.max_compartment_length_um > 0;
  if (by_nseg == by_length || o.nseg_per_section < 0 || !(o.max_compartment_length_um >= 0) ||
      !std::isfinite(o.max_compartment_length_um))
    throw InputError(
        "set exactly one of nseg_per_section and max_compartment_length_um to a positive value",
        m.source, 0,
        "nseg_per_section=" + std::to_string(o.nseg_per_section) +
            ", max_compartment_length_um=" + format_value(o.max_compartment_length_um));
  const int n = m.size();
  if (n == 0) throw InputError("morphology has no points", m.source);
  if (static_cast<int>(m.parent.size()) != n)
    throw InputError("parent array has " + std::to_string(m.parent.size()) + " entries for " +
                         std::to_string(n) + " points",
                     m.source);
  const Tree tree(m.parent);  // throws unless Hines-numbered
  for (const SwcPoint& p : m.points) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      throw InputError("point " + std::to_string(p.id) + " has a non-finite coordinate", m.source,
                       p.line, format_value(p.x) + " " + format_value(p.y) + " " + format_value(p.z));
    if (!(p.radius >= 0) || !std::isfinite(p.radius))
      throw InputError("point " + std::to_string(p.id) + " has an invalid radius", m.source, p.line,
                       format_value(p.radius));
  }
  const std::vector<int>& parent = m.parent;
  const auto children = tree.child_counts();
  std::vector<int> first_child(n, -1);
  for (int k = n - 1; k >= 1; --k) first_child[parent[k]] = k;

  // The soma region: type-1 points joined to a type-1 root through type-1 points.
  std::vector<char> soma(n, 0);
  soma[0] = m.points[0].type == 1 || n == 1;
  for (int k = 1; k < n; ++k) soma[k] = soma[0] && m.points[k].type == 1 && soma[parent[k]];

  // Radii with zeros replaced (header: "Zero radii"). Parents come first, so a run of
  // zero radii inherits the last non-zero radius above it.
  std::vector<double> r(n);
  for (int k = 0; k < n; ++k) r[k] = m.points[k].radius;
  for (int k = 0; k < n; ++k) {
    if (soma[k] || r[k] >= kMinRadiusUm) continue;
    const int p = parent[k], c = first_child[k];
    if (p >= 0 && !soma[p])
      r[k] = r[p];
    else
      r[k] = c >= 0 && m.points[c].radius >= kMinRadiusUm ? m.points[c].radius : kMinRadiusUm;
  }
  if (soma[0]) {
    double soma_max = 0, attached_max = 0;
    for (int k = 0; k < n; ++k) {
      if (soma[k]) soma_max = std::max(soma_max, r[k]);
      if (k > 0 && !soma[k] && soma[parent[k]]) attached_max = std::max(attached_max, r[k]);
    }
    const double fallback = soma_max >= kMinRadiusUm       ? soma_max
                            : attached_max >= kMinRadiusUm ? attached_max
                                                           : kMinRadiusUm;
    for (int k = 0; k < n; ++k)
      if (soma[k] && r[k] < kMinRadiusUm) r[k] = fallback;
  }

  std::vector<int> comp_parent;
  Compartments out;
  if (soma[0]) {
    double length = 0, area = 0, r_max = 0;
    for (int k = 0; k < n; ++k) {
      if (!soma[k]) continue;
      r_max = std::max(r_max, r[k]);
      if (k == 0) continue;
      const double h = distance(m.points[k], m.points[parent[k]]);
      length += h;
      area += frustum_area(r[parent[k]], r[k], h);
    }
    if (length > 0) {
      out.length_um.push_back(length);
      out.area_um2.push_back(area);
      out.radius_um.push_back(area / (2 * kPi * length));  // cylinder of equal area
    } else {  // one point, or all at one place: a sphere
      out.length_um.push_back(2 * r_max);
      out.area_um2.push_back(4 * kPi * r_max * r_max);
      out.radius_um.push_back(r_max);
    }
    comp_parent.push_back(-1);
  }

  // Sections, in order of their first edge: a parent section always comes first.
  std::vector<Section> sections;
  std::vector<int> section_of(n, -1);  // the section holding the edge into point k
  for (int k = 1; k < n; ++k) {
    if (soma[k]) continue;
    const int p = parent[k];
    if (soma[p] || p == 0 || children[p] >= 2) {
      const int from = soma[p] ? kFromSoma : p == 0 ? kFromRoot : section_of[p];
      sections.push_back(Section{{p, k}, from});
      section_of[k] = static_cast<int>(sections.size()) - 1;
    } else {
      section_of[k] = section_of[p];
      sections[section_of[k]].points.push_back(k);
    }
  }

  std::vector<int> last_comp(sections.size(), -1);
  int root_comp = -1;  // first compartment leaving a non-soma root
  long long total = static_cast<long long>(comp_parent.size());
  for (std::size_t s = 0; s < sections.size(); ++s) {
    const Section& sec = sections[s];
    const int np = static_cast<int>(sec.points.size());
    std::vector<double> at(np, 0.0), rad(np);
    for (int j = 1; j < np; ++j)
      at[j] = at[j - 1] + distance(m.points[sec.points[j]], m.points[sec.points[j - 1]]);
    for (int j = 0; j < np; ++j) rad[j] = r[sec.points[j]];
    if (soma[sec.points[0]]) rad[0] = rad[1];  // the neurite keeps its own radius
    const double length = at[np - 1];

    int pieces = o.nseg_per_section;
    if (by_length) {
      const double q = std::ceil(length / o.max_compartment_length_um);
      if (q > 1e8)
        throw InputError("max_compartment_length_um gives too many compartments", m.source, 0,
                         format_value(o.max_compartment_length_um));
      pieces = std::max(1, static_cast<int>(q));
    }
    total += pieces;
    if (total > 1000000000LL)
      throw InputError("too many compartments", m.source, 0, std::to_string(total));

    std::vector<Accumulator> acc(pieces);
    const double seg = length / pieces;
    int c = 0;
    for (int j = 0; j + 1 < np; ++j) {
      const double s0 = at[j], s1 = at[j + 1], ra = rad[j], rb = rad[j + 1], h = s1 - s0;
      double x = s0, rx = ra;
      // The cursor c only moves forward, so rounding cannot make this loop stall.
      while (c < pieces - 1 && s1 > seg * (c + 1)) {
        const double xe = std::max(x, seg * (c + 1));
        const double re = h > 0 ? ra + (rb - ra) * ((xe - s0) / h) : rb;
        acc[c].add(x, xe, rx, re);
        x = xe;
        rx = re;
        ++c;
      }
      acc[c].add(x, s1, rx, rb);
    }

    int attach;
    if (sec.parent_section == kFromSoma)
      attach = 0;
    else if (sec.parent_section == kFromRoot)
      attach = root_comp;  // -1 for the first section leaving the root: it is the root
    else
      attach = last_comp[sec.parent_section];
    for (int q = 0; q < pieces; ++q) {
      const Accumulator& a = acc[q];
      comp_parent.push_back(q == 0 ? attach : static_cast<int>(comp_parent.size()) - 1);
      out.length_um.push_back(a.length);
      out.area_um2.push_back(a.area);
      out.radius_um.push_back(a.resistance > 0     ? std::sqrt(a.length / a.resistance)
                              : a.first_radius > 0 ? a.first_radius
                                                   : rad[np - 1]);
    }
    const int first = static_cast<int>(comp_parent.size()) - pieces;
    if (sec.parent_section == kFromRoot && root_comp == -1) root_comp = first;
    last_comp[s] = static_cast<int>(comp_parent.size()) - 1;
  }
  out.tree = Tree(std::move(comp_parent));
  return out;
}

HinesCoefficients cable_coefficients(const Compartments& c, const CableParameters& p) {
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(p.dt_ms)) throw InputError("dt_ms must be positive", {}, 0, format_value(p.dt_ms));
  if (!positive(p.axial_resistivity_ohm_cm))
    throw InputError("axial_resistivity_ohm_cm must be positive", {}, 0,
                     format_value(p.axial_resistivity_ohm_cm));
  if (!positive(p.membrane_capacitance_uF_per_cm2))
    throw InputError("membrane_capacitance_uF_per_cm2 must be positive", {}, 0,
                     format_value(p.membrane_capacitance_uF_per_cm2));
  const int n = c.tree.size();
  if (static_cast<int>(c.length_um.size()) != n || static_cast<int>(c.radius_um.size()) != n ||
      static_cast<int>(c.area_um2.size()) != n)
    throw InputError("compartment vectors do not match the tree size", {}, 0, std::to_string(n));

  std::vector<double> half(n);  // L / (2 pi r^2): half-compartment resistance over Ra [1/um]
  HinesCoefficients h{std::vector<double>(n, 0.0), std::vector<double>(n, 0.0),
                      std::vector<double>(n, 0.0)};
  for (int i = 0; i < n; ++i) {
    const double L = c.length_um[i], r = c.radius_um[i], A = c.area_um2[i];
    const auto bad = [](double v) { return !std::isfinite(v) || v < 0; };
    if (bad(L) || bad(r) || bad(A))
      throw InputError("compartment " + std::to_string(i) + " has an invalid length/radius/area",
                       {}, 0, format_value(L) + "/" + format_value(r) + "/" + format_value(A));
    const double re = std::max(r, kMinRadiusUm), Le = std::max(L, kMinLengthUm);
    const double Ae = std::max(A, 2 * kPi * re * Le);
    half[i] = Le / (2 * kPi * re * re);
    h.d[i] = p.membrane_capacitance_uF_per_cm2 * Ae * 1e-5 / p.dt_ms;  // nF / ms = uS
  }
  for (int i = 1; i < n; ++i) {
    const int q = c.tree.parent(i);
    // Ra [ohm cm] = 1e4 Ra [ohm um]; g [uS] = 1e6 / (1e4 Ra (half_i + half_q)).
    const double g = 100.0 / (p.axial_resistivity_ohm_cm * (half[i] + half[q]));
    h.u[i] = h.l[i] = -g;
    h.d[i] += g;
    h.d[q] += g;
  }
  return h;
}

}  // namespace hinesbatch
