#include "hinesbatch/morphology/sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

namespace {

double diam_of(const SwcPoint& p) { return std::max(2 * p.radius, 2 * kMinRadiusUm); }

// NEURON's own limit on nseg; an absurdly small max_segment_length_um (1e-12 um) or
// d_lambda would otherwise overflow the int and quietly give nseg 1.
constexpr double kMaxNsegPerSection = 32767;

int odd_at_least(double x) {
  int n = std::max(static_cast<int>(std::ceil(x - 1e-9)), 1);
  return n % 2 == 0 ? n + 1 : n;
}

void check_options(const SectionOptions& o, const std::string& source) {
  auto positive = [](double v) { return v > 0 && std::isfinite(v); };
  const int rules =
      (o.nseg_per_section > 0) + positive(o.max_segment_length_um) + positive(o.d_lambda);
  if (rules != 1 || o.nseg_per_section < 0 || o.max_segment_length_um < 0 || o.d_lambda < 0)
    throw InputError(
        "set exactly one of nseg, max_segment_length_um and d_lambda to a positive value", source,
        0,
        "nseg=" + std::to_string(o.nseg_per_section) + ", max_segment_length_um=" +
            format_value(o.max_segment_length_um) + ", d_lambda=" + format_value(o.d_lambda));
  if (o.d_lambda > 0 &&
      !(positive(o.d_lambda_freq_hz) && positive(o.Ra_ohm_cm) && positive(o.cm_uF_cm2)))
    throw InputError("the d_lambda rule needs a positive frequency, Ra and cm", source, 0,
                     "freq=" + format_value(o.d_lambda_freq_hz) +
                         ", Ra=" + format_value(o.Ra_ohm_cm) + ", cm=" + format_value(o.cm_uF_cm2));
}

// One section as Import3d's mksection makes it, in positions of the reading order.
struct I3dSection {
  int first = 0, end = 0;  // own points [first, end)
  int parent = -1;         // index into the section list
  double parent_x = 1;
  bool wire = false;  // Import3d's sec.first = 1: the parent point is not a pt3d point
  bool removed = false;
  int type = 0;
  std::vector<int> raw;    // points: the parent point (non-root sections), then own points
  double first_diam = -1;  // diameter of raw[0] if changed (soma -> neurite)
};

// Import3d's reading of points in the order `ord` (positions -> point indices). Returns the
// sections, or an empty list when a section would join points that are not parent and child.
std::vector<I3dSection> import3d_read(const SwcMorphology& m, const std::vector<int>& ord) {
  const int n = static_cast<int>(ord.size());
  std::vector<int> pos(n), type(n), pix(n);
  for (int i = 0; i < n; ++i) pos[ord[i]] = i;
  for (int i = 0; i < n; ++i) {
    type[i] = m.points[ord[i]].type;
    const int p = m.parent[ord[i]];
    pix[i] = p < 0 ? -1 : pos[p];
  }
  auto d = [&](int i) { return 2 * m.points[ord[i]].radius; };
  // mark_branch: nchild in hundredths (a non-contiguous child or a type change adds 0.01).
  std::vector<int> nchild(n, 0);
  std::vector<char> connect2prox(n, 0);
  for (int i = 0; i < n; ++i) {
    const int p = pix[i];
    if (p < 0) continue;
    nchild[p] += 100;
    if (p != i - 1) {
      nchild[p] += 1;
      if (p > 1) {
        if (type[p] != 1 && type[pix[p]] == 1) {
          connect2prox[i] = 1;
          nchild[p] = 100;
        }
      } else if (p == 0 && type[p] != 1) {
        connect2prox[i] = 1;
        nchild[p] = 100;
      }
    }
    if (type[p] != type[i]) nchild[p] += 1;
  }
  // sectionify
  std::vector<int> nchild_soma(n, 0);
  int nsoma = type[0] == 1 ? 1 : 0;
  for (int i = 1; i < n; ++i)
    if (type[i] == 1) {
      ++nsoma;
      if (pix[i] >= 0 && type[pix[i]] == 1) ++nchild_soma[pix[i]];
    }
  bool soma3geom = false;  // NeuroMorpho's 3-point soma read as a sphere
  if (nsoma == 3 && n >= 3 && pix[1] == 0 && pix[2] == 0 && nchild[1] == 0 && nchild[2] == 0 &&
      d(1) == d(0) && d(2) == d(0)) {
    double len = 0;
    for (int i = 1; i <= 2; ++i) {
      const SwcPoint &a = m.points[ord[i]], &r = m.points[ord[0]];
      len += std::sqrt((a.x - r.x) * (a.x - r.x) + (a.y - r.y) * (a.y - r.y) +
                       (a.z - r.z) * (a.z - r.z));
    }
    if (std::abs(len / d(0) - 1) < .01) {
      soma3geom = true;
      pix[2] = 1;  // as Import3d: one soma section, of which only the root point is used
    }
  }
  for (int i = 0; i + 1 < n; ++i)
    if (type[i] == 1 && type[i + 1] == 1 && pix[i + 1] == i && !(i != 0 && nchild_soma[i] > 1))
      nchild[i] = 100;
  std::vector<int> last_points, sec_of(n);
  for (int i = 0; i < n; ++i)
    if (nchild[i] != 100) last_points.push_back(i);
  if (last_points.empty() || last_points.back() != n - 1) last_points.push_back(n - 1);
  // mksections / mksection
  std::vector<I3dSection> secs;
  int first = 0;
  for (std::size_t k = 0; k < last_points.size(); ++k) {
    I3dSection s;
    s.first = first;
    s.end = last_points[k] + 1;
    for (int i = s.first; i < s.end; ++i) sec_of[i] = static_cast<int>(k);
    first = s.end;
    secs.push_back(s);
  }
  for (std::size_t k = 0; k < secs.size(); ++k) {
    I3dSection& s = secs[k];
    const int f = s.first;
    int i = s.end;
    // A section must be a path of parent -> child points (the zig-zag check).
    for (int j = f + 1; j < i; ++j)
      if (pix[j] != j - 1 && !(k == 0 && soma3geom && j == 2)) return {};
    if (k == 0) {
      if (soma3geom) i = 1;
      for (int j = f; j < i; ++j) s.raw.push_back(j);
    } else {
      const int pp = pix[f];
      s.parent = sec_of[pp];
      const I3dSection& ps = secs[s.parent];
      const int psize = static_cast<int>(ps.raw.size());
      const bool den_con_soma = ps.type == 1 && type[f] != 1, con_soma = ps.type == 1;
      bool handled = false;
      if (s.parent == 0) {
        handled = true;
        if (den_con_soma && psize == 1) {
          s.parent_x = 0.5;
          if (i - f > 1) s.wire = true;
        } else if (pp == ps.first) {
          s.parent_x = 0;
          if (type[f] != 1 && nchild_soma[pp] > 1) s.wire = true;
        } else {
          handled = false;
        }
      }
      if (!handled && con_soma) {
        const int offset = ps.first == 0 ? -1 : -2;
        if (pp < ps.first + psize + offset) {
          s.parent_x = 0.5;
          if (den_con_soma && i - f > 1) s.wire = true;
        } else if (i - f > 1 && nchild_soma[pp] > 1 && type[f] != 1) {
          s.wire = true;
        }
      }
      s.raw.push_back(pp);
      for (int j = f; j < i; ++j) s.raw.push_back(j);
    }
    s.type = type[f];
    if (k > 0 && secs[s.parent].type == 1 && s.type != 1) s.first_diam = d(s.raw[1]);
    if (connect2prox[f]) s.parent_x = 0;
  }
  // chk_valid: drop one-point and zero-length two-point sections (last to first).
  auto same_place = [&](int a, int b) {
    const SwcPoint &p = m.points[ord[a]], &q = m.points[ord[b]];
    return p.x == q.x && p.y == q.y && p.z == q.z;
  };
  for (int k = static_cast<int>(secs.size()) - 1; k > 0; --k) {
    I3dSection& s = secs[k];
    const int used = static_cast<int>(s.raw.size()) - (s.wire ? 1 : 0);
    const bool drop = used <= 1 || (used == 2 && same_place(s.raw[s.wire ? 1 : 0], s.raw.back()));
    if (!drop) continue;
    s.removed = true;
    for (std::size_t j = k + 1; j < secs.size(); ++j)
      if (!secs[j].removed && secs[j].parent == k) {
        secs[j].parent = s.parent;
        secs[j].parent_x = s.parent_x;
      }
  }
  // Store point indices (not positions) in raw.
  for (I3dSection& s : secs)
    for (int& r : s.raw) r = ord[r];
  return secs;
}

// Depth-first order, children in increasing id order.
std::vector<int> depth_first_order(const SwcMorphology& m) {
  const int n = m.size();
  std::vector<std::vector<int>> children(n);
  for (int k = 1; k < n; ++k) children[m.parent[k]].push_back(k);
  for (auto& c : children)
    std::sort(c.begin(), c.end(), [&](int a, int b) { return m.points[a].id < m.points[b].id; });
  std::vector<int> ord, stack{0};
  while (!stack.empty()) {
    const int k = stack.back();
    stack.pop_back();
    ord.push_back(k);
    for (auto it = children[k].rbegin(); it != children[k].rend(); ++it) stack.push_back(*it);
  }
  return ord;
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

namespace {

// Segments beyond kMaxNsegPerSection are an InputError naming the section's file and line.
void check_segment_count(double segments, const Section& s, const SectionOptions& o,
                         const std::string& source) {
  if (segments <= kMaxNsegPerSection) return;
  const bool by_length = o.max_segment_length_um > 0;
  throw InputError(std::string(by_length ? "max_segment_length_um " : "d_lambda ") +
                       format_value(by_length ? o.max_segment_length_um : o.d_lambda) +
                       " cuts a section of " + format_value(s.length()) + " um into " +
                       format_value(segments) + " segments, more than NEURON's 32767",
                   source, s.first_swc_line,
                   format_value(by_length ? o.max_segment_length_um : o.d_lambda));
}

// nseg_for() with the file named in its errors.
int nseg_checked(const Section& s, const SectionOptions& o, const std::string& source) {
  if (o.nseg_per_section > 0) return o.nseg_per_section;
  const double L = s.length();
  if (o.max_segment_length_um > 0) {
    check_segment_count(std::ceil(L / o.max_segment_length_um - 1e-9), s, o, source);
    return odd_at_least(L / o.max_segment_length_um);
  }
  // NEURON's lambda_f(freq) with 3-D points and geom_nseg.
  double lam = 0;
  for (std::size_t k = 1; k < s.pt3d.size(); ++k) {
    const Pt3d &a = s.pt3d[k - 1], &b = s.pt3d[k];
    const double dl = std::sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y) +
                                (b.z - a.z) * (b.z - a.z));
    lam += dl / std::sqrt(a.diam + b.diam);
  }
  lam *=
      std::sqrt(2.0) * 1e-5 * std::sqrt(4 * kPi * o.d_lambda_freq_hz * o.Ra_ohm_cm * o.cm_uF_cm2);
  // L / lambda_f = lam; nseg = int((lam / d_lambda + 0.9) / 2) * 2 + 1
  check_segment_count(std::floor((lam / o.d_lambda + 0.9) / 2) * 2 + 1, s, o, source);
  return static_cast<int>((lam / o.d_lambda + 0.9) / 2) * 2 + 1;
}
}  // namespace

