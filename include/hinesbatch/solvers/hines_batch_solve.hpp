#pragma once
// Batched Hines solves for mono-morphology batches (every system shares one tree), in the
// schedules of HinesSchedule (hines_schedule.hpp): one thread per system (cuHinesBatch's
// kernel; the per-system algorithm is hines_solve_system), with the eliminated values kept
// on chip or with the rows staged through team scratch (hines_staged.hpp), a team or a
// warp per system eliminating it on chip (hines_team.hpp, hines_warp.hpp), several warps
// per system (hines_block.hpp), tiles of systems per host thread. This file chooses the
// schedule (Auto: the solver map's table on GPUs) and hands the kernels
// (impl/hines_batch_kernels.hpp and the files named there) their views.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/solvers/device_tree.hpp"
#include "hinesbatch/solvers/hines_schedule.hpp"
#include "hinesbatch/solvers/impl/auto_schedule_point.hpp"
#include "hinesbatch/solvers/impl/hines_batch_kernels.hpp"
#include "hinesbatch/solvers/impl/hines_block.hpp"
#include "hinesbatch/solvers/impl/hines_on_chip.hpp"
#include "hinesbatch/solvers/impl/hines_split.hpp"
#include "hinesbatch/solvers/impl/hines_staged.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"
#include "hinesbatch/solvers/simd_tiles_solve.hpp"

