#include "hinesbatch/morphology/neuron_compartments.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

namespace {

// Arc length and diameter along a section's pt3d, integrated over [s0, s1].
struct HalfSegment {
  double area = 0;  // um^2
  double r = 0;     // sum of l / (d0 d1), 1/um
};

HalfSegment integrate(const std::vector<double>& arc, const std::vector<Pt3d>& p, double s0,
                      double s1) {
  HalfSegment h;
  for (std::size_t k = 0; k + 1 < p.size(); ++k) {
    const double a0 = arc[k], a1 = arc[k + 1];
    if (a1 == a0) {  // coincident points: the annulus between the two diameters
      if (a0 >= s0 && a0 < s1)
        h.area += kPi * (p[k].diam + p[k + 1].diam) / 2 * std::abs(p[k].diam - p[k + 1].diam) / 2;
      continue;
    }
    const double lo = std::max(s0, a0), hi = std::min(s1, a1);
    if (!(hi > lo)) continue;
    auto diam_at = [&](double s) {
      return p[k].diam + (s - a0) / (a1 - a0) * (p[k + 1].diam - p[k].diam);
    };
    const double d0 = diam_at(lo), d1 = diam_at(hi), l = hi - lo;
    h.area += kPi * (d0 + d1) / 2 * std::sqrt(l * l + (d0 - d1) * (d0 - d1) / 4);
    h.r += l / (d0 * d1);
  }
  return h;
}

}  // namespace

int NeuronCompartments::node_at(const Location& where) const {
  const int ns = static_cast<int>(section_nseg.size());
  if (where.section < 0 || where.section >= ns)
    throw InputError(
        "location names section " + std::to_string(where.section) + " of " + std::to_string(ns), {},
        0, std::to_string(where.section));
  if (!(where.x >= 0 && where.x <= 1))
    throw InputError("location x must lie in [0, 1]", {}, 0, format_value(where.x));
  if (where.x == 1) return end_node[where.section];
  if (where.x == 0) {
    const int p = section_parent[where.section];
    return p < 0 ? root_end0 : node_at({p, section_parent_x[where.section]});
  }
  const int nseg = section_nseg[where.section];
  const int j = std::min(static_cast<int>(where.x * nseg), nseg - 1);
  return first_centre[where.section] + j;
}

NeuronCompartments neuron_compartments(const SectionedMorphology& m, double Ra) {
  if (!(Ra > 0) || !std::isfinite(Ra))
    throw InputError("axial resistivity Ra must be positive (ohm cm)", m.source, 0,
                     format_value(Ra));
  return neuron_compartments(m, std::vector<double>(static_cast<std::size_t>(m.size()), Ra));
}

NeuronCompartments neuron_compartments(const SectionedMorphology& m,
                                       const std::vector<double>& Ra_of_section) {
  const int ns = m.size();
  if (static_cast<int>(Ra_of_section.size()) != ns)
    throw InputError("axial resistivity: one Ra per section expected", m.source, 0,
                     std::to_string(Ra_of_section.size()));
  for (int s = 0; s < ns; ++s)
    if (!(Ra_of_section[s] > 0) || !std::isfinite(Ra_of_section[s]))
      throw InputError("axial resistivity Ra must be positive (ohm cm)", m.source,
                       m.sections[s].first_swc_line, format_value(Ra_of_section[s]));
  if (ns == 0) throw InputError("morphology has no sections", m.source);
  NeuronCompartments c;
  c.first_centre.assign(ns, -1);
  c.end_node.assign(ns, -1);
  c.section_parent.resize(ns);
  c.section_parent_x.resize(ns);
  c.section_nseg.resize(ns);
  std::vector<std::vector<int>> kids(ns);
  for (int s = 0; s < ns; ++s) {
    const Section& sec = m.sections[s];
    c.section_parent[s] = sec.parent;
    c.section_parent_x[s] = sec.parent_x;
    c.section_nseg[s] = sec.nseg;
    if (sec.nseg < 1)
      throw InputError("section " + std::to_string(s) + " has nseg < 1", m.source,
                       sec.first_swc_line, std::to_string(sec.nseg));
    if (sec.pt3d.size() < 2)
      throw InputError("section " + std::to_string(s) + " has fewer than two 3-D points", m.source,
                       sec.first_swc_line, std::to_string(sec.pt3d.size()));
    for (const Pt3d& p : sec.pt3d)
      if (!(p.diam > 0) || !std::isfinite(p.diam) || !std::isfinite(p.x) || !std::isfinite(p.y) ||
          !std::isfinite(p.z))
        throw InputError("section " + std::to_string(s) + " has a bad 3-D point", m.source,
                         sec.first_swc_line, format_value(p.diam));
    if (s == 0 ? sec.parent != -1 : (sec.parent < 0 || sec.parent >= ns || sec.parent == s))
      throw InputError("section " + std::to_string(s) + " has an invalid parent", m.source,
                       sec.first_swc_line, std::to_string(sec.parent));
    if (s > 0) kids[sec.parent].push_back(s);
  }
  std::vector<int> parent;
  auto add_node = [&](int p, double area, double g, int s) {
    parent.push_back(p);
    c.area_um2.push_back(area);
    c.g_axial_uS.push_back(g);
    c.section_of_node.push_back(s);
    c.swc_type_of_node.push_back(m.sections[s].swc_type);
    return static_cast<int>(parent.size()) - 1;
  };
  // Breadth-first over sections so that a parent's nodes exist before its children's.
  std::queue<int> todo;
  todo.push(0);
  int visited = 0;
  while (!todo.empty()) {
    const int s = todo.front();
    todo.pop();
    ++visited;
    const Section& sec = m.sections[s];
    int attach;
    if (s == 0) {
      c.root_end0 = add_node(-1, 0, 0, s);
      attach = c.root_end0;
    } else {
      attach = c.node_at({sec.parent, sec.parent_x});
    }
    std::vector<double> arc(sec.pt3d.size(), 0);
    for (std::size_t k = 1; k < sec.pt3d.size(); ++k) {
      const Pt3d &a = sec.pt3d[k], &b = sec.pt3d[k - 1];
      arc[k] = arc[k - 1] + std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) +
                                      (a.z - b.z) * (a.z - b.z));
    }
    const double L = arc.back();
    if (!(L > 0))
      throw InputError("section " + std::to_string(s) + " has zero length", m.source,
                       sec.first_swc_line, format_value(L));
    const double dx = L / sec.nseg;
    const double to_megohm = 4 * Ra_of_section[s] / kPi * 1e-2;
    double r_right_prev = 0;
    int prev = attach;
    for (int j = 0; j < sec.nseg; ++j) {
      const HalfSegment left = integrate(arc, sec.pt3d, j * dx, (j + 0.5) * dx);
      const HalfSegment right =
          integrate(arc, sec.pt3d, (j + 0.5) * dx, j + 1 == sec.nseg ? L : (j + 1) * dx);
      const double r = to_megohm * left.r + r_right_prev;
      const int node = add_node(prev, left.area + right.area, 1 / r, s);
      if (j == 0) c.first_centre[s] = node;
      r_right_prev = to_megohm * right.r;
      prev = node;
    }
    c.end_node[s] = add_node(prev, 0, 1 / r_right_prev, s);
    for (int k : kids[s]) todo.push(k);
  }
  if (visited != ns)
    throw InputError("sections do not form one tree rooted at section 0 (" +
                         std::to_string(ns - visited) + " unreachable)",
                     m.source, 0, std::to_string(ns - visited));
  c.tree = Tree(parent);
  return c;
}

}  // namespace hinesbatch
