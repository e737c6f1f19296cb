#pragma once
// What a Kokkos backend wants from the solvers and the simulation, decided in one place:
// whether it is a host backend, and how many threads a team gets where a GPU gives a warp.
#include <Kokkos_Core.hpp>

namespace hinesbatch {

template <class ExecutionSpace>
struct BackendTraits {
  // A host backend (OpenMP, Serial, Threads) runs on the cores that own host memory. Asked of
  // the execution space, not of its memory: CUDA with host-accessible (UVM) memory is still
  // a GPU.
  static constexpr bool is_host =
      Kokkos::SpaceAccessibility<ExecutionSpace, Kokkos::HostSpace>::accessible;
  // Lanes of a warp, the unit the GPU schedules are written for.
  static constexpr int warp_lanes = 32;
  // Threads per team of the schedules that give a system (or a cell) a warp on a GPU: one
  // thread per team on a host, where the team's lanes would only share one core.
  static constexpr int team_lanes = is_host ? 1 : warp_lanes;
};

template <class ExecutionSpace>
constexpr bool is_host_backend() {
  return BackendTraits<ExecutionSpace>::is_host;
}

namespace impl {
// A team's scratch (level 0 or 1) as an unmanaged View, DataType T* or TriRow<T>*.
template <class DataType, class ExecutionSpace>
using TeamScratchView = Kokkos::View<DataType, typename ExecutionSpace::scratch_memory_space,
                                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
}  // namespace impl

}  // namespace hinesbatch
