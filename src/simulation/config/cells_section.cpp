// "cell" or "cells": the cell templates (morphologies, discretisation, mechanisms, stimuli,
// the spike detector), "sources" and the synapses the network section and the sources ask for.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "config_reader.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/simulation/impl/mechanism_entry.hpp"

namespace hinesbatch::config_impl {

namespace {

// Synapse sites for a network: one fixed location, or random dendritic sites.
// stream: which draws of the seed (the network's synapses 7, each source group its own).
std::vector<ExpSynSpec> synapse_sites(const SectionedMorphology& m, int count, const json& site,
                                      double tau, double e, const SynapseMechanism& mechanism,
                                      std::uint64_t seed, const Ctx& ctx,
                                      std::uint64_t stream = 7) {
  std::vector<ExpSynSpec> out(count);
  if (site.is_string() && site.get<std::string>() == "random_dendrites") {
    std::vector<int> dend;
    for (int s = 0; s < m.size(); ++s)
      if (m.sections[s].swc_type != 1) dend.push_back(s);
    if (dend.empty()) dend.push_back(0);
    for (int k = 0; k < count; ++k) {
      const int s = dend[static_cast<std::size_t>(uniform01(seed, stream, 2 * k) * dend.size())];
      const int nseg = m.sections[s].nseg;
      const int j = static_cast<int>(uniform01(seed, stream, 2 * k + 1) * nseg);
      out[k].where = {s, (j + 0.5) / nseg};
    }
  } else {
    const Location l = location(site, ctx, "network.synapse_location");
    for (auto& x : out) x.where = l;
  }
  for (auto& x : out) {
    x.tau = tau;
    x.e = e;
    x.mechanism = mechanism;
  }
  return out;
}

// A parameter of a generated mechanism as a function of the path distance from the soma
// (ParameterValue, mechanisms.hpp): {"distance": "linear" | "exp" | "sigmoid" | "window",
// the kind's coefficients, "scale", "normalize", "from": "soma"}.
ParameterValue distance_function(const json& v, const std::string& key, const Ctx& ctx) {
  ParameterValue p;
  const std::string kind = ctx.str(v, key + ".", "distance", "");
  const std::string k = key + ".";
  if (kind == "linear") {
    ctx.only(v, key, {"distance", "a", "b", "scale", "normalize", "from"});
    p.kind = ParameterValue::Linear;
  } else if (kind == "exp") {
    ctx.only(v, key, {"distance", "a", "b", "c", "x0", "scale", "normalize", "from"});
    p.kind = ParameterValue::Exp;
  } else if (kind == "sigmoid") {
    ctx.only(v, key, {"distance", "a", "b", "c", "x0", "scale", "normalize", "from"});
    p.kind = ParameterValue::Sigmoid;
  } else if (kind == "window") {
    ctx.only(v, key, {"distance", "x0", "x1", "inside", "outside", "scale", "normalize", "from"});
    p.kind = ParameterValue::Window;
  } else {
    ctx.fail(k + "distance", "must be linear, exp, sigmoid or window", v.value("distance", json()));
  }
  p.a = ctx.num(v, k, "a", 0);
  p.b = ctx.num(v, k, "b", 0);
  p.c = ctx.num(v, k, "c", 0);
  p.x0 = ctx.num(v, k, "x0", 0);
  p.x1 = ctx.num(v, k, "x1", 0);
  p.inside = ctx.num(v, k, "inside", 1);
  p.outside = ctx.num(v, k, "outside", 0);
  p.scale = ctx.num(v, k, "scale", 1);
  p.normalize = ctx.boolean(v, k, "normalize", false);
  if (ctx.str(v, k, "from", "soma") != "soma")
    ctx.fail(k + "from", "must be soma (the middle of the root section)", v.at("from"));
  if (p.kind == ParameterValue::Sigmoid && p.b == 0)
    ctx.fail(k + "b", "must not be 0 (the sigmoid's width)", v.value("b", json()));
  if (p.kind == ParameterValue::Window && !(p.x1 > p.x0))
    ctx.fail(k + "x1", "must be larger than x0", v.value("x1", json()));
  return p;
}

// A cell.mechanisms entry that names a mechanism of the catalogue: {"name", "region",
// "parameters": {name: number | distance function}}. The mechanism and the parameters' names
// and kinds are checked by the shared schema (mechanism_entry.hpp), then the values read.
GeneratedMechanism generated_mechanism(const json& m, const std::string& key, const Ctx& ctx) {
  ctx.only(m, key, {"name", "region", "parameters"});
  GeneratedMechanism g;
  g.name = ctx.str(m, key + ".", "name", "");
  const json ps = m.value("parameters", json::object());
  if (ps.is_object())
    for (auto it = ps.begin(); it != ps.end(); ++it) {
      MechanismParameter p{it.key(), {}};
      if (it.value().is_object()) p.value.kind = ParameterValue::Linear;  // a distance function
      g.parameters.push_back(p);
    }
  if (const impl::MechanismEntryProblem problem =
          impl::mechanism_entry_problem(g, ctx.mechanisms())) {
    if (problem.part == impl::MechanismEntryProblem::Name)
      ctx.fail(key + ".name", problem.why, m.value("name", json()));
    const std::string& name = g.parameters[static_cast<std::size_t>(problem.parameter)].name;
    ctx.fail(key + ".parameters." + name, problem.why, ps.at(name));
  }
  if (!ps.is_object()) ctx.fail(key + ".parameters", "must be an object", ps);
  const MechanismCatalogue& cat = ctx.mechanisms();
  const CatalogueMechanism& mech = cat.mechanisms[cat.index_of(g.name)];
  for (MechanismParameter& p : g.parameters) {
    const std::string pkey = key + ".parameters." + p.name;
    const json& v = ps.at(p.name);
    if (v.is_number())
      p.value.value = ctx.num(ps, key + ".parameters.", p.name.c_str(), 0);
    else if (v.is_object())
      p.value = distance_function(v, pkey, ctx);
    else
      ctx.fail(pkey,
               impl::is_global_parameter(mech, p.name)
                   ? "must be a number (a GLOBAL is one value)"
                   : "must be a number or a distance function {\"distance\": \"linear\" | "
                     "\"exp\" | \"sigmoid\" | \"window\", ...}",
               v);
  }
  return g;
}

// cell.ions: {"ca": {"cai0": mM, "cao0": mM, "e": mV}, ...} for ions the catalogue uses.
std::vector<IonSpec> ion_specs(const json& cell, const Ctx& ctx, const std::string& cell_key) {
  std::vector<IonSpec> out;
  if (!cell.contains("ions")) return out;
  const json& ions = cell.at("ions");
  if (!ions.is_object()) ctx.fail(cell_key + ".ions", "must be an object", ions);
  const MechanismCatalogue& cat = ctx.mechanisms();
  for (auto it = ions.begin(); it != ions.end(); ++it) {
    const std::string& name = it.key();
    const std::string key = cell_key + ".ions." + name;
    if (cat.ion_index(name) < 0) {
      std::string known;
      for (const CatalogueIon& i : cat.ions) known += (known.empty() ? "" : ", ") + i.name;
      ctx.fail(
          key,
          "unknown ion: no mechanism of the catalogue '" + cat.name + "' uses it (" + known + ")",
          it.value());
    }
    const std::string ci = name + "i0", co = name + "o0";
    ctx.only(it.value(), key, {ci, co, "e"});
    IonSpec x;
    x.name = name;
    const double tiny = std::numeric_limits<double>::min();
    if (it.value().contains(ci)) x.ci0 = ctx.num(it.value(), key + ".", ci.c_str(), 0, tiny);
    if (it.value().contains(co)) x.co0 = ctx.num(it.value(), key + ".", co.c_str(), 0, tiny);
    if (it.value().contains("e"))
      x.e = ctx.num(it.value(), key + ".", "e", 0, -kMaxAbsVoltage, kMaxAbsVoltage);
    out.push_back(x);
  }
  return out;
}

}  // namespace

namespace {

// What a "cell" object says besides its morphologies, read once and applied to each.
struct CellParts {
  SwcOptions swc_options;
  SectionOptions so;
  double Ra = 35.4, cm = 1.0;
  std::vector<DensityMechanism> density;  // the built-ins
  std::vector<GeneratedMechanism> generated;
  std::vector<IonSpec> ions;
  // cell.section_lists by name: sections by index (Import3d's order), sorted.
  std::map<std::string, std::vector<int>> section_lists;
  // cell.cm and cell.Ra given by region (after cm and Ra on every section).
  std::vector<RegionValue> cm_by_region, Ra_by_region;
  // Every cell.mechanisms entry's region, as read and as given, for the check against each
  // template.
  std::vector<RegionValue> regions;
  std::vector<std::string> region_names;
  std::vector<IClampSpec> iclamps;
  std::vector<ExpSynSpec> point_processes;  // cell.point_processes: after every synapse
  DetectorSpec det;
  std::vector<KeyedLocation> locations;  // checked against every template
};

// cell.section_lists: {"NAME": [section index, ...]}, each a region by that name.
void read_section_lists(const json& cell, const Ctx& ctx, const std::string& cell_key,
                        CellParts& p) {
  if (!cell.contains("section_lists")) return;
  const std::string key = cell_key + ".section_lists";
  const json& lists = cell.at("section_lists");
  if (!lists.is_object())
    ctx.fail(key, "must be an object {\"name\": [section index, ...], ...}", lists);
  for (auto it = lists.begin(); it != lists.end(); ++it) {
    const std::string k = key + "." + shown_key(it.key());
    bool builtin = true;
    try {
      parse_region(it.key());
    } catch (const InputError&) {
      builtin = false;
    }
    if (builtin || it.key().empty())
      ctx.fail(k, "names a section list as a region is named (soma, axon, dend, apic, basal, all)",
               json(it.key()));
    const json& v = it.value();
    if (!v.is_array() || v.empty())
      ctx.fail(k, "must be a non-empty list of section indices (Import3d's order)", v);
    std::vector<int> sections;
    for (const json& x : v) {
      if (!x.is_number_integer() || x.get<std::int64_t>() < 0 ||
          x.get<std::int64_t>() > std::numeric_limits<int>::max())
        ctx.fail(k, "must list section indices (integers >= 0)", x);
      sections.push_back(static_cast<int>(x.get<std::int64_t>()));
    }
    std::sort(sections.begin(), sections.end());
    const auto twice = std::adjacent_find(sections.begin(), sections.end());
    if (twice != sections.end()) ctx.fail(k, "lists a section twice", json(*twice));
    p.section_lists[it.key()] = std::move(sections);
  }
}

// An entry's "region": soma, axon, dend, apic, basal, all or a name of cell.section_lists.
RegionValue region_of(const json& entry, const std::string& key, const Ctx& ctx,
                      const CellParts& p) {
  RegionValue r;
  const std::string name = ctx.str(entry, key + ".", "region", "all");
  const auto listed = p.section_lists.find(name);
  if (listed != p.section_lists.end()) {
    r.region = Region::Listed;
    r.listed = listed->second;
    return r;
  }
  try {
    r.region = parse_region(name);
  } catch (const InputError&) {
    std::string lists;
    for (const auto& l : p.section_lists) lists += (lists.empty() ? "" : ", ") + shown_key(l.first);
    ctx.fail(key + ".region",
             "must be soma, axon, dend, apic, basal, all or a section list of section_lists (" +
                 (lists.empty() ? std::string("none given") : lists) + ")",
             entry.at("region"));
  }
  return r;
}

// cell.cm or cell.Ra: a number for every section, or [{"region", "value"}, ...] applied in
// order over NEURON's default (`def`) on every section.
double membrane_value(const json& cell, const Ctx& ctx, const std::string& cell_key,
                      const char* name, double def, const char* unit, const CellParts& p,
                      std::vector<RegionValue>& by_region) {
  const std::string key = cell_key + "." + name;
  if (!cell.contains(name) || !cell.at(name).is_array()) {
    const double x = ctx.num(cell, cell_key + ".", name, def);
    if (!(x > 0)) ctx.fail(key, std::string("must be > 0 (") + unit + ")", json(x));
    return x;
  }
  const json& entries = cell.at(name);
  if (entries.empty())
    ctx.fail(key, "must be a number or a non-empty list of {\"region\", \"value\"}", entries);
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string k = key + "[" + std::to_string(i) + "]";
    ctx.only(entries[i], k, {"region", "value"});
    if (!entries[i].contains("value")) ctx.fail(k + ".value", "is required", json());
    RegionValue r = region_of(entries[i], k, ctx, p);
    r.value = ctx.num(entries[i], k + ".", "value", 0);
    if (!(r.value > 0))
      ctx.fail(k + ".value", std::string("must be > 0 (") + unit + ")", json(r.value));
    by_region.push_back(std::move(r));
  }
  return def;
}

CellParts read_cell_parts(const json& cell, const Ctx& ctx, bool detector_by_default,
                          const std::string& cell_key = "cell") {
  CellParts p;
  p.swc_options.keep_largest_component =
      ctx.boolean(cell, cell_key + ".", "keep_largest_component", false);
  SectionOptions& so = p.so;
  // NEURON's nseg limit, 32767; a too small max_segment_length_um or d_lambda is caught
  // per section.
  so.nseg_per_section = static_cast<int>(ctx.integer(cell, cell_key + ".", "nseg", 0, 0, 32767));
  so.max_segment_length_um = ctx.num(cell, cell_key + ".", "max_segment_length_um", 0, 0);
  so.d_lambda = ctx.num(cell, cell_key + ".", "d_lambda", 0, 0);  // NEURON's rule at 100 Hz
  if (so.nseg_per_section == 0 && so.max_segment_length_um == 0 && so.d_lambda == 0)
    so.nseg_per_section = 1;
  read_section_lists(cell, ctx, cell_key, p);
  p.Ra = membrane_value(cell, ctx, cell_key, "Ra", 35.4, "ohm cm", p, p.Ra_by_region);
  p.cm = membrane_value(cell, ctx, cell_key, "cm", 1.0, "uF/cm2", p, p.cm_by_region);
  so.Ra_ohm_cm = p.Ra;
  so.cm_uF_cm2 = p.cm;
  const json mechanisms = ctx.array(cell, cell_key + ".", "mechanisms");
  for (std::size_t index = 0; index < mechanisms.size(); ++index) {
    const json& m = mechanisms[index];
    const std::string key = cell_key + ".mechanisms[]";
    if (!m.is_object()) ctx.fail(key, "must be an object", m);
    DensityMechanism d;
    const std::string name = ctx.str(m, key + ".", "name", "");
    const RegionValue where = region_of(m, key, ctx, p);
    d.region = where.region;
    d.listed = where.listed;
    p.regions.push_back(where);
    p.region_names.push_back(ctx.str(m, key + ".", "region", "all"));
    // The built-ins take their parameters as keys; an entry with "parameters", or naming
    // another mechanism, is the catalogue's generated one.
    if ((name != "pas" && name != "hh") || m.contains("parameters")) {
      p.generated.push_back(
          generated_mechanism(m, cell_key + ".mechanisms[" + std::to_string(index) + "]", ctx));
      p.generated.back().region = d.region;
      p.generated.back().listed = d.listed;
      continue;
    }
    if (name == "pas") {
      ctx.only(m, key, {"name", "region", "g", "e"});
      d.kind = DensityMechanism::Pas;
      d.pas.g = ctx.num(m, key + ".", "g", d.pas.g, 0);
      d.pas.e = ctx.num(m, key + ".", "e", d.pas.e, -kMaxAbsVoltage, kMaxAbsVoltage);
    } else if (name == "hh") {
      ctx.only(m, key, {"name", "region", "gnabar", "gkbar", "gl", "el"});
      d.kind = DensityMechanism::HH;
      d.hh.gnabar = ctx.num(m, key + ".", "gnabar", d.hh.gnabar, 0);
      d.hh.gkbar = ctx.num(m, key + ".", "gkbar", d.hh.gkbar, 0);
      d.hh.gl = ctx.num(m, key + ".", "gl", d.hh.gl, 0);
      d.hh.el = ctx.num(m, key + ".", "el", d.hh.el, -kMaxAbsVoltage, kMaxAbsVoltage);
    }
    p.density.push_back(d);
  }
  p.ions = ion_specs(cell, ctx, cell_key);
  for (const json& s : ctx.array(cell, cell_key + ".", "iclamp")) {
    ctx.only(s, cell_key + ".iclamp[]", {"location", "del", "dur", "amp"});
    IClampSpec x;
    x.where = location(s.value("location", json::object()), ctx, cell_key + ".iclamp[].location");
    p.locations.push_back({cell_key + ".iclamp[].location", x.where});
    x.del = ctx.num(s, cell_key + ".iclamp[].", "del", 0, 0);
    x.dur = ctx.num(s, cell_key + ".iclamp[].", "dur", 0, 0);
    x.amp = ctx.num(s, cell_key + ".iclamp[].", "amp", 0);
    p.iclamps.push_back(x);
  }
  // Point processes placed on the cell (NEURON's h.SEClamp(sec(x)) and the like): any point
  // process of the catalogue without ions, NET_RECEIVE or not; no connection reaches them.
  for (const json& s : ctx.array(cell, cell_key + ".", "point_processes")) {
    const std::string k = cell_key + ".point_processes[]";
    ctx.only(s, k, {"name", "location", "parameters"});
    ExpSynSpec x;
    x.where = location(s.value("location", json::object()), ctx, k + ".location");
    p.locations.push_back({k + ".location", x.where});
    json spec = s;
    spec.erase("location");
    x.mechanism = read_synapse_mechanism(spec, k, ctx, false);
    p.point_processes.push_back(x);
  }
  if (cell.contains("detector")) {
    const json& dj = cell.at("detector");
    ctx.only(dj, cell_key + ".detector", {"location", "threshold"});
    p.det.present = true;
    p.det.where =
        location(dj.value("location", json::object()), ctx, cell_key + ".detector.location");
    p.locations.push_back({cell_key + ".detector.location", p.det.where});
    p.det.threshold =
        ctx.num(dj, cell_key + ".detector.", "threshold", 10, -kMaxAbsVoltage, kMaxAbsVoltage);
  } else if (detector_by_default) {
    p.det.present = true;  // networks need spikes: soma(0.5), NetCon's threshold
  }
  return p;
}

// The sections of one morphology (a path, or synthetic:<name>).
SectionedMorphology build_sections(const std::string& raw, const CellParts& p, const Ctx& ctx,
                                   const std::string& cell_key = "cell") {
  const std::string m = expand(raw, ctx, cell_key + ".morphology");
  try {
    if (m.rfind("synthetic:", 0) == 0) return synthetic_sections(m.substr(10), p.so);
    return neuron_sections(read_swc(ctx.resolve(m), p.swc_options), p.so);
  } catch (const InputError& e) {
    if (!e.file().empty() && e.file().rfind("synthetic:", 0) != 0) throw;
    throw InputError(cell_key + ".morphology '" + shown_key(m) + "': " + e.what(), ctx.file);
  }
}

// A mechanism whose region matches no section of this cell would insert nothing; every
// location and listed section must name one of its sections. Then NEURON's d_lambda rule
// again with each section's own cm and Ra, where they differ by region.
void check_cell(const CellParts& p, SectionedMorphology& sm, const Ctx& ctx,
                const std::string& cell_key = "cell") {
  for (const auto& l : p.section_lists)
    if (l.second.back() >= sm.size())
      ctx.fail(cell_key + ".section_lists." + shown_key(l.first),
               "names section " + std::to_string(l.second.back()) + ", but " +
                   shown_key(sm.source) + " has " + std::to_string(sm.size()) + " sections",
               json(l.second.back()));
  if (p.so.d_lambda > 0 && (!p.cm_by_region.empty() || !p.Ra_by_region.empty())) {
    const std::vector<double> cm = values_by_region(sm, p.cm, p.cm_by_region);
    const std::vector<double> Ra = values_by_region(sm, p.Ra, p.Ra_by_region);
    // Synthetic cells keep their own nseg (synthetic_sections takes no d_lambda).
    const bool synthetic = sm.source.rfind("synthetic:", 0) == 0;
    for (int s = 0; s < sm.size() && !synthetic; ++s) {
      SectionOptions o = p.so;
      o.cm_uF_cm2 = cm[static_cast<std::size_t>(s)];
      o.Ra_ohm_cm = Ra[static_cast<std::size_t>(s)];
      try {
        sm.sections[s].nseg = nseg_for(sm.sections[s], o);
      } catch (const InputError& e) {
        throw InputError(e.what(), sm.source, sm.sections[s].first_swc_line, e.value());
      }
    }
  }
  for (std::size_t k = 0; k < p.regions.size(); ++k) {
    bool any = p.regions[k].region == Region::Listed;
    for (int sec = 0; sec < sm.size() && !any; ++sec)
      any = in_region(p.regions[k].region, sm.sections[sec].swc_type);
    if (!any)
      ctx.fail(cell_key + ".mechanisms[" + std::to_string(k) + "].region",
               "matches no section of " + shown_key(sm.source) +
                   " (it has no section of that SWC type): the mechanism would be inserted "
                   "nowhere",
               json(p.region_names[k]));
  }
  check_locations(p.locations, sm, ctx);
}

}  // namespace

