#pragma once
// The shape of the staged schedule's chunks (hines_staged.hpp): rows a chunk, whether a
// chunk is copied to scratch asynchronously (every copy in flight at once, no registers),
// and whether the next chunk is asked of L2 while one is swept.
// Auto's table (auto_hines_table.hpp) names one per point where it takes the staged
// schedule; solve() runs the shapes instantiated for that layout on GPUs
// (impl::solve_staged_shaped) and the default elsewhere.
#include <string>

namespace hinesbatch::impl {

struct StagedShape {
  int rows = 16;
  bool async = false;
  bool prefetch = false;
};

inline bool is_default(const StagedShape& s) { return s.rows == 16 && !s.async && !s.prefetch; }

// "" for the default shape, else "@<rows>[a][p]" (the solver map's suffix).
inline std::string suffix_of(const StagedShape& s) {
  if (is_default(s)) return "";
  return "@" + std::to_string(s.rows) + (s.async ? "a" : "") + (s.prefetch ? "p" : "");
}

}  // namespace hinesbatch::impl
