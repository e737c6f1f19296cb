// The sections about a run rather than the model: records, run options, outputs.
#include <algorithm>
#include <limits>
#include <vector>

#include "config_reader.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/mechanism_entry.hpp"

namespace hinesbatch::config_impl {

namespace {

// A record of an artificial cell: a variable of its mechanism, no location or synapse.
void read_artificial_record(const json& r, const Ctx& ctx, const SourceGroup& g, RecordSpec& rs) {
  for (const char* k : {"location", "synapse", "point_process"})
    if (r.contains(k))
      ctx.fail(std::string("record[].") + k,
               "is not given for an artificial cell (gid " + std::to_string(rs.gid) +
                   ", a variable of its mechanism " + g.mechanism + ")",
               r.at(k));
  const CatalogueMechanism& m = ctx.mechanisms().mechanisms[ctx.mechanisms().index_of(g.mechanism)];
  std::string names;
  for (const CatalogueVariable& v : m.variables) names += (names.empty() ? "" : ", ") + v.name;
  if (!r.contains("variable"))
    ctx.fail("record[].variable",
             "is required for an artificial cell (a variable of " + m.name + ": " + names + ")",
             json(nullptr));
  rs.variable = ctx.str(r, "record[].", "variable", "");
  if (m.variable_index(rs.variable) < 0)
    ctx.fail("record[].variable", "is not a variable of " + m.name + " (" + names + ")",
             r.at("variable"));
  rs.artificial = true;
}

}  // namespace

void read_records_section(const json& root, const Ctx& ctx, SimulationConfig& c) {
  const NetworkSpec& n = c.network;
  // The templates as the simulation runs them: pas and hh from the catalogue unless the
  // run asks for the built-ins (made once, for the first record).
  std::vector<CellTemplate> as_run;
  const auto template_as_run = [&](int k) -> const CellTemplate& {
    if (c.run.builtin_mechanisms) return c.templates[k];
    if (as_run.empty()) {
      as_run = c.templates;
      impl::builtins_from_catalogue(as_run, ctx.mechanisms());
    }
    return as_run[k];
  };
  for (const json& r : ctx.array(root, "", "record")) {
    ctx.only(r, "record[]", {"gid", "location", "synapse", "point_process", "variable"});
    RecordSpec rs;
    rs.gid = ctx.integer(r, "record[].", "gid", 0, 0, kMaxCells);
    if (const SourceGroup* g = n.source_group(rs.gid); g && g->type == SourceGroup::Artificial) {
      read_artificial_record(r, ctx, *g, rs);
      c.records.push_back(rs);
      continue;
    }
    if (rs.gid >= n.cells)
      ctx.fail("record[].gid",
               "is not a cell of the network (network.cells = " + std::to_string(n.cells) +
                   ") nor an artificial cell of its sources",
               r.value("gid", json(0)));
    const CellTemplate& t = template_as_run(n.template_of(rs.gid));
    impl::RecordedVariable resolved;
    std::string why;
    if (r.contains("synapse") || r.contains("point_process")) {
      // A variable of the cell's synapse of that index, or of the point process placed on it
      // (cell.point_processes[i]: the synapses after the connectable ones), by its point
      // process's own name.
      const std::string key = r.contains("synapse") ? "synapse" : "point_process";
      if (r.contains("synapse") && r.contains("point_process"))
        ctx.fail("record[].point_process", "is given with record[].synapse: give one of them",
                 r.at("point_process"));
      if (r.contains("location"))
        ctx.fail("record[].location",
                 "is not given with record[]." + key + " (its record is at the point process)",
                 r.at("location"));
      const int index = static_cast<int>(ctx.integer(r, "record[].", key.c_str(), 0, 0, kMaxCells));
      if (key == "synapse") {
        // Every synapse, the placed point processes after the connectable ones included.
        const int count = static_cast<int>(t.synapses.size());
        if (index >= count)
          ctx.fail("record[].synapse",
                   "is not a synapse of gid " + std::to_string(rs.gid) + " (it has " +
                       std::to_string(count) + ")",
                   r.at("synapse"));
        rs.synapse = index;
      } else {
        if (index >= t.point_processes)
          ctx.fail("record[].point_process",
                   "is not a point process placed on gid " + std::to_string(rs.gid) +
                       " (cell.point_processes gives it " + std::to_string(t.point_processes) + ")",
                   r.at("point_process"));
        rs.synapse = t.connectable_synapses() + index;
      }
      rs.where = t.synapses[rs.synapse].where;
      if (!r.contains("variable"))
        ctx.fail("record[].variable",
                 "is required with record[]." + key + " (as \"g\" of ExpSyn, \"i\" of IClamp)",
                 json(nullptr));
      rs.variable = ctx.str(r, "record[].", "variable", "");
      if (!impl::resolve_synapse_variable(t, ctx.mechanisms(), rs.synapse, rs.variable, resolved,
                                          why))
        ctx.fail("record[].variable", why, r.at("variable"));
      c.records.push_back(rs);
      continue;
    }
    rs.where = location(r.value("location", json::object()), ctx, "record[].location");
    check_locations({{"record[].location", rs.where}}, t.morphology, ctx);
    // v, an ion value or <variable>_<mechanism> of a generated mechanism at the location.
    rs.variable = ctx.str(r, "record[].", "variable", "v");
    if (!impl::resolve_recorded_variable(t, ctx.mechanisms(), rs.where, rs.variable, resolved, why))
      ctx.fail("record[].variable", why, r.at("variable"));
    c.records.push_back(rs);
  }
}

namespace {

std::string joined_choices(const std::vector<std::string>& choices) {
  std::string out;
  for (std::size_t i = 0; i < choices.size(); ++i)
    out += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
  return out;
}

// One key of the run section, checked by its type and range (the default when absent).
void read_run_key(const json& run, const Ctx& ctx, const RunKey& k, SimulationConfig& c) {
  json one = json::object();
  one[k.name] = run.contains(k.name) ? run.at(k.name) : json::parse(k.default_json);
  const char* name = k.name.c_str();
  switch (k.type) {
    case RunKey::Boolean:
      k.apply(c, ctx.boolean(one, "run.", name, false) ? 1 : 0, {});
      break;
    case RunKey::Integer:
      k.apply(c,
              static_cast<double>(ctx.integer(one, "run.", name, 0, static_cast<std::int64_t>(k.lo),
                                              static_cast<std::int64_t>(k.hi))),
              {});
      break;
    case RunKey::Number:
      k.apply(c, ctx.num(one, "run.", name, 0, k.lo, k.hi), {});
      break;
    case RunKey::Choice: {
      const std::string v = ctx.str(one, "run.", name, "");
      if (std::find(k.choices.begin(), k.choices.end(), v) == k.choices.end())
        ctx.fail("run." + k.name, "must be " + joined_choices(k.choices), one.at(k.name));
      k.apply(c, 0, v);
      break;
    }
  }
}

}  // namespace

void read_run_section(const json& root, const Ctx& ctx, SimulationConfig& c) {
  const json run = root.value("run", json::object());
  std::set<std::string> names;
  for (const RunKey& k : run_keys()) names.insert(k.name);
  ctx.only(run, "run", names);
  for (const RunKey& k : run_keys()) read_run_key(run, ctx, k, c);
}

void read_outputs_section(const json& root, const Ctx& ctx, SimulationOutputs& o) {
  const json out = root.value("output", json::object());
  ctx.only(out, "output",
           {"spikes", "traces", "metrics", "model", "spikes_sonata", "sonata_population"});
  o.spikes = ctx.resolve(ctx.str(out, "output.", "spikes", ""));
  o.traces = ctx.resolve(ctx.str(out, "output.", "traces", ""));
  o.metrics = ctx.resolve(ctx.str(out, "output.", "metrics", ""));
  o.model = ctx.resolve(ctx.str(out, "output.", "model", ""));
  o.spikes_sonata = ctx.resolve(ctx.str(out, "output.", "spikes_sonata", ""));
  o.sonata_population = ctx.str(out, "output.", "sonata_population", o.sonata_population);
  // An HDF5 group name: not empty, no '/' (it would make nested groups), not "." or "..".
  const std::string& p = o.sonata_population;
  if (p.empty() || p.find('/') != std::string::npos || p == "." || p == "..")
    ctx.fail("output.sonata_population", "must be a non-empty name without '/'", json(p));
}

}  // namespace hinesbatch::config_impl

