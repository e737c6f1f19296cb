#pragma once
// Where the NeuroMorpho files beside the project are: $HINESBATCH_SHARED_DIR at run
// time (for binaries run on another machine), else the folder configured at build time.
#include <cstdlib>
#include <string>

namespace hinesbatch::test {

inline std::string morphology_dir() {
  const char* env = std::getenv("HINESBATCH_SHARED_DIR");
  return std::string(env && *env ? env : HINESBATCH_SHARED_DIR) + "/morphologies";
}

}  // namespace hinesbatch::test
