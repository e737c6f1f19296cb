#include "hinesbatch/simulation/sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/morphology/discretize.hpp"  // kMinRadiusUm

namespace hinesbatch {

namespace {

double diam_of(const SwcPoint& p) { return std::max(2 * p.radius, 2 * kMinRadiusUm); }
Pt3d pt(const SwcPoint& p, double diam) { return {p.x, p.y, p.z, diam}; }

// NEURON's own limit on nseg; an absurdly small max_segment_length_um (1e-12 um) would
// otherwise overflow the int and quietly give nseg 1.
constexpr double kMaxNsegPerSection = 32767;

int nseg_for(double length, const SectionOptions& o, const std::string& source = {},
             long line = 0) {
  if (o.nseg_per_section > 0) return o.nseg_per_section;
  const double segments = std::ceil(length / o.max_segment_length_um - 1e-9);
  if (!(segments <= kMaxNsegPerSection))
    throw InputError("max_segment_length_um " + format_value(o.max_segment_length_um) +
                         " cuts a section of " + format_value(length) + " um into " +
                         format_value(segments) + " segments, more than NEURON's 32767",
                     source, line, format_value(o.max_segment_length_um));
  int n = static_cast<int>(segments);
  n = std::max(n, 1);
  return n % 2 == 0 ? n + 1 : n;
}

void check_options(const SectionOptions& o, const std::string& source) {
  const bool by_nseg = o.nseg_per_section > 0;
  const bool by_length = o.max_segment_length_um > 0 && std::isfinite(o.max_segment_length_um);
  if (by_nseg == by_length || o.nseg_per_section < 0 || o.max_segment_length_um < 0)
    throw InputError("set exactly one of nseg and max_segment_length_um to a positive value",
                     source, 0,
                     "nseg=" + std::to_string(o.nseg_per_section) +
                         ", max_segment_length_um=" + format_value(o.max_segment_length_um));
}

}  // namespace

double Section::length() const {
  double L = 0;
  for (std::size_t k = 1; k < pt3d.size(); ++k) {
    const double dx = pt3d[k].x - pt3d[k - 1].x, dy = pt3d[k].y - pt3d[k - 1].y,
                 dz = pt3d[k].z - pt3d[k - 1].z;
    L += std::sqrt(dx * dx + dy * dy + dz * dz);
  }
  return L;
}

SectionedMorphology neuron_sections(const SwcMorphology& m, const SectionOptions& o) {
  check_options(o, m.source);
  const int n = m.size();
  if (n == 0) throw InputError("morphology has no points", m.source);
  std::vector<std::vector<int>> children(n);
  for (int k = 1; k < n; ++k) children[m.parent[k]].push_back(k);
  auto by_id = [&](int a, int b) { return m.points[a].id < m.points[b].id; };
  for (auto& c : children) std::sort(c.begin(), c.end(), by_id);

  // Rule 1: the soma.
  std::vector<char> soma(n, 0);
  if (m.points[0].type == 1) {
    std::vector<int> stack{0};
    while (!stack.empty()) {
      const int k = stack.back();
      stack.pop_back();
      soma[k] = 1;
      for (int c : children[k])
        if (m.points[c].type == 1) stack.push_back(c);
    }
  }
  SectionedMorphology out;
  out.source = m.source;
  const bool has_soma = soma[0] != 0;
  if (has_soma) {
    Section s;
    s.parent = -1;
    s.swc_type = 1;
    s.nseg = 1;
    s.first_swc_line = m.points[0].line;
    std::vector<int> soma_children_of_root;
    for (int c : children[0])
      if (soma[c]) soma_children_of_root.push_back(c);
    int count = 0, max_degree = 0;
    for (int k = 0; k < n; ++k) {
      if (!soma[k]) continue;
      ++count;
      int degree = k > 0 ? 1 : 0;
      for (int c : children[k]) degree += soma[c] ? 1 : 0;
      max_degree = std::max(max_degree, degree);
    }
    const SwcPoint& r = m.points[0];
    if (count == 1) {
      const double d = diam_of(r);
      s.pt3d = {{r.x, r.y - d / 2, r.z, d}, {r.x, r.y + d / 2, r.z, d}};
    } else if (max_degree <= 2) {
      // A path: walk down from each soma child of the root.
      auto walk = [&](int start) {
        std::vector<int> run{start};
        for (;;) {
          int next = -1;
          for (int c : children[run.back()])
            if (soma[c]) next = c;
          if (next < 0) break;
          run.push_back(next);
        }
        return run;
      };
      std::vector<int> order;
      if (soma_children_of_root.size() == 2) {
        auto a = walk(soma_children_of_root[0]);
        order.assign(a.rbegin(), a.rend());
        order.push_back(0);
        auto b = walk(soma_children_of_root[1]);
        order.insert(order.end(), b.begin(), b.end());
      } else {
        order.push_back(0);
        auto b = walk(soma_children_of_root[0]);
        order.insert(order.end(), b.begin(), b.end());
      }
      for (int k : order) s.pt3d.push_back(pt(m.points[k], diam_of(m.points[k])));
    } else {
      double area = 0;
      for (int k = 1; k < n; ++k) {
        if (!soma[k]) continue;
        const SwcPoint &a = m.points[k], &b = m.points[m.parent[k]];
        const double dx = a.x - b.x, dy = a.y - b.y, dz = a.z - b.z;
        const double h = std::sqrt(dx * dx + dy * dy + dz * dz);
        const double r0 = diam_of(a) / 2, r1 = diam_of(b) / 2;
        area += kPi * (r0 + r1) * std::sqrt(h * h + (r0 - r1) * (r0 - r1));
      }
      const double d = std::sqrt(area / kPi);
      s.pt3d = {{r.x, r.y - d / 2, r.z, d}, {r.x, r.y + d / 2, r.z, d}};
    }
    if (!(s.length() > 0))
      throw InputError("soma section has zero length (all soma points coincide and radius 0)",
                       m.source, r.line, format_value(r.radius));
    out.sections.push_back(std::move(s));
  }

  // Rule 2: neurite sections, found from their start edges.
  struct Pending {
    int start, second;
  };
  std::vector<Pending> starts;
  for (int k = 0; k < n; ++k) {
    if (has_soma && soma[k]) {
      for (int c : children[k])
        if (!soma[c]) starts.push_back({k, c});
    } else if (k == 0 || children[k].size() >= 2) {
      for (int c : children[k]) starts.push_back({k, c});
    }
  }
  std::sort(starts.begin(), starts.end(),
            [&](const Pending& a, const Pending& b) { return by_id(a.second, b.second); });
  const int first_neurite = has_soma ? 1 : 0;
  std::vector<int> section_ending_at(n, -1);
  std::vector<int> point_runs_start(starts.size());
  for (std::size_t i = 0; i < starts.size(); ++i) {
    Section s;
    s.swc_type = m.points[starts[i].second].type;
    s.first_swc_line = m.points[starts[i].second].line;
    std::vector<int> run{starts[i].start, starts[i].second};
    while (children[run.back()].size() == 1) run.push_back(children[run.back()][0]);
    for (std::size_t j = 0; j < run.size(); ++j) {
      const SwcPoint& p = m.points[run[j]];
      const bool soma_start = j == 0 && has_soma && soma[run[0]];
      s.pt3d.push_back(pt(p, soma_start ? diam_of(m.points[run[1]]) : diam_of(p)));
    }
    const double L = s.length();
    if (!(L > 0))
      throw InputError("section of zero length (its points coincide) starting at point " +
                           std::to_string(m.points[starts[i].second].id),
                       m.source, s.first_swc_line, format_value(L));
    s.nseg = nseg_for(L, o, m.source, s.first_swc_line);
    section_ending_at[run.back()] = first_neurite + static_cast<int>(i);
    out.sections.push_back(std::move(s));
  }
  // Parents.
  int root_section = has_soma ? 0 : -1;
  for (std::size_t i = 0; i < starts.size(); ++i) {
    Section& s = out.sections[first_neurite + i];
    const int start = starts[i].start;
    if (has_soma && soma[start]) {
      s.parent = 0;
      s.parent_x = 0.5;
    } else if (start == 0) {
      // Root's first child (smallest SWC id) is the root section.
      if (root_section < 0) {
        int best = -1;
        for (std::size_t j = 0; j < starts.size(); ++j)
          if (starts[j].start == 0 && (best < 0 || by_id(starts[j].second, starts[best].second)))
            best = static_cast<int>(j);
        root_section = first_neurite + best;
      }
      if (first_neurite + static_cast<int>(i) == root_section) {
        s.parent = -1;
      } else {
        s.parent = root_section;
        s.parent_x = 0;
      }
    } else {
      s.parent = section_ending_at[start];
      s.parent_x = 1;
    }
  }
  if (out.sections.empty())
    throw InputError("morphology of one non-soma point has no sections", m.source, m.points[0].line,
                     std::to_string(m.points[0].id));
  // The root section must be sections[0]; without a soma it is the first by rule 3 unless
  // the root's first child is not the smallest second-point id overall.
  if (root_section != 0) {
    // Move it to the front, keeping the others in order, and remap parents.
    std::vector<int> new_of_old(out.size());
    std::vector<Section> reordered;
    reordered.push_back(out.sections[root_section]);
    new_of_old[root_section] = 0;
    for (int i = 0; i < out.size(); ++i)
      if (i != root_section) {
        new_of_old[i] = static_cast<int>(reordered.size());
        reordered.push_back(out.sections[i]);
      }
    for (Section& s : reordered)
      if (s.parent >= 0) s.parent = new_of_old[s.parent];
    out.sections = std::move(reordered);
  }
  return out;
}

SectionedMorphology synthetic_sections(const std::string& name, const SectionOptions& o) {
  SectionedMorphology out;
  out.source = "synthetic:" + name;
  Section soma;
  soma.swc_type = 1;
  soma.pt3d = {{0, -10, 0, 20}, {0, 10, 0, 20}};
  out.sections.push_back(soma);
  auto cable = [](int parent, double x, const Pt3d& from, double dx, double dy, double len,
                  double diam, int type, int nseg) {
    Section s;
    s.parent = parent;
    s.parent_x = x;
    s.swc_type = type;
    s.nseg = nseg;
    const double norm = std::sqrt(dx * dx + dy * dy);
    s.pt3d = {{from.x, from.y, from.z, diam},
              {from.x + len * dx / norm, from.y + len * dy / norm, from.z, diam}};
    return s;
  };
  if (name == "ball-and-stick") {
    SectionOptions d = o;
    if (d.nseg_per_section <= 0 && d.max_segment_length_um <= 0) d.nseg_per_section = 21;
    Section s = cable(0, 0.5, {0, 0, 0, 0}, 1, 0, 200, 2, 3, 1);
    s.nseg = nseg_for(200, d);
    out.sections.push_back(s);
  } else if (name == "p3") {
    const double dirs[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
    const double len[3] = {100, 80, 60}, diam[3] = {3, 2, 1};
    for (int t = 0; t < 4; ++t) {
      // Breadth-first binary tree of three levels; children split +/- 30 degrees.
      std::vector<int> level{static_cast<int>(out.sections.size())};
      out.sections.push_back(
          cable(0, 0.5, {0, 0, 0, 0}, dirs[t][0], dirs[t][1], len[0], diam[0], 3, 16));
      for (int l = 1; l < 3; ++l) {
        std::vector<int> next;
        for (int p : level) {
          const Pt3d end = out.sections[p].pt3d.back();
          for (int side = -1; side <= 1; side += 2) {
            const double a = std::atan2(dirs[t][1], dirs[t][0]) + side * 0.5236 * l;
            next.push_back(static_cast<int>(out.sections.size()));
            out.sections.push_back(
                cable(p, 1, end, std::cos(a), std::sin(a), len[l], diam[l], 3, 16));
          }
        }
        level = next;
      }
    }
    out.sections[1].nseg = 17;  // 1 + 27 x 16 + 17 + ... = 450 segments in all
  } else {
    throw InputError("unknown synthetic cell (ball-and-stick, p3)", {}, 0, name);
  }
  return out;
}

}  // namespace hinesbatch
