#pragma once
// Private to the library: the checked JSON readers every config section uses (Ctx) and
// the section readers (one file per section). Every failure is an InputError naming the
// config, the key and the value, so that no typo or bad number silently becomes a default.
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/simulation/config.hpp"

namespace hinesbatch::config_impl {

using json = nlohmann::json;

// Arrays and objects nest at most this deep in a config or a --set value (the deepest real
// config nests 5): a deeper value is refused by the parser, before anything dumps or
// destroys it recursively.
constexpr int kMaxJsonDepth = 64;
// Voltages (v_init, reversal potentials, thresholds) beyond this many mV are refused.
constexpr double kMaxAbsVoltage = 1000;
// Cell templates one config may list (each is built before the memory check).
constexpr std::int64_t kMaxTemplates = 65536;
// Spike sources one config may list (every rank draws every source's spikes).
constexpr std::int64_t kMaxSources = 10000000;

// A JSON value as text for a message: invalid UTF-8 replaced, never an exception.
inline std::string dump_value(const json& v) {
  return v.dump(-1, ' ', false, json::error_handler_t::replace);
}
// A key echoed in a message: at most 200 characters (a --set key is user input).
inline std::string shown_key(const std::string& key) {
  return key.size() <= 200
             ? key
             : key.substr(0, 200) + "... (" + std::to_string(key.size()) + " characters)";
}

struct Ctx;
// ${VAR} replaced by the environment's value (an unset one is an error naming `key`).
std::string expand(const std::string& s, const Ctx& ctx, const std::string& key);

struct Ctx {
  std::string file;    // the config's name in messages
  std::string prefix;  // relative paths resolve as prefix + path ("" or a folder with '/')
  const MechanismCatalogue* catalogue =
      nullptr;  // what cell.mechanisms may name (null: the default)
  const MechanismCatalogue& mechanisms() const {
    return catalogue ? *catalogue : default_catalogue();
  }

