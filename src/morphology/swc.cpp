#include "hinesbatch/morphology/swc.hpp"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <istream>
#include <sstream>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/input_file.hpp"
#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Plain decimal notation only: [+-] digits [. digits] [e [+-] digits]. Checked by hand
// before strtod so that nan, inf, hex floats and trailing garbage ("1.5abc") are rejected
// rather than silently accepted or cut short.
bool is_decimal(const std::string& s) {
  std::size_t i = 0;
  const std::size_t n = s.size();
  if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
  std::size_t digits = 0;
  while (i < n && is_digit(s[i])) ++i, ++digits;
  if (i < n && s[i] == '.') {
    ++i;
    while (i < n && is_digit(s[i])) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < n && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < n && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t exp_digits = 0;
    while (i < n && is_digit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == n;
}

constexpr double kMaxSwcCoordinateUm = 1e8;
constexpr double kMaxSwcRadiusUm = 1e6;

struct LineContext {
  const std::string& file;
  long line;
};

double parse_real(const std::string& token, const char* what, const LineContext& at) {
  if (!is_decimal(token))
    throw InputError(std::string(what) + " is not a number", at.file, at.line, token);
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(token.c_str(), &end);
  // A locale whose decimal point is not '.' would stop strtod early: caught here too.
  if (end != token.c_str() + token.size() || !std::isfinite(v) || errno == ERANGE)
    throw InputError(std::string(what) + " is not a finite number", at.file, at.line, token);
  return v;
}

long parse_integer(const std::string& token, const char* what, const LineContext& at) {
  const double v = parse_real(token, what, at);
  // Integral decimals such as "3.0" are accepted; 2^53 keeps the conversion exact.
  if (v != std::floor(v) || std::fabs(v) > 9007199254740992.0)
    throw InputError(std::string(what) + " is not an integer", at.file, at.line, token);
  return static_cast<long>(v);
}

std::vector<std::string> split_fields(const std::string& s) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_space(s[i])) ++i;
    std::size_t j = i;
    while (j < s.size() && !is_space(s[j])) ++j;
    if (j > i) out.emplace_back(s, i, j - i);
    i = j;
  }
  return out;
}

std::string trimmed(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// One line ending in LF, CRLF or a lone CR (old Mac files, some exporters): getline on '\n'
// alone would read a CR-only file as one line whose later points look like extra columns.
bool next_line(std::istream& in, std::string& line) {
  line.clear();
  std::streambuf* sb = in.rdbuf();
  bool any = false;
  for (;;) {
    const int c = sb->sbumpc();
    if (c == std::char_traits<char>::eof()) {
      in.setstate(std::ios::eofbit);
      return any;
    }
    any = true;
    if (c == '\n') return true;
    if (c == '\r') {
      if (sb->sgetc() == '\n') sb->sbumpc();
      return true;
    }
    line.push_back(static_cast<char>(c));
  }
}

std::string point_ref(const SwcPoint& p) {
  return std::to_string(p.id) + " (line " + std::to_string(p.line) + ")";
}

}  // namespace

