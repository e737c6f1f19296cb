#pragma once
// Batched Hines solves for mono-morphology batches (every system shares one tree), in two
// schedules: one thread per system, no atomics, no synchronisation (P1; the per-system
// algorithm is hines_solve_system), or a team per system eliminating it on chip
// (hines_team.hpp). This file only chooses the policy and hands them subviews.
#include <Kokkos_Core.hpp>
#include <string>
#include <type_traits>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/morphology/device_tree.hpp"
#include "hinesbatch/solvers/hines_system.hpp"
#include "hinesbatch/solvers/simd_tiles_solve.hpp"

namespace hinesbatch {

// How a mono-morphology batch is scheduled. The choice changes what is left in d.
enum class HinesSchedule {
  // The fastest measured schedule for the batch's layout and backend (docs/PERFORMANCE.md,
  // 2026-11-22, H100): on GPUs TeamPerSystem for Flat batches (whose one-thread sweeps are
  // uncoalesced), PerSystem for the interleaved layouts; on host backends SimdTiles for
  // Block-Interleaved batches, PerSystem otherwise. Block-Shared batches run P1's
  // Block-Shared kernel. d afterwards holds the eliminated diagonal or its input values.
  Auto,
  // P1's cuHinesBatch: one thread per system; d <- eliminated diagonal. About 80 B of
  // memory traffic per node in double.
  PerSystem,
  // A team per system (hines_team.hpp): read once, eliminated in team scratch, x written
  // once (40 B per node in double); u, l and d are only read.
  TeamPerSystem,
  // A tile of W systems per thread, the lane loop vectorised (simd_tiles_solve.hpp);
  // Block-Interleaved batches only; d <- eliminated diagonal.
  SimdTiles,
};

inline const char* schedule_name(HinesSchedule s) {
  switch (s) {
    case HinesSchedule::Auto:
      return "Auto";
    case HinesSchedule::PerSystem:
      return "PerSystem";
    case HinesSchedule::TeamPerSystem:
      return "TeamPerSystem";
    case HinesSchedule::SimdTiles:
      return "SimdTiles";
  }
  return "?";
}

namespace impl {

template <class StatusView>
KOKKOS_INLINE_FUNCTION void record_failure(const StatusView& status, const SolveFailure& f,
                                           long long system_offset) {
  if (f.bad_pivot >= 0) Kokkos::atomic_fetch_min(&status(0), system_offset + f.bad_pivot);
  if (f.bad_solution >= 0) Kokkos::atomic_fetch_min(&status(1), system_offset + f.bad_solution);
}

// Flat, Full-Interleaved, Block-Interleaved: one work item per system over the
// layout's 1-D subviews.
template <class Batch, class ParentView>
struct SolvePerSystem {
  using Layout = typename Batch::layout_type;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size;

  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    const auto f = hines_solve_system(
        parent, n, Layout::system_view(u, s, block_size), Layout::system_view(l, s, block_size),
        Layout::system_view(d, s, block_size), Layout::system_view(rhs, s, block_size));
    record_failure(status, f, static_cast<long long>(s) * n);
  }
};

// Block-Shared: one team per tile; the tile's rhs (n x BS, contiguous in memory) is
// staged in team scratch, solved there lane by lane, and written back.
template <class Batch, class ParentView, class ExecutionSpace>
struct SolveBlockShared {
  using scalar_type = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<scalar_type**, Kokkos::LayoutRight,
                                    typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size, num_systems;

  static std::size_t scratch_bytes(int n, int block_size) {
    return scratch_view::shmem_size(n, block_size);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int tile = team.league_rank();
    scratch_view tile_rhs(team.team_scratch(0), n, block_size);
    const int elements = n * block_size;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, elements), [&](const int k) {
      tile_rhs(k / block_size, k % block_size) = rhs(tile, k / block_size, k % block_size);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, block_size), [&](const int lane) {
      const int s = tile * block_size + lane;
      if (s >= num_systems) return;
      const auto f = hines_solve_system(parent, n, Kokkos::subview(u, tile, Kokkos::ALL, lane),
                                        Kokkos::subview(l, tile, Kokkos::ALL, lane),
                                        Kokkos::subview(d, tile, Kokkos::ALL, lane),
                                        Kokkos::subview(tile_rhs, Kokkos::ALL, lane));
      record_failure(status, f, static_cast<long long>(s) * n);
    });
    team.team_barrier();
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, elements), [&](const int k) {
      rhs(tile, k / block_size, k % block_size) = tile_rhs(k / block_size, k % block_size);
    });
  }
};

// The team schedule: league rank = system; the system sits in the team's scratch while it
// is eliminated.
template <class Batch, class Plan, class ExecutionSpace>
struct SolveTeamPerSystem {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = Kokkos::View<T*, typename ExecutionSpace::scratch_memory_space,
                                    Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  Plan plan;
  int n, block_size, scratch_level;

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int s = team.league_rank();
    scratch_view scratch(team.team_scratch(scratch_level), plan.scratch_scalars());
    const long long offset = static_cast<long long>(s) * n;
    const auto st = status;
    team_hines_solve(team, scratch.data(), plan, Layout::system_view(u, s, block_size),
                     Layout::system_view(l, s, block_size), Layout::system_view(d, s, block_size),
                     Layout::system_view(rhs, s, block_size), [=](int pivot_node, int x_node) {
                       if (pivot_node >= 0) Kokkos::atomic_fetch_min(&st(0), offset + pivot_node);
                       if (x_node >= 0) Kokkos::atomic_fetch_min(&st(1), offset + x_node);
                     });
  }
};

