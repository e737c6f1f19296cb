// The run-time catalogue description (catalogue.hpp) and the library's default catalogue.
#include "hinesbatch/simulation/catalogue.hpp"

#include "hinesbatch/simulation/nmodl/defaults/defaults.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"

namespace hinesbatch {

namespace {

template <class List>
std::string joined(const List& list) {
  std::string out;
  for (const auto& x : list) out += (out.empty() ? "" : ", ") + x.name;
  return out;
}

}  // namespace

int CatalogueMechanism::variable_index(const std::string& n) const {
  for (std::size_t k = 0; k < variables.size(); ++k)
    if (variables[k].name == n) return static_cast<int>(k);
  return -1;
}

int CatalogueMechanism::global_index(const std::string& n) const {
  for (std::size_t k = 0; k < globals.size(); ++k)
    if (globals[k].name == n) return static_cast<int>(k);
  return -1;
}

std::string CatalogueMechanism::settable_names() const {
  std::string out;
  for (const CatalogueVariable& v : variables)
    if (v.kind == CatalogueVariable::Parameter) out += (out.empty() ? "" : ", ") + v.name;
  for (const CatalogueGlobal& g : globals) out += (out.empty() ? "" : ", ") + g.name;
  return out.empty() ? "none" : out;
}

int MechanismCatalogue::index_of(const std::string& mechanism) const {
  for (std::size_t k = 0; k < mechanisms.size(); ++k)
    if (mechanisms[k].name == mechanism) return static_cast<int>(k);
  return -1;
}

int MechanismCatalogue::ion_index(const std::string& ion) const {
  for (std::size_t k = 0; k < ions.size(); ++k)
    if (ions[k].name == ion) return static_cast<int>(k);
  return -1;
}

std::string MechanismCatalogue::mechanism_names() const { return joined(mechanisms); }

const MechanismCatalogue& default_catalogue() {
  static const MechanismCatalogue c = nmodl::describe_catalogue<nmodl::defaults::defaults>();
  return c;
}

}  // namespace hinesbatch
