#pragma once
// The shape of the staged schedule's chunks (hines_staged.hpp): rows a chunk, and whether a
// chunk is copied to scratch asynchronously (every copy in flight at once, no registers).
// Auto's table (auto_hines_table.hpp) names one per point where it takes the staged
// schedule; solve() runs the shapes instantiated for that layout on GPUs
// (impl::solve_staged_shaped) and the default elsewhere.
#include <string>

namespace hinesbatch::impl {

struct StagedShape {
  int rows = 16;
  bool async = false;
};

inline bool is_default(const StagedShape& s) { return s.rows == 16 && !s.async; }

// "" for the default shape, else "@<rows>[a]" (the solver map's suffix).
inline std::string suffix_of(const StagedShape& s) {
  if (is_default(s)) return "";
  return "@" + std::to_string(s.rows) + (s.async ? "a" : "");
}

}  // namespace hinesbatch::impl
