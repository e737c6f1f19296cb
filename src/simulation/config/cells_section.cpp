// "cell": the cell templates (morphologies, discretisation, mechanisms, stimuli, the
// spike detector) and the synapses the network section asks for.
#include <algorithm>

#include "config_reader.hpp"
#include "hinesbatch/morphology/swc.hpp"

namespace hinesbatch::config_impl {

namespace {

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

}  // namespace

namespace {

// What a "cell" object says besides its morphologies, read once and applied to each.
struct CellParts {
  SwcOptions swc_options;
  SectionOptions so;
  double Ra = 35.4, cm = 1.0;
  std::vector<DensityMechanism> density;
  std::vector<std::string> region_names;  // as given, for the check against each template
  std::vector<IClampSpec> iclamps;
  DetectorSpec det;
  std::vector<KeyedLocation> locations;  // checked against every template
};

CellParts read_cell_parts(const json& cell, const Ctx& ctx, bool detector_by_default) {
  CellParts p;
  p.swc_options.keep_largest_component =
      ctx.boolean(cell, "cell.", "keep_largest_component", false);
  SectionOptions& so = p.so;
  // NEURON's nseg limit, 32767; a too small max_segment_length_um or d_lambda is caught
  // per section.
  so.nseg_per_section = static_cast<int>(ctx.integer(cell, "cell.", "nseg", 0, 0, 32767));
  so.max_segment_length_um = ctx.num(cell, "cell.", "max_segment_length_um", 0, 0);
  so.d_lambda = ctx.num(cell, "cell.", "d_lambda", 0, 0);  // NEURON's rule at 100 Hz
  if (so.nseg_per_section == 0 && so.max_segment_length_um == 0 && so.d_lambda == 0)
    so.nseg_per_section = 1;
  p.Ra = ctx.num(cell, "cell.", "Ra", 35.4);
  p.cm = ctx.num(cell, "cell.", "cm", 1.0);
  if (!(p.Ra > 0)) ctx.fail("cell.Ra", "must be > 0 (ohm cm)", json(p.Ra));
  if (!(p.cm > 0)) ctx.fail("cell.cm", "must be > 0 (uF/cm2)", json(p.cm));
  so.Ra_ohm_cm = p.Ra;
  so.cm_uF_cm2 = p.cm;
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
      d.pas.g = ctx.num(m, key + ".", "g", d.pas.g, 0);
      d.pas.e = ctx.num(m, key + ".", "e", d.pas.e, -kMaxAbsVoltage, kMaxAbsVoltage);
    } else if (name == "hh") {
      ctx.only(m, key, {"name", "region", "gnabar", "gkbar", "gl", "el"});
      d.kind = DensityMechanism::HH;
      d.hh.gnabar = ctx.num(m, key + ".", "gnabar", d.hh.gnabar, 0);
      d.hh.gkbar = ctx.num(m, key + ".", "gkbar", d.hh.gkbar, 0);
      d.hh.gl = ctx.num(m, key + ".", "gl", d.hh.gl, 0);
      d.hh.el = ctx.num(m, key + ".", "el", d.hh.el, -kMaxAbsVoltage, kMaxAbsVoltage);
    } else {
      ctx.fail(key + ".name", "must be pas or hh", m.value("name", json()));
    }
    p.density.push_back(d);
    p.region_names.push_back(ctx.str(m, key + ".", "region", "all"));
  }
  for (const json& s : ctx.array(cell, "cell.", "iclamp")) {
    ctx.only(s, "cell.iclamp[]", {"location", "del", "dur", "amp"});
    IClampSpec x;
    x.where = location(s.value("location", json::object()), ctx, "cell.iclamp[].location");
    p.locations.push_back({"cell.iclamp[].location", x.where});
    x.del = ctx.num(s, "cell.iclamp[].", "del", 0, 0);
    x.dur = ctx.num(s, "cell.iclamp[].", "dur", 0, 0);
    x.amp = ctx.num(s, "cell.iclamp[].", "amp", 0);
    p.iclamps.push_back(x);
  }
  if (cell.contains("detector")) {
    const json& dj = cell.at("detector");
    ctx.only(dj, "cell.detector", {"location", "threshold"});
    p.det.present = true;
    p.det.where = location(dj.value("location", json::object()), ctx, "cell.detector.location");
    p.locations.push_back({"cell.detector.location", p.det.where});
    p.det.threshold =
        ctx.num(dj, "cell.detector.", "threshold", 10, -kMaxAbsVoltage, kMaxAbsVoltage);
  } else if (detector_by_default) {
    p.det.present = true;  // networks need spikes: soma(0.5), NetCon's threshold
  }
  return p;
}

