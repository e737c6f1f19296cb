#pragma once
// Batched Hines solves for mono-morphology batches (every system shares one tree), in the
// schedules of HinesSchedule (hines_schedule.hpp): one thread per system (cuHinesBatch's
// kernel; the per-system algorithm is hines_solve_system), with the eliminated values kept
// on chip, a team or a warp per system eliminating it on chip (hines_team.hpp,
// hines_warp.hpp), tiles of systems per host thread. This file chooses the schedule (Auto:
// the solver map's table on GPUs) and hands the kernels their views.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/morphology/device_tree.hpp"
#include "hinesbatch/solvers/hines_schedule.hpp"
#include "hinesbatch/solvers/impl/auto_hines_table.hpp"
#include "hinesbatch/solvers/impl/hines_on_chip.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"
#include "hinesbatch/solvers/simd_tiles_solve.hpp"

namespace hinesbatch {

namespace impl {

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
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
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
                       record_nodes(st, offset, pivot_node, x_node);
                     });
  }
};

// The warp schedule: a team takes `systems` consecutive systems (32 / G on GPUs), G lanes
// each; scratch holds them all while they are eliminated. The scratch level is a template
// parameter so that, at level 0, the device compiler sees shared memory behind every
// scratch pointer (32-bit shared-memory instructions instead of generic 64-bit ones).
template <class Batch, class Plan, class ExecutionSpace, int ScratchLevel>
struct SolveWarpPerSystem {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  using scratch_view = impl::TeamScratchView<T*, ExecutionSpace>;
  // Flat storage holds a system's nodes together; the other layouts a node's systems.
  static constexpr bool system_major = std::is_same<Layout, layouts::Flat>::value;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  Plan plan;
  int n, block_size, num_systems, systems;
  FastDivider element_div;  // element index -> (system, node): by n (Flat) or by systems

  KOKKOS_INLINE_FUNCTION void record(int s, int pivot_node, int x_node) const {
    record_nodes(status, static_cast<long long>(s) * n, pivot_node, x_node);
  }

  KOKKOS_INLINE_FUNCTION void element(int e, int& c, int& i) const {
    const int q = element_div(e);
    if (system_major) {
      c = q;
      i = e - q * n;
    } else {
      i = q;
      c = e - q * systems;
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int first = team.league_rank() * systems;
    const int per_system = static_cast<int>(plan.scratch_scalars());
    T* const base = on_chip<ScratchLevel>(static_cast<T*>(
        team.team_scratch(ScratchLevel)
            .get_shmem(sizeof(T) * static_cast<std::size_t>(per_system) * systems, ScratchLevel)));
    auto system_scratch = [&](int c) { return WarpScratch<T>(base + c * per_system, plan); };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, systems),
                         [&](const int c) { *system_scratch(c).bad_input = T(0); });
    team.team_barrier();

