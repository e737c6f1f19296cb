#include "config.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/simulation/sections.hpp"
#include "output_file.hpp"

namespace hinesbatch::sim_tool {

using json = nlohmann::json;

namespace {

struct Ctx {
  std::string file;
  [[noreturn]] void fail(const std::string& key, const std::string& what, const json& value) const {
    throw InputError("config key '" + key + "': " + what, file, 0, value.dump());
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
    const json& v = obj.at(k);
    if (!v.is_number_integer()) fail(parent + k, "must be an integer", v);
    const bool too_big =
        v.is_number_unsigned() && v.get<std::uint64_t>() > static_cast<std::uint64_t>(hi);
    if (too_big || v.get<std::int64_t>() < lo || v.get<std::int64_t>() > hi)
      fail(parent + k,
           "must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]", v);
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
  std::string str(const json& obj, const std::string& parent, const char* k,
                  const std::string& def) const {
    if (!obj.contains(k)) return def;
    const json& v = obj.at(k);
    if (!v.is_string()) fail(parent + k, "must be a string", v);
    return v.get<std::string>();
  }
};

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

std::string relative_to(const std::string& config, const std::string& p) {
  if (p.empty() || p[0] == '/') return p;
  const auto slash = config.rfind('/');
  return slash == std::string::npos ? p : config.substr(0, slash + 1) + p;
}

Location location(const json& j, const Ctx& ctx, const std::string& key) {
  ctx.only(j, key, {"section", "x"});
  Location l;
  l.section = static_cast<int>(ctx.integer(j, key + ".", "section", 0, 0));
  l.x = ctx.num(j, key + ".", "x", 0.5, 0, 1);
  return l;
}

// A location must name a section of every template it is used with (the library's own
// check names no config key).
struct KeyedLocation {
  std::string key;
  Location where;
};
void check_locations(const std::vector<KeyedLocation>& locations, const SectionedMorphology& m,
                     const Ctx& ctx) {
  for (const KeyedLocation& l : locations)
    if (l.where.section >= m.size())
      ctx.fail(l.key + ".section",
               "names section " + std::to_string(l.where.section) + " but " + m.source + " has " +
                   std::to_string(m.size()) + " sections (0.." + std::to_string(m.size() - 1) + ")",
               l.where.section);
}

// Rough bytes one cell needs on its rank (state per compartment, synapses, connections):
// enough to refuse 1e12 cells or 1e8 segments before anything is allocated.
double bytes_per_cell(const CellTemplate& t, const NetworkSpec& n) {
  return 256.0 * t.compartments.size() + 64.0 * t.synapses.size() + 32.0 * n.synapses_needed() +
         512;
}

// Synapse sites for a network: one fixed location, or random dendritic sites.
std::vector<ExpSynSpec> synapse_sites(const SectionedMorphology& m, int count, const json& site,
                                      double tau, double e, std::uint64_t seed, const Ctx& ctx) {
  std::vector<ExpSynSpec> out(count);
  if (site.is_string() && site.get<std::string>() == "random_dendrites") {
    std::vector<int> dend;
    for (int s = 0; s < m.size(); ++s)
      if (m.sections[s].swc_type != 1) dend.push_back(s);
    if (dend.empty()) dend.push_back(0);
    for (int k = 0; k < count; ++k) {
      const int s = dend[static_cast<std::size_t>(uniform01(seed, 7, 2 * k) * dend.size())];
      const int nseg = m.sections[s].nseg;
      const int j = static_cast<int>(uniform01(seed, 7, 2 * k + 1) * nseg);
      out[k].where = {s, (j + 0.5) / nseg};
    }
  } else {
    const Location l = location(site, ctx, "network.synapse_location");
    for (auto& x : out) x.where = l;
  }
  for (auto& x : out) {
    x.tau = tau;
    x.e = e;
  }
  return out;
}

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

}  // namespace

static SimConfig load_config_json(const std::string& path,
                                  const std::vector<std::string>& overrides);

SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  // Safety net: a JSON type or range error the checks below missed still leaves as an
  // InputError naming the file (exit 2), never as a raw library exception.
  try {
    return load_config_json(path, overrides);
  } catch (const json::exception& e) {
    throw InputError(std::string("config: ") + e.what(), path);
  }
}

static SimConfig load_config_json(const std::string& path,
                                  const std::vector<std::string>& overrides) {
  Ctx ctx{path};
  std::ifstream in(path);
  if (!in) throw InputError("cannot open config file", path);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
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
  SimConfig c;
  c.path = path;
  SimulationParameters& p = c.params;
  p.dt = ctx.num(root, "", "dt", p.dt);
  p.tstop = ctx.num(root, "", "tstop", p.tstop);
  p.v_init = ctx.num(root, "", "v_init", p.v_init);
  p.celsius = ctx.num(root, "", "celsius", p.celsius);
  p.ena = ctx.num(root, "", "ena", p.ena);
  p.ek = ctx.num(root, "", "ek", p.ek);
  if (!(p.dt > 0)) ctx.fail("dt", "must be > 0", root.value("dt", json()));
  if (!(p.tstop >= 0)) ctx.fail("tstop", "must be >= 0", root.value("tstop", json()));
  // Step count up front: tstop 1e20 or dt 1e-300 would overflow it (and nothing would run).
  if (!(p.tstop / p.dt <= kMaxSimulationSteps))
    ctx.fail("tstop",
             "over dt is " + format_value(p.tstop / p.dt) + " steps, more than the limit of " +
                 format_value(kMaxSimulationSteps) + " (dt " + format_value(p.dt) + " ms)",
             p.tstop);

  // --- network (first: the cells' synapse count depends on it)
  const json net = root.value("network", json{{"type", "single"}});
  ctx.only(net, "network",
           {"type", "cells", "ring_size", "weight", "weight_max", "delay", "tau", "e",
            "synapse_location", "extra_synapses", "kick", "seed", "synapses_per_cell", "stimulus"});
  NetworkSpec& n = c.network;
  const std::string type = ctx.str(net, "network.", "type", "single");
  if (type == "single")
    n.type = NetworkSpec::Single;
  else if (type == "ring")
    n.type = NetworkSpec::Ring;
  else if (type == "random")
    n.type = NetworkSpec::Random;
  else
    ctx.fail("network.type", "must be single, ring or random", net.at("type"));
  // Counts range-checked here, before anything is sized by them (the memory they imply is
  // checked once the cells are known: check_memory).
  n.cells = ctx.integer(net, "network.", "cells", 1, 1, kMaxCells);
  n.ring_size = static_cast<int>(ctx.integer(net, "network.", "ring_size", 10, 1));
  n.extra_synapses =
      static_cast<int>(ctx.integer(net, "network.", "extra_synapses", 0, 0, kMaxSynapsesPerCell));
  n.synapses_per_cell = static_cast<int>(
      ctx.integer(net, "network.", "synapses_per_cell", 500, 0, kMaxSynapsesPerCell));
  n.weight = ctx.num(net, "network.", "weight", 0.01);
  n.weight_max = ctx.num(net, "network.", "weight_max", -1);
  n.seed = static_cast<std::uint64_t>(
      ctx.integer(net, "network.", "seed", 1, 0, std::numeric_limits<std::int64_t>::max()));
  if (net.contains("delay")) {
    const json& d = net.at("delay");
    if (d.is_number()) {
      n.delay_min = n.delay_max = d.get<double>();
    } else if (d.is_array() && d.size() == 2 && d[0].is_number() && d[1].is_number()) {
      n.delay_min = d[0].get<double>();
      n.delay_max = d[1].get<double>();
    } else {
      ctx.fail("network.delay", "must be a number or [min, max]", d);
    }
    if (!(n.delay_min > 0 && n.delay_max >= n.delay_min))
      ctx.fail("network.delay", "must satisfy 0 < min <= max (ms)", d);
  }
  if (net.contains("kick")) {
    ctx.only(net.at("kick"), "network.kick", {"time", "weight", "cells"});
    n.kick_cells = ctx.integer(net.at("kick"), "network.kick.", "cells", 0, 0, kMaxCells);
    n.kick_time = ctx.num(net.at("kick"), "network.kick.", "time", n.kick_time);
    n.kick_weight = ctx.num(net.at("kick"), "network.kick.", "weight", n.kick_weight);
  }
  if (net.contains("stimulus")) {
    ctx.only(net.at("stimulus"), "network.stimulus", {"amp", "start_max"});
    n.stim_amp = ctx.num(net.at("stimulus"), "network.stimulus.", "amp", 0);
    n.stim_start_max = ctx.num(net.at("stimulus"), "network.stimulus.", "start_max", 10);
  }
  const double syn_tau = ctx.num(net, "network.", "tau", 2.0);
  const double syn_e = ctx.num(net, "network.", "e", 0.0);
  const json syn_site = net.value("synapse_location", json("random_dendrites"));

  // --- cells (templates)
  if (!root.contains("cell")) ctx.fail("cell", "is required", json());
  const json& cell = root.at("cell");
  ctx.only(cell, "cell",
           {"morphology", "nseg", "max_segment_length_um", "d_lambda", "Ra", "cm", "mechanisms",
            "iclamp", "detector"});
  std::vector<std::string> morphologies;
  if (!cell.contains("morphology")) ctx.fail("cell.morphology", "is required", json());
  const json& mj = cell.at("morphology");
  if (mj.is_string())
    morphologies.push_back(mj.get<std::string>());
  else if (mj.is_array() && !mj.empty())
    for (const json& x : mj) {
      if (!x.is_string()) ctx.fail("cell.morphology", "must hold strings", x);
      morphologies.push_back(x.get<std::string>());
    }
  else
    ctx.fail("cell.morphology", "must be a path, synthetic:<name>, or a list of them", mj);
  SectionOptions so;
  // NEURON's nseg limit, 32767; a too small max_segment_length_um or d_lambda is caught
  // per section.
  so.nseg_per_section = static_cast<int>(ctx.integer(cell, "cell.", "nseg", 0, 0, 32767));
  so.max_segment_length_um = ctx.num(cell, "cell.", "max_segment_length_um", 0, 0);
  so.d_lambda = ctx.num(cell, "cell.", "d_lambda", 0, 0);  // NEURON's rule at 100 Hz
  if (so.nseg_per_section == 0 && so.max_segment_length_um == 0 && so.d_lambda == 0)
    so.nseg_per_section = 1;
  const double Ra = ctx.num(cell, "cell.", "Ra", 35.4), cm = ctx.num(cell, "cell.", "cm", 1.0);
  so.Ra_ohm_cm = Ra;
  so.cm_uF_cm2 = cm;
  std::vector<DensityMechanism> density;
  for (const json& m : ctx.array(cell, "cell.", "mechanisms")) {
    const std::string key = "cell.mechanisms[]";
    if (!m.is_object()) ctx.fail(key, "must be an object", m);
    DensityMechanism d;
    const std::string name = ctx.str(m, key + ".", "name", "");
    try {
      d.region = parse_region(ctx.str(m, key + ".", "region", "all"));
    } catch (const InputError&) {
      ctx.fail(key + ".region", "must be soma, axon, dend or all", m.at("region"));
    }
    if (name == "pas") {
      ctx.only(m, key, {"name", "region", "g", "e"});
      d.kind = DensityMechanism::Pas;
      d.pas.g = ctx.num(m, key + ".", "g", d.pas.g);
      d.pas.e = ctx.num(m, key + ".", "e", d.pas.e);
    } else if (name == "hh") {
      ctx.only(m, key, {"name", "region", "gnabar", "gkbar", "gl", "el"});
      d.kind = DensityMechanism::HH;
      d.hh.gnabar = ctx.num(m, key + ".", "gnabar", d.hh.gnabar);
      d.hh.gkbar = ctx.num(m, key + ".", "gkbar", d.hh.gkbar);
      d.hh.gl = ctx.num(m, key + ".", "gl", d.hh.gl);
      d.hh.el = ctx.num(m, key + ".", "el", d.hh.el);
    } else {
      ctx.fail(key + ".name", "must be pas or hh", m.value("name", json()));
    }
    density.push_back(d);
  }
  std::vector<IClampSpec> iclamps;
  std::vector<KeyedLocation> locations;  // checked against every template below
  for (const json& s : ctx.array(cell, "cell.", "iclamp")) {
    ctx.only(s, "cell.iclamp[]", {"location", "del", "dur", "amp"});
    IClampSpec x;
    x.where = location(s.value("location", json::object()), ctx, "cell.iclamp[].location");
    locations.push_back({"cell.iclamp[].location", x.where});
    x.del = ctx.num(s, "cell.iclamp[].", "del", 0);
    x.dur = ctx.num(s, "cell.iclamp[].", "dur", 0);
    x.amp = ctx.num(s, "cell.iclamp[].", "amp", 0);
    iclamps.push_back(x);
  }
  DetectorSpec det;
  if (cell.contains("detector")) {
    const json& dj = cell.at("detector");
    ctx.only(dj, "cell.detector", {"location", "threshold"});
    det.present = true;
    det.where = location(dj.value("location", json::object()), ctx, "cell.detector.location");
    locations.push_back({"cell.detector.location", det.where});
    det.threshold = ctx.num(dj, "cell.detector.", "threshold", 10);
  } else if (n.type != NetworkSpec::Single) {
    det.present = true;  // networks need spikes: soma(0.5), NetCon's threshold
  }
  n.templates = static_cast<int>(morphologies.size());
  for (const std::string& raw : morphologies) {
    const std::string m = expand(raw, ctx, "cell.morphology");
    SectionedMorphology sm;
    try {
      if (m.rfind("synthetic:", 0) == 0)
        sm = synthetic_sections(m.substr(10), so);
      else
        sm = neuron_sections(read_swc(relative_to(path, m)), so);
    } catch (const InputError& e) {
      if (!e.file().empty() && e.file().rfind("synthetic:", 0) != 0) throw;
      throw InputError(std::string("cell.morphology '") + m + "': " + e.what(), path);
    }
    check_locations(locations, sm, ctx);
    if (!syn_site.is_string())
      check_locations(
          {{"network.synapse_location", location(syn_site, ctx, "network.synapse_location")}}, sm,
          ctx);
    auto syns = synapse_sites(sm, n.synapses_needed(), syn_site, syn_tau, syn_e, n.seed, ctx);
    c.templates.push_back(
        make_cell_template(std::move(sm), Ra, cm, density, iclamps, std::move(syns), det));
  }

  for (const json& r : ctx.array(root, "", "record")) {
    ctx.only(r, "record[]", {"gid", "location"});
    RecordSpec rs;
    rs.gid = ctx.integer(r, "record[].", "gid", 0, 0, kMaxCells);
    if (rs.gid >= n.cells)
      ctx.fail("record[].gid",
               "is not a cell of the network (network.cells = " + std::to_string(n.cells) + ")",
               r.value("gid", json(0)));
    rs.where = location(r.value("location", json::object()), ctx, "record[].location");
    check_locations({{"record[].location", rs.where}},
                    c.templates[n.template_of(rs.gid)].morphology, ctx);
    c.records.push_back(rs);
  }
  const json run = root.value("run", json::object());
  ctx.only(run, "run",
           {"overlap", "epoch_steps", "partition", "dry_run_ranks", "progress_every_s"});
  c.run.overlap = ctx.boolean(run, "run.", "overlap", true);
  c.run.epoch_steps = static_cast<int>(ctx.integer(run, "run.", "epoch_steps", 0, 0));
  c.run.progress_every_s = ctx.num(run, "run.", "progress_every_s", 5, 0);
  try {
    c.partition = parse_partition(ctx.str(run, "run.", "partition", "contiguous"));
  } catch (const InputError&) {
    ctx.fail("run.partition", "must be contiguous or balanced", run.at("partition"));
  }
  c.dry_run_ranks = static_cast<int>(ctx.integer(run, "run.", "dry_run_ranks", 0, 0, 1 << 20));
  const json out = root.value("output", json::object());
  ctx.only(out, "output", {"spikes", "traces", "metrics", "model"});
  c.outputs.spikes = relative_to(path, ctx.str(out, "output.", "spikes", ""));
  c.outputs.traces = relative_to(path, ctx.str(out, "output.", "traces", ""));
  c.outputs.metrics = relative_to(path, ctx.str(out, "output.", "metrics", ""));
  c.outputs.model = relative_to(path, ctx.str(out, "output.", "model", ""));
  try {
    n.validate();
  } catch (const InputError& e) {
    throw InputError(e.what(), path);
  }
  return c;
}

static double physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page > 0 ? double(pages) * double(page) : 0;
}

