// hinesbatch-sim: runs a network of NEURON-style cells from a JSON config.
//
//   [mpirun -np P] hinesbatch-sim CONFIG.json [--set key.path=value]... [--spikes FILE]
//       [--spikes-sonata FILE.h5] [--traces FILE] [--metrics FILE] [--export-model FILE]
//       [--backend device|host] [--overlap|--no-overlap] [--dry-run-ranks P] [--quiet]
//       [--version] [Kokkos options, e.g. --kokkos-num-devices=N to give each rank of a node
//       its own GPU]
//
// Outputs (run_outputs.hpp): spikes "gid time" sorted by (time, gid), also as a SONATA
// spike report (HDF5); traces CSV (t and one column per record, written as the run goes);
// metrics JSON (wall time per simulated second, compartment-steps/s, spikes and bytes per
// epoch, exposed communication fraction, load balance). Errors: exit 2 with
// "file:line: message (value ...)"; a non-physical result (|V| > 1e4 mV, NaN) exit 1
// naming gid, node and time. The command line is parsed strictly (CLI11; Kokkos' own
// options checked by name and value, then handed to Kokkos). With several MPI ranks an
// error of any rank during the setup is agreed on by all (every rank exits with it, rank 0
// prints it); one during the run aborts every rank. Outputs are checked before the run
// and written to a temporary renamed at the end (output_file.hpp); an earlier file of the
// same name stays until then. SIGTERM, SIGINT and SIGHUP remove the temporaries, say what
// was (not) written and exit with 128 + the signal.
// Built with HINESBATCH_SIM_CATALOGUE (and its header HINESBATCH_SIM_CATALOGUE_HEADER), a
// catalogue compiled by hinesbatch_add_mechanisms, the program's cell.mechanisms name that
// catalogue's mechanisms instead of the library's default ones (NEURON's `special`).
#include <dirent.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"
#include "hinesbatch/simulation/run_outputs.hpp"

#ifdef HINESBATCH_HAVE_MPI
#include <mpi.h>
#endif
#ifdef HINESBATCH_SIM_CATALOGUE
#include HINESBATCH_SIM_CATALOGUE_HEADER

#include "hinesbatch/simulation/catalogue_simulation.hpp"
#endif

namespace {

using namespace hinesbatch;

// The mechanisms cell.mechanisms may name, and the Simulation that runs them.
const MechanismCatalogue& catalogue() {
#ifdef HINESBATCH_SIM_CATALOGUE
  return catalogue_description<HINESBATCH_SIM_CATALOGUE>();
#else
  return default_catalogue();
#endif
}
std::unique_ptr<Simulation> make_sim(const SimulationConfig& cfg, SpikeExchange& ex,
                                     Backend backend) {
#ifdef HINESBATCH_SIM_CATALOGUE
  return std::make_unique<Simulation>(make_simulation<HINESBATCH_SIM_CATALOGUE>(cfg, ex, backend));
#else
  return std::make_unique<Simulation>(cfg, ex, backend);
#endif
}

#ifdef HINESBATCH_HAVE_MPI
// MPI_Allgatherv of the spikes (the MPI+OpenMP tasking paper's MPI_Allgather, with counts
// first). Called from one thread at a time (MPI_THREAD_SERIALIZED): the overlap thread or
// the main thread.
class MpiExchange final : public SpikeExchange {
 public:
  MpiExchange() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  std::vector<Spike> all_gather(const std::vector<Spike>& local) override {
    int n = static_cast<int>(local.size() * sizeof(Spike));
    std::vector<int> counts(size_), displs(size_);
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    long long total = 0;
    for (int r = 0; r < size_; ++r) {
      displs[r] = static_cast<int>(total);
      total += counts[r];
    }
    std::vector<Spike> all(static_cast<std::size_t>(total / sizeof(Spike)));
    MPI_Allgatherv(local.data(), n, MPI_BYTE, all.data(), counts.data(), displs.data(), MPI_BYTE,
                   MPI_COMM_WORLD);
    return all;
  }
  double max(double x) override {
    double y;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return y;
  }
  double sum(double x) override {
    double y;
    MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return y;
  }
  std::string name() const override { return "mpi-allgatherv"; }

