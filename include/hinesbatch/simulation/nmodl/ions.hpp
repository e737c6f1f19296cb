#pragma once
// NEURON 8.2's initial values of an ion (host code): what a cell starts with unless its
// model sets them.
#include <string>

namespace hinesbatch::nmodl {

struct IonSetup {
  std::string name;
  int valence = 0;
  double ci0 = 1, co0 = 1, e0 = 0;  // NEURON's defaults for a new ion
};

// NEURON 8.2's defaults for its built-in ions (nai0_na_ion, ..., ena, ek, eca).
inline IonSetup default_ion(const std::string& name, int valence) {
  if (name == "na") return {name, 1, 10.0, 140.0, 50.0};
  if (name == "k") return {name, 1, 54.4, 2.5, -77.0};
  if (name == "ca") return {name, 2, 5e-5, 2.0, 132.4579341637009};
  return {name, valence, 1.0, 1.0, 0.0};
}

}  // namespace hinesbatch::nmodl
