// The top-level keys: time step, duration, initial voltage, temperature, reversal
// potentials.
#include "config_reader.hpp"

namespace hinesbatch::config_impl {

void read_simulation_section(const json& root, const Ctx& ctx, SimulationParameters& p) {
  p.dt = ctx.num(root, "", "dt", p.dt);
  p.tstop = ctx.num(root, "", "tstop", p.tstop);
  p.v_init = ctx.num(root, "", "v_init", p.v_init);
  p.celsius = ctx.num(root, "", "celsius", p.celsius);
  p.ena = ctx.num(root, "", "ena", p.ena);
  p.ek = ctx.num(root, "", "ek", p.ek);
  if (!(p.dt > 0)) ctx.fail("dt", "must be > 0", root.value("dt", json()));
  if (!(p.tstop >= 0)) ctx.fail("tstop", "must be >= 0", root.value("tstop", json()));
  // Step count up front: tstop 1e20 or dt 1e-300 would overflow it (and nothing would run).
  if (!(p.tstop / p.dt <= kMaxSimulationSteps))
    ctx.fail("tstop",
             "over dt is " + format_value(p.tstop / p.dt) + " steps, more than the limit of " +
                 format_value(kMaxSimulationSteps) + " (dt " + format_value(p.dt) + " ms)",
             p.tstop);
}

}  // namespace hinesbatch::config_impl
