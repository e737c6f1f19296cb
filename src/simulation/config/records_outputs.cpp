// The sections about a run rather than the model: records, run options, outputs.
#include "config_reader.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"

namespace hinesbatch::config_impl {

void read_records_section(const json& root, const Ctx& ctx, SimulationConfig& c) {
  const NetworkSpec& n = c.network;
  for (const json& r : ctx.array(root, "", "record")) {
    ctx.only(r, "record[]", {"gid", "location", "variable"});
    RecordSpec rs;
    rs.gid = ctx.integer(r, "record[].", "gid", 0, 0, kMaxCells);
    if (rs.gid >= n.cells)
      ctx.fail("record[].gid",
               "is not a cell of the network (network.cells = " + std::to_string(n.cells) + ")",
               r.value("gid", json(0)));
    rs.where = location(r.value("location", json::object()), ctx, "record[].location");
    const CellTemplate& t = c.templates[n.template_of(rs.gid)];
    check_locations({{"record[].location", rs.where}}, t.morphology, ctx);
    // v, an ion value or <variable>_<mechanism> of a generated mechanism at the location.
    rs.variable = ctx.str(r, "record[].", "variable", "v");
    impl::RecordedVariable resolved;
    std::string why;
    if (!impl::resolve_recorded_variable(t, ctx.mechanisms(), rs.where, rs.variable, resolved, why))
      ctx.fail("record[].variable", why, r.at("variable"));
    c.records.push_back(rs);
  }
}

void read_run_section(const json& root, const Ctx& ctx, SimulationConfig& c) {
  const json run = root.value("run", json::object());
  ctx.only(run, "run",
           {"overlap", "epoch_steps", "partition", "dry_run_ranks", "progress_every_s",
            "host_schedule", "on_chip", "on_chip_kind", "on_chip_lanes"});
  c.run.overlap = ctx.boolean(run, "run.", "overlap", false);
  c.run.epoch_steps = static_cast<int>(ctx.integer(run, "run.", "epoch_steps", 0, 0));
  c.run.progress_every_s = ctx.num(run, "run.", "progress_every_s", 5, 0);
  try {
    c.partition = parse_partition(ctx.str(run, "run.", "partition", "contiguous"));
  } catch (const InputError&) {
    ctx.fail("run.partition", "must be contiguous or balanced", run.at("partition"));
  }
  c.dry_run_ranks = static_cast<int>(ctx.integer(run, "run.", "dry_run_ranks", 0, 0, 1 << 20));
  try {
    c.run.host_schedule = parse_host_schedule(ctx.str(run, "run.", "host_schedule", "lanes"));
  } catch (const InputError&) {
    ctx.fail("run.host_schedule", "must be lanes or cells", run.at("host_schedule"));
  }
  try {
    c.run.on_chip = parse_on_chip_steps(ctx.str(run, "run.", "on_chip", "auto"));
  } catch (const InputError&) {
    ctx.fail("run.on_chip", "must be auto, on or off", run.at("on_chip"));
  }
  try {
    c.run.on_chip_force.kind = parse_on_chip_kind(ctx.str(run, "run.", "on_chip_kind", "auto"));
  } catch (const InputError&) {
    ctx.fail("run.on_chip_kind", "must be auto, warp_per_cell, team_per_cell or team_in_memory",
             run.at("on_chip_kind"));
  }
  c.run.on_chip_force.lanes =
      static_cast<int>(ctx.integer(run, "run.", "on_chip_lanes", 0, 0, 1024));
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