template <class ExecutionSpace>
constexpr bool is_host_backend() {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace,
                                    typename ExecutionSpace::memory_space>::accessible;
}

}  // namespace impl

// The schedule Auto stands for on this backend, for this layout.
template <class ExecutionSpace, class Layout>
HinesSchedule resolve_schedule(HinesSchedule schedule) {
  if (schedule != HinesSchedule::Auto) return schedule;
  if (std::is_same<Layout, layouts::BlockShared>::value) return HinesSchedule::PerSystem;
  if (impl::is_host_backend<ExecutionSpace>())
    return std::is_same<Layout, layouts::BlockInterleaved>::value ? HinesSchedule::SimdTiles
                                                                  : HinesSchedule::PerSystem;
  return std::is_same<Layout, layouts::Flat>::value ? HinesSchedule::TeamPerSystem
                                                    : HinesSchedule::PerSystem;
}

// Solves every system of the batch in place: rhs becomes the solution and d the
// eliminated diagonal. Asynchronous on exec (no fence); call batch.check(exec) to turn
// zero pivots or non-finite values into a SolverError.
template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
           const HinesBatch<Scalar, Layout, MemorySpace>& batch,
           HinesSchedule schedule = HinesSchedule::Auto) {
  static_assert(Kokkos::SpaceAccessibility<ExecutionSpace, MemorySpace>::accessible,
                "hinesbatch::solve: the batch's memory space is not accessible from exec");
  using Batch = HinesBatch<Scalar, Layout, MemorySpace>;
  using ParentView = typename DeviceTree<MemorySpace>::parent_view;
  if (tree.size() != batch.num_nodes())
    throw InputError("hinesbatch::solve: tree has " + std::to_string(tree.size()) +
                         " nodes but the batch's systems have " + std::to_string(batch.num_nodes()),
                     {}, 0, std::to_string(tree.size()));
  if (batch.num_systems() == 0) return;

  const HinesSchedule resolved = resolve_schedule<ExecutionSpace, Layout>(schedule);
  if (resolved == HinesSchedule::SimdTiles) {
    if constexpr (std::is_same<Layout, layouts::BlockInterleaved>::value) {
      solve_simd_tiles(exec, tree, batch);
      return;
    } else {
      throw InputError(std::string("hinesbatch::solve: the SimdTiles schedule needs a "
                                   "BlockInterleaved batch, not ") +
                           Layout::name,
                       {}, 0, Layout::name);
    }
  }
  if (resolved == HinesSchedule::TeamPerSystem) {
    using Plan = impl::DeviceTeamPlan<MemorySpace>;
    using Functor = impl::SolveTeamPerSystem<Batch, Plan, ExecutionSpace>;
    const Plan& plan = tree.team_plan();
    // GPUs: a warp per system; host backends: one thread per system, its lanes in turn.
    const int team_size = impl::is_host_backend<ExecutionSpace>() ? 1 : 32;
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, batch.num_systems(), team_size);
    const std::size_t bytes = Functor::scratch_view::shmem_size(plan.scratch_scalars());
    // Trees too large for on-chip scratch use level 1 (device memory, mostly cached).
    const int level = bytes <= static_cast<std::size_t>(policy.scratch_size_max(0)) ? 0 : 1;
    policy.set_scratch_size(level, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for(std::string("hinesbatch::solve_team_") + Layout::name, policy,
                         Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), plan,
                                 batch.num_nodes(), batch.block_size(), level});
    return;
  }
  if constexpr (std::is_same<Layout, layouts::BlockShared>::value) {
    using Functor = impl::SolveBlockShared<Batch, ParentView, ExecutionSpace>;
    const int bs = batch.block_size();
    const std::size_t bytes = Functor::scratch_bytes(batch.num_nodes(), bs);
    Kokkos::TeamPolicy<ExecutionSpace> policy(
        exec, layouts::BlockShared::tile_count(batch.num_systems(), bs), Kokkos::AUTO);
    const int max_bytes = policy.scratch_size_max(0);
    if (bytes > static_cast<std::size_t>(max_bytes))
      throw InputError("hinesbatch::solve (BlockShared): a tile's rhs needs " +
                           std::to_string(bytes) + " bytes of team scratch, the device has " +
                           std::to_string(max_bytes) + "; use a smaller block size",
                       {}, 0, std::to_string(bs));
    policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
    Kokkos::parallel_for("hinesbatch::solve_block_shared", policy,
                         Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(),
                                 tree.parents(), batch.num_nodes(), bs, batch.num_systems()});
  } else {
    Kokkos::parallel_for(std::string("hinesbatch::solve_") + Layout::name,
                         Kokkos::RangePolicy<ExecutionSpace>(exec, 0, batch.num_systems()),
                         impl::SolvePerSystem<Batch, ParentView>{
                             batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(),
                             tree.parents(), batch.num_nodes(), batch.block_size()});
  }
}

}  // namespace hinesbatch
