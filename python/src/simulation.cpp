// The network simulator: cell templates and models from Python dicts (through json.dumps),
// a JSON file or JSON text, read and checked by the library's config reader (one schema:
// docs/SIMULATION.md), run by the code hinesbatch-sim runs, results as numpy arrays, the
// config's outputs written by the library's writers (run_outputs.hpp). MPI through mpi4py:
// an exchange whose all_gather calls the communicator's Allgatherv. A module built with a
// program's own catalogue (hinesbatch_add_python_module: HINESBATCH_PY_CATALOGUE) checks
// and runs that catalogue's mechanisms instead of the library's default ones.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <memory>

#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"
#include "hinesbatch/simulation/run_outputs.hpp"
#include "runtime.hpp"

#ifdef HINESBATCH_PY_CATALOGUE
#include HINESBATCH_PY_CATALOGUE_HEADER

#include "hinesbatch/simulation/catalogue_simulation.hpp"
#endif

namespace hinesbatch {
namespace python {

namespace {

// The mechanisms configs may name, and the Simulation that runs them.
const MechanismCatalogue& catalogue() {
#ifdef HINESBATCH_PY_CATALOGUE
  return catalogue_description<HINESBATCH_PY_CATALOGUE>();
#else
  return default_catalogue();
#endif
}
Simulation make_sim(const SimulationConfig& config, SpikeExchange& exchange, Backend backend) {
#ifdef HINESBATCH_PY_CATALOGUE
  return make_simulation<HINESBATCH_PY_CATALOGUE>(config, exchange, backend);
#else
  return Simulation(config, exchange, backend);
#endif
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

template <class T>
py::array_t<T> to_array(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

// Called with (steps_done, steps, dt, spikes, wall_s) at every epoch's end.
using ProgressCallback =
    std::function<void(std::int64_t, std::int64_t, double, std::int64_t, double)>;

// Runs a config; comm: an mpi4py communicator or None (one process). progress_every_s >= 0
// replaces run.progress_every_s (the stderr lines). The observer, at each epoch's end, with
// the GIL taken: the callback, then (one process) Python's signal handlers, so that Ctrl-C
// raises KeyboardInterrupt there; any Python exception stops the run at that boundary, the
// output files are then not written (earlier files of their names stay, temporaries go).
py::dict run(SimulationConfig config, const std::string& backend_name, const py::object& comm,
             double progress_every_s, const py::object& callback, bool write_outputs) {
  const Backend backend = parse_backend(backend_name);
  if (progress_every_s >= 0) config.run.progress_every_s = progress_every_s;
  ensure_initialized();
  std::unique_ptr<SpikeExchange> exchange;
  if (comm.is_none())
    exchange = std::make_unique<LocalExchange>();
  else
    exchange = std::make_unique<Mpi4pyExchange>(comm);
  const int rank = exchange->rank(), ranks = exchange->size();
  std::unique_ptr<RunOutputs> outputs;
  if (write_outputs) {
    const SimulationOutputs& o = config.outputs;
    if (!o.traces.empty() && config.records.empty())
      throw InputError(
          "config key 'record': has no entries, but output.traces asks for a traces file",
          config.path, 0, o.traces);
    const std::string traces =
        o.traces.empty() || ranks == 1 ? o.traces : o.traces + ".rank" + std::to_string(rank);
    std::vector<std::string> inputs{config.path};
    for (const CellTemplate& t : config.templates) inputs.push_back(t.morphology.source);
    check_outputs_are_not_inputs({o.spikes, o.spikes_sonata, o.metrics, traces}, inputs,
                                 config.path);
    outputs = std::make_unique<RunOutputs>(o, traces, rank);
  }
  check_memory(config, ranks);
  ProgressCallback progress;
  if (!callback.is_none()) progress = callback.cast<ProgressCallback>();
  const bool check_signals = ranks == 1;  // one rank alone must not stop a collective run
  SimulationResult r;
  {
    py::gil_scoped_release unlocked;
    Simulation sim = make_sim(config, *exchange, backend);
    if (outputs) outputs->start(sim.local_records());
    r = sim.run([&](EpochReport& e) {
      if (outputs) outputs->on_epoch(e);
      if (!progress && !check_signals) return;
      py::gil_scoped_acquire locked;
      if (progress) progress(e.steps_done, e.steps, e.dt, e.spikes, e.wall_s);
      if (check_signals && PyErr_CheckSignals() != 0) throw py::error_already_set();
    });
    if (outputs) outputs->finish(r, config.path);
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
  py::list records, record_synapses;
  for (const RecordSpec& s : r.records) {
    records.append(py::make_tuple(s.gid, s.where.section, s.where.x, s.variable));
    record_synapses.append(s.synapse >= 0 ? py::object(py::int_(s.synapse)) : py::none());
  }
  out["records"] = records;
  out["record_synapses"] = record_synapses;
  // The fields and meanings of hinesbatch-sim's metrics file (one serializer).
  out["metrics"] = py::module_::import("json").attr("loads")(metrics_json(r, config.path));
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
      .def(py::init([](const std::string& cell_json, const std::string& base_dir,
                       const py::object& morphology) {
             const SwcMorphology* swc =
                 morphology.is_none() ? nullptr : &morphology.cast<const SwcMorphology&>();
             return parse_cell_template(cell_json, "<CellTemplate>", base_dir, swc, catalogue());
           }),
           py::arg("cell_json"), py::arg("base_dir"), py::arg("morphology") = py::none())
      .def_property_readonly("num_sections",
                             [](const CellTemplate& t) { return t.morphology.size(); })
      .def_property_readonly("num_compartments",
                             [](const CellTemplate& t) { return t.compartments.tree.size(); })
      .def_property_readonly("num_synapses",
                             [](const CellTemplate& t) { return t.connectable_synapses(); })
      .def_property_readonly(
          "parent", [](const CellTemplate& t) { return to_array(t.compartments.tree.parents()); },
          "the compartment tree (Hines order) the simulation solves every step")
      .def_property_readonly("source", [](const CellTemplate& t) { return t.morphology.source; });

  m.def(
      "_run_model",
      [](const std::string& config_json, const std::string& base_dir,
         const std::vector<const CellTemplate*>& templates, const std::string& backend,
         const py::object& comm, double progress_every_s, const py::object& callback,
         bool write_outputs) {
        std::vector<CellTemplate> copies;
        for (const CellTemplate* t : templates) copies.push_back(*t);
        return run(parse_simulation_config(config_json, "<Network>", base_dir, std::move(copies),
                                           {}, catalogue()),
                   backend, comm, progress_every_s, callback, write_outputs);
      },
      py::arg("config_json"), py::arg("base_dir"), py::arg("templates"), py::arg("backend"),
      py::arg("comm"), py::arg("progress_every_s"), py::arg("callback"), py::arg("write_outputs"));
  m.def(
      "_run_config_text",
      [](const std::string& text, const std::string& source, const std::string& base_dir,
         const py::iterable& overrides, const std::string& backend, const py::object& comm,
         double progress_every_s, const py::object& callback, bool write_outputs) {
        return run(parse_simulation_config(text, source, base_dir, strings(overrides), catalogue()),
                   backend, comm, progress_every_s, callback, write_outputs);
      },
      py::arg("text"), py::arg("source"), py::arg("base_dir"), py::arg("overrides"),
      py::arg("backend"), py::arg("comm"), py::arg("progress_every_s"), py::arg("callback"),
      py::arg("write_outputs"));
  m.def(
      "_run_config_file",
      [](const std::string& path, const py::iterable& overrides, const std::string& backend,
         const py::object& comm, double progress_every_s, const py::object& callback,
         bool write_outputs) {
        return run(load_simulation_config(path, strings(overrides), catalogue()), backend, comm,
                   progress_every_s, callback, write_outputs);
      },
      py::arg("path"), py::arg("overrides"), py::arg("backend"), py::arg("comm"),
      py::arg("progress_every_s"), py::arg("callback"), py::arg("write_outputs"));
  m.def(
      "_write_spikes",
      [](const std::string& path, const std::vector<std::int64_t>& gids,
         const std::vector<double>& times, const std::string& sonata_population) {
        if (gids.size() != times.size())
          throw py::value_error("spike_gids and spike_times differ in length");
        if (!sonata_population.empty()) {
          write_sonata_spikes(path, gids, times, sonata_population);
          return;
        }
        OutputFile f(path, "spikes file");
        write_spikes_text(f, gids, times);
        f.commit();
      },
      py::arg("path"), py::arg("gids"), py::arg("times"), py::arg("sonata_population"));
  m.def("_have_hdf5", &have_hdf5);
  m.def(
      "_catalogue",
      []() {
        const MechanismCatalogue& c = catalogue();
        py::list names;
        for (const CatalogueMechanism& k : c.mechanisms) names.append(k.name);
        return py::make_tuple(c.name, names);
      },
      "(name, mechanism names) of the catalogue this module runs");
}

}  // namespace python
}  // namespace hinesbatch
