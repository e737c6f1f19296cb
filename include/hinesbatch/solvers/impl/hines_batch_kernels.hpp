#pragma once
// The kernels of the mono-morphology Hines schedules that live beside their launchers
// (hines_batch_solve.hpp chooses the schedule and launches them): one thread per system,
// the Block-Shared tile, the team and warp schedules' functors. The other schedules'
// kernels: hines_on_chip.hpp, hines_staged.hpp, hines_block.hpp, simd_tiles_solve.hpp.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <type_traits>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/solvers/device_tree.hpp"
#include "hinesbatch/solvers/impl/hines_on_chip.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {
namespace impl {

// Flat, Full-Interleaved, Block-Interleaved: one thread per system over the layout's 1-D
// subviews; work item k solves systems k, k + stride, k + 2 stride, ...
template <class Batch, class ParentView>
struct SolvePerSystem {
  using Layout = typename Batch::layout_type;
  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size, num_systems, stride;

  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    for (int s = k; s < num_systems; s += stride) {
      const auto f = hines_solve_system(
          parent, n, Layout::system_view(u, s, block_size), Layout::system_view(l, s, block_size),
          Layout::system_view(d, s, block_size), Layout::system_view(rhs, s, block_size));
      record_failure(status, f, static_cast<long long>(s) * n);
    }
  }
};

// PerSystem's threads on a GPU for Flat storage: each thread walks its own system, a row
// apart from its neighbours', so every thread holds a cache line of each array in L1. Past
// about 256 threads per SM those lines evict each other and the rate falls 4-6x (the solver
// map: 0.19-0.21 of the copy floor at 15,000-50,000 systems of 100-3,000 nodes, 0.03 at
// four times as many), so at most concurrency / 8 threads run, each taking as many systems
// as the others (give or take one).
template <class ExecutionSpace, class Layout>
int per_system_stride(const ExecutionSpace& exec, int num_systems) {
  if (is_host_backend<ExecutionSpace>() || !std::is_same<Layout, layouts::Flat>::value)
    return std::max(1, num_systems);
  const int most = std::max(1, exec.concurrency() / 8);
  const long long n = num_systems;
  const long long rounds = (n + most - 1) / most;  // systems per thread, evened out
  return static_cast<int>(std::max(1ll, (n + rounds - 1) / rounds));
}

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

}  // namespace hinesbatch