 private:
  int rank_ = 0, size_ = 1;
};
#endif

struct Cli {
  std::string config;
  std::vector<std::string> sets;  // --set's, then the run flags' (run_keys()): flags win
  std::string spikes, traces, metrics, model, backend = "device";
  std::string spikes_sonata;
  bool quiet = false, kokkos_help = false;
  std::vector<std::string> kokkos;  // checked, for Kokkos::initialize
};

#ifndef HINESBATCH_VERSION
#define HINESBATCH_VERSION "unknown"
#endif

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "hinesbatch-sim: %s\nRun with --help for the options.\n", why.c_str());
  std::exit(2);
}

// Kokkos' options, checked here (Kokkos ignores a misspelt name or a malformed value):
// the name must be known and the value well-formed; then they go to Kokkos::initialize.
std::string kokkos_option(const std::string& arg) {
  const auto eq = arg.find('=');
  const std::string name = arg.substr(0, eq);
  const bool has_value = eq != std::string::npos;
  const std::string value = has_value ? arg.substr(eq + 1) : std::string();
  auto need_value = [&](const char* what) {
    if (!has_value || value.empty()) usage(name + " needs =" + what + " (e.g. " + name + "=2)");
  };
  auto integer = [&](long long lo) {
    need_value("N");
    long long v = 0;
    if (!cli::parse_integer(value, lo, 1 << 20, v))
      usage(name + " needs an integer in [" + std::to_string(lo) + ", 1048576], got '" +
            cli::echoed(value) + "'");
  };
  auto no_value = [&]() {
    if (has_value) usage(name + " takes no value, got '" + cli::echoed(value) + "'");
  };
  if (name == "--kokkos-help" || name == "--kokkos-disable-warnings" ||
      name == "--kokkos-tune-internals" || name == "--kokkos-tools-help") {
    no_value();
    return arg;
  }
  if (name == "--kokkos-num-threads") {
    integer(1);
#if KOKKOS_VERSION < 30700
    return "--kokkos-threads=" + value;  // Kokkos < 3.7's name; portability-ok
#else
    return arg;
#endif
  }
  if (name == "--kokkos-device-id") {
    integer(0);
    return arg;
  }
  if (name == "--kokkos-num-devices") {  // N or N,SKIP
    need_value("N[,SKIP]");
    const auto comma = value.find(',');
    long long v = 0;
    if (!cli::parse_integer(value.substr(0, comma), 1, 1 << 20, v) ||
        (comma != std::string::npos && !cli::parse_integer(value.substr(comma + 1), 0, 1 << 20, v)))
      usage(name + " needs N or N,SKIP (integers), got '" + cli::echoed(value) + "'");
    return arg;
  }
  if (name == "--kokkos-tools-library" || name == "--kokkos-tools-libs" ||
      name == "--kokkos-tools-args") {
    need_value("VALUE");
    return arg;
  }
  usage("unknown Kokkos option " + cli::echoed(name) +
        " (known: --kokkos-num-threads=N, --kokkos-device-id=N, --kokkos-num-devices=N[,SKIP], "
        "--kokkos-disable-warnings, --kokkos-tune-internals, --kokkos-tools-library=F, "
        "--kokkos-tools-args=A, --kokkos-tools-help, --kokkos-help)");
}

