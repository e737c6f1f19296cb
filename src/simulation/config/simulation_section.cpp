// The top-level keys: time step, duration, initial voltage, temperature, reversal
// potentials.
#include <algorithm>
#include <cmath>

#include "config_reader.hpp"

namespace hinesbatch::config_impl {
namespace {
// Whether a time over dt is a whole number of steps, to within the division's rounding.
bool whole_steps(double steps) {
  return std::fabs(steps - std::round(steps)) <= 1e-9 * std::max(1.0, steps);
}
}  // namespace

void read_simulation_section(const json& root, const Ctx& ctx, SimulationParameters& p) {
  // Physical ranges up front: a voltage beyond +-1000 mV or a temperature below absolute
  // zero is a typo, not a model.
  p.dt = ctx.num(root, "", "dt", p.dt);
  p.tstop = ctx.num(root, "", "tstop", p.tstop);
  p.v_init = ctx.num(root, "", "v_init", p.v_init, -kMaxAbsVoltage, kMaxAbsVoltage);
  p.celsius = ctx.num(root, "", "celsius", p.celsius, -273.15, 100);
  p.ena = ctx.num(root, "", "ena", p.ena, -kMaxAbsVoltage, kMaxAbsVoltage);
  p.ek = ctx.num(root, "", "ek", p.ek, -kMaxAbsVoltage, kMaxAbsVoltage);
  if (!(p.dt > 0 && p.dt <= 1000))
    ctx.fail("dt", "must lie in (0, 1000] ms", root.value("dt", json()));
  if (!(p.tstop >= 0)) ctx.fail("tstop", "must be >= 0", root.value("tstop", json()));
  // Step count up front: tstop 1e20 or dt 1e-300 would overflow it (and nothing would run).
  if (!(p.tstop / p.dt <= kMaxSimulationSteps))
    ctx.fail("tstop",
             "over dt is " + format_value(p.tstop / p.dt) + " steps, more than the limit of " +
                 format_value(kMaxSimulationSteps) + " (dt " + format_value(p.dt) + " ms)",
             p.tstop);
  // A whole number of steps: 1.0125 with dt 0.025 would stop at 1 ms, 0.5 with dt 1 at 1 ms.
  const double steps = p.tstop / p.dt;
  if (!whole_steps(steps))
    ctx.fail("tstop",
             "is not a whole number of steps of dt = " + format_value(p.dt) +
                 " ms (tstop / dt = " + format_value(steps) + "; the run would stop at " +
                 format_value(static_cast<double>(p.steps()) * p.dt) + " ms)",
             json(p.tstop));
  // Trace rows every record_dt: a whole number of steps, as NEURON's Vector.record(&v, Dt)
  // samples on the step grid only where Dt is one.
  if (root.contains("record_dt")) {
    p.record_dt = ctx.num(root, "", "record_dt", p.record_dt);
    const double every = p.record_dt / p.dt;
    if (!(p.record_dt > 0) || !(every <= kMaxSimulationSteps))
      ctx.fail("record_dt",
               "must be > 0 ms and at most " + format_value(kMaxSimulationSteps) + " steps of dt",
               root.at("record_dt"));
    if (every < 1 - 1e-9 || !whole_steps(every))
      ctx.fail("record_dt",
               "is not a whole number of steps of dt = " + format_value(p.dt) +
                   " ms (record_dt / dt = " + format_value(every) + ")",
               root.at("record_dt"));
  }
}

}  // namespace hinesbatch::config_impl