    // 1. Stage, noting inputs the sweep could not survive where the sequential sweep meets
    // them (a zero or non-finite diagonal or off-diagonal at its node's pivot, rhs at x).
    // Each thread loads kBatch elements (coalesced) before it stores any.
    constexpr int kBatch = 4;
    const int elements = systems * n;
    const int chunks = (elements + kBatch - 1) / kBatch;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, chunks), [&](const int ch) {
      T uv[kBatch], lv[kBatch], dv[kBatch], rv[kBatch];
      int cs[kBatch], is[kBatch];
      for (int q = 0; q < kBatch; ++q) {
        const int e = ch + q * chunks;
        element(e, cs[q], is[q]);
        const int s = first + cs[q];
        uv[q] = T(0);
        lv[q] = T(0);
        dv[q] = T(1);
        rv[q] = T(0);
        if (e < elements && s < num_systems) {
          uv[q] = Layout::at(u, s, is[q], block_size);
          lv[q] = Layout::at(l, s, is[q], block_size);
          dv[q] = Layout::at(d, s, is[q], block_size);
          rv[q] = Layout::at(rhs, s, is[q], block_size);
        }
        loads_complete_here(uv[q]);
        loads_complete_here(lv[q]);
        loads_complete_here(dv[q]);
        loads_complete_here(rv[q]);
      }
      for (int q = 0; q < kBatch; ++q) {
        const int e = ch + q * chunks, c = cs[q], i = is[q];
        if (e >= elements || first + c >= num_systems) continue;
        const WarpScratch<T> sc = system_scratch(c);
        const int k = plan.slot_of(i);
        sc.u[k] = uv[q];
        sc.l[k] = lv[q];
        sc.d[k] = dv[q];
        sc.r[k] = rv[q];
        const bool pivot = !is_usable_pivot(dv[q]) ||
                           (i > 0 && (!is_finite_value(uv[q]) || !is_finite_value(lv[q])));
        const bool value = !is_finite_value(rv[q]);
        if (pivot || value) {
          *sc.bad_input = T(1);
          record(first + c, pivot ? i : -1, value ? i : -1);
        }
      }
    });
    team.team_barrier();

    const int G = plan.lanes;
    // 2. Each lane its range.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, systems * G), [&](const int t) {
      const int c = t / G, s = first + c;
      if (s >= num_systems) return;
      const WarpScratch<T> sc = system_scratch(c);
      const bool input_ok = *sc.bad_input == T(0);
      warp_lane_eliminate(plan, t - c * G, sc, [&](int slot) {
        if (input_ok) record(s, plan.node_of(slot), -1);
      });
    });
    team.team_barrier();
    // 3. The ports, a thread per system.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, systems), [&](const int c) {
      const int s = first + c;
      if (s >= num_systems) return;
      const WarpScratch<T> sc = system_scratch(c);
      const bool input_ok = *sc.bad_input == T(0);
      warp_reduced_solve(plan, sc, [&](int slot) {
        if (input_ok) record(s, plan.node_of(slot), -1);
      });
    });
    team.team_barrier();
    // 4. Back down each lane.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, systems * G), [&](const int t) {
      const int c = t / G;
      if (first + c >= num_systems) return;
      warp_lane_substitute(plan, t - c * G, system_scratch(c));
    });
    team.team_barrier();
    // 5. Write x; the smallest node with a non-finite value is recorded.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, elements), [&](const int e) {
      int c = 0, i = 0;
      element(e, c, i);
      const int s = first + c;
      if (s >= num_systems) return;
      const WarpScratch<T> sc = system_scratch(c);
      const T x = sc.r[plan.slot_of(i)];
      Layout::at(rhs, s, i, block_size) = x;
      if (!is_finite_value(x) && *sc.bad_input == T(0)) record(s, -1, i);
    });
  }
};

}  // namespace impl

// The largest tree the warp schedule takes under Auto on GPUs for Flat batches the solver
// map does not cover (float): measured ahead of the team schedule on the two 76-node paper
// classes and behind it on the 305-695-node ones (docs/SCHEDULES.md).
constexpr int kWarpScheduleAutoMaxNodes = 128;

// PerSystemOnChip: how many nodes a solve keeps on chip: on_chip_capacity (on_chip.hpp),
// at most the tree's size and tree.on_chip_nodes() when that is set.
template <class Scalar, class ExecutionSpace, class MemorySpace>
int on_chip_kept_nodes(const DeviceTree<MemorySpace>& tree) {
  return on_chip_kept<Scalar, ExecutionSpace>(tree.size(), tree.on_chip_nodes());
}

