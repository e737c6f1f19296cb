#pragma once
// What a Kokkos backend wants from the solvers and the simulation, decided in one place:
// whether it is a host backend, how many threads a team gets where a GPU gives a warp, and
// how many scalars one vector register of the host holds.
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

// Bytes in one vector register of the host this code is compiled for. The library is
// built for generic x86-64 (SSE2, 16 bytes) unless the compiler is told otherwise
// (-mavx2, -march=x86-64-v3, -march=native, or a Kokkos_ARCH_* that sets them).
constexpr int host_vector_bytes() {
#if defined(__AVX512F__)
  return 64;
#elif defined(__AVX__)
  return 32;
#else
  return 16;  // SSE2 (every x86-64), NEON, VSX
#endif
}

// Scalars in one vector register of the host (8 doubles with AVX-512, 4 with AVX2, 2 with
// SSE2).
template <class Scalar>
constexpr int host_vector_lanes() {
  return host_vector_bytes() / static_cast<int>(sizeof(Scalar)) > 1
             ? host_vector_bytes() / static_cast<int>(sizeof(Scalar))
             : 1;
}

namespace impl {
// A team's scratch (level 0 or 1) as an unmanaged View, DataType T* or TriRow<T>*.
template <class DataType, class ExecutionSpace>
using TeamScratchView = Kokkos::View<DataType, typename ExecutionSpace::scratch_memory_space,
                                     Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
}  // namespace impl

}  // namespace hinesbatch
