#pragma once
// Host vectors to device Views: the one helper the containers and plans use to ship their
// host-built index arrays.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>
#include <vector>

namespace hinesbatch::impl {

// A host vector as a View in MemorySpace (by default the execution space's), copied on
// exec (fences exec: the staging mirror is a temporary).
template <class MemorySpace = void, class T, class ExecutionSpace,
          class Space = std::conditional_t<std::is_void<MemorySpace>::value,
                                           typename ExecutionSpace::memory_space, MemorySpace>>
Kokkos::View<T*, Space> to_device(const ExecutionSpace& exec, const std::vector<T>& src,
                                  const std::string& label) {
  Kokkos::View<T*, Space> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), src.size());
  auto h = Kokkos::create_mirror_view(v);
  for (std::size_t i = 0; i < src.size(); ++i) h(i) = src[i];
  Kokkos::deep_copy(exec, v, h);
  exec.fence();
  return v;
}

}  // namespace hinesbatch::impl
