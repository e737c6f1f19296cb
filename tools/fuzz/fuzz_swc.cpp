// libFuzzer target: the SWC reader and what the simulation builds from its output. Any
// input must either parse or throw InputError; anything else (a crash, another exception, a
// sanitizer report, a hang) is a finding.
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/sections.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace hinesbatch;
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const bool keep_largest : {false, true}) {
    std::istringstream in(text);
    try {
      SwcOptions o;
      o.keep_largest_component = keep_largest;
      const SwcMorphology m = parse_swc(in, "fuzz.swc", o);
      // Properties every accepted morphology has.
      if (m.points.size() != m.parent.size() || m.points.empty() || m.parent[0] != -1)
        __builtin_trap();
      for (std::size_t k = 1; k < m.parent.size(); ++k)
        if (m.parent[k] < 0 || m.parent[k] >= static_cast<int>(k)) __builtin_trap();
      (void)m.section_count();
      (void)m.depth();
      (void)m.branch_point_count();
      SectionOptions so;
      so.max_segment_length_um = 20;
      (void)neuron_sections(m, so);
    } catch (const InputError&) {
      // the expected way to refuse bad input
    }
  }
  return 0;
}
