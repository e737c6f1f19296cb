// hinesbatch-sim: runs a network of NEURON-style cells from a JSON config (issue #5).
//
//   [mpirun -np P] hinesbatch-sim CONFIG.json [--set key.path=value]... [--spikes FILE]
//       [--traces FILE] [--metrics FILE] [--export-model FILE] [--backend device|host]
//       [--no-overlap] [--dry-run-ranks P] [--quiet] [Kokkos options, e.g.
//       --kokkos-num-devices=N to give each rank of a node its own GPU]
//
// Outputs: spikes "gid time" sorted by (time, gid); traces CSV (t and one column per
// record); metrics JSON (wall time per simulated second, compartment-steps/s, spikes and
// bytes per epoch, exposed communication fraction, load balance). Errors: exit 2 with
// "file:line: message (value ...)"; a non-physical result (|V| > 1e4 mV, NaN) exit 1
// naming gid, node and time. Outputs are checked before the run and written to a
// temporary file renamed on success (output_file.hpp); stale ones are removed up front.
#include <Kokkos_Core.hpp>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "hinesbatch/core/command_line.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/output_file.hpp"
#include "hinesbatch/simulation/run.hpp"

#ifdef HINESBATCH_HAVE_MPI
#include <mpi.h>
#endif

namespace {

using namespace hinesbatch;

#ifdef HINESBATCH_HAVE_MPI
// MPI_Allgatherv of the spikes (P3's MPI_Allgather, with counts first). Called from one
// thread at a time (MPI_THREAD_SERIALIZED): the overlap thread or the main thread.
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
  std::vector<std::string> sets;
  std::string spikes, traces, metrics, model, backend = "device", host_schedule, on_chip;
  bool no_overlap = false, quiet = false;
  int dry_run = -1;
};

const char* const kUsage =
    "usage: hinesbatch-sim CONFIG.json [--set key.path=value]... [--spikes F] [--traces F]\n"
    "         [--metrics F] [--export-model F] [--backend device|host] [--no-overlap]\n"
    "         [--host-schedule lanes|cells] [--on-chip auto|on|off]\n"
    "         [--dry-run-ranks P] [--quiet] [--kokkos-... options; --kokkos-help lists them]\n";

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr, "hinesbatch-sim: %s\n%s", why.c_str(), kUsage);
  std::exit(2);
}

// --help / -h: the program's own help on stdout, exit 0, before Kokkos sees argv.
bool wants_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) return true;
  return false;
}

Cli parse(int argc, char** argv) {
  Cli c;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(("missing value after " + a).c_str());
      return argv[++i];
    };
    if (a == "--set")
      c.sets.push_back(value());
    else if (a == "--spikes")
      c.spikes = value();
    else if (a == "--traces")
      c.traces = value();
    else if (a == "--metrics")
      c.metrics = value();
    else if (a == "--export-model")
      c.model = value();
    else if (a == "--backend")
      c.backend = value();
    else if (a == "--no-overlap")
      c.no_overlap = true;
    else if (a == "--host-schedule")
      c.host_schedule = value();
    else if (a == "--on-chip")
      c.on_chip = value();
    else if (a == "--dry-run-ranks") {
      const std::string v = value();
      long long p = 0;
      if (!cli::parse_integer(v, 0, 1 << 20, p))
        usage("--dry-run-ranks needs an integer in [0, 1048576], got '" + cli::echoed(v) + "'");
      c.dry_run = static_cast<int>(p);
    } else if (a == "--quiet")
      c.quiet = true;
    else if (a.rfind("--kokkos", 0) == 0)
      continue;  // Kokkos took it
    else if (!a.empty() && a[0] == '-')
      usage("unknown option " + cli::echoed(a));
    else if (c.config.empty())
      c.config = a;
    else
      usage("unexpected argument " + cli::echoed(a));
  }
  if (c.config.empty()) usage("no config file");
  if (c.backend != "device" && c.backend != "host") usage("--backend must be device or host");
  if (!c.host_schedule.empty() && c.host_schedule != "lanes" && c.host_schedule != "cells")
    usage("--host-schedule must be lanes or cells, got '" + cli::echoed(c.host_schedule) + "'");
  if (!c.on_chip.empty() && c.on_chip != "auto" && c.on_chip != "on" && c.on_chip != "off")
    usage("--on-chip must be auto, on or off, got '" + cli::echoed(c.on_chip) + "'");
  return c;
}

std::string with_rank(const std::string& f, int rank, int size) {
  return size > 1 ? f + ".rank" + std::to_string(rank) : f;
}