// The schedule Auto stands for on this backend, for this layout, tree size and number of
// systems (num_systems < 0: unknown, as if the batch were large).
template <class ExecutionSpace, class Layout, class Scalar>
HinesSchedule resolve_schedule(HinesSchedule schedule, int num_nodes, long long num_systems = -1) {
  if (schedule != HinesSchedule::Auto) return schedule;
  if (std::is_same<Layout, layouts::BlockShared>::value) return HinesSchedule::PerSystem;
  if (is_host_backend<ExecutionSpace>())
    return std::is_same<Layout, layouts::BlockInterleaved>::value ? HinesSchedule::SimdTiles
                                                                  : HinesSchedule::PerSystem;
  // GPUs, double, Flat or Full-Interleaved: what the solver map measured fastest nearest to
  // this tree size and batch (docs/SOLVER_MAP.md).
  if constexpr (std::is_same<Scalar, double>::value) {
    const long long systems = num_systems >= 0 ? num_systems : (1ll << 28) / std::max(1, num_nodes);
    if (std::is_same<Layout, layouts::Flat>::value)
      return impl::nearest_auto_schedule(impl::kHinesAutoFlat, num_nodes, systems);
    if (std::is_same<Layout, layouts::FullInterleaved>::value)
      return impl::nearest_auto_schedule(impl::kHinesAutoFullInterleaved, num_nodes, systems);
  }
  // Interleaved storage: cuHinesBatch's sweeps with the whole tree kept on chip when it fits
  // (measured 1.2-1.7x its kernel on the 76-node classes), its kernel otherwise (a tree
  // swept partly through memory at a few warps per SM is slower).
  if (!std::is_same<Layout, layouts::Flat>::value)
    return num_nodes <= on_chip_capacity<Scalar, ExecutionSpace>() ? HinesSchedule::PerSystemOnChip
                                                                   : HinesSchedule::PerSystem;
  return num_nodes <= kWarpScheduleAutoMaxNodes ? HinesSchedule::WarpPerSystem
                                                : HinesSchedule::TeamPerSystem;
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

  const HinesSchedule resolved = resolve_schedule<ExecutionSpace, Layout, Scalar>(
      schedule, batch.num_nodes(), batch.num_systems());
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
  if (resolved == HinesSchedule::WarpPerSystem) {
    using Plan = impl::DeviceWarpPlan<MemorySpace>;
    using Level0 = impl::SolveWarpPerSystem<Batch, Plan, ExecutionSpace, 0>;
    using Level1 = impl::SolveWarpPerSystem<Batch, Plan, ExecutionSpace, 1>;
    const Plan& plan = tree.warp_plan();
    // GPUs: a warp holds 32 / G systems (fewer if they do not fit in scratch); host
    // backends: one thread per system, its lanes in turn.
    const bool host = is_host_backend<ExecutionSpace>();
    const int team_size = BackendTraits<ExecutionSpace>::team_lanes;
    const std::size_t max0 =
        solver_scratch0_max(Kokkos::TeamPolicy<ExecutionSpace>(exec, 1, team_size));
    auto bytes_for = [&](int systems) {
      return Level0::scratch_view::shmem_size(plan.scratch_scalars() * systems);
    };
    int systems = host ? 1 : BackendTraits<ExecutionSpace>::warp_lanes / plan.lanes;
    while (systems > 1 && bytes_for(systems) > max0) systems /= 2;
    const std::size_t bytes = bytes_for(systems);
    const int n = batch.num_nodes();
    const impl::FastDivider element_div(std::is_same<Layout, layouts::Flat>::value ? n : systems,
                                        static_cast<long long>(systems) * n);
    const int teams = (batch.num_systems() + systems - 1) / systems;
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, teams, team_size);
    const std::string label = std::string("hinesbatch::solve_warp_") + Layout::name;
    // Trees too large for on-chip scratch use level 1 (device memory, mostly cached).
    if (bytes <= max0) {
      policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
      Kokkos::parallel_for(
          label, policy,
          Level0{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), plan, n,
                 batch.block_size(), batch.num_systems(), systems, element_div});
    } else {
      policy.set_scratch_size(1, Kokkos::PerTeam(bytes));
      Kokkos::parallel_for(
          label, policy,
          Level1{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), plan, n,
                 batch.block_size(), batch.num_systems(), systems, element_div});
    }
    return;
  }
  // The on-chip schedule addresses a system's nodes by int offsets from its first one.
  if (resolved == HinesSchedule::PerSystemOnChip &&
      batch.u().span() <= static_cast<std::size_t>(std::numeric_limits<int>::max())) {
    using Functor = impl::SolvePerSystemOnChip<Batch, ParentView, ExecutionSpace>;
    const int lanes = on_chip_lanes<ExecutionSpace>();
    const int n = batch.num_nodes();
    const int kept = on_chip_kept_nodes<Scalar, ExecutionSpace>(tree);
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, (batch.num_systems() + lanes - 1) / lanes,
                                              lanes);
    policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes(kept, lanes)));
    Kokkos::parallel_for(std::string("hinesbatch::solve_on_chip_") + Layout::name, policy,
                         Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(),
                                 tree.parents(), n, batch.block_size(), batch.num_systems(), kept});
    return;
  }
  if (resolved == HinesSchedule::TeamPerSystem) {
    using Plan = impl::DeviceTeamPlan<MemorySpace>;
    using Functor = impl::SolveTeamPerSystem<Batch, Plan, ExecutionSpace>;
    const Plan& plan = tree.team_plan();
    // GPUs: a warp per system; host backends: one thread per system, its lanes in turn.
    const int team_size = BackendTraits<ExecutionSpace>::team_lanes;
    Kokkos::TeamPolicy<ExecutionSpace> policy(exec, batch.num_systems(), team_size);
    const std::size_t bytes = Functor::scratch_view::shmem_size(plan.scratch_scalars());
    // Trees too large for on-chip scratch use level 1 (device memory, mostly cached).
    const int level = bytes <= solver_scratch0_max(policy) ? 0 : 1;
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
    // The layout itself asks for the tile in shared memory: whatever the device gives
    // (not a schedule's choice, so not solver_scratch0_max).
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
