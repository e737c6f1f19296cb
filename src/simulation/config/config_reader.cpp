#include "config_reader.hpp"

#include <cstdlib>

namespace hinesbatch::config_impl {

std::string expand(const std::string& s, const Ctx& ctx, const std::string& key) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '$' && i + 1 < s.size() && s[i + 1] == '{') {
      const std::size_t end = s.find('}', i);
      if (end == std::string::npos) ctx.fail(key, "unterminated ${", s);
      const std::string name = s.substr(i + 2, end - i - 2);
      const char* v = std::getenv(name.c_str());
      if (!v) ctx.fail(key, "environment variable " + name + " is not set", s);
      out += v;
      i = end;
    } else {
      out += s[i];
    }
  }
  return out;
}

Location location(const json& j, const Ctx& ctx, const std::string& key) {
  ctx.only(j, key, {"section", "x"});
  Location l;
  l.section = static_cast<int>(ctx.integer(j, key + ".", "section", 0, 0));
  l.x = ctx.num(j, key + ".", "x", 0.5, 0, 1);
  return l;
}

void check_locations(const std::vector<KeyedLocation>& locations, const SectionedMorphology& m,
                     const Ctx& ctx) {
  for (const KeyedLocation& l : locations)
    if (l.where.section >= m.size())
      ctx.fail(l.key + ".section",
               "names section " + std::to_string(l.where.section) + " but " + m.source + " has " +
                   std::to_string(m.size()) + " sections (0.." + std::to_string(m.size() - 1) + ")",
               l.where.section);
}

}  // namespace hinesbatch::config_impl
