// What a config implies beyond its sections: the network a (dry) run simulates, the memory
// it needs, and the instantiated model for NEURON (scripts/validation/neuron_run.py).
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "config_reader.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"

namespace hinesbatch {

using config_impl::json;

namespace {

// Rough bytes one cell needs on its rank (state per compartment, generated mechanisms'
// rows and ions, synapses, connections): enough to refuse 1e12 cells or 1e8 segments
// before anything is allocated.
double bytes_per_cell(const CellTemplate& t, const NetworkSpec& n) {
  return (256.0 + 64.0 * t.generated.size()) * t.compartments.size() + 64.0 * t.synapses.size() +
         32.0 * n.synapses_needed() + 512;
}

// What this process may really use: the smallest of physical memory, the address-space
// limit (ulimit -v, RLIMIT_AS) and the cgroup's limit (v2 memory.max, v1
// memory.limit_in_bytes). which: the one that binds, for the message.
double available_memory_bytes(std::string& which) {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  double best = pages > 0 && page > 0 ? double(pages) * double(page) : 0;
  which = "this machine has";
  auto consider = [&](double limit, const char* name) {
    if (limit > 0 && (best <= 0 || limit < best)) {
      best = limit;
      which = name;
    }
  };
  struct rlimit rl;
  if (getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    consider(double(rl.rlim_cur), "the address-space limit (ulimit -v) allows");
  for (const char* f :
       {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::FILE* in = std::fopen(f, "r");
    if (!in) continue;
    char buf[64] = {};
    const bool got = std::fgets(buf, sizeof buf, in) != nullptr;
    std::fclose(in);
    if (!got || buf[0] < '0' || buf[0] > '9') continue;  // "max": no limit
    const double v = std::strtod(buf, nullptr);
    if (v < 9e18) consider(v, "the cgroup memory limit allows");
  }
  return best;
}

// A generated mechanism's parameter as the config gives it: a number or its distance
// function.
json parameter_json(const ParameterValue& v) {
  static const char* const kinds[] = {"constant", "linear", "exp", "sigmoid", "window"};
  if (v.kind == ParameterValue::Constant) return v.value;
  return {{"distance", kinds[v.kind]},
          {"a", v.a},
          {"b", v.b},
          {"c", v.c},
          {"x0", v.x0},
          {"x1", v.x1},
          {"inside", v.inside},
          {"outside", v.outside},
          {"scale", v.scale},
          {"normalize", v.normalize}};
}

}  // namespace

NetworkSpec simulated_network(const SimulationConfig& c) {
  NetworkSpec n = c.network;
  if (c.dry_run_ranks > 1) {
    if (n.type == NetworkSpec::Explicit)
      throw InputError("dry_run_ranks cannot replicate an explicit network", c.path, 0,
                       std::to_string(c.dry_run_ranks));
    n.cells *= c.dry_run_ranks;
  }
  return n;
}

void check_memory(const SimulationConfig& c, int ranks, double available_bytes) {
  std::string which = "are available";
  if (available_bytes <= 0) available_bytes = available_memory_bytes(which);
  if (available_bytes <= 0) return;  // unknown: nothing to compare with
  const NetworkSpec& n = c.network;
  const double total_cells = double(n.cells) * std::max(1, c.dry_run_ranks);
  const double local_cells = c.dry_run_ranks > 1 ? double(n.cells) : total_cells / ranks;
  // Where a synapse's point process sends self-events, every synapse of the rank gets
  // run.self_events_per_synapse slots (time, flag, weight, vector: 28 bytes each).
  bool sends = false;
  for (const CellTemplate& t : c.templates)
    for (const ExpSynSpec& s : t.synapses) sends = sends || s.mechanism.sends_self_events;
  const double slot_bytes = sends ? 28.0 * c.params.self_events_per_synapse : 0.0;
  double per_cell = 0, slots_per_cell = 0;
  for (const CellTemplate& t : c.templates) {
    per_cell += bytes_per_cell(t, n) + slot_bytes * double(t.synapses.size());
    slots_per_cell += slot_bytes * double(t.synapses.size());
  }
  per_cell /= std::max<std::size_t>(1, c.templates.size());
  slots_per_cell /= std::max<std::size_t>(1, c.templates.size());
  // Every rank lists every rank's gids (partition_gids); traces keep a row per record_dt.
  const double steps = c.params.tstop / c.params.record_interval() + 1;
  const double bytes =
      8 * total_cells + local_cells * per_cell + steps * (32 + 8.0 * c.records.size());
  if (bytes <= available_bytes) return;
  const bool by_steps = steps * (32 + 8.0 * c.records.size()) > bytes / 2;
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "needs about %.3g GB of memory on each rank (%.6g cells of about %.3g kB each, "
                "%.6g steps of traces), more than the %.3g GB %s",
                bytes / 1e9, local_cells, per_cell / 1e3, steps, available_bytes / 1e9,
                which.c_str());
  if (by_steps)
    throw InputError(std::string("config key 'tstop': ") + buf, c.path, 0,
                     format_value(c.params.tstop));
  if (local_cells * slots_per_cell > bytes / 2)
    throw InputError(std::string("config key 'run.self_events_per_synapse': ") + buf +
                         " (most of it the synapses' self-event slots)",
                     c.path, 0, std::to_string(c.params.self_events_per_synapse));
  throw InputError(std::string("config key 'network.cells': ") + buf, c.path, 0,
                   std::to_string(n.cells));
}

std::string model_json(const SimulationConfig& c, const std::vector<std::int64_t>& gids) {
  const NetworkSpec net = simulated_network(c);
  for (const SourceGroup& g : net.sources)
    if (g.type != SourceGroup::Artificial)
      throw InputError(
          "output.model: a network with regular or Poisson spike sources cannot "
          "be exported (the model format has no NetStim; artificial cells it has)",
          c.path, 0, g.name);
  json m;
  m["format"] = "hinesbatch-model-1";
  m["dt"] = c.params.dt;
  m["tstop"] = c.params.tstop;
  if (c.params.record_dt > 0) m["record_dt"] = c.params.record_interval();
  m["v_init"] = c.params.v_init;
  m["celsius"] = c.params.celsius;
  m["ena"] = c.params.ena;
  m["ek"] = c.params.ek;
  m["Ra"] = c.templates.at(0).Ra;
  m["cm"] = c.templates.at(0).cm;
  json morphs = json::array();
  for (const CellTemplate& t : c.templates) {
    json secs = json::array();
    const std::vector<double> cm = t.section_cm(), Ra = t.section_Ra();
    for (int s = 0; s < t.morphology.size(); ++s) {
      const Section& sec = t.morphology.sections[s];
      json pts = json::array();
      for (const Pt3d& p : sec.pt3d) pts.push_back({p.x, p.y, p.z, p.diam});
      secs.push_back({{"id", s},
                      {"parent", sec.parent},
                      {"parent_x", sec.parent_x},
                      {"swc_type", sec.swc_type},
                      {"nseg", sec.nseg},
                      {"Ra", Ra[static_cast<std::size_t>(s)]},
                      {"cm", cm[static_cast<std::size_t>(s)]},
                      {"pt3d", pts}});
    }
    morphs.push_back({{"source", t.morphology.source}, {"sections", secs}});
  }
  m["morphologies"] = morphs;
  json cells = json::array(), conns = json::array(), events = json::array();
  for (std::int64_t gid : gids) {
    const int ti = net.template_of(gid);
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
    for (const IClampSpec& x : net.stimulus(gid, t).iclamps) stims.push_back(x);
    for (const IClampSpec& x : stims)
      ic.push_back({{"section", x.where.section},
                    {"x", x.where.x},
                    {"del", x.del},
                    {"dur", x.dur},
                    {"amp", x.amp}});
    json syn = json::array();
    for (const ExpSynSpec& s : t.synapses) {
      json e{{"section", s.where.section}, {"x", s.where.x}, {"tau", s.tau}, {"e", s.e}};
      // A point process of the catalogue instead of the built-in ExpSyn (tau, e unused).
      if (!s.mechanism.builtin()) {
        json params = json::object();
        for (const MechanismParameter& p : s.mechanism.parameters) params[p.name] = p.value.value;
        e["mechanism"] = {{"name", s.mechanism.name}, {"parameters", params}};
      }
      syn.push_back(e);
    }
    // Generated (NMODL) mechanisms, in order (a later entry's parameters win), and ions.
    json gen = json::array(), ions = json::object();
    for (const GeneratedMechanism& g : t.generated) {
      json params = json::object();
      for (const MechanismParameter& p : g.parameters) params[p.name] = parameter_json(p.value);
      gen.push_back(
          {{"mechanism", g.name}, {"sections", t.sections_of(g)}, {"parameters", params}});
    }
    for (const IonSpec& x : t.ions) {
      json e = json::object();
      if (!std::isnan(x.ci0)) e[x.name + "i0"] = x.ci0;
      if (!std::isnan(x.co0)) e[x.name + "o0"] = x.co0;
      if (!std::isnan(x.e)) e["e"] = x.e;
      ions[x.name] = e;
    }
    json cj{
        {"gid", gid}, {"morphology", ti}, {"density", dens}, {"iclamps", ic}, {"synapses", syn}};
    if (!gen.empty()) cj["generated"] = gen;
    if (!ions.empty()) cj["ions"] = ions;
    cj["detector"] = t.detector.present ? json{{"section", t.detector.where.section},
                                               {"x", t.detector.where.x},
                                               {"threshold", t.detector.threshold}}
                                        : json();
    cells.push_back(cj);
    for (const Connection& k : net.incoming(gid))
      conns.push_back({{"src", k.source},
                       {"dst", gid},
                       {"syn", k.synapse},
                       {"weight", k.weight},
                       {"delay", k.delay}});
    for (const ExternalEvent& e : net.external_events(gid))
      events.push_back({{"dst", gid}, {"syn", e.synapse}, {"time", e.time}, {"weight", e.weight}});
  }
  // Artificial cells: their mechanism, parameters, and the connections and events into them.
  json artificial = json::array();
  for (const SourceGroup& g : net.sources)
    for (std::int64_t i = 0; i < g.count; ++i) {
      const std::int64_t gid = net.cells + g.first + i;
      json params = json::object();
      for (const auto& [name, value] : g.parameters) params[name] = value;
      artificial.push_back({{"gid", gid}, {"mechanism", g.mechanism}, {"parameters", params}});
      if (net.type != NetworkSpec::Explicit) continue;  // only listed inputs reach them
      for (const Connection& k : net.incoming(gid))
        conns.push_back({{"src", k.source},
                         {"dst", gid},
                         {"syn", 0},
                         {"weight", k.weight},
                         {"delay", k.delay}});
      for (const ExternalEvent& e : net.external_events(gid))
        events.push_back({{"dst", gid}, {"syn", 0}, {"time", e.time}, {"weight", e.weight}});
    }
  if (!artificial.empty()) m["artificial_cells"] = artificial;
  m["cells"] = cells;
  m["connections"] = conns;
  m["events"] = events;
  json rec = json::array();
  for (const RecordSpec& r : c.records) {
    if (r.artificial) {  // a variable of an artificial cell (artificial_cells)
      rec.push_back({{"gid", r.gid}, {"variable", r.variable}});
      continue;
    }
    json one = {
        {"gid", r.gid}, {"section", r.where.section}, {"x", r.where.x}, {"variable", r.variable}};
    if (r.synapse >= 0) one["synapse"] = r.synapse;  // a variable of that synapse
    rec.push_back(one);
  }
  m["record"] = rec;
  return m.dump(1) + "\n";
}

void export_model(const SimulationConfig& c, const std::vector<std::int64_t>& gids,
                  const std::string& file) {
  const std::string text = model_json(c, gids);
  OutputFile o(file, "model file");
  o.write(text);
  o.commit();
}

std::string metrics_json(const SimulationResult& r, const std::string& config_path) {
  const RunMetrics& m = r.metrics;
  nlohmann::ordered_json j;
  j["config"] = config_path;
  j["backend"] = r.backend;
  j["exchange"] = m.exchange;
  j["schedule"] = m.schedule;
  j["team_lanes"] = m.team_lanes;
  j["tile_cells"] = m.tile_cells;
  j["schedule_detail"] = m.schedule_detail;
  j["ranks"] = m.ranks;
  j["cells"] = r.cells;
  j["compartments"] = m.global_nodes;
  j["connections_rank0"] = m.local_connections;
  j["overlap"] = m.overlap;
  j["epoch_steps"] = m.epoch_steps;
  j["steps"] = m.steps;
  j["epochs"] = m.epochs;
  j["simulated_ms"] = m.simulated_ms;
  j["setup_s"] = m.setup_s;
  j["setup_cells_s"] = m.setup_cells_s;
  j["setup_connections_s"] = m.setup_connections_s;
  j["wall_s"] = m.wall_s;
  j["wall_s_per_simulated_s"] = m.wall_s_per_simulated_s();
  j["compartment_steps_per_s"] = m.compartment_steps_per_s();
  j["compute_s_rank0"] = m.compute_s;
  j["compute_max_s"] = m.compute_max_s;
  j["compute_mean_s"] = m.compute_mean_s;
  j["load_balance"] = m.load_balance();
  j["exchange_s_rank0"] = m.exchange_s;
  j["exposed_exchange_s_rank0"] = m.exposed_exchange_s;
  j["exposed_comm_fraction"] = m.exposed_comm_fraction();
  j["events_s_rank0"] = m.events_s;
  j["spikes"] = m.spikes;
  j["spikes_per_epoch"] = m.spikes_per_epoch();
  j["max_spikes_per_epoch"] = m.max_spikes_per_epoch;
  j["bytes_per_epoch"] = m.bytes_per_epoch();
  j["events_delivered_rank0"] = m.events_delivered;
  // Non-finite numbers (a 0 s run's rates) become null: still valid JSON.
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace hinesbatch
