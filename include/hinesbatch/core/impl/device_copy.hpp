#pragma once
// Host vectors to device Views and device Views back to the host: the one pair of helpers
// the containers, plans and checks use to move their host-built arrays and read results.
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

// A View's contents on the host: a mirror (the View itself on a host space), copied on exec
// and fenced.
template <class ExecutionSpace, class View>
typename View::HostMirror to_host(const ExecutionSpace& exec, const View& v) {
  auto h = Kokkos::create_mirror_view(v);
  Kokkos::deep_copy(exec, h, v);
  exec.fence();
  return h;
}

}  // namespace hinesbatch::impl
