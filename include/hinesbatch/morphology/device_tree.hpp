#pragma once
// The parent array of a Tree, copied once into a memory space for the batched solvers.
#include <Kokkos_Core.hpp>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class DeviceTree {
 public:
  using memory_space = MemorySpace;
  using parent_view = Kokkos::View<const int*, MemorySpace>;

  DeviceTree() = default;
  template <class ExecutionSpace>
  DeviceTree(const ExecutionSpace& exec, const Tree& tree) : size_(tree.size()) {
    Kokkos::View<int*, MemorySpace> p(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hinesbatch::parent"), tree.size());
    Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> src(
        tree.parents().data(), tree.parents().size());
    auto host = Kokkos::create_mirror_view(p);
    Kokkos::deep_copy(host, src);
    Kokkos::deep_copy(exec, p, host);
    exec.fence();
    parent_ = p;
  }

  int size() const { return size_; }
  const parent_view& parents() const { return parent_; }

 private:
  int size_ = 0;
  parent_view parent_;
};

}  // namespace hinesbatch
