// load_simulation_config / parse_simulation_config: the JSON text, the --set overrides,
// then one reader per section (config_reader.hpp).
#include "hinesbatch/simulation/config.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "config_reader.hpp"

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

// The quoted token of a nlohmann message ("number overflow parsing '1e400'").
std::string quoted_in(const std::string& message) {
  const auto a = message.find('\''), b = message.rfind('\'');
  return a != std::string::npos && b > a ? message.substr(a + 1, b - a - 1) : std::string();
}

SimulationConfig parse_json(const std::string& text, const Ctx& ctx,
                            const std::vector<std::string>& overrides) {
  const std::string& path = ctx.file;
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& e) {
    const std::size_t byte = std::min<std::size_t>(e.byte, text.size());
    const long line = 1 + static_cast<long>(std::count(text.begin(), text.begin() + byte, '\n'));
    throw InputError(std::string("invalid JSON: ") + e.what(), path, line);
  } catch (const json::out_of_range& e) {  // 1e400: beyond a double
    const std::string token = quoted_in(e.what());
    throw InputError("invalid JSON: number out of the range of a double", path,
                     line_of(text, token), token);
  }
  for (const std::string& o : overrides) {
    const auto eq = o.find('=');
    if (eq == std::string::npos || eq == 0)
      throw InputError("--set needs key.path=value", path, 0, o);
    json value;
    try {
      value = json::parse(o.substr(eq + 1));
    } catch (const json::parse_error&) {
      value = o.substr(eq + 1);
    } catch (const json::out_of_range&) {
      ctx.fail(o.substr(0, eq), "--set: number out of the range of a double", o.substr(eq + 1));
    }
    set_path(root, o.substr(0, eq), value, ctx);
  }
  ctx.only(root, "",
           {"dt", "tstop", "v_init", "celsius", "ena", "ek", "cell", "network", "record", "run",
            "output", "comment"});
  SimulationConfig c;
  c.path = path;
  config_impl::read_simulation_section(root, ctx, c.params);
  // The network first: the cells' synapse count depends on it.
  const config_impl::NetworkSection net = config_impl::read_network_section(root, ctx, c.network);
  config_impl::read_cells_section(root, ctx, net, c.network, c.templates);
  config_impl::finish_explicit_network(net, ctx, c.templates, c.network);
  config_impl::read_records_section(root, ctx, c);
  config_impl::read_run_section(root, ctx, c);
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
                               const std::vector<std::string>& overrides) {
  try {
    return parse_json(text, ctx, overrides);
  } catch (const json::exception& e) {
    throw InputError(std::string("config: ") + e.what(), ctx.file);
  }
}

}  // namespace

SimulationConfig load_simulation_config(const std::string& path,
                                        const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw InputError("cannot open config file", path);
  std::stringstream buf;
  buf << in.rdbuf();
  const auto slash = path.rfind('/');
  const Ctx ctx{path, slash == std::string::npos ? std::string() : path.substr(0, slash + 1)};
  return parse_checked(buf.str(), ctx, overrides);
}

SimulationConfig parse_simulation_config(const std::string& json_text,
                                         const std::string& source_name,
                                         const std::string& base_dir,
                                         const std::vector<std::string>& overrides) {
  std::string prefix = base_dir;
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  return parse_checked(json_text, Ctx{source_name, prefix}, overrides);
}

}  // namespace hinesbatch
