#pragma once
// Where the NeuroMorpho files beside the project are: $HINESBATCH_SHARED_DIR at run
// time (for binaries run on another machine), else the folder configured at build time.
#include <dirent.h>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch::test {

inline std::string morphology_dir() {
  const char* env = std::getenv("HINESBATCH_SHARED_DIR");
  return std::string(env && *env ? env : HINESBATCH_SHARED_DIR) + "/morphologies";
}

// The trees of every SWC file in morphology_dir(), in file-name order (empty when the
// folder is absent).
inline std::vector<Tree> real_morphology_trees() {
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
  std::vector<Tree> cells;
  for (const auto& n : names) cells.push_back(read_swc(dir + "/" + n).tree());
  return cells;
}

}  // namespace hinesbatch::test