// The command line (CLI11): unknown options, missing or malformed values and stray
// arguments are refused with exit 2; --help and --version print and exit 0.
Cli parse(int argc, char** argv) {
  Cli c;
  std::vector<std::string> args;  // for CLI11, reversed (its order)
  for (int i = argc - 1; i >= 1; --i) {
    const std::string a = argv[i];
    if (a.rfind("--kokkos", 0) == 0)
      c.kokkos.insert(c.kokkos.begin(), kokkos_option(a));
    else
      args.push_back(a);
  }
  for (const std::string& k : c.kokkos)
    if (k == "--kokkos-help") c.kokkos_help = true;  // Kokkos' help alone: no config needed
  if (c.kokkos_help) return c;
  CLI::App app(
      "hinesbatch-sim: runs a network of NEURON-style cells from a JSON config "
      "(docs/SIMULATION.md)",
      "hinesbatch-sim");
  app.set_version_flag("--version", std::string("hinesbatch-sim ") + HINESBATCH_VERSION);
  app.add_option("config", c.config, "the model: a JSON config file (docs/SIMULATION.md)")
      ->required();
  app.add_option("--set", c.sets,
                 "override a config value before it is checked: key.path=value (the value "
                 "parsed as JSON, else taken as a string); repeatable")
      ->allow_extra_args(false);
  app.add_option("--spikes", c.spikes, "spikes file: 'gid time' per line (output.spikes)");
  app.add_option("--traces", c.traces,
                 "traces CSV of the config's records (output.traces); with several ranks "
                 "FILE.rank<r> per rank holding records");
  app.add_option("--metrics", c.metrics, "metrics JSON file (output.metrics)");
  app.add_option("--spikes-sonata", c.spikes_sonata,
                 "spikes as a SONATA spike report, HDF5 (output.spikes_sonata)");
  app.add_option("--export-model", c.model,
                 "the instantiated model as JSON for NEURON (scripts/validation/neuron_run.py)");
  app.add_option("--backend", c.backend, "device (Kokkos' default space) or host")
      ->default_str("device");
  // The run flags: each a shorthand for --set run.<key>=VALUE, checked by the config reader
  // as that key (run_keys()), so that a flag, --set and the JSON cannot disagree.
  struct RunFlag {
    const RunKey* key;
    std::string value;             // an option's
    bool on = false, off = false;  // a Boolean's --flag and --no-flag
  };
  std::vector<RunFlag> run_flags;
  std::vector<std::string> valued = {"--spikes", "--traces", "--metrics", "--export-model",
                                     "--backend"};  // options that take a value
  for (const RunKey& k : run_keys())
    if (!k.flag.empty()) run_flags.push_back({&k});
  for (RunFlag& f : run_flags) {
    const RunKey& k = *f.key;
    if (k.type == RunKey::Boolean) {
      app.add_flag(k.flag, f.on, k.help + " (run." + k.name + " true)");
      app.add_flag("--no-" + k.flag.substr(2), f.off,
                   "the opposite of " + k.flag + " (run." + k.name + " false)");
    } else {
      app.add_option(k.flag, f.value, k.help + " (run." + k.name + ")");
      valued.push_back(k.flag);
    }
  }
  app.add_flag("--quiet", c.quiet, "no progress and summary lines on stderr");
  app.footer(
      "Kokkos options, checked here and handed to Kokkos: --kokkos-num-threads=N, "
      "--kokkos-device-id=N, --kokkos-num-devices=N[,SKIP] (each rank of a node takes GPU "
      "local rank % N), --kokkos-disable-warnings, --kokkos-tune-internals, "
      "--kokkos-tools-library=F, --kokkos-tools-args=A, --kokkos-tools-help, --kokkos-help.\n"
      "Exit status: 0 success; 2 bad input or an output that cannot be written; 1 a run that "
      "fails on its own (non-physical voltage); 128+N killed by signal N (SIGTERM, SIGINT, "
      "SIGHUP: no output is left half-written).");
  try {
    app.parse(args);
  } catch (const CLI::CallForHelp&) {
    std::printf("%s", app.help().c_str());
    std::exit(0);
  } catch (const CLI::CallForAllHelp&) {
    std::printf("%s", app.help("", CLI::AppFormatMode::All).c_str());
    std::exit(0);
  } catch (const CLI::CallForVersion&) {
    std::printf("%s\n", app.version().c_str());
    std::exit(0);
  } catch (const CLI::ParseError& e) {
    const std::string what = e.what();  // quotes the arguments: at most 200 characters
    usage(what.size() <= 200 ? what : what.substr(0, 200) + "...");
  }
  // An option given with an empty value ("--spikes ''") would fall back to the config's.
  for (const std::string& name : valued)
    if (app.count(name) > 0 && app[name]->as<std::string>().empty())
      usage(name + " needs a non-empty value");
  // "--spikes --no-overlap": CLI11 takes the next argument as the value; a value that is
  // one of our options (or any "--name") is a forgotten value, not a file name.
  valued.push_back("--set");
  for (const std::string& name : valued)
    if (app.count(name) > 0)
      for (const std::string& v : app[name]->as<std::vector<std::string>>())
        if (v.rfind("--", 0) == 0)
          usage(name + " needs a value, got the option '" + cli::echoed(v) +
                "' (a file named so: write ./" + cli::echoed(v) + ")");
  for (const std::string& v : c.sets)
    if (v.empty()) usage("--set needs key.path=value, got ''");
  if (c.backend != "device" && c.backend != "host")
    usage("--backend must be device or host, got '" + cli::echoed(c.backend) + "'");
  // After --set's: a flag wins over --set of its key, as over the JSON.
  for (const RunFlag& f : run_flags) {
    if (f.on && f.off)
      usage(f.key->flag + " and --no-" + f.key->flag.substr(2) + " contradict each other");
    if (f.on || f.off) c.sets.push_back(run_key_override(*f.key, f.on ? "true" : "false"));
    if (!f.value.empty()) c.sets.push_back(run_key_override(*f.key, f.value));
  }
  return c;
}

