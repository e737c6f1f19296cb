// libFuzzer target: the library's config loader (hinesbatch-sim's). Any input must either
// load or throw InputError (the exit-2 contract); a raw library exception, a crash or a
// sanitizer report is a finding. The input is written to a file in a private temporary
// folder (load_simulation_config reads a path, and relative morphology paths resolve beside
// it).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"

namespace {

std::string folder() {
  static std::string dir = [] {
    char tmpl[] = "/tmp/hinesbatch-fuzz-config-XXXXXX";
    const char* d = mkdtemp(tmpl);
    if (!d) std::abort();
    return std::string(d);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  // Device files (/dev/zero, /dev/stdin) and /proc as "morphologies" would block or never
  // end: not the loader's defect, so such inputs are left out.
  if (text.find("/dev") != std::string::npos || text.find("/proc") != std::string::npos ||
      text.find("/sys") != std::string::npos)
    return 0;
  const std::string path = folder() + "/config.json";
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) std::abort();
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  try {
    const auto c = hinesbatch::load_simulation_config(path);
    hinesbatch::check_memory(c, 1, 4e9);
  } catch (const hinesbatch::InputError&) {
    // the expected way to refuse bad input
  }
  return 0;
}