void check_memory(const SimConfig& c, int ranks, double available_bytes) {
  if (available_bytes <= 0) available_bytes = physical_memory_bytes();
  if (available_bytes <= 0) return;  // unknown: nothing to compare with
  const NetworkSpec& n = c.network;
  const double total_cells = double(n.cells) * std::max(1, c.dry_run_ranks);
  const double local_cells = c.dry_run_ranks > 1 ? double(n.cells) : total_cells / ranks;
  double per_cell = 0;
  for (const CellTemplate& t : c.templates) per_cell += bytes_per_cell(t, n);
  per_cell /= std::max<std::size_t>(1, c.templates.size());
  // Every rank lists every rank's gids (partition_gids); traces keep every step's row.
  const double steps = c.params.tstop / c.params.dt + 1;
  const double bytes =
      8 * total_cells + local_cells * per_cell + steps * (32 + 8.0 * c.records.size());
  if (bytes <= available_bytes) return;
  const bool by_steps = steps * (32 + 8.0 * c.records.size()) > bytes / 2;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "needs about %.3g GB of memory on each rank (%.6g cells of about %.3g kB each, "
                "%.6g steps of traces), more than the %.3g GB this machine has",
                bytes / 1e9, local_cells, per_cell / 1e3, steps, available_bytes / 1e9);
  if (by_steps)
    throw InputError(std::string("config key 'tstop': ") + buf, c.path, 0,
                     format_value(c.params.tstop));
  throw InputError(std::string("config key 'network.cells': ") + buf, c.path, 0,
                   std::to_string(n.cells));
}

