// Writes a batch of cell trees to a small binary file for the standalone peer benchmark
// perf_tests/peers/hines_peers.cu (which does not link HinesBatch), so that the peers solve
// exactly the trees our benchmarks solve.
//
//   hinesbatch-export-cells OUT.bin --mix real|fig14|classes [--cells N] [--levels L]
//
//   real     the NeuroMorpho files of ../shared/morphologies ($HINESBATCH_SHARED_DIR), sorted
//            by name, one node per SWC point (read_swc(...).tree()), cycled over N cells: the
//            cells of perf_tests' Multi/RealMixed/N
//   fig14    N copies of the ThomasBatch paper's Fig. 14 binary tree of L levels (2, 3, 4;
//            default 4): Multi/Fig14/levelsL/N
//   classes  the six paper-class trees (paper_class_tree, seed 1), in the order small-low,
//            small-high, medium-low, medium-high, big-low, big-high (--cells ignored): the
//            trees of the mono-morphology benchmarks
//
// Format (little endian): int32 count, then per cell int32 n and n int32 parents in Hines
// numbering (parent[0] = -1).

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/morphology/tree.hpp"
#include "shared_data.hpp"

namespace {

using namespace hinesbatch;

const char* kUsage =
    "usage: hinesbatch-export-cells OUT.bin --mix real|fig14|classes [--cells N] [--levels L]\n";


int parse_positive(const char* s, const char* what) {
  char* end = nullptr;
  const long v = std::strtol(s, &end, 10);
  if (*s == '\0' || *end != '\0' || v < 1 || v > 1000000000)
    throw std::invalid_argument(std::string("bad ") + what + " '" + s + "'");
  return static_cast<int>(v);
}

}  // namespace

int main(int argc, char** argv) {
  try {
    std::string out, mix;
    int count = 256000, levels = 4;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> const char* {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--mix")
        mix = value();
      else if (a == "--cells")
        count = parse_positive(value(), "--cells");
      else if (a == "--levels")
        levels = parse_positive(value(), "--levels");
      else if (a == "--help" || a == "-h") {
        std::fputs(kUsage, stdout);
        return 0;
      } else if (!a.empty() && a[0] == '-')
        throw std::invalid_argument("unknown option '" + a + "'");
      else if (out.empty())
        out = a;
      else
        throw std::invalid_argument("more than one output file");
    }
    if (out.empty() || mix.empty()) throw std::invalid_argument("OUT.bin and --mix are required");

    std::vector<Tree> kinds;  // the distinct trees, cycled over the cells
    if (mix == "real") {
      kinds = test::real_morphology_trees();
      if (kinds.empty())
        throw std::runtime_error("no .swc files in " + test::morphology_dir() +
                                 " (set HINESBATCH_SHARED_DIR)");
    } else if (mix == "fig14") {
      kinds.push_back(p2_binary_tree(levels));
    } else if (mix == "classes") {
      for (const auto& c : paper_classes()) kinds.push_back(paper_class_tree(c.id));
      count = static_cast<int>(kinds.size());
    } else {
      throw std::invalid_argument("--mix must be real, fig14 or classes");
    }

    FILE* f = std::fopen(out.c_str(), "wb");
    if (!f) throw std::runtime_error("cannot write " + out + ": " + std::strerror(errno));
    bool ok = true;
    auto put = [&](const void* p, size_t bytes) { ok = ok && std::fwrite(p, 1, bytes, f) == bytes; };
    const int32_t n32 = count;
    put(&n32, 4);
    long long nodes = 0;
    for (int c = 0; c < count; ++c) {
      const Tree& t = kinds[c % kinds.size()];
      const int32_t n = t.size();
      put(&n, 4);
      static_assert(sizeof(int) == 4, "int32 parents");
      put(t.parents().data(), static_cast<size_t>(n) * 4);
      nodes += n;
    }
    ok = std::fclose(f) == 0 && ok;
    if (!ok) throw std::runtime_error("write to " + out + " failed");
    std::printf("wrote %s: %d cells (%zu distinct), %lld nodes\n", out.c_str(), count, kinds.size(),
                nodes);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), kUsage);
    return 1;
  }
  return 0;
}
