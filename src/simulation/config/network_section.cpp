// "network": single, ring, random (drawn from a seed) or explicit (listed).
#include <algorithm>

#include "config_reader.hpp"

namespace hinesbatch::config_impl {

namespace {

// The lists of an explicit network, every entry checked and named by its index.
// The gids the "sources" list adds after the cells (its entries are checked later).
std::int64_t declared_sources(const json& root) {
  std::int64_t total = 0;
  if (!root.contains("sources") || !root.at("sources").is_array()) return 0;
  for (const json& s : root.at("sources")) {
    const json count = s.is_object() ? s.value("count", json(1)) : json(0);
    if (count.is_number_integer() && count.get<std::int64_t>() > 0 &&
        count.get<std::int64_t>() <= kMaxCells)
      total += count.get<std::int64_t>();
  }
  return std::min(total, kMaxCells);
}

void read_explicit_lists(const json& net, const Ctx& ctx, NetworkSpec& n, NetworkSection& out,
                         std::int64_t sources) {
  ExplicitNetwork& l = out.lists;
  l.cells = n.cells;
  const std::int64_t last_gid = n.cells - 1;
  auto entry = [&](const char* list, std::size_t i) {
    return std::string("network.") + list + "[" + std::to_string(i) + "]";
  };
  if (net.contains("templates")) {
    const json& t = net.at("templates");
    if (!t.is_array() || static_cast<std::int64_t>(t.size()) != n.cells)
      ctx.fail(
          "network.templates",
          "must list one template index per cell (network.cells = " + std::to_string(n.cells) + ")",
          t);
    l.templates.reserve(t.size());
    for (std::size_t i = 0; i < t.size(); ++i)
      l.templates.push_back(static_cast<int>(
          ctx.integer_value(t[i], entry("templates", i), 0, std::numeric_limits<int>::max())));
  }
  auto number = [&](const json& v, const std::string& key, const json& whole) {
    if (!v.is_number()) ctx.fail(key, "must hold numbers", whole);
    return v.get<double>();
  };
  // Reads the list network.<list> (an array, or absent) into `into`, entry by entry:
  // read(entry, key) with key naming the entry by its index.
  auto read_list = [&](const char* list, auto& into, auto read) {
    const json entries = ctx.array(net, "network.", list);
    into.reserve(entries.size());
    for (std::size_t i = 0; i < entries.size(); ++i)
      into.push_back(read(entries[i], entry(list, i)));
  };
  // An entry's synapse index; every cell then has at least that many synapses + 1.
  auto synapse = [&](const json& v, const std::string& key) {
    const int s =
        static_cast<int>(ctx.integer_value(v, key + ".synapse", 0, kMaxSynapsesPerCell - 1));
    out.synapses = std::max(out.synapses, s + 1);
    return s;
  };
  // An artificial cell has one input (NEURON's NetCon onto an ARTIFICIAL_CELL): synapse 0.
  auto artificial_synapse = [&](const json& v, const std::string& key) {
    return static_cast<int>(ctx.integer_value(v, key + ".synapse", 0, 0));
  };
  read_list("connections", l.connections, [&](const json& c, const std::string& key) {
    if (!c.is_array() || c.size() != 5)
      ctx.fail(key, "must be [source gid, target gid, synapse, weight, delay]", c);
    ExplicitConnection x;
    x.source = ctx.integer_value(c[0], key + ".source", 0, last_gid + sources);
    // A target past the cells is an artificial cell of "sources" (checked with them).
    x.target = ctx.integer_value(c[1], key + ".target", 0, last_gid + sources);
    x.synapse = x.target > last_gid ? artificial_synapse(c[2], key) : synapse(c[2], key);
    x.weight = number(c[3], key + ".weight", c);
    x.delay = number(c[4], key + ".delay", c);
    if (!(x.delay > 0)) ctx.fail(key + ".delay", "must be > 0 (ms)", c[4]);
    return x;
  });
  read_list("events", l.events, [&](const json& e, const std::string& key) {
    if (!e.is_array() || e.size() != 4) ctx.fail(key, "must be [gid, synapse, time, weight]", e);
    ExplicitEvent x;
    x.gid = ctx.integer_value(e[0], key + ".gid", 0, last_gid + sources);
    x.synapse = x.gid > last_gid ? artificial_synapse(e[1], key) : synapse(e[1], key);
    x.time = number(e[2], key + ".time", e);
    if (!(x.time >= 0)) ctx.fail(key + ".time", "must be >= 0 (ms)", e[2]);
    x.weight = number(e[3], key + ".weight", e);
    return x;
  });
  read_list("iclamps", l.iclamps, [&](const json& s, const std::string& key) {
    ctx.only(s, key, {"gid", "location", "del", "dur", "amp"});
    ExplicitIClamp x;
    x.gid = ctx.integer(s, key + ".", "gid", 0, 0, last_gid);
    x.clamp.where = location(s.value("location", json::object()), ctx, key + ".location");
    x.clamp.del = ctx.num(s, key + ".", "del", 0, 0);
    x.clamp.dur = ctx.num(s, key + ".", "dur", 0, 0);
    x.clamp.amp = ctx.num(s, key + ".", "amp", 0);
    return x;
  });
}

}  // namespace

SynapseMechanism read_synapse_mechanism(const json& v, const std::string& key, const Ctx& ctx,
                                        bool receives_events) {
  const MechanismCatalogue& cat = ctx.mechanisms();
  std::string points;
  for (const CatalogueMechanism& m : cat.mechanisms)
    if (m.point_process && !m.artificial_cell && (m.has_net_receive || !receives_events))
      points += (points.empty() ? "" : ", ") + m.name;
  if (points.empty()) points = "none";
  SynapseMechanism out;
  json parameters = json::object();
  std::string name_key = key;
  if (v.is_string()) {
    out.name = expand(v.get<std::string>(), ctx, key);
  } else if (v.is_object()) {
    ctx.only(v, key, {"name", "parameters"});
    name_key = key + ".name";
    if (!v.contains("name") || !v.at("name").is_string())
      ctx.fail(name_key,
               "is required: a point process of the catalogue '" + cat.name + "' (" + points + ")",
               v.value("name", json()));
    out.name = ctx.str(v, key + ".", "name", "");
    if (v.contains("parameters")) parameters = v.at("parameters");
    if (!parameters.is_object()) ctx.fail(key + ".parameters", "must be an object", parameters);
  } else {
    ctx.fail(key, "must be a point process's name or {\"name\": ..., \"parameters\": {...}}", v);
  }
  const json shown = v.is_object() ? v.at("name") : v;
  const int index = cat.index_of(out.name);
  if (index < 0)
    ctx.fail(name_key,
             "unknown point process: not in the catalogue '" + cat.name +
                 "' (its synapse point processes: " + points + ")",
             shown);
  const CatalogueMechanism& m = cat.mechanisms[index];
  if (m.artificial_cell)
    ctx.fail(name_key,
             "is an artificial cell (a spike source of its own: sources[].mechanism), not a "
             "synapse (" +
                 points + ")",
             shown);
  if (!m.point_process)
    ctx.fail(name_key,
             "is a density mechanism (cell.mechanisms inserts those): a synapse is a point "
             "process (" +
                 points + ")",
             shown);
  if (!m.has_net_receive && receives_events)
    ctx.fail(name_key,
             "has no NET_RECEIVE block: it cannot receive a connection's events (" + points + ")",
             shown);
  if (!m.ion_variables.empty())
    ctx.fail(name_key,
             "uses the ion " + m.ion_variables.front().ion +
                 ": point processes with ions do not run as synapses or on cells yet",
             shown);
  for (auto it = parameters.begin(); it != parameters.end(); ++it) {
    const std::string pkey = key + ".parameters." + it.key();
    const int var = m.variable_index(it.key());
    const bool global = m.global_index(it.key()) >= 0 && var < 0;
    if (!global && (var < 0 || m.variables[var].kind != CatalogueVariable::Parameter))
      ctx.fail(pkey,
               std::string(var < 0 ? "unknown parameter"
                                   : "not a parameter (a state or assigned variable)") +
                   " of " + m.name + " (its parameters: " + m.settable_names() + ")",
               it.value());
    MechanismParameter p{it.key(), {}};
    p.value.value = ctx.num(parameters, key + ".parameters.", it.key().c_str(), 0);
    out.parameters.push_back(p);
  }
  out.sends_self_events = m.receive_sends;
  return out;
}

NetworkSection read_network_section(const json& root, const Ctx& ctx, NetworkSpec& n) {
  const json net = root.value("network", json{{"type", "single"}});
  NetworkSection out;
  const std::string type = ctx.str(net, "network.", "type", "single");
  if (type == "explicit") {
    ctx.only(net, "network",
             {"type", "cells", "templates", "connections", "events", "iclamps", "tau", "e",
              "synapse", "synapse_location", "seed"});
    n.type = NetworkSpec::Explicit;
    out.is_explicit = true;
  } else {
    ctx.only(
        net, "network",
        {"type", "cells", "ring_size", "weight", "weight_max", "delay", "tau", "e", "synapse",
         "synapse_location", "extra_synapses", "kick", "seed", "synapses_per_cell", "stimulus"});
  }
  if (type == "single")
    n.type = NetworkSpec::Single;
  else if (type == "ring")
    n.type = NetworkSpec::Ring;
  else if (type == "random")
    n.type = NetworkSpec::Random;
  else if (type != "explicit")
    ctx.fail("network.type", "must be single, ring, random or explicit", net.at("type"));
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
  if (net.contains("weight_max") && !(n.weight_max >= n.weight))
    ctx.fail("network.weight_max",
             "must be >= network.weight = " + format_value(n.weight) +
                 " (weights are drawn from [weight, weight_max])",
             net.at("weight_max"));
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
    n.kick_time = ctx.num(net.at("kick"), "network.kick.", "time", n.kick_time, 0);
    n.kick_weight = ctx.num(net.at("kick"), "network.kick.", "weight", n.kick_weight);
  }
  if (net.contains("stimulus")) {
    ctx.only(net.at("stimulus"), "network.stimulus", {"amp", "start_max"});
    n.stim_amp = ctx.num(net.at("stimulus"), "network.stimulus.", "amp", 0);
    n.stim_start_max = ctx.num(net.at("stimulus"), "network.stimulus.", "start_max", 10, 0);
  }
  out.tau = ctx.num(net, "network.", "tau", 2.0);
  if (!(out.tau > 0))
    ctx.fail("network.tau", "must be > 0 (ms, the synapses' decay)", net.at("tau"));
  out.e = ctx.num(net, "network.", "e", 0.0, -kMaxAbsVoltage, kMaxAbsVoltage);
  if (net.contains("synapse")) {
    for (const char* k : {"tau", "e"})
      if (net.contains(k))
        ctx.fail(std::string("network.") + k,
                 "sets the built-in ExpSyn: give tau and e or a synapse point process "
                 "(network.synapse), not both",
                 net.at(k));
    out.synapse = read_synapse_mechanism(net.at("synapse"), "network.synapse", ctx);
  }
  out.site = net.value("synapse_location", json("random_dendrites"));
  if (out.is_explicit)
    read_explicit_lists(net, ctx, n, out,
                        declared_sources(root));  // out.synapses: the largest index used + 1
  else
    out.synapses = n.synapses_needed();
  return out;
}