void export_model(const SimConfig& c, const std::vector<std::int64_t>& gids,
                  const std::string& file) {
  json m;
  m["format"] = "hinesbatch-model-1";
  m["dt"] = c.params.dt;
  m["tstop"] = c.params.tstop;
  m["v_init"] = c.params.v_init;
  m["celsius"] = c.params.celsius;
  m["ena"] = c.params.ena;
  m["ek"] = c.params.ek;
  m["Ra"] = c.templates.at(0).Ra;
  m["cm"] = c.templates.at(0).cm;
  json morphs = json::array();
  for (const CellTemplate& t : c.templates) {
    json secs = json::array();
    for (int s = 0; s < t.morphology.size(); ++s) {
      const Section& sec = t.morphology.sections[s];
      json pts = json::array();
      for (const Pt3d& p : sec.pt3d) pts.push_back({p.x, p.y, p.z, p.diam});
      secs.push_back({{"id", s},
                      {"parent", sec.parent},
                      {"parent_x", sec.parent_x},
                      {"swc_type", sec.swc_type},
                      {"nseg", sec.nseg},
                      {"pt3d", pts}});
    }
    morphs.push_back({{"source", t.morphology.source}, {"sections", secs}});
  }
  m["morphologies"] = morphs;
  json cells = json::array(), conns = json::array(), events = json::array();
  for (std::int64_t gid : gids) {
    const int ti = c.network.template_of(gid);
    const CellTemplate& t = c.templates[ti];
    json dens = json::array();
    for (const DensityMechanism& d : t.density) {
      json e{{"sections", t.sections_of(d)}};
      if (d.kind == DensityMechanism::Pas) {
        e["mechanism"] = "pas";
        e["g"] = d.pas.g;
        e["e"] = d.pas.e;
      } else {
        e["mechanism"] = "hh";
        e["gnabar"] = d.hh.gnabar;
        e["gkbar"] = d.hh.gkbar;
        e["gl"] = d.hh.gl;
        e["el"] = d.hh.el;
      }
      dens.push_back(e);
    }
    json ic = json::array();
    std::vector<IClampSpec> stims = t.iclamps;
    for (const IClampSpec& x : c.network.stimulus(gid, t).iclamps) stims.push_back(x);
    for (const IClampSpec& x : stims)
      ic.push_back({{"section", x.where.section},
                    {"x", x.where.x},
                    {"del", x.del},
                    {"dur", x.dur},
                    {"amp", x.amp}});
    json syn = json::array();
    for (const ExpSynSpec& s : t.synapses)
      syn.push_back({{"section", s.where.section}, {"x", s.where.x}, {"tau", s.tau}, {"e", s.e}});
    json cj{
        {"gid", gid}, {"morphology", ti}, {"density", dens}, {"iclamps", ic}, {"synapses", syn}};
    cj["detector"] = t.detector.present ? json{{"section", t.detector.where.section},
                                               {"x", t.detector.where.x},
                                               {"threshold", t.detector.threshold}}
                                        : json();
    cells.push_back(cj);
    for (const Connection& k : c.network.incoming(gid))
      conns.push_back({{"src", k.source},
                       {"dst", gid},
                       {"syn", k.synapse},
                       {"weight", k.weight},
                       {"delay", k.delay}});
    for (const ExternalEvent& e : c.network.external_events(gid))
      events.push_back({{"dst", gid}, {"syn", e.synapse}, {"time", e.time}, {"weight", e.weight}});
  }
  m["cells"] = cells;
  m["connections"] = conns;
  m["events"] = events;
  json rec = json::array();
  for (const RecordSpec& r : c.records)
    rec.push_back({{"gid", r.gid}, {"section", r.where.section}, {"x", r.where.x}});
  m["record"] = rec;
  OutputFile o(file, "model file");
  o.write(m.dump(1) + "\n");
  o.commit();
}

}  // namespace hinesbatch::sim_tool