SwcMorphology parse_swc(std::istream& in, const std::string& name, const SwcOptions& options) {
  std::vector<SwcPoint> pts;
  std::unordered_map<long, int> index_of_id;
  std::string text;
  long line_no = 0;
  while (next_line(in, text)) {
    ++line_no;
    if (line_no == 1 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    const std::size_t hash = text.find('#');
    if (hash != std::string::npos) text.erase(hash);
    const auto f = split_fields(text);
    if (f.empty()) continue;
    const LineContext at{name, line_no};
    if (f.size() < 7)
      throw InputError(
          "expected 7 fields (id type x y z radius parent), found " + std::to_string(f.size()),
          name, line_no, trimmed(text));
    // Columns after the 7th are ignored, but seven or more numbers there are another point
    // on the same line (a lost line break), never extra data: taking them as columns would
    // silently drop that point.
    if (f.size() >= 14 && std::all_of(f.begin() + 7, f.begin() + 14, is_decimal))
      throw InputError("several points on one line (" + std::to_string(f.size()) +
                           " numeric fields; one point per line: id type x y z radius parent)",
                       name, line_no, trimmed(text));
    SwcPoint p;
    p.id = parse_integer(f[0], "point id", at);
    if (p.id < 0) throw InputError("point id is negative", name, line_no, f[0]);
    const long type = parse_integer(f[1], "point type", at);
    if (type < -1000000 || type > 1000000)
      throw InputError("point type is out of range", name, line_no, f[1]);
    p.type = static_cast<int>(type);
    p.x = parse_real(f[2], "x coordinate", at);
    p.y = parse_real(f[3], "y coordinate", at);
    p.z = parse_real(f[4], "z coordinate", at);
    p.radius = parse_real(f[5], "radius", at);
    if (p.radius < 0) throw InputError("radius is negative", name, line_no, f[5]);
    // Finite but absurd geometry (1e200 um) overflows the cable coefficients into a pivot
    // error with no file or line: named here instead. 1e8 um is 100 m, 1e6 um 1 m.
    for (const auto& c : {std::make_pair(p.x, 2), std::make_pair(p.y, 3), std::make_pair(p.z, 4)})
      if (std::fabs(c.first) > kMaxSwcCoordinateUm)
        throw InputError("coordinate beyond 1e8 um", name, line_no, f[c.second]);
    if (p.radius > kMaxSwcRadiusUm) throw InputError("radius beyond 1e6 um", name, line_no, f[5]);
    const long parent_id = parse_integer(f[6], "parent id", at);
    p.parent_id = parent_id < 0 ? -1 : parent_id;  // any negative parent marks a root
    p.line = line_no;
    const auto ins = index_of_id.emplace(p.id, static_cast<int>(pts.size()));
    if (!ins.second)
      throw InputError("duplicate point id " + std::to_string(p.id) + " (first defined on line " +
                           std::to_string(pts[ins.first->second].line) + ")",
                       name, line_no, f[0]);
    pts.push_back(p);
  }
  if (in.bad()) throw InputError("read error", name, line_no);
  if (pts.empty()) throw InputError("SWC file has no points (empty or only comments)", name);

  const int n = static_cast<int>(pts.size());
  std::vector<int> par(n, -1);  // indices in file order
  std::vector<int> roots;
  for (int i = 0; i < n; ++i) {
    const SwcPoint& p = pts[i];
    if (p.parent_id < 0) {
      roots.push_back(i);
      continue;
    }
    const auto it = index_of_id.find(p.parent_id);
    if (it == index_of_id.end())
      throw InputError("parent id " + std::to_string(p.parent_id) + " of point " +
                           std::to_string(p.id) + " does not exist",
                       name, p.line, std::to_string(p.parent_id));
    par[i] = it->second;
  }

  // Cycle check: walk up from every point; meeting a point of the current walk again
  // means a cycle, whose points can never reach a root.
  std::vector<char> state(n, 0);  // 0 unseen, 1 on the current walk, 2 reaches a root
  std::vector<int> walk;
  for (int i = 0; i < n; ++i) {
    walk.clear();
    int v = i;
    while (v != -1 && state[v] == 0) {
      state[v] = 1;
      walk.push_back(v);
      v = par[v];
    }
    if (v != -1 && state[v] == 1) {
      std::vector<int> cycle{v};
      for (int w = par[v]; w != v; w = par[w]) cycle.push_back(w);
      const int first = *std::min_element(cycle.begin(), cycle.end());  // earliest line
      std::string ids;
      int w = first;
      for (std::size_t k = 0; k <= cycle.size() && k < 12; ++k, w = par[w])
        ids += (k ? " -> " : "") + std::to_string(pts[w].id);
      if (cycle.size() >= 12) ids += " -> ...";
      throw InputError("point " + std::to_string(pts[first].id) + " is on a parent cycle (" + ids +
                           "): no root is reachable",
                       name, pts[first].line, std::to_string(pts[first].parent_id));
    }
    for (int u : walk) state[u] = 2;
  }

  std::vector<char> keep(n, 1);
  if (roots.size() > 1) {
    if (!options.keep_largest_component) {
      std::string list;
      for (std::size_t k = 0; k < roots.size() && k < 5; ++k)
        list += (k ? ", " : "") + point_ref(pts[roots[k]]);
      if (roots.size() > 5) list += ", ...";
      throw InputError("SWC file has " + std::to_string(roots.size()) + " roots (point ids " +
                           list +
                           "): one tree is needed; keep only the largest with the config key "
                           "'cell.keep_largest_component': true (SwcOptions::"
                           "keep_largest_component, Python keep_largest_component=True)",
                       name, pts[roots[1]].line, std::to_string(pts[roots[1]].id));
    }
    // Root of every point, memoised along each walk (no cycles remain).
    std::vector<int> root_of(n, -1), count(n, 0);
    for (int i = 0; i < n; ++i) {
      walk.clear();
      int v = i;
      while (root_of[v] == -1 && par[v] != -1) {
        walk.push_back(v);
        v = par[v];
      }
      const int r = root_of[v] == -1 ? v : root_of[v];
      root_of[v] = r;
      for (int u : walk) root_of[u] = r;
      ++count[r];
    }
    int best = roots[0];
    for (int r : roots)
      if (count[r] > count[best]) best = r;
    for (int i = 0; i < n; ++i) keep[i] = root_of[i] == best;
  }

  std::vector<int> kept_index(n, -1), kept;
  for (int i = 0; i < n; ++i)
    if (keep[i]) {
      kept_index[i] = static_cast<int>(kept.size());
      kept.push_back(i);
    }
  std::vector<int> kept_parent(kept.size());
  for (std::size_t k = 0; k < kept.size(); ++k)
    kept_parent[k] = par[kept[k]] == -1 ? -1 : kept_index[par[kept[k]]];

  std::vector<int> old_of_new;
  Tree tree = Tree::renumbered(kept_parent, &old_of_new);
  SwcMorphology m;
  m.source = name;
  m.parent = tree.parents();
  m.points.reserve(old_of_new.size());
  for (int old : old_of_new) m.points.push_back(pts[kept[old]]);
  return m;
}

SwcMorphology read_swc(const std::string& path, const SwcOptions& options) {
  // A regular file of bounded size only (/dev/zero, a folder or a FIFO are refused by name);
  // read as bytes: CR handling is ours, on every OS.
  std::istringstream in(read_input_file(path, "SWC file", kMaxSwcBytes), std::ios::binary);
  return parse_swc(in, path, options);
}

int SwcMorphology::soma_point_count() const {
  return static_cast<int>(
      std::count_if(points.begin(), points.end(), [](const SwcPoint& p) { return p.type == 1; }));
}

int SwcMorphology::branch_point_count() const { return tree().branch_point_count(); }

int SwcMorphology::section_count() const {
  if (parent.size() < 2) return 0;
  const auto children = tree().child_counts();
  int sections = children[0];  // the root starts one section per child...
  for (std::size_t i = 1; i < children.size(); ++i)
    if (children[i] >= 2) sections += children[i];  // ...and so does every branch point
  return sections;
}

int SwcMorphology::depth() const {
  if (parent.empty()) return 0;
  const auto children = tree().child_counts();
  // order[k] = number of non-soma branch points strictly above k (parents come first).
  std::vector<int> order(parent.size(), 0);
  int deepest = 0;
  for (std::size_t k = 1; k < parent.size(); ++k) {
    const int p = parent[k];
    order[k] = order[p] + (children[p] >= 2 && points[p].type != 1 ? 1 : 0);
    deepest = std::max(deepest, order[k]);
  }
  return 1 + deepest;
}

}  // namespace hinesbatch
