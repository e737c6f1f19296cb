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

// The index of the entry of `list` called `name`, -1 if there is none.
template <class List>
int index_by_name(const List& list, const std::string& name) {
  for (std::size_t k = 0; k < list.size(); ++k)
    if (list[k].name == name) return static_cast<int>(k);
  return -1;
}

}  // namespace

int CatalogueMechanism::variable_index(const std::string& n) const {
  return index_by_name(variables, n);
}

int CatalogueMechanism::global_index(const std::string& n) const {
  return index_by_name(globals, n);
}

std::string CatalogueMechanism::settable_names() const {
  std::string out;
  for (const CatalogueVariable& v : variables)
    if (v.kind == CatalogueVariable::Parameter) out += (out.empty() ? "" : ", ") + v.name;
  for (const CatalogueGlobal& g : globals) out += (out.empty() ? "" : ", ") + g.name;
  return out.empty() ? "none" : out;
}

int MechanismCatalogue::index_of(const std::string& mechanism) const {
  return index_by_name(mechanisms, mechanism);
}

int MechanismCatalogue::ion_index(const std::string& ion) const { return index_by_name(ions, ion); }

std::string MechanismCatalogue::mechanism_names() const { return joined(mechanisms); }

const MechanismCatalogue& default_catalogue() {
  static const MechanismCatalogue c = nmodl::describe_catalogue<nmodl::defaults::defaults>();
  return c;
}

}  // namespace hinesbatch
