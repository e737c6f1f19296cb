#pragma once
// Small numeric helpers shared by the host code: pi (Kokkos 3.4 has no numbers header)
// and the way error messages print a value.
#include <cstdio>
#include <string>

namespace hinesbatch {

constexpr double kPi = 3.14159265358979323846;

// A double as error messages show it: 10 significant digits.
inline std::string format_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace hinesbatch
