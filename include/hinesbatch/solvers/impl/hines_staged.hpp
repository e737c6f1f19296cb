#pragma once
// The staged one-thread-per-system schedule (HinesSchedule::PerSystemStaged): cuHinesBatch's
// two sweeps, one thread per system, with a team's 32 systems passing through team scratch
// a chunk of rows at a time. The team loads and stores each chunk together, so Flat storage
// (a system's rows contiguous, a whole system apart from the next one's) moves in whole
// cache lines, and in every layout a chunk's loads are in flight at once; each thread then
// sweeps its own system's rows in scratch. Memory traffic is PerSystem's, about 80 B per
// node in double (the eliminated d and rhs are written and read back), and so are the
// operations and their order.
//
// Shapes (the solver map measures them all: --map-staged-shapes): Rows a chunk; Prefetch,
// which asks L2 for the next chunk's cache lines while one is swept; Async, which copies a
// chunk to scratch with asynchronous copies (sm_80 on; elsewhere the register path), every
// copy of it in flight at once. On one H200, 32 rows with asynchronous copies ran at a
// median 1.3x the default (16 rows) on Flat batches, up to 1.4x, but lost up to 0.6x at
// others; prefetching helped small Full-Interleaved batches and cost 10% on large ones. So
// Auto's table names a shape per point, among those solve_staged_shaped instantiates.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <string>
#include <type_traits>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_staged_shape.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch::impl {

template <class Batch, class ParentView, class ExecutionSpace, int Rows = 16, bool Prefetch = false,
          bool Async = false>
struct SolvePerSystemStaged {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int kSystems = 32;  // a team's systems
  static constexpr int kRows = Rows;   // rows of a chunk (16: 128 B of a system's column)
  static_assert(kRows >= 2 && kRows <= kSystems && kSystems % kRows == 0,
                "a chunk's rows divide the team's systems");
  // A system's column in scratch: the chunk's rows and, while eliminating, the row just
  // below the chunk (slot kRows), the parent of the chunk's first row in most trees. Its
  // updates stay in scratch and move to the next chunk's last slot, so every node is
  // updated in the sequential order. Odd, so that the lanes' columns fall in different
  // shared-memory banks.
  static constexpr int kStride = kRows + 1;
  // Flat storage holds a system's rows together; the other layouts a row's systems.
  static constexpr bool system_major = std::is_same<Layout, layouts::Flat>::value;
  // Elements each lane loads before it stores any.
  static constexpr int kLoadBatch = kRows < 8 ? kRows : 8;

  typename Batch::view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size, num_systems;

  static constexpr std::size_t scratch_bytes() {
    return sizeof(T) * (4 * kSystems * kStride + kSystems) + sizeof(int) * (2 * kSystems + kRows);
  }

  struct Scratch {
    T *u, *l, *d, *r;
    // Per system between chunks: the row below the chunk's d while eliminating (its rhs
    // in the u column's spare slot), x of the row below while substituting.
    T* carry;
    int* bad_pivot;     // per system, as hines_solve_system's
    int* bad_solution;  // per system
    int* parent;        // the chunk's rows' parents
  };

  KOKKOS_INLINE_FUNCTION Scratch scratch(const member_type& team) const {
    char* p = on_chip<0>(static_cast<char*>(team.team_scratch(0).get_shmem(scratch_bytes(), 0)));
    Scratch s;
    T* t = reinterpret_cast<T*>(p);
    s.u = t;
    s.l = t + kSystems * kStride;
    s.d = t + 2 * kSystems * kStride;
    s.r = t + 3 * kSystems * kStride;
    s.carry = t + 4 * kSystems * kStride;
    int* ints = reinterpret_cast<int*>(t + 4 * kSystems * kStride + kSystems);
    s.bad_pivot = ints;
    s.bad_solution = ints + kSystems;
    s.parent = ints + 2 * kSystems;
    return s;
  }

  // A lane's share of a chunk: its q-th element (q < kRows) is system c0 + q * dc, row
  // k0 + q * dk of the chunk, so that the team's q-th accesses are consecutive in memory.
  // Its first `valid` elements exist (the team's last systems and the last chunk's rows
  // may not).
  struct LaneShare {
    int c0, k0, dc, dk, valid;
  };
  KOKKOS_INLINE_FUNCTION static LaneShare share(int lane, int count, int rows) {
    LaneShare w;
    if (system_major) {
      w.c0 = lane / kRows;
      w.k0 = lane % kRows;
      w.dc = kSystems / kRows;
      w.dk = 0;
      const int systems = count > w.c0 ? (count - w.c0 + w.dc - 1) / w.dc : 0;
      w.valid = w.k0 < rows ? (systems < kRows ? systems : kRows) : 0;
    } else {
      w.c0 = lane;
      w.k0 = 0;
      w.dc = 0;
      w.dk = 1;
      w.valid = lane < count ? rows : 0;
    }
    return w;
  }

