// The network simulator: cell templates built from Python, models from Python lists, a
// JSON file or JSON text (a dict through json.dumps), run by the library's run_simulation
// (the code hinesbatch-sim runs), results as numpy arrays. MPI through mpi4py: an exchange
// whose all_gather calls the communicator's Allgatherv.
#include <pybind11/stl.h>

#include <memory>

#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/run.hpp"
#include "runtime.hpp"

namespace hinesbatch {
namespace python {

namespace {

// --- values from dicts shaped as the JSON config's ------------------------------------------
double number(const py::dict& d, const char* key, double fallback, const std::string& where) {
  if (!d.contains(key)) return fallback;
  try {
    return py::cast<double>(d[key]);
  } catch (const py::cast_error&) {
    throw py::value_error(where + "." + key + " must be a number, got " +
                          py::str(d[key]).cast<std::string>());
  }
}
void only(const py::dict& d, std::initializer_list<const char*> keys, const std::string& where) {
  for (auto item : d) {
    const std::string k = py::str(item.first);
    bool known = false;
    for (const char* x : keys) known = known || k == x;
    if (!known) throw py::value_error(where + ": unknown key '" + k + "'");
  }
}
Location location(const py::dict& d, const std::string& where) {
  Location l;
  if (!d.contains("location")) return l;  // soma(0.5)
  const py::dict loc = d["location"].cast<py::dict>();
  only(loc, {"section", "x"}, where + ".location");
  l.section = static_cast<int>(number(loc, "section", 0, where + ".location"));
  l.x = number(loc, "x", 0.5, where + ".location");
  return l;
}

DensityMechanism mechanism(const py::dict& m, const std::string& where) {
  DensityMechanism d;
  const std::string name = m.contains("name") ? py::str(m["name"]).cast<std::string>() : "";
  d.region = parse_region(m.contains("region") ? py::str(m["region"]).cast<std::string>() : "all");
  if (name == "pas") {
    only(m, {"name", "region", "g", "e"}, where);
    d.kind = DensityMechanism::Pas;
    d.pas.g = number(m, "g", d.pas.g, where);
    d.pas.e = number(m, "e", d.pas.e, where);
  } else if (name == "hh") {
    only(m, {"name", "region", "gnabar", "gkbar", "gl", "el"}, where);
    d.kind = DensityMechanism::HH;
    d.hh.gnabar = number(m, "gnabar", d.hh.gnabar, where);
    d.hh.gkbar = number(m, "gkbar", d.hh.gkbar, where);
    d.hh.gl = number(m, "gl", d.hh.gl, where);
    d.hh.el = number(m, "el", d.hh.el, where);
  } else {
    throw py::value_error(where + ".name must be 'pas' or 'hh', got '" + name + "'");
  }
  return d;
}

IClampSpec iclamp(const py::dict& s, const std::string& where) {
  IClampSpec x;
  x.where = location(s, where);
  x.del = number(s, "del", 0, where);
  x.dur = number(s, "dur", 0, where);
  x.amp = number(s, "amp", 0, where);
  return x;
}

// A cell template as the config's "cell" section builds one (cells_section.cpp): sections
// by Import3d from an SWC file (or a Morphology, or synthetic:<name>), nseg by one rule.
CellTemplate cell_template(py::handle morphology, int nseg, double max_segment_length_um,
                           double d_lambda, double Ra, double cm, const py::list& mechanisms,
                           const py::list& iclamps, const py::list& synapses,
                           const py::object& detector) {
  SectionOptions so;
  so.nseg_per_section = nseg;
  so.max_segment_length_um = max_segment_length_um;
  so.d_lambda = d_lambda;
  if (nseg == 0 && max_segment_length_um == 0 && d_lambda == 0) so.nseg_per_section = 1;
  so.Ra_ohm_cm = Ra;
  so.cm_uF_cm2 = cm;
  SectionedMorphology sm;
  if (py::isinstance<SwcMorphology>(morphology)) {
    sm = neuron_sections(morphology.cast<const SwcMorphology&>(), so);
  } else {
    const std::string m = py::str(morphology);
    if (m.rfind("synthetic:", 0) == 0)
      sm = synthetic_sections(m.substr(10), so);
    else
      sm = neuron_sections(read_swc(m), so);
  }
  std::vector<DensityMechanism> density;
  for (std::size_t k = 0; k < mechanisms.size(); ++k)
    density.push_back(
        mechanism(mechanisms[k].cast<py::dict>(), "mechanisms[" + std::to_string(k) + "]"));
  std::vector<IClampSpec> clamps;
  for (std::size_t k = 0; k < iclamps.size(); ++k) {
    const py::dict s = iclamps[k].cast<py::dict>();
    const std::string where = "iclamps[" + std::to_string(k) + "]";
    only(s, {"location", "del", "dur", "amp"}, where);
    clamps.push_back(iclamp(s, where));
  }
  std::vector<ExpSynSpec> syns;
  for (std::size_t k = 0; k < synapses.size(); ++k) {
    const py::dict s = synapses[k].cast<py::dict>();
    const std::string where = "synapses[" + std::to_string(k) + "]";
    only(s, {"location", "tau", "e"}, where);
    ExpSynSpec x;
    x.where = location(s, where);
    x.tau = number(s, "tau", x.tau, where);
    x.e = number(s, "e", x.e, where);
    syns.push_back(x);
  }
  DetectorSpec det;
  if (!detector.is_none()) {
    const py::dict dj = detector.cast<py::dict>();
    only(dj, {"location", "threshold"}, "detector");
    det.present = true;
    det.where = location(dj, "detector");
    det.threshold = number(dj, "threshold", 10, "detector");
  }
  return make_cell_template(std::move(sm), Ra, cm, std::move(density), std::move(clamps),
                            std::move(syns), det);
}

// --- MPI through mpi4py ------------------------------------------------------------------------
// all_gather packs (gid, step) pairs as int64 and calls comm.Allgatherv, counts first
// (as hinesbatch-sim's MpiExchange does with MPI directly). It may be called from the
// simulation's overlap thread: it takes the GIL, which the running thread has released.
class Mpi4pyExchange final : public SpikeExchange {
 public:
  explicit Mpi4pyExchange(py::object comm) : comm_(std::move(comm)) {
    rank_ = comm_.attr("Get_rank")().cast<int>();
    size_ = comm_.attr("Get_size")().cast<int>();
    mpi_ = py::module_::import("mpi4py.MPI");
  }
  ~Mpi4pyExchange() override {
    py::gil_scoped_acquire locked;
    comm_ = py::object();
    mpi_ = py::object();
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<Spike> all_gather(const std::vector<Spike>& local) override {
    py::gil_scoped_acquire locked;
    py::array_t<std::int64_t> send(static_cast<py::ssize_t>(2 * local.size()));
    auto s = send.mutable_unchecked<1>();
    for (std::size_t k = 0; k < local.size(); ++k) {
      s(2 * k) = local[k].gid;
      s(2 * k + 1) = local[k].step;
    }
    const py::list counts = comm_.attr("allgather")(send.size());
    py::ssize_t total = 0;
    for (auto c : counts) total += c.cast<py::ssize_t>();
    py::array_t<std::int64_t> recv(total);
    comm_.attr("Allgatherv")(send, py::make_tuple(recv, counts));
    auto r = recv.unchecked<1>();
    std::vector<Spike> all(static_cast<std::size_t>(total / 2));
    for (std::size_t k = 0; k < all.size(); ++k) {
      all[k].gid = r(2 * k);
      all[k].step = r(2 * k + 1);
    }
    return all;
  }
  double max(double x) override { return reduce(x, "MAX"); }
  double sum(double x) override { return reduce(x, "SUM"); }
  std::string name() const override { return "mpi4py-allgatherv"; }

 private:
  double reduce(double x, const char* op) {
    py::gil_scoped_acquire locked;
    return comm_.attr("allreduce")(x, py::arg("op") = mpi_.attr(op)).cast<double>();
  }
  py::object comm_, mpi_;
  int rank_ = 0, size_ = 1;
};

py::dict metrics_dict(const RunMetrics& m) {
  py::dict d;
  d["exchange"] = m.exchange;
  d["ranks"] = m.ranks;
  d["overlap"] = m.overlap;
  d["epoch_steps"] = m.epoch_steps;
  d["steps"] = m.steps;
  d["epochs"] = m.epochs;
  d["local_cells"] = m.local_cells;
  d["local_nodes"] = m.local_nodes;
  d["global_nodes"] = m.global_nodes;
  d["local_connections"] = m.local_connections;
  d["setup_s"] = m.setup_s;
  d["setup_cells_s"] = m.setup_cells_s;
  d["setup_connections_s"] = m.setup_connections_s;
  d["wall_s"] = m.wall_s;
  d["compute_s"] = m.compute_s;
  d["exchange_s"] = m.exchange_s;
  d["exposed_exchange_s"] = m.exposed_exchange_s;
  d["events_s"] = m.events_s;
  d["wall_max_s"] = m.wall_max_s;
  d["spikes"] = m.spikes;
  d["events_delivered"] = m.events_delivered;
  d["simulated_ms"] = m.simulated_ms;
  d["wall_s_per_simulated_s"] = m.wall_s_per_simulated_s();
  d["compartment_steps_per_s"] = m.compartment_steps_per_s();
  return d;
}

template <class T>
py::array_t<T> to_array(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

// Runs a config; comm: an mpi4py communicator or None (one process).
py::dict run(SimulationConfig config, const std::string& backend_name, const py::object& comm,
             double progress_every_s) {
  const Backend backend = parse_backend(backend_name);
  if (progress_every_s >= 0) config.run.progress_every_s = progress_every_s;
  ensure_initialized();
  std::unique_ptr<SpikeExchange> exchange;
  if (comm.is_none())
    exchange = std::make_unique<LocalExchange>();
  else
    exchange = std::make_unique<Mpi4pyExchange>(comm);
  check_memory(config, exchange->size());
  SimulationResult r;
  {
    py::gil_scoped_release unlocked;
    r = run_simulation(config, *exchange, backend);
  }
  exchange.reset();
  py::dict out;
  out["spike_gids"] = to_array(r.spike_gids);
  out["spike_times"] = to_array(r.spike_times);
  out["times"] = to_array(r.times);
  py::array_t<double> traces(
      {static_cast<py::ssize_t>(r.traces.size()), static_cast<py::ssize_t>(r.times.size())});
  auto t = traces.mutable_unchecked<2>();
  for (std::size_t k = 0; k < r.traces.size(); ++k)
    for (std::size_t j = 0; j < r.traces[k].size() && j < r.times.size(); ++j)
      t(k, j) = r.traces[k][j];
  out["traces"] = traces;
  py::list records;
  for (const RecordSpec& s : r.records)
    records.append(py::make_tuple(s.gid, s.where.section, s.where.x));
  out["records"] = records;
  out["metrics"] = metrics_dict(r.metrics);
  out["backend"] = r.backend;
  out["cells"] = r.cells;
  return out;
}

std::vector<std::string> strings(const py::iterable& xs) {
  std::vector<std::string> out;
  for (py::handle x : xs) out.push_back(py::str(x));
  return out;
}

}  // namespace

void bind_simulation(py::module_& m) {
  py::class_<CellTemplate>(m, "_CellTemplate")
      .def(py::init(&cell_template), py::arg("morphology"), py::arg("nseg") = 0,
           py::arg("max_segment_length_um") = 0.0, py::arg("d_lambda") = 0.0, py::arg("Ra") = 35.4,
           py::arg("cm") = 1.0, py::arg("mechanisms") = py::list(), py::arg("iclamps") = py::list(),
           py::arg("synapses") = py::list(), py::arg("detector") = py::none())
      .def_property_readonly("num_sections",
                             [](const CellTemplate& t) { return t.morphology.size(); })
      .def_property_readonly("num_compartments",
                             [](const CellTemplate& t) { return t.compartments.tree.size(); })
      .def_property_readonly("num_synapses",
                             [](const CellTemplate& t) { return t.synapses.size(); })
      .def_property_readonly(
          "parent", [](const CellTemplate& t) { return to_array(t.compartments.tree.parents()); },
          "the compartment tree (Hines order) the simulation solves every step")
      .def_property_readonly("source", [](const CellTemplate& t) { return t.morphology.source; });

  m.def(
      "_run_model",
      [](const py::dict& params, const std::vector<const CellTemplate*>& templates,
         std::int64_t cells, const std::vector<int>& template_of,
         const std::vector<std::tuple<std::int64_t, std::int64_t, int, double, double>>& conns,
         const std::vector<std::tuple<std::int64_t, int, double, double>>& events,
         const py::list& iclamps, const std::vector<std::tuple<std::int64_t, int, double>>& records,
         const py::dict& run_options, const std::string& backend, const py::object& comm,
         double progress_every_s) {
        SimulationConfig c;
        c.path = "<python network>";
        c.params.dt = number(params, "dt", c.params.dt, "network");
        c.params.tstop = number(params, "tstop", c.params.tstop, "network");
        c.params.v_init = number(params, "v_init", c.params.v_init, "network");
        c.params.celsius = number(params, "celsius", c.params.celsius, "network");
        c.params.ena = number(params, "ena", c.params.ena, "network");
        c.params.ek = number(params, "ek", c.params.ek, "network");
        for (const CellTemplate* t : templates) c.templates.push_back(*t);
        ExplicitNetwork lists;
        lists.cells = cells;
        lists.templates = template_of;
        for (const auto& [s, tg, syn, w, d] : conns)
          lists.connections.push_back(ExplicitConnection{s, tg, syn, w, d});
        for (const auto& [g, syn, time, w] : events)
          lists.events.push_back(ExplicitEvent{g, syn, time, w});
        for (std::size_t k = 0; k < iclamps.size(); ++k) {
          const py::dict s = iclamps[k].cast<py::dict>();
          ExplicitIClamp x;
          x.gid = s["gid"].cast<std::int64_t>();
          x.clamp = iclamp(s, "iclamps[" + std::to_string(k) + "]");
          lists.iclamps.push_back(x);
        }
        c.network = make_explicit_network(std::move(lists), c.templates);
        for (const auto& [g, sec, x] : records)
          c.records.push_back(RecordSpec{g, Location{sec, x}});
        c.run.overlap =
            run_options.contains("overlap") ? run_options["overlap"].cast<bool>() : false;
        c.run.epoch_steps =
            run_options.contains("epoch_steps") ? run_options["epoch_steps"].cast<int>() : 0;
        c.partition = parse_partition(run_options.contains("partition")
                                          ? run_options["partition"].cast<std::string>()
                                          : "contiguous");
        if (run_options.contains("host_schedule"))
          c.run.host_schedule =
              parse_host_schedule(run_options["host_schedule"].cast<std::string>());
        if (run_options.contains("on_chip"))
          c.run.on_chip = parse_on_chip_steps(run_options["on_chip"].cast<std::string>());
        return run(std::move(c), backend, comm, progress_every_s);
      },
      py::arg("params"), py::arg("templates"), py::arg("cells"), py::arg("template_of"),
      py::arg("connections"), py::arg("events"), py::arg("iclamps"), py::arg("records"),
      py::arg("run_options"), py::arg("backend"), py::arg("comm"), py::arg("progress_every_s"));

  m.def(
      "_run_config_text",
      [](const std::string& text, const std::string& source, const std::string& base_dir,
         const py::iterable& overrides, const std::string& backend, const py::object& comm,
         double progress_every_s) {
        return run(parse_simulation_config(text, source, base_dir, strings(overrides)), backend,
                   comm, progress_every_s);
      },
      py::arg("text"), py::arg("source"), py::arg("base_dir"), py::arg("overrides"),
      py::arg("backend"), py::arg("comm"), py::arg("progress_every_s"));
  m.def(
      "_run_config_file",
      [](const std::string& path, const py::iterable& overrides, const std::string& backend,
         const py::object& comm, double progress_every_s) {
        return run(load_simulation_config(path, strings(overrides)), backend, comm,
                   progress_every_s);
      },
      py::arg("path"), py::arg("overrides"), py::arg("backend"), py::arg("comm"),
      py::arg("progress_every_s"));
}

}  // namespace python
}  // namespace hinesbatch
