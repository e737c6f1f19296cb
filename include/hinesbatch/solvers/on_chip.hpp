#pragma once
// What the one-thread-per-system schedules with their eliminated values kept on chip
// (HinesSchedule::PerSystemOnChip, ThomasSchedule::PerSystemOnChip) share: the systems
// a team takes, how many nodes or rows of each fit in level-0 scratch, and a scratch
// pointer the CUDA compiler knows to be shared memory.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>

#include "hinesbatch/core/backend_traits.hpp"

namespace hinesbatch {

// Systems per team: on GPUs a warp of 32 consecutive systems (on interleaved storage every
// load and store of a warp is then one contiguous run); on host backends one per thread.
template <class ExecutionSpace>
constexpr int on_chip_lanes() {
  return BackendTraits<ExecutionSpace>::team_lanes;
}

// The level-0 scratch a solver schedule sizes itself by: what the Kokkos in use offers a
// team, at most 40 KB. A Kokkos that opts in to more shared memory (the bootstrap's patch:
// up to 219 KB on an H100) would let a solver team take so much that one team fills an
// SM; the solvers' schedules were measured with 40 KB, Kokkos 3.4's own limit. (The
// simulation's epoch kernel sizes itself from the whole: on_chip_launch_plan.hpp.)
template <class Policy>
std::size_t solver_scratch0_max(const Policy& policy) {
  return std::min<std::size_t>(static_cast<std::size_t>(policy.scratch_size_max(0)), 40 * 1024);
}

// Nodes (Hines) or rows (Thomas) per system whose two eliminated values fit in level-0
// scratch beside the team's other systems: 80 in double and 160 in float on CUDA with
// Kokkos 3.4 (40 KB per team). A constant of the backend, asked once.
template <class Scalar, class ExecutionSpace>
int on_chip_capacity() {
  static const int capacity = [] {
    const int lanes = on_chip_lanes<ExecutionSpace>();
    const std::size_t max0 = solver_scratch0_max(Kokkos::TeamPolicy<ExecutionSpace>(1, lanes));
    return static_cast<int>(max0 / (2 * sizeof(Scalar) * static_cast<std::size_t>(lanes)));
  }();
  return capacity;
}

// Nodes (Hines) or rows (Thomas) per system that a solve keeps on chip: what fits, at most
// the system's n, at most `requested` when that is > 0 (tests and benchmarks force it), at
// least one (a few bytes: the root, the first row).
template <class Scalar, class ExecutionSpace>
int on_chip_kept(int n, int requested = 0) {
  int kept = std::min(n, on_chip_capacity<Scalar, ExecutionSpace>());
  if (requested > 0 && requested < kept) kept = requested;
  return kept < 1 ? 1 : kept;
}

namespace impl {

// A level-0 team-scratch pointer that the CUDA compiler knows to be shared memory. Kokkos
// hands scratch out as generic pointers, so every access would be a 64-bit generic load or
// store with its address arithmetic; rebuilt from the dynamic shared-memory base (where
// CUDA places level 0) plus an offset the compiler cannot fold away, the same address is
// reached with 32-bit shared-memory instructions. Identity elsewhere.
template <int Level, class T>
KOKKOS_FORCEINLINE_FUNCTION T* on_chip(T* p) {
#if defined(__CUDA_ARCH__)
  if (Level == 0) {
    extern __shared__ double hinesbatch_dynamic_shared[];
    char* const base = reinterpret_cast<char*>(hinesbatch_dynamic_shared);
    unsigned offset = static_cast<unsigned>(reinterpret_cast<char*>(p) - base);
    asm volatile("" : "+r"(offset));
    return reinterpret_cast<T*>(base + offset);
  }
#endif
  return p;
}

// The one-thread-per-system on-chip schedules (Thomas's rows, Hines's nodes): two scalars
// of each of the first `kept` rows for each of a team's `lanes`, in level-0 scratch.
template <class T>
KOKKOS_INLINE_FUNCTION std::size_t on_chip_lanes_scratch_bytes(int kept, int lanes) {
  return 2 * sizeof(T) * static_cast<std::size_t>(kept) * static_cast<std::size_t>(lanes);
}

// That scratch of `team`, as the shared-memory pointer on_chip<0> gives.
template <class T, class Member>
KOKKOS_INLINE_FUNCTION T* on_chip_lanes_scratch(const Member& team, int kept, int lanes) {
  return on_chip<0>(static_cast<T*>(
      team.team_scratch(0).get_shmem(on_chip_lanes_scratch_bytes<T>(kept, lanes), 0)));
}

}  // namespace impl
}  // namespace hinesbatch
