#pragma once
// One name table per enum family: its to_string and from_string both read it, so that the
// tools, the Python module, the metrics and the benchmark labels name a value one way.
#include <cstddef>
#include <string_view>

namespace hinesbatch::impl {

template <class Enum>
struct EnumName {
  Enum value;
  const char* name;   // what to_string gives
  const char* alias;  // a second spelling from_string takes (the Python module's), or nullptr
};

template <class Enum, std::size_t N>
constexpr const char* enum_to_string(const EnumName<Enum> (&table)[N], Enum value) {
  for (const EnumName<Enum>& n : table)
    if (n.value == value) return n.name;
  return "?";
}

template <class Enum, std::size_t N>
constexpr bool enum_from_string(const EnumName<Enum> (&table)[N], std::string_view text,
                                Enum& value) {
  for (const EnumName<Enum>& n : table)
    if (text == n.name || (n.alias != nullptr && text == n.alias)) {
      value = n.value;
      return true;
    }
  return false;
}

}  // namespace hinesbatch::impl
