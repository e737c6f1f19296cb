#include "hinesbatch/simulation/mechanisms.hpp"

#include <cmath>
#include <cstdio>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

Region parse_region(const std::string& name) {
  if (name == "soma") return Region::Soma;
  if (name == "axon") return Region::Axon;
  if (name == "dend") return Region::Dend;
  if (name == "all") return Region::All;
  if (name == "apic") return Region::Apic;
  if (name == "basal") return Region::Basal;
  throw InputError("unknown region (soma, axon, dend, apic, basal, all)", {}, 0, name);
}

bool in_region(Region r, int swc_type) {
  switch (r) {
    case Region::Soma:
      return swc_type == 1;
    case Region::Axon:
      return swc_type == 2;
    case Region::Dend:
      return swc_type != 1 && swc_type != 2;
    case Region::All:
      return true;
    case Region::Apic:
      return swc_type == 4;
    case Region::Basal:
      return swc_type == 3;
  }
  return false;
}

double ParameterValue::at(double x) const {
  switch (kind) {
    case Constant:
      return value;
    case Linear:
      return scale * (a + b * x);
    case Exp:
      return scale * (a + c * std::exp(b * (x - x0)));
    case Sigmoid:
      return scale * (a + c / (1 + std::exp((x - x0) / b)));
    case Window:
      return scale * (x > x0 && x < x1 ? inside : outside);
  }
  return value;
}

std::vector<int> CellTemplate::sections_in(Region r) const {
  std::vector<int> out;
  for (int s = 0; s < morphology.size(); ++s)
    if (in_region(r, morphology.sections[s].swc_type)) out.push_back(s);
  return out;
}

std::vector<int> CellTemplate::sections_of(const DensityMechanism& m) const {
  return sections_in(m.region);
}

CellTemplate make_cell_template(SectionedMorphology morphology, double Ra, double cm,
                                std::vector<DensityMechanism> density,
                                std::vector<IClampSpec> iclamps, std::vector<ExpSynSpec> synapses,
                                DetectorSpec detector) {
  auto bad = [&](const std::string& what, double v) {
    throw InputError(what, morphology.source, 0, format_value(v));
  };
  if (!(cm > 0) || !std::isfinite(cm)) bad("membrane capacitance cm must be positive", cm);
  CellTemplate t;
  t.compartments = neuron_compartments(morphology, Ra);
  t.morphology = std::move(morphology);
  t.Ra = Ra;
  t.cm = cm;
  for (const auto& m : density) {
    const double g[] = {m.pas.g, m.hh.gnabar, m.hh.gkbar, m.hh.gl};
    for (double x : g)
      if (!(x >= 0) || !std::isfinite(x)) bad("mechanism conductance must be >= 0", x);
  }
  for (const auto& c : iclamps) {
    t.compartments.node_at(c.where);
    if (!(c.dur >= 0) || !std::isfinite(c.amp) || !std::isfinite(c.del))
      bad("IClamp needs finite del, amp and dur >= 0", c.dur);
  }
  for (const auto& s : synapses) {
    t.compartments.node_at(s.where);
    if (!(s.tau > 0) || !std::isfinite(s.e)) bad("ExpSyn needs tau > 0 and a finite e", s.tau);
  }
  if (detector.present) t.compartments.node_at(detector.where);
  t.density = std::move(density);
  t.iclamps = std::move(iclamps);
  t.synapses = std::move(synapses);
  t.detector = detector;
  return t;
}

}  // namespace hinesbatch