namespace hinesbatch {

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

// The schedule Auto stands for on this backend, for this layout, tree size, number of
// systems (num_systems < 0: unknown, as if the batch were large) and tree height (nodes on
// the longest root-to-leaf path, Tree::height(); 0: unknown, the nearest size decides).
template <class ExecutionSpace, class Layout, class Scalar>
HinesSchedule resolve_schedule(HinesSchedule schedule, int num_nodes, long long num_systems = -1,
                               int tree_height = 0) {
  if (schedule != HinesSchedule::Auto) return schedule;
  if (std::is_same<Layout, layouts::BlockShared>::value) return HinesSchedule::PerSystem;
  // Host backends: a tile of consecutive systems per vector pass (against one thread per
  // system, a median 1.4-1.9x in Flat storage and 1.5-5x interleaved: docs/SOLVER_MAP.md).
  if (is_host_backend<ExecutionSpace>()) return HinesSchedule::SimdTiles;
  // GPUs, double, Flat or Full-Interleaved: what the solver map measured fastest nearest to
  // this tree size and batch (docs/SOLVER_MAP.md).
  if constexpr (std::is_same<Scalar, double>::value) {
    const long long systems = num_systems >= 0 ? num_systems : (1ll << 28) / std::max(1, num_nodes);
    if (std::is_same<Layout, layouts::Flat>::value)
      return impl::nearest_auto_schedule(impl::auto_table(impl::HinesAutoTable::Flat), num_nodes,
                                         systems, tree_height);
    if (std::is_same<Layout, layouts::FullInterleaved>::value)
      return impl::nearest_auto_schedule(impl::auto_table(impl::HinesAutoTable::FullInterleaved),
                                         num_nodes, systems, tree_height);
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

namespace impl {

// The chunk shape of the staged schedule under `schedule` (Auto: the one the nearest point of
// the solver map's table names, on GPUs for double Flat and Full-Interleaved batches; a
// schedule asked for by name: the default shape).
template <class ExecutionSpace, class Layout, class Scalar>
StagedShape resolve_staged_shape(HinesSchedule schedule, int num_nodes, long long num_systems,
                                 int tree_height = 0) {
  if (schedule != HinesSchedule::Auto || is_host_backend<ExecutionSpace>()) return {};
  if constexpr (std::is_same<Scalar, double>::value) {
    const long long systems = num_systems >= 0 ? num_systems : (1ll << 28) / std::max(1, num_nodes);
    if (std::is_same<Layout, layouts::Flat>::value)
      return nearest_auto_point(auto_table(HinesAutoTable::Flat), num_nodes, systems, tree_height)
          .shape;
    if (std::is_same<Layout, layouts::FullInterleaved>::value)
      return nearest_auto_point(auto_table(HinesAutoTable::FullInterleaved), num_nodes, systems,
                                tree_height)
          .shape;
  }
  return {};
}

// The block schedule with a given shape (shape.lanes 0: default_block_shape); level0_bytes
// > 0 caps the level-0 scratch a team may take (tests). The lanes are at most what the
// kernel and the device allow for a team.
template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve_block_per_system(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                            const HinesBatch<Scalar, Layout, MemorySpace>& batch,
                            BlockShape shape = {}, std::size_t level0_bytes = 0) {
  using Batch = HinesBatch<Scalar, Layout, MemorySpace>;
  using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
  const int n = batch.num_nodes();
  std::size_t max0 = static_cast<std::size_t>(Policy(exec, 1, 1).scratch_size_max(0));
  if (level0_bytes > 0) max0 = std::min(max0, level0_bytes);
  if (shape.lanes <= 0) {
    const bool coefficients = shape.coefficients_on_chip, plan = shape.plan_on_chip;
    shape = default_block_shape<ExecutionSpace>(n, sizeof(Scalar), max0);
    shape.coefficients_on_chip = coefficients;
    shape.plan_on_chip = plan;
  }
  if (is_host_backend<ExecutionSpace>()) shape.lanes = 1;
  auto run = [&](auto level) {
    for (;;) {
      const BlockPlan<MemorySpace>& plan = tree.block_plan(exec, shape.lanes);
      const LaneLaunch launch =
          block_launch(n, plan.entries, plan.fill, sizeof(Scalar), max0, shape);
      if (launch.level != decltype(level)::value) return false;
      Policy policy(exec, batch.num_systems(), shape.lanes);
      if (launch.level0_bytes(sizeof(Scalar)) > 0)
        policy.set_scratch_size(0, Kokkos::PerTeam(launch.level0_bytes(sizeof(Scalar))));
      if (launch.level == 1)
        policy.set_scratch_size(1, Kokkos::PerTeam(launch.value_bytes(sizeof(Scalar))));
      // The kernel with the fill's code only for plans that split spines.
      const auto go = [&](auto fill) {
        using Functor = SolveBlockPerSystem<Batch, ExecutionSpace, decltype(level)::value,
                                            decltype(fill)::value>;
        const Functor f{batch.u(),          batch.l(),   batch.d(),      batch.rhs(),
                        batch.status(),     plan.plans,  tree.parents(), launch,
                        batch.block_size(), plan.levels, plan.waits_at};
        const int most = policy.team_size_max(f, Kokkos::ParallelForTag());
        if (shape.lanes > most && shape.lanes > 1) {  // registers: halve the lanes, plan again
          shape.lanes = std::max(1, std::min(shape.lanes / 2, most));
          return false;
        }
        Kokkos::parallel_for(std::string("hinesbatch::solve_block_") + Layout::name, policy, f);
        return true;
      };
      if (plan.fill ? go(std::true_type{}) : go(std::false_type{})) return true;
    }
  };
  if (!run(std::integral_constant<int, 0>{})) run(std::integral_constant<int, 1>{});
}

// The split schedule (hines_split.hpp) with `lanes` lanes per system: cuHinesBatch's sweeps
// in place, K threads per system. On host backends a team's systems and lanes in turn. The
// sweeps load each row a row ahead while the threads of `sharing_systems` systems (this
// batch's, or all the systems of batches launched beside it; -1: this batch's) times K fall
// short of what the GPU holds, where latency binds; past that the registers it costs lose
// more threads than it gains (H100, mixed real cells: 1.3-1.9x at 6,400-25,600 cells, 0.91x
// at 102,400 with 4 lanes).
template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve_split_per_system(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                            const HinesBatch<Scalar, Layout, MemorySpace>& batch, int lanes,
                            long long sharing_systems = -1) {
  using Batch = HinesBatch<Scalar, Layout, MemorySpace>;
  using Plan = DeviceSplitPlan<MemorySpace>;
  if (batch.num_systems() == 0 || batch.num_nodes() == 0) return;
  const bool host = is_host_backend<ExecutionSpace>();
  const long long sharing = sharing_systems < 0 ? batch.num_systems() : sharing_systems;
  auto launch = [&](auto ahead) {
    using Functor = SolveSplitPerSystem<Batch, Plan, ExecutionSpace, decltype(ahead)::value>;
    // A warp's 32 systems per lane; one lane gets two warps' systems, so that the 32 teams
    // an SM holds at most still fill its threads.
    int systems = BackendTraits<ExecutionSpace>::warp_lanes * (!host && lanes == 1 ? 2 : 1);
    for (;;) {
      const int teams = (batch.num_systems() + systems - 1) / systems;
      const Plan& plan = tree.split_plan(exec, lanes);
      const Functor f{batch.u(),           batch.l(), batch.d(),         batch.rhs(),
                      batch.status(),      plan,      batch.num_nodes(), batch.block_size(),
                      batch.num_systems(), systems};
      Kokkos::TeamPolicy<ExecutionSpace> policy(exec, teams, host ? 1 : lanes * systems);
      // A team of K warps: where the device cannot hold that many threads a team, half a
      // warp's systems per lane (their rows still whole 128-byte lines in interleaved
      // storage), then fewer lanes.
      if (!host && lanes > 1 &&
          lanes * systems > policy.team_size_max(f, Kokkos::ParallelForTag())) {
        if (systems > BackendTraits<ExecutionSpace>::warp_lanes / 2)
          systems /= 2;
        else
          lanes /= 2;
        continue;
      }
      Kokkos::parallel_for(std::string("hinesbatch::solve_split_") + Layout::name, policy, f);
      return;
    }
  };
  if (!host && sharing * lanes < static_cast<long long>(exec.concurrency()))
    launch(std::true_type{});
  else
    launch(std::false_type{});
}

// The most lanes per system HinesSchedule::Split takes on a mono-morphology batch: past 16
// the plans of the shared trees keep 4-9 lanes busy, so more leave the path as it is.
inline constexpr int split_schedule_most_lanes = 16;

// The split schedule's lanes per system for a tree solved among `systems` systems that share
// the GPU (a grouped batch's cells, all groups together): one thread per system leaves the
// SMs short of warps to hide the sweeps' latency while the systems are fewer than
// wanted_threads, so K lanes multiply them, at most most_lanes, as far as the plan's modelled
// time (its longest lane and its serial junction, over the threads short of wanted_threads)
// shortens by 10% or more for each doubling. 1 on host backends and for trees under 64 nodes.
template <class ExecutionSpace, class MemorySpace>
int choose_split_lanes(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                       long long systems, int most_lanes, double wanted_threads) {
  if (is_host_backend<ExecutionSpace>() || systems <= 0 || tree.size() < 64) return 1;
  auto time = [&](int lanes, int steps) {
    return steps * std::max(1.0, wanted_threads / (static_cast<double>(systems) * lanes));
  };
  int best = 1;
  double best_time = time(1, tree.size());
  for (int lanes = 2; lanes <= most_lanes && systems * lanes / 2 < wanted_threads; lanes *= 2) {
    const double t = time(lanes, tree.split_plan(exec, lanes).modelled_steps);
    if (t > 0.9 * best_time) break;
    best = lanes;
    best_time = t;
  }
  return best;
}

// The split schedule's lanes for a mono-morphology batch of `systems` systems. Its sweeps
// reach their bandwidth with an eighth of the threads the GPU holds resident: fitted on the
// solver map's Split@1-32 (every map tree, 2^20-2^26 nodes, H100), K chosen by an eighth came
// within 0.85 of the best K at 111 of 112 points (0.985 of it on average), by all of them at
// 74 (0.87).
template <class ExecutionSpace, class MemorySpace>
int mono_split_lanes(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                     long long systems) {
  return choose_split_lanes(exec, tree, systems, split_schedule_most_lanes,
                            exec.concurrency() / 8.0);
}

// solve() below, with Auto deciding as if the batch had auto_systems systems: a batch that
// shares the GPU with others launched beside it (GroupedMultiBatch's groups) is decided by
// the occupancy of all of them together.
template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve_mono(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
                const HinesBatch<Scalar, Layout, MemorySpace>& batch, HinesSchedule schedule,
                long long auto_systems) {
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
      schedule, batch.num_nodes(), auto_systems, tree.height());
  if (resolved == HinesSchedule::SimdTiles) {
    if constexpr (std::is_same<Layout, layouts::BlockInterleaved>::value ||
                  std::is_same<Layout, layouts::FullInterleaved>::value ||
                  std::is_same<Layout, layouts::Flat>::value) {
      solve_simd_tiles(exec, tree, batch);
      return;
    } else {
      throw InputError(std::string("hinesbatch::solve: the SimdTiles schedule needs a Flat, "
                                   "FullInterleaved or BlockInterleaved batch, not ") +
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
  if (resolved == HinesSchedule::BlockPerSystem) {
    impl::solve_block_per_system(exec, tree, batch);
    return;
  }
  if (resolved == HinesSchedule::Split) {
    impl::solve_split_per_system(exec, tree, batch,
                                 impl::mono_split_lanes(exec, tree, batch.num_systems()));
    return;
  }
  if (resolved == HinesSchedule::PerSystemStaged) {
    impl::solve_staged_shaped(exec, tree.parents(), batch,
                              impl::resolve_staged_shape<ExecutionSpace, Layout, Scalar>(
                                  schedule, batch.num_nodes(), auto_systems, tree.height()));
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
    const int stride = impl::per_system_stride<ExecutionSpace, Layout>(exec, batch.num_systems());
    Kokkos::parallel_for(
        std::string("hinesbatch::solve_") + Layout::name,
        Kokkos::RangePolicy<ExecutionSpace>(exec, 0, stride),
        impl::SolvePerSystem<Batch, ParentView>{batch.u(), batch.l(), batch.d(), batch.rhs(),
                                                batch.status(), tree.parents(), batch.num_nodes(),
                                                batch.block_size(), batch.num_systems(), stride});
  }
}

}  // namespace impl

// Solves every system of the batch in place: rhs becomes the solution and d the
// eliminated diagonal. Asynchronous on exec (no fence); call batch.check(exec) to turn
// zero pivots or non-finite values into a SolverError.
template <class ExecutionSpace, class Scalar, class Layout, class MemorySpace>
void solve(const ExecutionSpace& exec, const DeviceTree<MemorySpace>& tree,
           const HinesBatch<Scalar, Layout, MemorySpace>& batch,
           HinesSchedule schedule = HinesSchedule::Auto) {
  impl::solve_mono(exec, tree, batch, schedule, batch.num_systems());
}

}  // namespace hinesbatch
