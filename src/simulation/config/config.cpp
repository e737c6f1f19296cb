// load_simulation_config / parse_simulation_config: the JSON text, the --set overrides,
// then one reader per section (config_reader.hpp).
#include "hinesbatch/simulation/config.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "config_reader.hpp"
#include "core/input_file.hpp"

namespace hinesbatch {

namespace {

using config_impl::Ctx;
using config_impl::json;

void set_path(json& root, const std::string& dotted, const json& value, const Ctx& ctx) {
  json* node = &root;
  std::stringstream ss(dotted);
  std::string part;
  std::vector<std::string> parts;
  while (std::getline(ss, part, '.')) parts.push_back(part);
  if (parts.empty() || std::count(parts.begin(), parts.end(), std::string()) > 0 ||
      dotted.back() == '.')
    ctx.fail(dotted, "--set needs key.path=value with non-empty names", dotted);
  std::string walked;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (!node->is_object() && !node->is_null())  // a number or string cannot hold keys
      ctx.fail(walked, "--set " + dotted + ": is not an object", *node);
    walked += (i ? "." : "") + parts[i];
    node = &(*node)[parts[i]];
  }
  *node = value;
}

// The line of the first occurrence of `token` in text (1 if absent).
long line_of(const std::string& text, const std::string& token) {
  const std::size_t at = token.empty() ? std::string::npos : text.find(token);
  if (at == std::string::npos) return 1;
  return 1 + static_cast<long>(std::count(text.begin(), text.begin() + at, '\n'));
}

// The line of the second occurrence of "key" (the last part of a dotted key) as a JSON
// string: where a duplicate is (0 if not found).
long line_of_second(const std::string& text, const std::string& dotted) {
  const auto dot = dotted.rfind('.');
  const std::string token =
      "\"" + (dot == std::string::npos ? dotted : dotted.substr(dot + 1)) + "\"";
  const std::size_t first = text.find(token);
  if (first == std::string::npos) return 0;
  const std::size_t second = text.find(token, first + 1);
  if (second == std::string::npos) return 0;
  return 1 + static_cast<long>(std::count(text.begin(), text.begin() + second, '\n'));
}

// The quoted token of a nlohmann message ("number overflow parsing '1e400'").
std::string quoted_in(const std::string& message) {
  const auto a = message.find('\''), b = message.rfind('\'');
  return a != std::string::npos && b > a ? message.substr(a + 1, b - a - 1) : std::string();
}

// The first line on which arrays and objects nest deeper than kMaxJsonDepth (0: none).
// A plain scan (strings skipped), so that the parser never builds a deep value.
long too_deep_line(const std::string& text) {
  int depth = 0;
  long line = 1;
  bool in_string = false, escape = false;
  for (const char c : text) {
    if (c == '\n') ++line;
    if (in_string) {
      if (escape)
        escape = false;
      else if (c == '\\')
        escape = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > config_impl::kMaxJsonDepth) return line;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return 0;
}

struct DuplicateKey {
  std::string key;  // dotted, "[]" for array entries
};
struct TooDeep {};

// json::parse with two refusals the plain parser lacks: a key given twice in one object
// (nlohmann keeps the last silently) and nesting deeper than kMaxJsonDepth.
json parse_strict(const std::string& text) {
  struct Frame {
    bool object;
    std::set<std::string> keys;
    std::string key;
  };
  std::vector<Frame> frames;
  using Event = json::parse_event_t;
  const json::parser_callback_t check = [&frames](int, Event event, json& parsed) {
    if (event == Event::object_start || event == Event::array_start) {
      if (frames.size() >= static_cast<std::size_t>(config_impl::kMaxJsonDepth)) throw TooDeep{};
      frames.push_back({event == Event::object_start, {}, {}});
    } else if (event == Event::object_end || event == Event::array_end) {
      if (!frames.empty()) frames.pop_back();
    } else if (event == Event::key && !frames.empty() && parsed.is_string()) {
      const std::string k = parsed.get<std::string>();
      Frame& top = frames.back();
      if (!top.keys.insert(k).second) {
        std::string dotted;
        for (std::size_t i = 0; i + 1 < frames.size(); ++i)
          dotted += frames[i].object ? (dotted.empty() ? "" : ".") + frames[i].key : "[]";
        throw DuplicateKey{dotted + (dotted.empty() ? "" : ".") + k};
      }
      top.key = k;
    }
    return true;
  };
  return json::parse(text, check);
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c < 0x80             ? 0
                          : (c & 0xE0) == 0xC0 ? 1
                          : (c & 0xF0) == 0xE0 ? 2
                          : (c & 0xF8) == 0xF0 ? 3
                                               : 4;
    if (n == 4 || i + n >= s.size() + (n == 0)) return false;
    for (std::size_t k = 1; k <= n; ++k)
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    i += n + 1;
  }
  return true;
}

json parse_text(const std::string& text, const Ctx& ctx) {
  const std::string& path = ctx.file;
  if (text.size() > kMaxConfigBytes)
    throw InputError("config is " + std::to_string(text.size()) +
                         " bytes, more than the limit of " + std::to_string(kMaxConfigBytes),
                     path);
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    throw InputError(
        "config holds a NUL byte (a binary or damaged file; nothing after it "
        "would be read)",
        path, 1 + static_cast<long>(std::count(text.begin(), text.begin() + nul, '\n')));
  if (const long deep = too_deep_line(text))
    throw InputError("invalid JSON: arrays and objects nested deeper than " +
                         std::to_string(config_impl::kMaxJsonDepth) + " levels",
                     path, deep);
  json root;
  try {
    root = parse_strict(text);
  } catch (const json::parse_error& e) {
    const std::size_t byte = std::min<std::size_t>(e.byte, text.size());
    const long line = 1 + static_cast<long>(std::count(text.begin(), text.begin() + byte, '\n'));
    throw InputError(std::string("invalid JSON: ") + e.what(), path, line);
  } catch (const json::out_of_range& e) {  // 1e400: beyond a double
    const std::string token = quoted_in(e.what());
    throw InputError("invalid JSON: number out of the range of a double", path,
                     line_of(text, token), token);
  } catch (const DuplicateKey& d) {
    throw InputError("config key '" + config_impl::shown_key(d.key) +
                         "': given twice in one object (the second would silently replace the "
                         "first)",
                     path, line_of_second(text, d.key));
  } catch (const TooDeep&) {
    throw InputError("invalid JSON: arrays and objects nested deeper than " +
                         std::to_string(config_impl::kMaxJsonDepth) + " levels",
                     path);
  }
  return root;
}

// templates: given in code (no "cell" section), else read from it.
SimulationConfig parse_json(const std::string& text, const Ctx& ctx,
                            const std::vector<std::string>& overrides,
                            std::vector<CellTemplate>* templates) {
  const std::string& path = ctx.file;
  json root = parse_text(text, ctx);
  for (const std::string& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--set needs key.path=value", path, 0, o);
    const std::string key = o.substr(0, eq), text_value = o.substr(eq + 1);
    if (!valid_utf8(o))
      ctx.fail(key, "--set: not valid UTF-8 (invalid bytes shown as U+FFFD)", json(o));
    if (too_deep_line(text_value))
      ctx.fail(key,
               "--set: arrays and objects nested deeper than " +
                   std::to_string(config_impl::kMaxJsonDepth) + " levels",
               text_value.substr(0, 64));
    json value;
    try {
      value = parse_strict(text_value);
    } catch (const json::parse_error&) {
      value = text_value;
    } catch (const json::out_of_range&) {
      ctx.fail(key, "--set: number out of the range of a double", text_value);
    } catch (const DuplicateKey& d) {
      ctx.fail(key + "." + d.key, "--set: given twice in one object", text_value);
    } catch (const TooDeep&) {
      ctx.fail(key, "--set: nested too deep", text_value.substr(0, 64));
    }
    set_path(root, key, value, ctx);
  }
  ctx.only(root, "",
           {"dt", "tstop", "v_init", "celsius", "ena", "ek", "cell", "cells", "sources", "network",
            "record", "record_dt", "run", "output", "comment"});
  SimulationConfig c;
  c.path = path;
  config_impl::read_simulation_section(root, ctx, c.params);
  // The network first: the cells' synapse count depends on it.
  const config_impl::NetworkSection net = config_impl::read_network_section(root, ctx, c.network);
  if (templates) {
    for (const char* k : {"cell", "cells"})
      if (root.contains(k)) ctx.fail(k, "must be absent: the cell templates are given", root.at(k));
    if (templates->empty()) ctx.fail("cell", "no cell templates given", json());
    c.templates = std::move(*templates);
    c.network.templates = static_cast<int>(c.templates.size());
    config_impl::read_given_templates_sources(root, ctx, net, c.params.tstop, c.network);
  } else {
    config_impl::read_cells_section(root, ctx, net, c.network, c.templates, c.params.tstop);
  }
  config_impl::finish_explicit_network(net, ctx, c.templates, c.network);
  // The run section first: whether pas and hh are the catalogue's decides what records.
  config_impl::read_run_section(root, ctx, c);
  config_impl::read_records_section(root, ctx, c);
  // Each cell of a random network draws its sources from the other cells: more than
  // cells - 1 would be capped. The default (500) is capped silently; a value given is not.
  if (c.network.type == NetworkSpec::Random && root.contains("network") &&
      root.at("network").is_object() && root.at("network").contains("synapses_per_cell")) {
    const std::int64_t cells = c.network.cells * std::max(1, c.dry_run_ranks);
    if (c.network.synapses_per_cell > cells - 1)
      ctx.fail("network.synapses_per_cell",
               "is more than network.cells - 1 = " + std::to_string(cells - 1) +
                   " (each cell's sources are drawn from the other cells)",
               root.at("network").at("synapses_per_cell"));
  }
  config_impl::read_outputs_section(root, ctx, c.outputs);
  try {
    c.network.validate();
  } catch (const InputError& e) {
    throw InputError(e.what(), path);
  }
  return c;
}

// Safety net: a JSON type or range error the checks missed still leaves as an InputError
// naming the file (hinesbatch-sim's exit 2), never as a raw library exception.
SimulationConfig parse_checked(const std::string& text, const Ctx& ctx,
                               const std::vector<std::string>& overrides,
                               std::vector<CellTemplate>* templates = nullptr) {
  try {
    return parse_json(text, ctx, overrides, templates);
  } catch (const json::exception& e) {
    throw InputError(std::string("config: ") + e.what(), ctx.file);
  } catch (const std::bad_alloc&) {
    throw InputError("config: not enough memory to read it", ctx.file);
  }
}

}  // namespace