namespace {

// One entry of "cells" (or the "cell" object): its key in messages, its cells.
struct BlockJson {
  std::string name, key;
  const json* cell;
  std::int64_t count = 0;
  double fraction = -1;  // given instead of count
};

// "cells": [{"name", "count" | "fraction", <what "cell" takes>}, ...]: the blocks, their
// counts resolved against network.cells (given: the counts must sum to it; absent: their sum).
std::vector<BlockJson> read_blocks(const json& root, const Ctx& ctx, NetworkSpec& n) {
  const json& list = root.at("cells");
  if (!list.is_array() || list.empty())
    ctx.fail("cells", "must be a non-empty list of cell templates", list);
  if (static_cast<std::int64_t>(list.size()) > kMaxTemplates)
    ctx.fail("cells", "lists more than " + std::to_string(kMaxTemplates) + " templates",
             json(list.size()));
  std::vector<BlockJson> blocks;
  std::set<std::string> names;
  bool counts = false, fractions = false;
  for (std::size_t i = 0; i < list.size(); ++i) {
    BlockJson b;
    b.key = "cells[" + std::to_string(i) + "]";
    b.cell = &list[i];
    if (!list[i].is_object()) ctx.fail(b.key, "must be an object", list[i]);
    if (!list[i].contains("name")) ctx.fail(b.key + ".name", "is required", json());
    b.name = ctx.str(list[i], b.key + ".", "name", "");
    if (b.name.empty()) ctx.fail(b.key + ".name", "must not be empty", list[i].at("name"));
    if (!names.insert(b.name).second)
      ctx.fail(b.key + ".name", "names another entry of cells too", list[i].at("name"));
    const bool has_count = list[i].contains("count"), has_fraction = list[i].contains("fraction");
    if (has_count == has_fraction)
      ctx.fail(b.key + (has_count ? ".fraction" : ".count"),
               "give exactly one of count and fraction", list[i].value("fraction", json()));
    if (has_count) b.count = ctx.integer(list[i], b.key + ".", "count", 0, 1, kMaxCells);
    if (has_fraction) b.fraction = ctx.num(list[i], b.key + ".", "fraction", 0, 0, 1);
    counts = counts || has_count;
    fractions = fractions || has_fraction;
    blocks.push_back(b);
  }
  if (counts && fractions)
    ctx.fail("cells", "give every entry a count or every entry a fraction, not both", json());
  const bool cells_given = root.contains("network") && root.at("network").is_object() &&
                           root.at("network").contains("cells");
  if (fractions) {
    if (!cells_given) ctx.fail("network.cells", "is required when cells[] give fractions", json());
    double sum = 0;
    for (const BlockJson& b : blocks) sum += b.fraction;
    if (std::abs(sum - 1) > 1e-9) ctx.fail("cells[].fraction", "must sum to 1", json(sum));
    // Cumulative rounding: the counts sum to network.cells exactly.
    double cumulative = 0;
    std::int64_t given = 0;
    for (std::size_t i = 0; i < blocks.size(); ++i) {
      cumulative += blocks[i].fraction;
      const std::int64_t upto =
          i + 1 == blocks.size()
              ? n.cells
              : std::min<std::int64_t>(n.cells, std::llround(cumulative * double(n.cells)));
      blocks[i].count = upto - given;
      given = upto;
      if (blocks[i].count < 1)
        ctx.fail(blocks[i].key + ".fraction",
                 "gives no cell of network.cells = " + std::to_string(n.cells),
                 json(blocks[i].fraction));
    }
  } else {
    std::int64_t sum = 0;
    for (const BlockJson& b : blocks) sum += b.count;
    if (sum > kMaxCells) ctx.fail("cells[].count", "sum to more than the limit", json(sum));
    if (cells_given && sum != n.cells)
      ctx.fail("network.cells",
               "differs from the sum of cells[].count (" + std::to_string(sum) + ")",
               root.at("network").at("cells"));
    n.cells = sum;
  }
  return blocks;
}

// The morphologies a "cell"-shaped object lists.
std::vector<std::string> morphology_list(const json& cell, const Ctx& ctx,
                                         const std::string& cell_key) {
  std::vector<std::string> morphologies;
  if (!cell.contains("morphology")) ctx.fail(cell_key + ".morphology", "is required", json());
  const json& mj = cell.at("morphology");
  if (mj.is_string())
    morphologies.push_back(mj.get<std::string>());
  else if (mj.is_array() && !mj.empty())
    for (const json& x : mj) {
      if (!x.is_string()) ctx.fail(cell_key + ".morphology", "must hold strings", x);
      morphologies.push_back(x.get<std::string>());
    }
  else
    ctx.fail(cell_key + ".morphology", "must be a path, synthetic:<name>, or a list of them", mj);
  return morphologies;
}

// The synapses each source group adds to a template (SourceGroup::per_cell of them).
struct SourceSynapses {
  double tau = 2, e = 0;
  SynapseMechanism mechanism;   // empty: the built-in ExpSyn
  std::vector<std::string> to;  // block names; empty: every block
};

// A source group's "connect": the synapses it adds to the cells it reaches (syn) and its
// connections (g.per_cell, weight, delay).
void read_source_connect(const json& c, const std::string& key, const Ctx& ctx,
                         const NetworkSection& net, const std::vector<BlockJson>& blocks,
                         const NetworkSpec& n, SourceGroup& g, SourceSynapses& syn) {
  const std::string ck = key + ".connect", c_ = ck + ".";
  ctx.only(c, ck, {"per_cell", "weight", "delay", "tau", "e", "synapse", "to"});
  if (n.type == NetworkSpec::Explicit)
    ctx.fail(ck,
             "an explicit network lists its connections (sources are gids " +
                 std::to_string(n.cells) + " and up)",
             c);
  g.per_cell = static_cast<int>(ctx.integer(c, c_, "per_cell", 1, 0, kMaxSynapsesPerCell));
  g.weight = ctx.num(c, c_, "weight", n.weight);
  g.delay = ctx.num(c, c_, "delay", n.delay_min);
  if (!(g.delay > 0)) ctx.fail(c_ + "delay", "must be > 0 (ms)", c.at("delay"));
  syn.tau = ctx.num(c, c_, "tau", net.tau);
  if (!(syn.tau > 0)) ctx.fail(c_ + "tau", "must be > 0 (ms, the synapses' decay)", c.at("tau"));
  syn.e = ctx.num(c, c_, "e", net.e, -kMaxAbsVoltage, kMaxAbsVoltage);
  // Its own tau or e: the built-in ExpSyn; its own synapse: that point process; neither:
  // the network's synapses.
  if (c.contains("synapse")) {
    for (const char* k : {"tau", "e"})
      if (c.contains(k))
        ctx.fail(c_ + k,
                 "sets the built-in ExpSyn: give tau and e or a synapse point process "
                 "(connect.synapse), not both",
                 c.at(k));
    syn.mechanism = read_synapse_mechanism(c.at("synapse"), c_ + "synapse", ctx);
  } else if (c.contains("tau") || c.contains("e")) {
    syn.mechanism = {};
  }
  for (const json& t : ctx.array(c, c_, "to")) {
    if (!t.is_string()) ctx.fail(c_ + "to", "must list names of cells[] entries", t);
    const std::string name = t.get<std::string>();
    const bool known = std::any_of(blocks.begin(), blocks.end(),
                                   [&](const BlockJson& b) { return b.name == name; });
    if (!known) {
      std::string all;
      for (const BlockJson& b : blocks) all += (all.empty() ? "" : ", ") + b.name;
      ctx.fail(c_ + "to", "names no entry of cells (" + all + ")", t);
    }
    syn.to.push_back(name);
  }
}

// An artificial cell group's mechanism (an ARTIFICIAL_CELL of the catalogue), its
// parameters and the seed of its cells' random streams; the regular and Poisson keys do
// not apply.
void read_artificial_cell(const json& s, const std::string& k, const Ctx& ctx, const NetworkSpec& n,
                          SourceGroup& g) {
  g.seed = static_cast<std::uint64_t>(ctx.integer(s, k, "seed", static_cast<std::int64_t>(n.seed),
                                                  0, std::numeric_limits<std::int64_t>::max()));
  for (const char* x : {"start", "interval", "rate", "number"})
    if (s.contains(x))
      ctx.fail(k + x,
               "is for regular and Poisson sources: an artificial cell's mechanism and its "
               "parameters say when it fires",
               s.at(x));
  const MechanismCatalogue& cat = ctx.mechanisms();
  std::string artificial;
  for (const CatalogueMechanism& m : cat.mechanisms)
    if (m.artificial_cell) artificial += (artificial.empty() ? "" : ", ") + m.name;
  if (artificial.empty()) artificial = "none";
  if (!s.contains("mechanism") || !s.at("mechanism").is_string())
    ctx.fail(
        k + "mechanism",
        "is required: an ARTIFICIAL_CELL of the catalogue '" + cat.name + "' (" + artificial + ")",
        s.value("mechanism", json()));
  g.mechanism = s.at("mechanism").get<std::string>();
  const int index = cat.index_of(g.mechanism);
  if (index < 0 || !cat.mechanisms[index].artificial_cell)
    ctx.fail(k + "mechanism",
             std::string(index < 0 ? "unknown mechanism" : "is not an ARTIFICIAL_CELL") +
                 ": the artificial cells of the catalogue '" + cat.name + "' are " + artificial,
             s.at("mechanism"));
  const CatalogueMechanism& m = cat.mechanisms[index];
  const json p = s.value("parameters", json::object());
  if (!p.is_object()) ctx.fail(k + "parameters", "must be an object", p);
  for (auto it = p.begin(); it != p.end(); ++it) {
    const std::string pk = k + "parameters." + it.key();
    const int v = m.variable_index(it.key());
    if (v < 0 || m.variables[v].kind != CatalogueVariable::Parameter)
      ctx.fail(pk,
               std::string(v < 0 ? "unknown parameter" : "not a parameter") + " of " + m.name +
                   " (its parameters: " + m.settable_names() + ")",
               it.value());
    if (!it.value().is_number() || !std::isfinite(it.value().get<double>()))
      ctx.fail(pk, "must be a finite number", it.value());
    g.parameters.emplace_back(it.key(), it.value().get<double>());
  }
}

// A regular or Poisson group's train (start, interval or rate, number, seed).
void read_drawn_source(const json& s, const std::string& k, const Ctx& ctx, const std::string& type,
                       double tstop, const NetworkSpec& n, SourceGroup& g) {
  for (const char* x : {"mechanism", "parameters"})
    if (s.contains(x))
      ctx.fail(k + x, "is for artificial cells (type artificial), not " + type + " sources",
               s.at(x));
  g.start = ctx.num(s, k, "start", 0, 0);
  if (s.contains("interval") && s.contains("rate"))
    ctx.fail(k + "rate", "give interval (ms) or rate (Hz), not both", s.at("rate"));
  if (s.contains("rate")) {
    const double rate = ctx.num(s, k, "rate", 0, 0);
    if (!(rate > 0)) ctx.fail(k + "rate", "must be > 0 (Hz)", s.at("rate"));
    g.interval = 1000 / rate;
  } else {
    g.interval = ctx.num(s, k, "interval", 10, 0);
    if (!(g.interval > 0)) ctx.fail(k + "interval", "must be > 0 (ms)", s.at("interval"));
  }
  g.number = ctx.integer(s, k, "number", g.number, 0, std::numeric_limits<std::int64_t>::max());
  g.seed = static_cast<std::uint64_t>(ctx.integer(s, k, "seed", static_cast<std::int64_t>(n.seed),
                                                  0, std::numeric_limits<std::int64_t>::max()));
  // Every rank draws every source's spikes: bound what a run may draw.
  const double expected =
      double(g.count) * std::min(double(g.number), std::max(0.0, tstop - g.start) / g.interval);
  if (expected > 1e9)
    ctx.fail(k + (s.contains("rate") ? "rate" : "interval"),
             "would draw about " + format_value(expected) +
                 " spikes in tstop (more than 1e9: fewer sources, a lower rate or a number)",
             s.value(s.contains("rate") ? "rate" : "interval", json()));
}

// "sources": [{"name", "count", "type": "regular" | "poisson", "start", "interval" | "rate",
// "number", "seed", "connect": {"per_cell", "weight", "delay", "tau", "e" | "synapse", "to"}}]
// or, for artificial cells, [{"name", "count", "mechanism", "parameters", "seed", "connect"}].
std::vector<SourceSynapses> read_sources(const json& root, const Ctx& ctx,
                                         const NetworkSection& net,
                                         const std::vector<BlockJson>& blocks, double tstop,
                                         NetworkSpec& n) {
  std::vector<SourceSynapses> out;
  n.sources.clear();
  if (!root.contains("sources")) return out;
  const json& list = root.at("sources");
  if (!list.is_array()) ctx.fail("sources", "must be a list of spike source groups", list);
  std::set<std::string> names;
  std::int64_t first = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& s = list[i];
    const std::string key = "sources[" + std::to_string(i) + "]", k = key + ".";
    ctx.only(s, key,
             {"name", "count", "type", "start", "interval", "rate", "number", "seed", "connect",
              "mechanism", "parameters"});
    SourceGroup g;
    g.name = ctx.str(s, k, "name", "");
    if (g.name.empty())
      ctx.fail(k + "name", "is required (a non-empty string)", s.value("name", json()));
    if (!names.insert(g.name).second)
      ctx.fail(k + "name", "names another entry of sources too", s.at("name"));
    g.count = ctx.integer(s, k, "count", 1, 1, kMaxCells);
    const std::string type =
        ctx.str(s, k, "type", s.contains("mechanism") ? "artificial" : "regular");
    if (type == "regular")
      g.type = SourceGroup::Regular;
    else if (type == "poisson")
      g.type = SourceGroup::Poisson;
    else if (type == "artificial")
      g.type = SourceGroup::Artificial;
    else
      ctx.fail(k + "type", "must be regular, poisson or artificial", s.at("type"));
    if (g.type == SourceGroup::Artificial)
      read_artificial_cell(s, k, ctx, n, g);
    else
      read_drawn_source(s, k, ctx, type, tstop, n, g);
    g.first = first;
    first += g.count;
    // Every rank keeps every source's next spike (32 bytes each).
    if (first > kMaxSources)
      ctx.fail(k + "count",
               "makes " + std::to_string(first) + " sources, more than the limit of " +
                   std::to_string(kMaxSources),
               s.value("count", json(1)));
    SourceSynapses syn;
    syn.tau = net.tau;
    syn.e = net.e;
    syn.mechanism = net.synapse;
    if (s.contains("connect"))
      read_source_connect(s.at("connect"), key, ctx, net, blocks, n, g, syn);
    n.sources.push_back(g);
    out.push_back(syn);
  }
  return out;
}

}  // namespace