  // Where a lane's elements of one array sit: element q at `at + q * step`, walked one
  // element at a time. Untiled layouts only (a rank-2 View, whose strides say it all).
  struct Cursor {
    T* at;
    std::ptrdiff_t step;
    // Opaque, so that the device compiler adds the stride instead of rebuilding the 64-bit
    // index from the View's strides at every element (about ten instructions each).
    KOKKOS_INLINE_FUNCTION void advance() { at = opaque_pointer(at + step); }
  };
  template <class View>
  KOKKOS_INLINE_FUNCTION static Cursor cursor(const View& v, int s, int i, const LaneShare& w) {
    const std::ptrdiff_t s0 = static_cast<std::ptrdiff_t>(v.stride_0());
    const std::ptrdiff_t s1 = static_cast<std::ptrdiff_t>(v.stride_1());
    return {v.data() + (s + w.c0) * s0 + (i + w.k0) * s1, w.dc * s0 + w.dk * s1};
  }

  // Element e of a chunk -> (system c, slot k), consecutive e consecutive in memory (the
  // tiled layouts' path).
  KOKKOS_INLINE_FUNCTION static void element(int e, int& c, int& k) {
    if (system_major) {
      c = e / kRows;
      k = e % kRows;
    } else {
      k = e / kSystems;
      c = e % kSystems;
    }
  }

