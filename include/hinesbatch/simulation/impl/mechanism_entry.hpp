#pragma once
// The schema of a generated (NMODL) mechanism's entry, checked against the catalogue in one
// place: which mechanism it names, and which parameters it sets with what kind of value. The
// config reader (a cell.mechanisms entry, which the Python module's templates are too) names
// the entry's config key with the reason; the layout of templates given in code
// (generated_layout.hpp) names the template's morphology.
#include <cstddef>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"

namespace hinesbatch::impl {

struct MechanismEntryProblem {
  enum Part { None, Name, Parameter };
  Part part = None;
  int parameter = -1;  // Parameter: its index in the entry's parameters
  std::string why;     // follows the entry's name (or the parameter's) in a message
  explicit operator bool() const { return part != None; }
};

// A GLOBAL of m (one value for the whole run) rather than a RANGE PARAMETER of that name.
inline bool is_global_parameter(const CatalogueMechanism& m, const std::string& name) {
  return m.global_index(name) >= 0 && m.variable_index(name) < 0;
}

// The first problem of entry e against catalogue cat: a mechanism the catalogue lacks, a
// point process, a parameter that is neither a PARAMETER nor a GLOBAL of the mechanism, a
// distance function on a GLOBAL. The parameters' values are not looked at otherwise.
inline MechanismEntryProblem mechanism_entry_problem(const GeneratedMechanism& e,
                                                     const MechanismCatalogue& cat) {
  using P = MechanismEntryProblem;
  const int index = cat.index_of(e.name);
  if (index < 0)
    return {P::Name, -1,
            "unknown mechanism: neither a built-in (pas, hh) nor in the catalogue '" + cat.name +
                "' (" + cat.mechanism_names() + ")"};
  const CatalogueMechanism& m = cat.mechanisms[index];
  if (m.point_process)
    return {P::Name, -1,
            "is a point process: cell.mechanisms inserts density mechanisms in regions"};
  if (m.artificial_cell)
    return {P::Name, -1,
            "is an artificial cell (a spike source of its own: sources[].mechanism), not a "
            "density mechanism"};
  for (std::size_t k = 0; k < e.parameters.size(); ++k) {
    const MechanismParameter& p = e.parameters[k];
    const int v = m.variable_index(p.name);
    const bool global = is_global_parameter(m, p.name);
    if (!global && (v < 0 || m.variables[v].kind != CatalogueVariable::Parameter))
      return {P::Parameter, static_cast<int>(k),
              std::string(v < 0 ? "unknown parameter"
                                : "not a parameter (a state or assigned variable)") +
                  " of " + m.name + " (its parameters: " + m.settable_names() + ")"};
    if (global && p.value.kind != ParameterValue::Constant)
      return {P::Parameter, static_cast<int>(k), "must be a number (a GLOBAL is one value)"};
  }
  return {};
}

// Every generated mechanism of template t checked (mechanism_entry_problem): InputError
// naming the template's morphology, the mechanism and the parameter.
inline void check_mechanism_entries(const CellTemplate& t, const MechanismCatalogue& cat) {
  for (const GeneratedMechanism& e : t.generated) {
    const MechanismEntryProblem problem = mechanism_entry_problem(e, cat);
    if (!problem) continue;
    if (problem.part == MechanismEntryProblem::Name)
      throw InputError("mechanism '" + e.name + "': " + problem.why, t.morphology.source, 0,
                       e.name);
    const std::string& p = e.parameters[static_cast<std::size_t>(problem.parameter)].name;
    throw InputError("mechanism '" + e.name + "', parameter '" + p + "': " + problem.why,
                     t.morphology.source, 0, p);
  }
}

// pas and hh given as built-ins (DensityMechanism: cell.mechanisms with their parameters as
// keys) and the built-in ExpSyn of synapses (tau and e) become the catalogue's mechanisms of
// those names, compiled from .mod files like any other (mechanisms/default, or a program's
// own), with every parameter given. Whatever the catalogue lacks, or has with other
// parameters, stays built-in. The simulation does this unless run.mechanisms is "builtin":
// the hand-written ones are the references the generated code is tested against.
void builtins_from_catalogue(std::vector<CellTemplate>& templates, const MechanismCatalogue& cat);

}  // namespace hinesbatch::impl