SimulationConfig load_simulation_config(const std::string& path,
                                        const std::vector<std::string>& overrides,
                                        const MechanismCatalogue& catalogue) {
  // A regular file of bounded size only: /dev/zero or a folder are refused by name.
  const std::string text = read_input_file(path, "config file", kMaxConfigBytes);
  const auto slash = path.rfind('/');
  const Ctx ctx{path, slash == std::string::npos ? std::string() : path.substr(0, slash + 1),
                &catalogue};
  return parse_checked(text, ctx, overrides);
}

SimulationConfig parse_simulation_config(const std::string& json_text,
                                         const std::string& source_name,
                                         const std::string& base_dir,
                                         const std::vector<std::string>& overrides,
                                         const MechanismCatalogue& catalogue) {
  std::string prefix = base_dir;
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  return parse_checked(json_text, Ctx{source_name, prefix, &catalogue}, overrides);
}

SimulationConfig parse_simulation_config(const std::string& json_text,
                                         const std::string& source_name,
                                         const std::string& base_dir,
                                         std::vector<CellTemplate> templates,
                                         const std::vector<std::string>& overrides,
                                         const MechanismCatalogue& catalogue) {
  std::string prefix = base_dir;
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  return parse_checked(json_text, Ctx{source_name, prefix, &catalogue}, overrides, &templates);
}

CellTemplate parse_cell_template(const std::string& json_text, const std::string& source_name,
                                 const std::string& base_dir, const SwcMorphology* morphology,
                                 const MechanismCatalogue& catalogue) {
  std::string prefix = base_dir;
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  const Ctx ctx{source_name, prefix, &catalogue};
  try {
    return config_impl::read_cell_template(parse_text(json_text, ctx), ctx, morphology);
  } catch (const json::exception& e) {
    throw InputError(std::string("cell template: ") + e.what(), ctx.file);
  }
}

}  // namespace hinesbatch