  // Rows r0 .. r0 + rows - 1 of the team's `count` systems into their slots (u only when
  // eliminating, with the row below the chunk's d and rhs), and the rows' parents.
  KOKKOS_INLINE_FUNCTION void load(const member_type& team, const Scratch& sc, int first, int count,
                                   int r0, int rows, bool eliminating) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int lane) {
      constexpr bool async = Async && kHasAsyncCopies && !Layout::tiled;
      if constexpr (Layout::tiled) {
        load_elements(sc, lane, first, count, r0, rows, eliminating);
      } else if constexpr (async) {  // every copy of the chunk in flight at once
        const LaneShare w = share(lane, count, rows);
        Cursor cu = cursor(u, first, r0, w), cl = cursor(l, first, r0, w),
               cd = cursor(d, first, r0, w), cr = cursor(rhs, first, r0, w);
        const int slot = w.c0 * kStride + w.k0, slot_step = w.dc * kStride + w.dk;
        HINESBATCH_DEVICE_UNROLL
        for (int q = 0; q < kRows; ++q) {
          if (q < w.valid) {
            const int at = slot + q * slot_step;
            if (eliminating) copy_async(&sc.u[at], cu.at);
            copy_async(&sc.l[at], cl.at);
            copy_async(&sc.d[at], cd.at);
            copy_async(&sc.r[at], cr.at);
          }
          if (eliminating) cu.advance();
          cl.advance();
          cd.advance();
          cr.advance();
        }
      } else {
        const LaneShare w = share(lane, count, rows);
        Cursor cu = cursor(u, first, r0, w), cl = cursor(l, first, r0, w),
               cd = cursor(d, first, r0, w), cr = cursor(rhs, first, r0, w);
        const int slot = w.c0 * kStride + w.k0, slot_step = w.dc * kStride + w.dk;
        HINESBATCH_DEVICE_UNROLL
        for (int q0 = 0; q0 < kRows; q0 += kLoadBatch) {
          T vu[kLoadBatch], vl[kLoadBatch], vd[kLoadBatch], vr[kLoadBatch];
          HINESBATCH_DEVICE_UNROLL
          for (int b = 0; b < kLoadBatch; ++b) {
            const int q = q0 + b;
            vu[b] = vl[b] = vd[b] = vr[b] = T(0);
            if (q < w.valid) {
              if (eliminating) vu[b] = *cu.at;
              vl[b] = *cl.at;
              vd[b] = *cd.at;
              vr[b] = *cr.at;
            }
            if (eliminating) cu.advance();
            cl.advance();
            cd.advance();
            cr.advance();
            loads_complete_here(vu[b]);
            loads_complete_here(vl[b]);
            loads_complete_here(vd[b]);
            loads_complete_here(vr[b]);
          }
          HINESBATCH_DEVICE_UNROLL
          for (int b = 0; b < kLoadBatch; ++b) {
            const int q = q0 + b;
            if (q >= w.valid) continue;
            const int at = slot + q * slot_step;
            if (eliminating) sc.u[at] = vu[b];
            sc.l[at] = vl[b];
            sc.d[at] = vd[b];
            sc.r[at] = vr[b];
          }
        }
      }
      if constexpr (async) {
        if (eliminating && r0 > 0 && lane < count) {
          copy_async(&sc.d[lane * kStride + kRows],
                     &Layout::at(d, first + lane, r0 - 1, block_size));
          copy_async(&sc.r[lane * kStride + kRows],
                     &Layout::at(rhs, first + lane, r0 - 1, block_size));
        }
        if (lane < rows) copy_async(&sc.parent[lane], &parent(r0 + lane));
        wait_async_copies();
      } else {
        if (eliminating && r0 > 0 && lane < count) {
          sc.d[lane * kStride + kRows] = Layout::at(d, first + lane, r0 - 1, block_size);
          sc.r[lane * kStride + kRows] = Layout::at(rhs, first + lane, r0 - 1, block_size);
        }
        if (lane < rows) sc.parent[lane] = parent(r0 + lane);
      }
    });
  }

  KOKKOS_INLINE_FUNCTION void load_elements(const Scratch& sc, int lane, int first, int count,
                                            int r0, int rows, bool eliminating) const {
    for (int q0 = 0; q0 < kRows; q0 += kLoadBatch) {
      T vu[kLoadBatch], vl[kLoadBatch], vd[kLoadBatch], vr[kLoadBatch];
      int at[kLoadBatch];
      HINESBATCH_DEVICE_UNROLL
      for (int b = 0; b < kLoadBatch; ++b) {
        int c = 0, k = 0;
        element((q0 + b) * kSystems + lane, c, k);
        at[b] = k < rows && c < count ? c * kStride + k : -1;
        vu[b] = vl[b] = vd[b] = vr[b] = T(0);
        if (at[b] >= 0) {
          if (eliminating) vu[b] = Layout::at(u, first + c, r0 + k, block_size);
          vl[b] = Layout::at(l, first + c, r0 + k, block_size);
          vd[b] = Layout::at(d, first + c, r0 + k, block_size);
          vr[b] = Layout::at(rhs, first + c, r0 + k, block_size);
        }
        loads_complete_here(vu[b]);
        loads_complete_here(vl[b]);
        loads_complete_here(vd[b]);
        loads_complete_here(vr[b]);
      }
      HINESBATCH_DEVICE_UNROLL
      for (int b = 0; b < kLoadBatch; ++b) {
        if (at[b] < 0) continue;
        if (eliminating) sc.u[at[b]] = vu[b];
        sc.l[at[b]] = vl[b];
        sc.d[at[b]] = vd[b];
        sc.r[at[b]] = vr[b];
      }
    }
  }

  // Asks L2 for the cache lines of rows r0 .. r0 + rows - 1 of the team's systems in the
  // given arrays (u only when eliminating). Untiled layouts on GPUs; otherwise nothing.
  KOKKOS_INLINE_FUNCTION void prefetch(const member_type& team, int first, int count, int r0,
                                       int rows, bool eliminating) const {
    if constexpr (!Prefetch || Layout::tiled || BackendTraits<ExecutionSpace>::is_host) {
      (void)team, (void)first, (void)count, (void)r0, (void)rows, (void)eliminating;
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int lane) {
        auto ask = [&](int c, int k) {
          if (eliminating) prefetch_to_l2(&u(first + c, r0 + k));
          prefetch_to_l2(&l(first + c, r0 + k));
          prefetch_to_l2(&d(first + c, r0 + k));
          prefetch_to_l2(&rhs(first + c, r0 + k));
        };
        if (system_major) {  // a lane per system: its rows' first, every 16th, and last
          if (lane >= count) return;
          for (int k = 0; k < rows; k += 16) ask(lane, k);
          ask(lane, rows - 1);
        } else {  // a row's systems span up to three lines: its first, 17th and last
          for (int j = lane; j < 3 * rows; j += kSystems) {
            const int which = j % 3;
            const int c = which == 0 ? 0 : which == 1 ? (count > 16 ? 16 : count - 1) : count - 1;
            ask(c, j / 3);
          }
        }
      });
    }
  }

  // The chunk's rows of d (when eliminating) and rhs back to memory.
  KOKKOS_INLINE_FUNCTION void store(const member_type& team, const Scratch& sc, int first,
                                    int count, int r0, int rows, bool with_d, bool with_r) const {
    if constexpr (Layout::tiled) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems * kRows), [&](const int e) {
        int c = 0, k = 0;
        element(e, c, k);
        if (k >= rows || c >= count) return;
        if (with_d) Layout::at(d, first + c, r0 + k, block_size) = sc.d[c * kStride + k];
        if (with_r) Layout::at(rhs, first + c, r0 + k, block_size) = sc.r[c * kStride + k];
      });
    } else {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int lane) {
        const LaneShare w = share(lane, count, rows);
        Cursor cd = cursor(d, first, r0, w), cr = cursor(rhs, first, r0, w);
        const int slot = w.c0 * kStride + w.k0, slot_step = w.dc * kStride + w.dk;
        HINESBATCH_DEVICE_UNROLL
        for (int q = 0; q < kRows; ++q) {
          if (q >= w.valid) break;
          const int at = slot + q * slot_step;
          if (with_d) *cd.at = sc.d[at];
          if (with_r) *cr.at = sc.r[at];
          cd.advance();
          cr.advance();
        }
      });
    }
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int first = team.league_rank() * kSystems;
    const int count = num_systems - first < kSystems ? num_systems - first : kSystems;
    const Scratch sc = scratch(team);
    const int chunks = (n + kRows - 1) / kRows;
    auto rows_of = [&](int ch) { return n - ch * kRows < kRows ? n - ch * kRows : kRows; };
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
      sc.bad_pivot[c] = -1;
      sc.bad_solution[c] = -1;
    });

    // Elimination, leaves to root, a chunk at a time from the last.
    for (int ch = chunks - 1; ch >= 0; --ch) {
      const int r0 = ch * kRows, rows = rows_of(ch);
      const bool last = ch == chunks - 1;
      team.team_barrier();
      load(team, sc, first, count, r0, rows, true);
      if (ch > 0) prefetch(team, first, count, r0 - kRows, kRows, true);
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
        if (c >= count) return;
        const int s = first + c;
        const T* const cu = sc.u + c * kStride;
        const T* const cl = sc.l + c * kStride;
        T* const cd = sc.d + c * kStride;
        T* const cr = sc.r + c * kStride;
        if (!last) {  // the row below the previous chunk, carried with its updates
          cd[kRows - 1] = sc.carry[c];
          cr[kRows - 1] = cu[kRows];
        }
        int bad = sc.bad_pivot[c];
        // Row k's d and rhs ride in registers from the row above it when that row is its
        // child (most rows of a tree numbered depth first), off the shared-memory path.
        T dk = cd[rows - 1], rk = cr[rows - 1];
        int k = rows - 1;
        HINESBATCH_DEVICE_NO_UNROLL
        for (; k >= 0; --k) {
          const int i = r0 + k;
          if (i == 0) break;
          const int p = sc.parent[k];
          const int below = k > 0 ? k - 1 : kRows;  // row i - 1's slot
          const T ui = cu[k], li = cl[k];
          T dn = cd[below], rn = cr[below];
          if (!is_usable_pivot(dk) && bad < 0) bad = i;
          const T f = ui / dk;
          cd[k] = dk;
          cr[k] = rk;
          if (p == i - 1) {
            dn = dn - f * li;
            rn = rn - f * rk;
          } else if (p >= r0 - 1) {  // in the chunk, or the row below it (slot kRows)
            const int kp = p >= r0 ? p - r0 : kRows;
            cd[kp] = cd[kp] - f * li;
            cr[kp] = cr[kp] - f * rk;
          } else {  // a parent further down: its row in memory, loaded with its chunk
            T& dref = Layout::at(d, s, p, block_size);
            T& rref = Layout::at(rhs, s, p, block_size);
            const T dp = dref, rp = rref;
            dref = dp - f * li;
            rref = rp - f * rk;
          }
          dk = dn;
          rk = rn;
        }
        if (k >= 0) {  // stopped at the root
          cd[0] = dk;
          cr[0] = rk;
          if (!is_usable_pivot(dk) && bad < 0) bad = 0;
        } else {  // the row below the chunk goes on to the next chunk
          sc.carry[c] = dk;
          sc.u[c * kStride + kRows] = rk;  // u's spare slot; the next load leaves it alone
        }
        sc.bad_pivot[c] = bad;
      });
      team.team_barrier();
      // The first chunk stays in scratch for the substitution; its rhs is replaced by x.
      store(team, sc, first, count, r0, rows, true, r0 > 0);
    }

    // Substitution, root to leaves, a chunk at a time from the first (in scratch already).
    for (int ch = 0; ch < chunks; ++ch) {
      const int r0 = ch * kRows, rows = rows_of(ch);
      if (ch > 0) {
        team.team_barrier();
        load(team, sc, first, count, r0, rows, false);
      }
      if (ch + 1 < chunks) prefetch(team, first, count, r0 + kRows, rows_of(ch + 1), false);
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
        if (c >= count) return;
        const int s = first + c;
        const T* const cl = sc.l + c * kStride;
        const T* const cd = sc.d + c * kStride;
        T* const cr = sc.r + c * kStride;
        const T below = sc.carry[c];  // x of row r0 - 1
        T x_above = below;            // x of row i - 1
        int bad = sc.bad_solution[c];
        HINESBATCH_DEVICE_NO_UNROLL
        for (int k = 0; k < rows; ++k) {
          const int i = r0 + k;
          T x;
          if (i == 0) {
            x = cr[0] / cd[0];
          } else {
            const int p = sc.parent[k];
            const T xp = p == i - 1    ? x_above
                         : p >= r0     ? cr[p - r0]
                         : p == r0 - 1 ? below
                                       : T(Layout::at(rhs, s, p, block_size));
            x = (cr[k] - cl[k] * xp) / cd[k];
          }
          cr[k] = x;
          x_above = x;
          if (!is_finite_value(x) && bad < 0) bad = i;
        }
        sc.bad_solution[c] = bad;
        sc.carry[c] = x_above;
      });
      team.team_barrier();
      store(team, sc, first, count, r0, rows, false, true);
    }

    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
      if (c >= count) return;
      record_nodes(status, static_cast<long long>(first + c) * n, sc.bad_pivot[c],
                   sc.bad_solution[c]);
    });
  }
};