void read_given_templates_sources(const json& root, const Ctx& ctx, const NetworkSection& net,
                                  double tstop, NetworkSpec& n) {
  read_sources(root, ctx, net, {}, tstop, n);
  for (std::size_t g = 0; g < n.sources.size(); ++g)
    if (root.at("sources")[g].contains("connect"))
      ctx.fail("sources[" + std::to_string(g) + "].connect",
               "the cell templates are given: list the sources' connections (their gids follow "
               "the cells')",
               root.at("sources")[g].at("connect"));
}

void read_cells_section(const json& root, const Ctx& ctx, const NetworkSection& net, NetworkSpec& n,
                        std::vector<CellTemplate>& templates, double tstop) {
  if (root.contains("cell") && root.contains("cells"))
    ctx.fail("cells", "give either cell (one template) or cells (a list), not both",
             root.at("cells"));
  if (!root.contains("cell") && !root.contains("cells")) ctx.fail("cell", "is required", json());
  const bool listed = root.contains("cells");
  std::vector<BlockJson> blocks;
  if (listed) {
    blocks = read_blocks(root, ctx, n);
  } else {
    BlockJson b;
    b.name = b.key = "cell";
    b.cell = &root.at("cell");
    b.count = n.cells;
    blocks.push_back(b);
  }
  const std::vector<SourceSynapses> source_syn = read_sources(root, ctx, net, blocks, tstop, n);
  // cells[] may have changed network.cells, which a random network's synapse count depends on.
  const int network_synapses = net.is_explicit ? net.synapses : n.synapses_needed();
  n.blocks.clear();
  std::int64_t first_gid = 0;
  for (const BlockJson& b : blocks) {
    const json& cell = *b.cell;
    std::set<std::string> keys{"morphology",      "nseg",     "max_segment_length_um",
                               "d_lambda",        "Ra",       "cm",
                               "mechanisms",      "ions",     "iclamp",
                               "point_processes", "detector", "keep_largest_component",
                               "section_lists"};
    if (listed) keys.insert({"name", "count", "fraction"});
    ctx.only(cell, b.key, keys);
    const std::vector<std::string> morphologies = morphology_list(cell, ctx, b.key);
    // Every template is built (sections, compartments) before the memory check: bound the
    // list by the cells that can use it.
    if (static_cast<std::int64_t>(morphologies.size()) >
        std::min<std::int64_t>(b.count, kMaxTemplates))
      ctx.fail(b.key + ".morphology",
               "lists " + std::to_string(morphologies.size()) + " morphologies, more than " +
                   (b.count < kMaxTemplates
                        ? (listed ? b.key + ".count = " : std::string("network.cells = ")) +
                              std::to_string(b.count) + " (the rest would be unused)"
                        : "the limit of " + std::to_string(kMaxTemplates)),
               json(morphologies.size()));
    const CellParts p =
        read_cell_parts(cell, ctx, n.type != NetworkSpec::Single || !n.sources.empty(), b.key);
    TemplateBlock tb;
    tb.name = b.name;
    tb.first_gid = first_gid;
    tb.count = b.count;
    tb.first_template = static_cast<int>(templates.size());
    tb.templates = static_cast<int>(morphologies.size());
    first_gid += b.count;
    n.blocks.push_back(tb);
    for (const std::string& raw : morphologies) {
      SectionedMorphology sm = build_sections(raw, p, ctx, b.key);
      check_cell(p, sm, ctx, b.key);
      if (!net.site.is_string())
        check_locations(
            {{"network.synapse_location", location(net.site, ctx, "network.synapse_location")}}, sm,
            ctx);
      auto syns =
          synapse_sites(sm, network_synapses, net.site, net.tau, net.e, net.synapse, n.seed, ctx);
      // Each source group that reaches this block: its synapses after the network's.
      for (std::size_t g = 0; g < n.sources.size(); ++g) {
        SourceGroup& sg = n.sources[g];
        sg.first_synapse.resize(templates.size() + 1, -1);
        const auto& to = source_syn[g].to;
        if (sg.per_cell == 0 ||
            (!to.empty() && std::find(to.begin(), to.end(), b.name) == to.end()))
          continue;
        sg.first_synapse[templates.size()] = static_cast<int>(syns.size());
        auto more = synapse_sites(sm, sg.per_cell, net.site, source_syn[g].tau, source_syn[g].e,
                                  source_syn[g].mechanism, n.seed, ctx, 0x50c0 + g);
        syns.insert(syns.end(), more.begin(), more.end());
      }
      syns.insert(syns.end(), p.point_processes.begin(), p.point_processes.end());
      templates.push_back(make_cell_template(std::move(sm), p.Ra, p.cm, p.density, p.iclamps,
                                             std::move(syns), p.det));
      templates.back().point_processes = static_cast<int>(p.point_processes.size());
      set_membrane_by_region(templates.back(), p.cm_by_region, p.Ra_by_region);
      templates.back().generated = p.generated;
      templates.back().ions = p.ions;
    }
  }
  n.templates = static_cast<int>(templates.size());
  // "cell" keeps its round-robin over every morphology.
  if (!listed) n.blocks.clear();
}

