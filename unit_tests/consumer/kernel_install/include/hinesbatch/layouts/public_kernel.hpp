#pragma once
// A public header that holds a kernel: check_installed_headers.cmake must refuse it.
#include <Kokkos_Core.hpp>

namespace hinesbatch {
struct ZeroAll {
  Kokkos::View<double*> v;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const { v(i) = 0; }
};
}  // namespace hinesbatch