// Runs the staged schedule on a batch: a team of 32 systems, a thread per system on GPUs
// (a warp per team), one thread taking the team's systems in turn on host backends.
template <int Rows = 16, bool Prefetch = false, bool Async = false, class ExecutionSpace,
          class ParentView, class Batch>
void solve_staged(const ExecutionSpace& exec, const ParentView& parents, const Batch& batch) {
  using Layout = typename Batch::layout_type;
  using Functor = SolvePerSystemStaged<Batch, ParentView, ExecutionSpace, Rows, Prefetch, Async>;
  const long long teams =
      (static_cast<long long>(batch.num_systems()) + Functor::kSystems - 1) / Functor::kSystems;
  Kokkos::TeamPolicy<ExecutionSpace> policy(exec, static_cast<int>(teams),
                                            BackendTraits<ExecutionSpace>::team_lanes);
  policy.set_scratch_size(0, Kokkos::PerTeam(Functor::scratch_bytes()));
  Kokkos::parallel_for(
      std::string("hinesbatch::solve_staged_") + Layout::name, policy,
      Functor{batch.u(), batch.l(), batch.d(), batch.rhs(), batch.status(), parents,
              batch.num_nodes(), batch.block_size(), batch.num_systems()});
}

// The staged schedule in a shape Auto's table may name: on GPUs, double Flat and
// Full-Interleaved batches in chunks of 16 rows (with or without the L2 prefetch) or of 32
// copied asynchronously (the shapes that won points of the solver map); the default shape
// everywhere else, so that other configurations compile one kernel.
template <class ExecutionSpace, class ParentView, class Batch>
void solve_staged_shaped(const ExecutionSpace& exec, const ParentView& parents, const Batch& batch,
                         StagedShape shape) {
  using Layout = typename Batch::layout_type;
  if constexpr (!BackendTraits<ExecutionSpace>::is_host &&
                std::is_same<typename Batch::scalar_type, double>::value &&
                (std::is_same<Layout, layouts::Flat>::value ||
                 std::is_same<Layout, layouts::FullInterleaved>::value)) {
    if (shape.rows == 32 && shape.async && !shape.prefetch)
      return solve_staged<32, false, true>(exec, parents, batch);
    if (shape.rows == 16 && shape.prefetch && !shape.async)
      return solve_staged<16, true, false>(exec, parents, batch);
  }
  (void)shape;
  solve_staged(exec, parents, batch);
}

}  // namespace hinesbatch::impl