int nseg_for(const Section& s, const SectionOptions& o) { return nseg_checked(s, o, {}); }

SectionedMorphology neuron_sections(const SwcMorphology& m, const SectionOptions& o,
                                    bool* depth_first_reread) {
  check_options(o, m.source);
  const int n = m.size();
  if (n == 0) throw InputError("morphology has no points", m.source);
  if (n == 1)
    throw InputError("a morphology of one point has no sections", m.source, m.points[0].line,
                     std::to_string(m.points[0].id));
  // Import3d reads the points in increasing id order and needs parent id < id.
  std::vector<int> ord(n);
  for (int k = 0; k < n; ++k) ord[k] = k;
  std::sort(ord.begin(), ord.end(), [&](int a, int b) { return m.points[a].id < m.points[b].id; });
  bool ids_increase = true;
  for (int k = 1; k < n; ++k)
    if (m.points[m.parent[k]].id >= m.points[k].id) ids_increase = false;
  std::vector<I3dSection> secs;
  if (ids_increase) secs = import3d_read(m, ord);
  const bool reread = secs.empty();
  if (reread) secs = import3d_read(m, depth_first_order(m));
  if (depth_first_reread) *depth_first_reread = reread;
  if (secs.empty())
    throw InputError("internal: depth-first reading is not a path of sections", m.source);

  SectionedMorphology out;
  out.source = m.source;
  std::vector<int> index(secs.size(), -1);
  std::map<int, int> count_of_type;
  for (std::size_t k = 0; k < secs.size(); ++k) {
    const I3dSection& is = secs[k];
    if (is.removed) continue;
    Section s;
    s.swc_type = is.type;
    s.name_index = count_of_type[is.type]++;
    s.parent = is.parent < 0 ? -1 : index[is.parent];
    s.parent_x = is.parent < 0 ? 0 : is.parent_x;
    const std::size_t from = is.wire ? 1 : 0;
    s.first_swc_line = m.points[is.raw[is.parent >= 0 ? 1 : 0]].line;  // its first own point
    for (std::size_t j = from; j < is.raw.size(); ++j) {
      const SwcPoint& p = m.points[is.raw[j]];
      double diam = diam_of(p);
      if (j == 0 && is.first_diam >= 0) diam = std::max(is.first_diam, 2 * kMinRadiusUm);
      s.pt3d.push_back({p.x, p.y, p.z, diam});
    }
    if (s.pt3d.size() == 1) {  // a sphere: the 3-point cylinder along x with L = diam
      const Pt3d c = s.pt3d[0];
      s.pt3d = {{c.x - c.diam / 2, c.y, c.z, c.diam}, c, {c.x + c.diam / 2, c.y, c.z, c.diam}};
    }
    const double L = s.length();
    if (!(L > 0))
      throw InputError("section of zero length (its points coincide)", m.source, s.first_swc_line,
                       format_value(L));
    s.nseg = nseg_checked(s, o, m.source);
    index[k] = out.size();
    out.sections.push_back(std::move(s));
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
    s.nseg = nseg_for(s, d);
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