// --- errors agreed on by every rank

// A failure of this rank (rc 0: none) and, after agree(), the first failing rank's.
struct Failure {
  int rc = 0;
  std::string message;
  int rank = 0;
};

// Collective over every rank: the failure of the lowest failing rank, or none. Every rank
// must call it at the same point (no rank may be inside another collective).
Failure agree(const Failure& mine, int rank, int ranks) {
  Failure f = mine;
  f.rank = rank;
#ifdef HINESBATCH_HAVE_MPI
  if (ranks > 1) {
    int flag = mine.rc != 0 ? rank : ranks, first = ranks;
    MPI_Allreduce(&flag, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == ranks) return {};
    int head[2] = {mine.rc, static_cast<int>(std::min<std::size_t>(mine.message.size(), 1 << 16))};
    MPI_Bcast(head, 2, MPI_INT, first, MPI_COMM_WORLD);
    std::string text(static_cast<std::size_t>(head[1]), '\0');
    if (rank == first) text = mine.message.substr(0, text.size());
    MPI_Bcast(text.data(), head[1], MPI_CHAR, first, MPI_COMM_WORLD);
    return {head[0], text, first};
  }
#else
  (void)ranks;
#endif
  return f;
}

Failure failure_of(const std::exception& e) {
  return {dynamic_cast<const InputError*>(&e) ? 2 : 1, e.what(), 0};
}

// Printed once (by rank 0 for an agreed failure), naming the rank it came from.
void print_failure(const Failure& f, int ranks) {
  const std::string where = ranks > 1 ? "rank " + std::to_string(f.rank) + ": " : "";
  std::fprintf(stderr, "hinesbatch-sim: error: %s%s\n", where.c_str(), f.message.c_str());
}

// --- signals: temporaries removed, what was (not) written said, exit 128 + signal

char g_signal_prefix[3][96];