void finish_explicit_network(const NetworkSection& net, const Ctx& ctx,
                             const std::vector<CellTemplate>& templates, NetworkSpec& n) {
  if (!net.is_explicit) return;
  ExplicitNetwork l = net.lists;
  if (l.cells != n.cells)
    ctx.fail("network.cells",
             "an explicit network with cells[] needs network.cells = the sum of their counts (" +
                 std::to_string(n.cells) + ")",
             json(l.cells));
  l.sources = n.num_sources();
  const int count = static_cast<int>(templates.size());
  // cells[] assign templates by blocks of gids: listed per gid for the explicit network.
  if (l.templates.empty() && !n.blocks.empty())
    for (std::int64_t gid = 0; gid < l.cells; ++gid) l.templates.push_back(n.template_of(gid));
  for (std::size_t i = 0; i < l.templates.size(); ++i)
    if (l.templates[i] >= count)
      ctx.fail("network.templates[" + std::to_string(i) + "]",
               "names template " + std::to_string(l.templates[i]) +
                   (n.blocks.empty() ? " but cell.morphology lists " : " but cells[] give ") +
                   std::to_string(count),
               l.templates[i]);
  for (std::size_t i = 0; i < l.iclamps.size(); ++i) {
    const std::int64_t gid = l.iclamps[i].gid;
    const int t = l.templates.empty() ? static_cast<int>(gid % count) : l.templates[gid];
    check_locations(
        {{"network.iclamps[" + std::to_string(i) + "].location", l.iclamps[i].clamp.where}},
        templates[t].morphology, ctx);
  }
  NetworkSpec built;
  try {
    built = make_explicit_network(l, templates);
  } catch (const InputError& e) {
    throw InputError(e.what(), ctx.file);
  }
  built.seed = n.seed;
  built.sources = std::move(n.sources);
  built.blocks = std::move(n.blocks);
  n = std::move(built);
}

}  // namespace hinesbatch::config_impl
