#pragma once
// Where the NeuroMorpho files beside the project are: $HINESBATCH_SHARED_DIR at run
// time (for binaries run on another machine), else the folder configured at build time.
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "hinesbatch/morphology/neuron_compartments.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch::test {

// The folder CMake's HINESBATCH_SHARED_DIR names (shared_dir.cpp, generated).
const char* configured_shared_dir();

inline std::string morphology_dir() {
  const char* env = std::getenv("HINESBATCH_SHARED_DIR");
  return std::string(env && *env ? env : configured_shared_dir()) + "/morphologies";
}

// The SWC files in morphology_dir(), in file-name order (empty when the folder is absent).
inline std::vector<std::string> real_morphology_files() {
  const std::string dir = morphology_dir();
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (dirent* e = readdir(d)) {
      const std::string name = e->d_name;
      if (name.size() > 4 && name.substr(name.size() - 4) == ".swc") names.push_back(name);
    }
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  for (auto& n : names) n = dir + "/" + n;
  return names;
}

// The trees of every SWC file (one node per SWC point, as the cuHinesBatch and
// ThomasBatch papers use them).
inline std::vector<Tree> real_morphology_trees() {
  std::vector<Tree> cells;
  for (const auto& f : real_morphology_files()) cells.push_back(read_swc(f).tree());
  return cells;
}

// Every SWC file as the simulation discretises it (Import3d's sections, NEURON's
// compartments; d_lambda 0.1 at 100 Hz, Ra 100 ohm cm, cm 1 uF/cm2 unless given).
inline std::vector<NeuronCompartments> real_neuron_cells(double Ra = 100, double cm = 1) {
  SectionOptions o;
  o.d_lambda = 0.1;
  o.Ra_ohm_cm = Ra;
  o.cm_uF_cm2 = cm;
  std::vector<NeuronCompartments> cells;
  for (const auto& f : real_morphology_files())
    cells.push_back(neuron_compartments(neuron_sections(read_swc(f), o), Ra));
  return cells;
}

}  // namespace hinesbatch::test
