#include "hinesbatch/morphology/cable_matrix.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

CableMatrix cable_matrix(const NeuronCompartments& c, double cm_uF_cm2, double dt_ms) {
  if (!(cm_uF_cm2 > 0 && std::isfinite(cm_uF_cm2)))
    throw InputError("cable matrix: membrane capacitance cm must be positive", {}, 0,
                     format_value(cm_uF_cm2));
  const int sections = static_cast<int>(c.first_centre.size());
  return cable_matrix(c, std::vector<double>(static_cast<std::size_t>(sections), cm_uF_cm2), dt_ms);
}

CableMatrix cable_matrix(const NeuronCompartments& c, const std::vector<double>& cm_of_section,
                         double dt_ms) {
  const auto positive = [](double x) { return x > 0 && std::isfinite(x); };
  if (cm_of_section.size() != c.first_centre.size())
    throw InputError("cable matrix: one cm per section expected", {}, 0,
                     std::to_string(cm_of_section.size()));
  for (const double cm : cm_of_section)
    if (!positive(cm))
      throw InputError("cable matrix: membrane capacitance cm must be positive", {}, 0,
                       format_value(cm));
  if (!positive(dt_ms))
    throw InputError("cable matrix: time step dt must be positive", {}, 0, format_value(dt_ms));
  const int n = c.size();
  CableMatrix m;
  m.d0.assign(n, 0.0);
  m.c_dt.assign(n, 0.0);
  m.minus_g_axial.assign(n, 0.0);
  // Parents come before children, so a node's C/dt is in d0 before its children's g: the
  // order of the sums is the one every earlier run used (rasters stay bit for bit).
  for (int i = 0; i < n; ++i) {
    // uF/cm2 um2 / ms -> uS; a node's area is its own section's (section ends have none)
    m.c_dt[i] = cm_of_section[c.section_of_node[i]] * c.area_um2[i] * 1e-5 / dt_ms;
    m.d0[i] += m.c_dt[i];
    if (i > 0) {
      const double g = c.g_axial_uS[i];
      m.minus_g_axial[i] = -g;
      m.d0[i] += g;
      m.d0[c.tree.parent(i)] += g;
    }
  }
  return m;
}

}  // namespace hinesbatch