CellTemplate read_cell_template(const json& cell, const Ctx& ctx, const SwcMorphology* morphology) {
  ctx.only(cell, "cell",
           {"morphology", "nseg", "max_segment_length_um", "d_lambda", "Ra", "cm", "mechanisms",
            "ions", "iclamp", "point_processes", "detector", "keep_largest_component", "synapses",
            "section_lists"});
  CellParts p = read_cell_parts(cell, ctx, false);
  std::vector<ExpSynSpec> synapses;
  for (const json& s : ctx.array(cell, "cell.", "synapses")) {
    ctx.only(s, "cell.synapses[]", {"location", "tau", "e", "synapse"});
    ExpSynSpec x;
    x.where = location(s.value("location", json::object()), ctx, "cell.synapses[].location");
    p.locations.push_back({"cell.synapses[].location", x.where});
    x.tau = ctx.num(s, "cell.synapses[].", "tau", x.tau);
    if (!(x.tau > 0)) ctx.fail("cell.synapses[].tau", "must be > 0 (ms)", s.at("tau"));
    x.e = ctx.num(s, "cell.synapses[].", "e", x.e, -kMaxAbsVoltage, kMaxAbsVoltage);
    // A point process of the catalogue instead of the built-in ExpSyn (tau, e).
    if (s.contains("synapse")) {
      for (const char* k : {"tau", "e"})
        if (s.contains(k))
          ctx.fail(std::string("cell.synapses[].") + k,
                   "sets the built-in ExpSyn: give tau and e or a synapse point process, not both",
                   s.at(k));
      x.mechanism = read_synapse_mechanism(s.at("synapse"), "cell.synapses[].synapse", ctx);
    }
    synapses.push_back(x);
  }
  SectionedMorphology sm;
  if (morphology) {
    if (cell.contains("morphology"))
      ctx.fail("cell.morphology", "given twice (a Morphology object and a path)",
               cell.at("morphology"));
    sm = neuron_sections(*morphology, p.so);
  } else {
    if (!cell.contains("morphology") || !cell.at("morphology").is_string())
      ctx.fail("cell.morphology", "must be a path or synthetic:<name>",
               cell.value("morphology", json()));
    sm = build_sections(cell.at("morphology").get<std::string>(), p, ctx);
  }
  check_cell(p, sm, ctx);
  synapses.insert(synapses.end(), p.point_processes.begin(), p.point_processes.end());
  CellTemplate t = make_cell_template(std::move(sm), p.Ra, p.cm, p.density, p.iclamps,
                                      std::move(synapses), p.det);
  t.point_processes = static_cast<int>(p.point_processes.size());
  set_membrane_by_region(t, p.cm_by_region, p.Ra_by_region);
  t.generated = p.generated;
  t.ions = p.ions;
  return t;
}

}  // namespace hinesbatch::config_impl