extern "C" void on_signal(int sig) {
  const int k = sig == SIGTERM ? 0 : sig == SIGINT ? 1 : 2;
  remove_output_temporaries(2, g_signal_prefix[k]);
  _exit(128 + sig);
}

void install_signal_handlers(int rank, int ranks) {
  const char* names[3] = {"SIGTERM", "SIGINT", "SIGHUP"};
  const int sigs[3] = {SIGTERM, SIGINT, SIGHUP};
  for (int k = 0; k < 3; ++k) {
    if (ranks > 1)
      std::snprintf(g_signal_prefix[k], sizeof g_signal_prefix[k],
                    "hinesbatch-sim: rank %d: interrupted by %s", rank, names[k]);
    else
      std::snprintf(g_signal_prefix[k], sizeof g_signal_prefix[k],
                    "hinesbatch-sim: interrupted by %s", names[k]);
    struct sigaction sa;
    std::memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    for (int s : sigs) sigaddset(&sa.sa_mask, s);
    sigaction(sigs[k], &sa, nullptr);
  }
}

std::string with_rank(const std::string& f, int rank, int size) {
  return size > 1 ? f + ".rank" + std::to_string(rank) : f;
}

// Every output name of the run on any rank (the traces once per rank that may write them).
std::vector<std::string> all_output_names(const SimulationConfig& cfg, int ranks) {
  std::vector<std::string> out{cfg.outputs.spikes, cfg.outputs.metrics, cfg.outputs.model,
                               cfg.outputs.spikes_sonata};
  if (!cfg.outputs.traces.empty())
    for (int r = 0; r < ranks; ++r) out.push_back(with_rank(cfg.outputs.traces, r, ranks));
  return out;
}