  [[noreturn]] void fail(const std::string& key, const std::string& what, const json& value) const {
    throw InputError("config key '" + shown_key(key) + "': " + what, file, 0, dump_value(value));
  }
  void only(const json& obj, const std::string& key, std::set<std::string> allowed) const {
    if (!obj.is_object()) fail(key, "must be an object", obj);
    for (auto it = obj.begin(); it != obj.end(); ++it)
      if (!allowed.count(it.key()))
        fail(key.empty() ? it.key() : key + "." + it.key(), "unknown key", it.value());
  }
  // A finite number in [lo, hi] (the defaults: any finite number).
  double num(const json& obj, const std::string& parent, const char* k, double def,
             double lo = -std::numeric_limits<double>::max(),
             double hi = std::numeric_limits<double>::max()) const {
    if (!obj.contains(k)) return def;
    const json& v = obj.at(k);
    if (!v.is_number()) fail(parent + k, "must be a number", v);
    const double x = v.get<double>();
    if (!(x >= lo && x <= hi))
      fail(parent + k, "must lie in [" + format_value(lo) + ", " + format_value(hi) + "]", v);
    return x;
  }
  // An integer in [lo, hi], checked before it is narrowed (4294967296 must not become 0).
  // The default range is int's: most integer keys end up in an int.
  std::int64_t integer(const json& obj, const std::string& parent, const char* k, std::int64_t def,
                       std::int64_t lo = std::numeric_limits<int>::min(),
                       std::int64_t hi = std::numeric_limits<int>::max()) const {
    if (!obj.contains(k)) return def;
    return integer_value(obj.at(k), parent + k, lo, hi);
  }
  // The same for a value that is not under a key of its own (an entry of a list).
  std::int64_t integer_value(const json& v, const std::string& key, std::int64_t lo,
                             std::int64_t hi) const {
    if (!v.is_number_integer()) fail(key, "must be an integer", v);
    const bool too_big =
        v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    if (too_big || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
      fail(key, "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]",
           v);
    return v.get<std::int64_t>();
  }
  // An optional array (wrong types in it are named by the caller's checks).
  json array(const json& obj, const std::string& parent, const char* k) const {
    if (!obj.contains(k)) return json::array();
    const json& v = obj.at(k);
    if (!v.is_array()) fail(parent + k, "must be an array", v);
    return v;
  }
  bool boolean(const json& obj, const std::string& parent, const char* k, bool def) const {
    if (!obj.contains(k)) return def;
    const json& v = obj.at(k);
    if (!v.is_boolean()) fail(parent + k, "must be true or false", v);
    return v.get<bool>();
  }
  // A string, ${VAR} expanded (every string of the config, as docs/SIMULATION.md says).
  std::string str(const json& obj, const std::string& parent, const char* k,
                  const std::string& def) const {
    if (!obj.contains(k)) return def;
    const json& v = obj.at(k);
    if (!v.is_string()) fail(parent + k, "must be a string", v);
    return expand(v.get<std::string>(), *this, parent + k);
  }
  // A path from the config, relative ones resolved against the config's folder.
  std::string resolve(const std::string& p) const {
    return p.empty() || p[0] == '/' ? p : prefix + p;
  }
};

// {"section": s, "x": x} (defaults 0, 0.5).
Location location(const json& j, const Ctx& ctx, const std::string& key);

// A location must name a section of every template it is used with (the library's own
// check names no config key).
struct KeyedLocation {
  std::string key;
  Location where;
};
void check_locations(const std::vector<KeyedLocation>& locations, const SectionedMorphology& m,
                     const Ctx& ctx);

// What the network section tells the cells section: the synapses each template gets, and
// for an explicit network its lists (checked against the templates once they are built).
struct NetworkSection {
  int synapses = 0;  // per template
  double tau = 2, e = 0;
  SynapseMechanism synapse;  // "synapse": a point process of the catalogue (empty: ExpSyn)
  json site;                 // "random_dendrites" or a location
  bool is_explicit = false;
  ExplicitNetwork lists;
};

// A synapse's point process (key: "network.synapse", "sources[i].connect.synapse"): a
// name, or {"name": point process, "parameters": {name: number}}. InputError (the key and
// value) for a name the catalogue lacks, a density mechanism, one without NET_RECEIVE, one
// whose NET_RECEIVE takes more than the one weight a connection gives, one that uses ions,
// an unknown parameter or one that is not a number.
// A synapse's point process (receives_events: it must have a NET_RECEIVE), or one placed
// on a cell (cell.point_processes: any point process without ions).
SynapseMechanism read_synapse_mechanism(const json& v, const std::string& key, const Ctx& ctx,
                                        bool receives_events = true);

// One reader per section, in the order they are read (the cells' synapse count depends on
// the network; records on the templates).
void read_simulation_section(const json& root, const Ctx& ctx, SimulationParameters& p);
NetworkSection read_network_section(const json& root, const Ctx& ctx, NetworkSpec& n);
// "cell" (one template) or "cells" (a list, each with its count), and "sources" (whose
// connections add synapses to the templates they reach).
void read_cells_section(const json& root, const Ctx& ctx, const NetworkSection& net, NetworkSpec& n,
                        std::vector<CellTemplate>& templates, double tstop);
// "sources" of a config whose templates are given in code (no "connect": connections listed).
void read_given_templates_sources(const json& root, const Ctx& ctx, const NetworkSection& net,
                                  double tstop, NetworkSpec& n);
// One template from a "cell"-shaped object with a single morphology (or `morphology` given)
// and its own "synapses" list: parse_cell_template (config.hpp).
CellTemplate read_cell_template(const json& cell, const Ctx& ctx, const SwcMorphology* morphology);
// Explicit networks: the lists checked against the templates, then indexed (n replaced).
void finish_explicit_network(const NetworkSection& net, const Ctx& ctx,
                             const std::vector<CellTemplate>& templates, NetworkSpec& n);
void read_records_section(const json& root, const Ctx& ctx, SimulationConfig& c);
void read_run_section(const json& root, const Ctx& ctx, SimulationConfig& c);
void read_outputs_section(const json& root, const Ctx& ctx, SimulationOutputs& out);

}  // namespace hinesbatch::config_impl