// The sections of one morphology (a path, or synthetic:<name>).
SectionedMorphology build_sections(const std::string& raw, const CellParts& p, const Ctx& ctx) {
  const std::string m = expand(raw, ctx, "cell.morphology");
  try {
    if (m.rfind("synthetic:", 0) == 0) return synthetic_sections(m.substr(10), p.so);
    return neuron_sections(read_swc(ctx.resolve(m), p.swc_options), p.so);
  } catch (const InputError& e) {
    if (!e.file().empty() && e.file().rfind("synthetic:", 0) != 0) throw;
    throw InputError("cell.morphology '" + shown_key(m) + "': " + e.what(), ctx.file);
  }
}

// A mechanism whose region matches no section of this cell would insert nothing; every
// location must name one of its sections.
void check_cell(const CellParts& p, const SectionedMorphology& sm, const Ctx& ctx) {
  for (std::size_t k = 0; k < p.density.size(); ++k) {
    bool any = false;
    for (int sec = 0; sec < sm.size() && !any; ++sec)
      any = in_region(p.density[k].region, sm.sections[sec].swc_type);
    if (!any)
      ctx.fail("cell.mechanisms[" + std::to_string(k) + "].region",
               "matches no section of " + shown_key(sm.source) +
                   " (it has no section of that SWC type): the mechanism would be inserted "
                   "nowhere",
               json(p.region_names[k]));
  }
  check_locations(p.locations, sm, ctx);
}

}  // namespace

void read_cells_section(const json& root, const Ctx& ctx, const NetworkSection& net, NetworkSpec& n,
                        std::vector<CellTemplate>& templates) {
  if (!root.contains("cell")) ctx.fail("cell", "is required", json());
  const json& cell = root.at("cell");
  ctx.only(cell, "cell",
           {"morphology", "nseg", "max_segment_length_um", "d_lambda", "Ra", "cm", "mechanisms",
            "iclamp", "detector", "keep_largest_component"});
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
  // Every template is built (sections, compartments) before the memory check: bound the
  // list by the cells that can use it.
  if (static_cast<std::int64_t>(morphologies.size()) >
      std::min<std::int64_t>(n.cells, kMaxTemplates))
    ctx.fail("cell.morphology",
             "lists " + std::to_string(morphologies.size()) + " morphologies, more than " +
                 (n.cells < kMaxTemplates
                      ? "network.cells = " + std::to_string(n.cells) + " (the rest would be unused)"
                      : "the limit of " + std::to_string(kMaxTemplates)),
             json(morphologies.size()));
  const CellParts p = read_cell_parts(cell, ctx, n.type != NetworkSpec::Single);
  n.templates = static_cast<int>(morphologies.size());
  for (const std::string& raw : morphologies) {
    SectionedMorphology sm = build_sections(raw, p, ctx);
    check_cell(p, sm, ctx);
    if (!net.site.is_string())
      check_locations(
          {{"network.synapse_location", location(net.site, ctx, "network.synapse_location")}}, sm,
          ctx);
    auto syns = synapse_sites(sm, net.synapses, net.site, net.tau, net.e, n.seed, ctx);
    templates.push_back(make_cell_template(std::move(sm), p.Ra, p.cm, p.density, p.iclamps,
                                           std::move(syns), p.det));
  }
}

CellTemplate read_cell_template(const json& cell, const Ctx& ctx, const SwcMorphology* morphology) {
  ctx.only(cell, "cell",
           {"morphology", "nseg", "max_segment_length_um", "d_lambda", "Ra", "cm", "mechanisms",
            "iclamp", "detector", "keep_largest_component", "synapses"});
  CellParts p = read_cell_parts(cell, ctx, false);
  std::vector<ExpSynSpec> synapses;
  for (const json& s : ctx.array(cell, "cell.", "synapses")) {
    ctx.only(s, "cell.synapses[]", {"location", "tau", "e"});
    ExpSynSpec x;
    x.where = location(s.value("location", json::object()), ctx, "cell.synapses[].location");
    p.locations.push_back({"cell.synapses[].location", x.where});
    x.tau = ctx.num(s, "cell.synapses[].", "tau", x.tau);
    if (!(x.tau > 0)) ctx.fail("cell.synapses[].tau", "must be > 0 (ms)", s.at("tau"));
    x.e = ctx.num(s, "cell.synapses[].", "e", x.e, -kMaxAbsVoltage, kMaxAbsVoltage);
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
  return make_cell_template(std::move(sm), p.Ra, p.cm, p.density, p.iclamps, std::move(synapses),
                            p.det);
}

}  // namespace hinesbatch::config_impl