int run(const Cli& cli, SimulationConfig& cfg, SpikeExchange& ex) {
  const int rank = ex.rank();
  const int real_ranks = ex.size();
  if (cfg.dry_run_ranks > 1 && real_ranks != 1)
    throw InputError("dry_run_ranks needs a single real rank", cfg.path);
  // Outputs opened (temporary files created, stale ones removed) before the run. Every
  // rank learns whether one failed, so that none is left waiting in a collective.
  std::unique_ptr<OutputFile> spikes_out, traces_out, metrics_out;
  std::string open_error;
  try {
    if (rank == 0 && !cfg.outputs.spikes.empty())
      spikes_out = std::make_unique<OutputFile>(cfg.outputs.spikes, "spikes file");
    if (rank == 0 && !cfg.outputs.metrics.empty())
      metrics_out = std::make_unique<OutputFile>(cfg.outputs.metrics, "metrics file");
    if (!cfg.outputs.traces.empty() && !cfg.records.empty())
      traces_out = std::make_unique<OutputFile>(with_rank(cfg.outputs.traces, rank, real_ranks),
                                                "traces file");
    if (!cli.model.empty() && rank == 0) {
      const std::int64_t cells = simulated_network(cfg).cells;
      std::vector<std::int64_t> all(static_cast<std::size_t>(cells));
      for (std::int64_t g = 0; g < cells; ++g) all[g] = g;
      export_model(cfg, all, cli.model);
    }
  } catch (const InputError& e) {
    open_error = e.what();
  }
  if (ex.max(open_error.empty() ? 0 : 1) > 0)
    throw InputError(open_error.empty() ? "another rank cannot write its outputs" : open_error);
  if (cli.quiet) cfg.run.progress_every_s = 0;
  Simulation sim(cfg, ex, parse_backend(cli.backend));
  if (sim.local_records().empty()) traces_out.reset();  // no traces file on this rank
  if (!cli.quiet && rank == 0)
    std::fprintf(stderr,
                 "[hinesbatch-sim] %s: %lld cells (%lld here, %lld nodes), %lld steps of %g ms, "
                 "epoch %d steps, overlap %s, exchange %s, backend %s\n",
                 cfg.path.c_str(), static_cast<long long>(sim.cells()),
                 static_cast<long long>(sim.local_gids().size()),
                 static_cast<long long>(sim.local_nodes()), static_cast<long long>(sim.steps()),
                 cfg.params.dt, sim.epoch_steps(), sim.overlap() ? "on" : "off",
                 sim.exchange_name().c_str(), sim.backend_name().c_str());
  const SimulationResult r = sim.run();
  const RunMetrics& m = r.metrics;
  if (spikes_out) {
    for (std::size_t i = 0; i < r.spike_gids.size(); ++i)
      spikes_out->printf("%lld %.6f\n", static_cast<long long>(r.spike_gids[i]), r.spike_times[i]);
    spikes_out->commit();
  }
  if (traces_out) {
    OutputFile& f = *traces_out;
    f.printf("t");
    for (const RecordSpec& rec : r.records)
      f.printf(",g%lld_s%d_x%g", static_cast<long long>(rec.gid), rec.where.section, rec.where.x);
    f.printf("\n");
    for (std::size_t k = 0; k < r.times.size(); ++k) {
      f.printf("%.9g", r.times[k]);
      for (const std::vector<double>& trace : r.traces) f.printf(",%.9g", trace[k]);
      f.printf("\n");
    }
    f.commit();
  }
  if (rank == 0) {
    char buf[4096];
    std::snprintf(
        buf, sizeof buf,
        "{\n  \"config\": \"%s\",\n  \"backend\": \"%s\",\n  \"exchange\": \"%s\",\n"
        "  \"schedule\": \"%s\",\n  \"cell_lanes\": %d,\n  \"schedule_detail\": \"%s\",\n"
        "  \"ranks\": %d,\n  \"cells\": %lld,\n  \"compartments\": %lld,\n"
        "  \"connections_rank0\": %lld,\n  \"overlap\": %s,\n  \"epoch_steps\": %d,\n"
        "  \"steps\": %lld,\n  \"epochs\": %lld,\n  \"simulated_ms\": %.6g,\n"
        "  \"setup_s\": %.6g,\n  \"setup_cells_s\": %.6g,\n  \"setup_connections_s\": %.6g,\n"
        "  \"wall_s\": %.6g,\n  "
        "\"wall_s_per_simulated_s\": %.6g,\n"
        "  \"compartment_steps_per_s\": %.6g,\n  \"compute_s_rank0\": %.6g,\n"
        "  \"compute_max_s\": %.6g,\n  \"compute_mean_s\": %.6g,\n  \"load_balance\": %.6g,\n"
        "  \"exchange_s_rank0\": %.6g,\n  \"exposed_exchange_s_rank0\": %.6g,\n"
        "  \"exposed_comm_fraction\": %.6g,\n  \"events_s_rank0\": %.6g,\n"
        "  \"spikes\": %lld,\n  \"spikes_per_epoch\": %.6g,\n  \"max_spikes_per_epoch\": %lld,\n"
        "  \"bytes_per_epoch\": %.6g,\n  \"events_delivered_rank0\": %lld\n}\n",
        cfg.path.c_str(), r.backend.c_str(), m.exchange.c_str(), m.schedule.c_str(), m.cell_lanes,
        m.schedule_detail.c_str(), m.ranks, static_cast<long long>(r.cells),
        static_cast<long long>(m.global_nodes), static_cast<long long>(m.local_connections),
        m.overlap ? "true" : "false", m.epoch_steps, static_cast<long long>(m.steps),
        static_cast<long long>(m.epochs), m.simulated_ms, m.setup_s, m.setup_cells_s,
        m.setup_connections_s, m.wall_max_s, m.wall_s_per_simulated_s(),
        m.compartment_steps_per_s(), m.compute_s, m.compute_max_s, m.compute_mean_s,
        m.load_balance(), m.exchange_s, m.exposed_exchange_s, m.exposed_comm_fraction(), m.events_s,
        static_cast<long long>(m.spikes), m.spikes_per_epoch(),
        static_cast<long long>(m.max_spikes_per_epoch), m.bytes_per_epoch(),
        static_cast<long long>(m.events_delivered));
    if (metrics_out) {
      metrics_out->write(buf);
      metrics_out->commit();
    }
    if (!cli.quiet)
      std::fprintf(
          stderr,
          "[hinesbatch-sim] done: %lld spikes, %.3f s wall (%.3g s per simulated s, "
          "%.3g compartment-steps/s, schedule %s, %d lanes), exposed communication %.2f%%, "
          "load balance %.3f\n",
          static_cast<long long>(m.spikes), m.wall_max_s, m.wall_s_per_simulated_s(),
          m.compartment_steps_per_s(), m.schedule.c_str(), m.cell_lanes,
          100 * m.exposed_comm_fraction(), m.load_balance());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (wants_help(argc, argv)) {
    std::printf(
        "hinesbatch-sim: runs a network of NEURON-style cells from a JSON config "
        "(docs/SIMULATION.md)\n%s",
        kUsage);
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
  int rc = 0;
  {
    Kokkos::initialize(argc, argv);
    try {
      const Cli cli = parse(argc, argv);
      SimulationConfig cfg = load_simulation_config(cli.config, cli.sets);
      if (!cli.spikes.empty()) cfg.outputs.spikes = cli.spikes;
      if (!cli.traces.empty()) cfg.outputs.traces = cli.traces;
      if (!cli.metrics.empty()) cfg.outputs.metrics = cli.metrics;
      if (cli.no_overlap) cfg.run.overlap = false;
      if (!cli.host_schedule.empty())
        cfg.run.host_schedule = parse_host_schedule(cli.host_schedule);
      if (!cli.on_chip.empty()) cfg.run.on_chip = parse_on_chip_steps(cli.on_chip);
      if (cli.dry_run >= 0) cfg.dry_run_ranks = cli.dry_run;
      if (!cli.model.empty()) cfg.outputs.model = cli.model;
      // Before the run: no output may overwrite an input, sizes must fit in memory.
      std::vector<std::string> inputs{cfg.path};
      for (const CellTemplate& t : cfg.templates) inputs.push_back(t.morphology.source);
      check_outputs_are_not_inputs(
          {cfg.outputs.spikes, cfg.outputs.traces, cfg.outputs.metrics, cfg.outputs.model}, inputs,
          cfg.path);
      check_memory(cfg, ranks);
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
      rc = run(cli, cfg, ex);
    } catch (const InputError& e) {
      std::fprintf(stderr, "hinesbatch-sim: error: %s\n", e.what());
      rc = 2;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hinesbatch-sim: error: %s\n", e.what());
      rc = 1;
    }
    Kokkos::finalize();
  }
#ifdef HINESBATCH_HAVE_MPI
  // Config errors are the same on every rank, so all ranks leave together; anything
  // else may be one rank's alone and must not leave the others waiting.
  // (With one rank there is no one to wait: no MPI_ABORT banner.)
  if (rc != 0 && rc != 2 && ranks > 1) MPI_Abort(MPI_COMM_WORLD, rc);
  MPI_Finalize();
#endif
  return rc;
}