// Traces files of the same name from an earlier run with another number of ranks (F with
// several ranks now, F.rank<k> with one, F.rank<k> for k >= ranks; and this rank's own
// when it holds no records now) would look like this run's: removed once this run's
// outputs are written (a write-protected one is kept, with a warning).
void remove_stale_traces(const std::string& traces, int rank, int ranks, bool own_written) {
  std::vector<std::string> stale;
  if (rank == 0) {
    const auto slash = traces.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : traces.substr(0, slash + 1);
    const std::string base = slash == std::string::npos ? traces : traces.substr(slash + 1);
    if (ranks > 1) stale.push_back(traces);
    if (DIR* d = opendir(dir.c_str())) {
      while (dirent* e = readdir(d)) {
        const std::string name = e->d_name;
        const std::string prefix = base + ".rank";
        if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
        long long k = 0;
        if (!cli::parse_integer(name.substr(prefix.size()), 0, 1 << 30, k)) continue;
        if (ranks == 1 || k >= ranks)
          stale.push_back(slash == std::string::npos ? name : dir + name);
      }
      closedir(d);
    }
  }
  if (ranks > 1 && !own_written) stale.push_back(with_rank(traces, rank, ranks));
  for (const std::string& f : stale) {
    struct stat st;
    if (lstat(f.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if ((st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 || unlink(f.c_str()) != 0)
      std::fprintf(stderr,
                   "hinesbatch-sim: warning: %s: a traces file from an earlier run with another "
                   "number of ranks (or records) is left in place (write-protected or not "
                   "removable)\n",
                   cli::echoed(f).c_str());
    else
      std::fprintf(stderr,
                   "hinesbatch-sim: removed %s: a traces file from an earlier run with another "
                   "number of ranks (or records)\n",
                   cli::echoed(f).c_str());
  }
}

// The run after a setup every rank agreed on. Outputs are checked and the Simulation
// built, then agreed on again; an error during the run itself is thrown (the caller aborts
// every rank). The agreement relies on neither step having a collective: a rank that
// throws there must not leave another waiting inside one (Simulation's constructor
// (simulation.hpp, cell_group.hpp) must stay free of collectives, or move them to run()).
int run(const Cli& cli, SimulationConfig& cfg, SpikeExchange& ex) {
  const int rank = ex.rank();
  const int real_ranks = ex.size();
  std::unique_ptr<RunOutputs> outputs;
  std::unique_ptr<Simulation> sim;
  Failure mine;
  try {
    if (cfg.dry_run_ranks > 1 && real_ranks != 1)
      throw InputError("dry_run_ranks needs a single real rank", cfg.path);
    outputs = std::make_unique<RunOutputs>(cfg.outputs,
                                           cfg.outputs.traces.empty()
                                               ? std::string()
                                               : with_rank(cfg.outputs.traces, rank, real_ranks),
                                           rank);
    if (!cli.model.empty() && rank == 0) {
      const std::int64_t cells = simulated_network(cfg).cells;
      std::vector<std::int64_t> all(static_cast<std::size_t>(cells));
      for (std::int64_t g = 0; g < cells; ++g) all[g] = g;
      export_model(cfg, all, cli.model);
    }
    if (cli.quiet) cfg.run.progress_every_s = 0;
    sim = make_sim(cfg, ex, parse_backend(cli.backend));
  } catch (const std::exception& e) {
    mine = failure_of(e);
  }
  const Failure f = agree(mine, rank, real_ranks);
  if (f.rc != 0) {
    if (rank == 0) print_failure(f, real_ranks);
    return f.rc;
  }
  outputs->start(sim->local_records());  // no traces file on a rank without records
  if (!cli.quiet && rank == 0)
    std::fprintf(stderr,
                 "[hinesbatch-sim] %s: %lld cells (%lld here, %lld nodes), %lld steps of %g ms, "
                 "epoch %d steps, overlap %s, exchange %s, backend %s\n",
                 cfg.path.c_str(), static_cast<long long>(sim->cells()),
                 static_cast<long long>(sim->local_gids().size()),
                 static_cast<long long>(sim->local_nodes()), static_cast<long long>(sim->steps()),
                 cfg.params.dt, sim->epoch_steps(), sim->overlap() ? "on" : "off",
                 sim->exchange_name().c_str(), sim->backend_name().c_str());
  // Traces go to their file epoch by epoch, and are not kept in memory; the rest once the
  // run is complete. Without a traces file the run has no observer (benchmark runs stay as
  // they were).
  const SimulationResult r =
      outputs->writes_traces()
          ? sim->run([&](EpochReport& e) { outputs->on_epoch(e); }, /*keep_traces=*/false)
          : sim->run();
  const RunMetrics& m = r.metrics;
  outputs->finish(r, cfg.path);
  if (!cfg.outputs.traces.empty())
    remove_stale_traces(cfg.outputs.traces, rank, real_ranks, outputs->writes_traces());
  if (rank == 0 && !cli.quiet)
    std::fprintf(stderr,
                 "[hinesbatch-sim] done: %lld spikes, %.3f s wall (%.3g s per simulated s, "
                 "%.3g compartment-steps/s, schedule %s, %d lanes per cell, %d cells per tile), "
                 "exposed communication %.2f%%, "
                 "load balance %.3f\n",
                 static_cast<long long>(m.spikes), m.wall_s, m.wall_s_per_simulated_s(),
                 m.compartment_steps_per_s(), m.schedule.c_str(), m.team_lanes, m.tile_cells,
                 100 * m.exposed_comm_fraction(), m.load_balance());
  return 0;
}

// The setup every rank does alone: the config, the command line's overrides, the outputs
// against the inputs, the memory.
SimulationConfig setup(const Cli& cli, int ranks) {
  SimulationConfig cfg = load_simulation_config(cli.config, cli.sets, catalogue());
  if (!cli.spikes.empty()) cfg.outputs.spikes = cli.spikes;
  if (!cli.traces.empty()) cfg.outputs.traces = cli.traces;
  if (!cli.metrics.empty()) cfg.outputs.metrics = cli.metrics;
  if (!cli.spikes_sonata.empty()) cfg.outputs.spikes_sonata = cli.spikes_sonata;
  if (!cli.model.empty()) cfg.outputs.model = cli.model;
  // A traces file without records would be empty (or missing): refused.
  if (!cfg.outputs.traces.empty() && cfg.records.empty())
    throw InputError(std::string("config key 'record': has no entries, but a traces file is "
                                 "asked for (") +
                         (cli.traces.empty() ? "output.traces" : "--traces") +
                         "): nothing would be written",
                     cfg.path, 0, cfg.outputs.traces);
  // Before the run: no output (every rank's name) may overwrite an input or another output.
  std::vector<std::string> inputs{cfg.path};
  for (const CellTemplate& t : cfg.templates) inputs.push_back(t.morphology.source);
  check_outputs_are_not_inputs(all_output_names(cfg, ranks), inputs, cfg.path);
  check_memory(cfg, ranks);
  return cfg;
}

}  // namespace

int main(int argc, char** argv) {
  // The command line first: --help, --version and its errors need neither MPI nor Kokkos.
  const Cli cli = parse(argc, argv);
  if (cli.kokkos_help) {
    std::vector<char*> kargv{argv[0], const_cast<char*>("--kokkos-help"), nullptr};
    int kargc = 2;
    Kokkos::initialize(kargc, kargv.data());
    Kokkos::finalize();
    return 0;
  }
  int rank = 0;
  int ranks = 1;
#ifdef HINESBATCH_HAVE_MPI
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
#endif
  install_signal_handlers(rank, ranks);
  int rc = 0;
  bool in_run = false;
  {
    std::vector<std::string> kargs{argv[0]};
    for (const std::string& k : cli.kokkos) kargs.push_back(k);
    std::vector<char*> kargv;
    for (std::string& k : kargs) kargv.push_back(k.data());
    kargv.push_back(nullptr);
    int kargc = static_cast<int>(kargs.size());
    Kokkos::initialize(kargc, kargv.data());
    // The setup: any rank's error stops every rank with that error (no rank waits).
    SimulationConfig cfg;
    Failure mine;
    try {
      cfg = setup(cli, ranks);
    } catch (const std::bad_alloc&) {
      mine = {2, "not enough memory to read the config or its morphologies", 0};
    } catch (const std::exception& e) {
      mine = failure_of(e);
    }
    const Failure f = agree(mine, rank, ranks);
    if (f.rc != 0) {
      if (rank == 0) print_failure(f, ranks);
      rc = f.rc;
    } else {
      try {
#ifdef HINESBATCH_HAVE_MPI
        if (provided < MPI_THREAD_SERIALIZED && cfg.run.overlap) {
          if (rank == 0)
            std::fprintf(stderr,
                         "[hinesbatch-sim] MPI gives no MPI_THREAD_SERIALIZED: overlap off\n");
          cfg.run.overlap = false;
        }
        MpiExchange ex;
#else
        LocalExchange ex;
#endif
        in_run = true;
        rc = run(cli, cfg, ex);
        in_run = rc == 0;  // an agreed failure of run()'s setup: every rank returns it
      } catch (const std::exception& e) {
        const Failure g = failure_of(e);
        print_failure({g.rc, g.message, rank}, ranks);
        rc = g.rc;
        const std::string outputs = describe_outputs();
        if (!outputs.empty()) std::fprintf(stderr, "hinesbatch-sim: %s\n", outputs.c_str());
      }
    }
    Kokkos::finalize();
  }
#ifdef HINESBATCH_HAVE_MPI
  // A failure during the run may be this rank's alone: the others may wait in a
  // collective, so every rank is aborted. (With one rank no one waits: no MPI_ABORT banner.)
  if (rc != 0 && in_run && ranks > 1) MPI_Abort(MPI_COMM_WORLD, rc);
  MPI_Finalize();
#endif
  return rc;
}