namespace hinesbatch {

const std::vector<RunKey>& run_keys() {
  using C = SimulationConfig;
  using S = std::string;
  constexpr double kAny = std::numeric_limits<double>::max();
  constexpr double kInt = std::numeric_limits<int>::max();
  // The read order (the first bad key is the one named).
  // clang-format off
  static const std::vector<RunKey> keys = {
      {"overlap", RunKey::Boolean, "false", 0, 0, {}, "--overlap",
       "overlap the spike exchange with computation",
       [](C& c, double x, const S&) { c.run.overlap = x != 0; }},
      {"epoch_steps", RunKey::Integer, "0", 0, kInt, {}, "", "",
       [](C& c, double x, const S&) { c.run.epoch_steps = static_cast<int>(x); }},
      {"progress_every_s", RunKey::Number, "5", 0, kAny, {}, "", "",
       [](C& c, double x, const S&) { c.run.progress_every_s = x; }},
      {"partition", RunKey::Choice, "\"contiguous\"", 0, 0, {"contiguous", "balanced"}, "", "",
       [](C& c, double, const S& v) { c.partition = parse_partition(v); }},
      {"dry_run_ranks", RunKey::Integer, "0", 0, 1 << 20, {}, "--dry-run-ranks",
       "emulate P ranks of the config's network in one process",
       [](C& c, double x, const S&) { c.dry_run_ranks = static_cast<int>(x); }},
      {"host_schedule", RunKey::Choice, "\"tiles\"", 0, 0, {"tiles", "cells"}, "--host-schedule",
       "how a host backend steps its cells: tiles or cells",
       [](C& c, double, const S& v) { c.run.host_schedule = parse_host_schedule(v); }},
      {"on_chip", RunKey::Choice, "\"auto\"", 0, 0, {"auto", "on", "off"}, "--on-chip",
       "a team per cell runs each epoch: auto, on or off",
       [](C& c, double, const S& v) { c.run.on_chip = parse_on_chip_steps(v); }},
      {"on_chip_kind", RunKey::Choice, "\"auto\"", 0, 0,
       {"auto", "warp_per_cell", "team_per_cell", "team_in_memory"}, "", "",
       [](C& c, double, const S& v) { c.run.on_chip_force.kind = parse_on_chip_kind(v); }},
      {"on_chip_lanes", RunKey::Integer, "0", 0, 1024, {}, "", "",
       [](C& c, double x, const S&) { c.run.on_chip_force.lanes = static_cast<int>(x); }},
      {"on_chip_split_spines", RunKey::Choice, "\"auto\"", 0, 0, {"auto", "on", "off"}, "", "",
       [](C& c, double, const S& v) {
         c.run.on_chip_force.split_spines = v == "auto" ? -1 : v == "on" ? 1 : 0;
       }},
      {"mechanisms", RunKey::Choice, "\"catalogue\"", 0, 0, {"catalogue", "builtin"},
       "--mechanisms",
       "pas, hh and ExpSyn from the catalogue (.mod files) or the hand-written builtin ones",
       [](C& c, double, const S& v) { c.run.builtin_mechanisms = v == "builtin"; }},
      {"self_events_per_synapse", RunKey::Integer, "8", 1, 1024, {}, "", "",
       [](C& c, double x, const S&) { c.params.self_events_per_synapse = static_cast<int>(x); }},
  };
  // clang-format on
  return keys;
}

std::string run_key_override(const RunKey& key, const std::string& value) {
  return "run." + key.name + "=" +
         (key.type == RunKey::Choice ? config_impl::dump_value(config_impl::json(value)) : value);
}

}  // namespace hinesbatch
