#pragma once
// Strict number parsing for the command-line programs: the whole argument must be a number
// in range ("12abc", "abc", "1e3" for an integer, " 5" and values beyond the range are
// refused), so a typo never runs with 0 or a truncated value. Used by hinesbatch-sim, the
// examples, the perf tests and the multi-GPU driver.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace hinesbatch::cli {

// Decimal integer (optional sign, digits only) within [lo, hi].
inline bool parse_integer(const std::string& text, long long lo, long long hi, long long& out) {
  if (text.empty() || text.size() > 32) return false;
  std::size_t i = (text[0] == '+' || text[0] == '-') ? 1 : 0;
  if (i == text.size()) return false;
  for (std::size_t k = i; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9') return false;
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  if (errno == ERANGE || *end != '\0' || v < lo || v > hi) return false;
  out = v;
  return true;
}

// Finite decimal number (strtod syntax without hex, inf or nan) within [lo, hi].
inline bool parse_real(const std::string& text, double lo, double hi, double& out) {
  if (text.empty() || text.size() > 64) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'))
      return false;
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno == ERANGE || *end != '\0' || !std::isfinite(v) || !(v >= lo && v <= hi)) return false;
  out = v;
  return true;
}

// A value echoed in an error message: at most 64 characters.
inline std::string echoed(const std::string& text) {
  return text.size() <= 64 ? text : text.substr(0, 64) + "...";
}

}  // namespace hinesbatch::cli
