#include "hinesbatch/simulation/mechanisms.hpp"

#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/simulation/impl/mechanism_entry.hpp"

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
    case Region::Listed:
      return false;
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

namespace {

// The sections of m in region r (Listed: `listed` itself), in index order.
std::vector<int> sections_of_region(const SectionedMorphology& m, Region r,
                                    const std::vector<int>& listed) {
  if (r == Region::Listed) return listed;
  std::vector<int> out;
  for (int s = 0; s < m.size(); ++s)
    if (in_region(r, m.sections[s].swc_type)) out.push_back(s);
  return out;
}

}  // namespace

std::vector<int> CellTemplate::sections_in(Region r, const std::vector<int>& listed) const {
  return sections_of_region(morphology, r, listed);
}

std::vector<int> CellTemplate::sections_of(const DensityMechanism& m) const {
  return sections_in(m.region, m.listed);
}

std::vector<int> CellTemplate::sections_of(const GeneratedMechanism& m) const {
  return sections_in(m.region, m.listed);
}

std::vector<double> values_by_region(const SectionedMorphology& m, double base,
                                     const std::vector<RegionValue>& entries) {
  std::vector<double> out(static_cast<std::size_t>(m.size()), base);
  for (const RegionValue& e : entries)
    for (int s : sections_of_region(m, e.region, e.listed))
      if (s >= 0 && s < m.size()) out[static_cast<std::size_t>(s)] = e.value;  // listed: checked
  return out;
}

std::vector<double> CellTemplate::section_cm() const {
  return values_by_region(morphology, cm, cm_by_region);
}

std::vector<double> CellTemplate::section_Ra() const {
  return values_by_region(morphology, Ra, Ra_by_region);
}

void set_membrane_by_region(CellTemplate& t, std::vector<RegionValue> cm,
                            std::vector<RegionValue> Ra) {
  for (const auto* entries : {&cm, &Ra})
    for (const RegionValue& e : *entries) {
      const char* what = entries == &cm ? "membrane capacitance cm" : "axial resistivity Ra";
      if (!(e.value > 0) || !std::isfinite(e.value))
        throw InputError(std::string(what) + " must be positive", t.morphology.source, 0,
                         format_value(e.value));
      for (int s : e.listed)
        if (s < 0 || s >= t.morphology.size())
          throw InputError(std::string(what) + ": a listed section the morphology does not have (" +
                               std::to_string(t.morphology.size()) + " sections)",
                           t.morphology.source, 0, std::to_string(s));
    }
  // The compartments have t.Ra on every section unless an earlier call set Ra by region.
  const bool uniform_before = t.Ra_by_region.empty();
  t.cm_by_region = std::move(cm);
  t.Ra_by_region = std::move(Ra);
  if (!(uniform_before && t.Ra_by_region.empty()))
    t.compartments = neuron_compartments(t.morphology, t.section_Ra());
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

namespace hinesbatch::impl {

namespace {

// m's PARAMETER of that name (a RANGE or not), or not one.
bool has_parameter(const CatalogueMechanism& m, const char* name) {
  const int v = m.variable_index(name);
  return v >= 0 && m.variables[v].kind == CatalogueVariable::Parameter;
}

// Whether the catalogue has mechanism `name` of that kind with every parameter named.
bool catalogue_has(const MechanismCatalogue& cat, const char* name, bool point_process,
                   std::initializer_list<const char*> parameters) {
  const int k = cat.index_of(name);
  if (k < 0 || cat.mechanisms[k].point_process != point_process) return false;
  for (const char* p : parameters)
    if (!has_parameter(cat.mechanisms[k], p)) return false;
  return true;
}

MechanismParameter constant(const char* name, double value) {
  MechanismParameter p;
  p.name = name;
  p.value.kind = ParameterValue::Constant;
  p.value.value = value;
  return p;
}

}  // namespace

void builtins_from_catalogue(std::vector<CellTemplate>& templates, const MechanismCatalogue& cat) {
  const bool pas = catalogue_has(cat, "pas", false, {"g", "e"});
  const bool hh = catalogue_has(cat, "hh", false, {"gnabar", "gkbar", "gl", "el"});
  const bool expsyn = catalogue_has(cat, "ExpSyn", true, {"tau", "e"});
  for (CellTemplate& t : templates) {
    // Every parameter given, so that a later entry of a mechanism replaces all of an earlier
    // one's where both apply, as among the built-ins; ahead of the template's generated
    // entries, which were given to override what the built-ins set.
    std::vector<GeneratedMechanism> lowered;
    std::vector<DensityMechanism> kept;
    for (const DensityMechanism& d : t.density) {
      GeneratedMechanism g;
      g.region = d.region;
      g.listed = d.listed;
      if (d.kind == DensityMechanism::Pas && pas) {
        g.name = "pas";
        g.parameters = {constant("g", d.pas.g), constant("e", d.pas.e)};
      } else if (d.kind == DensityMechanism::HH && hh) {
        g.name = "hh";
        g.parameters = {constant("gnabar", d.hh.gnabar), constant("gkbar", d.hh.gkbar),
                        constant("gl", d.hh.gl), constant("el", d.hh.el)};
      } else {
        kept.push_back(d);
        continue;
      }
      lowered.push_back(std::move(g));
    }
    lowered.insert(lowered.end(), t.generated.begin(), t.generated.end());
    t.generated = std::move(lowered);
    t.density = std::move(kept);
    if (expsyn)
      for (ExpSynSpec& s : t.synapses)
        if (s.mechanism.builtin())
          s.mechanism = {"ExpSyn", {constant("tau", s.tau), constant("e", s.e)}};
  }
}

}  // namespace hinesbatch::impl
