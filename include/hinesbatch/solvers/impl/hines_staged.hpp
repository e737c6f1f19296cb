#pragma once
// The staged one-thread-per-system schedule (HinesSchedule::PerSystemStaged): cuHinesBatch's
// two sweeps, one thread per system, with a team's 32 systems passing through team scratch
// a chunk of rows at a time. The team loads and stores each chunk together, so Flat storage
// (a system's rows contiguous, a whole system apart from the next one's) moves in whole
// cache lines, and in every layout a chunk's loads are in flight at once; each thread then
// sweeps its own system's rows in scratch. Memory traffic is PerSystem's, about 80 B per
// node in double (the eliminated d and rhs are written and read back), and so are the
// operations and their order.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch::impl {

template <class Batch, class ParentView, class ExecutionSpace>
struct SolvePerSystemStaged {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  static constexpr int kSystems = 32;  // a team's systems
  static constexpr int kRows = 16;     // rows of a chunk: 128 B of a system's column in double
  // A system's column in scratch: the chunk's rows and, while eliminating, the row just
  // below the chunk (slot kRows), the parent of the chunk's first row in most trees. Its
  // updates stay in scratch and move to the next chunk's last slot, so every node is
  // updated in the sequential order. Odd, so that the lanes' columns fall in different
  // shared-memory banks.
  static constexpr int kStride = kRows + 1;
  // Flat storage holds a system's rows together; the other layouts a row's systems.
  static constexpr bool system_major = std::is_same<Layout, layouts::Flat>::value;
  // Elements each lane loads before it stores any.
  static constexpr int kLoadBatch = 8;

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

  // Element e of a chunk -> (system c, slot k), consecutive e consecutive in memory.
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
      if (eliminating && r0 > 0 && lane < count) {
        sc.d[lane * kStride + kRows] = Layout::at(d, first + lane, r0 - 1, block_size);
        sc.r[lane * kStride + kRows] = Layout::at(rhs, first + lane, r0 - 1, block_size);
      }
      if (lane < rows) sc.parent[lane] = parent(r0 + lane);
    });
  }

  // The chunk's rows of d (when eliminating) and rhs back to memory.
  KOKKOS_INLINE_FUNCTION void store(const member_type& team, const Scratch& sc, int first,
                                    int count, int r0, int rows, bool with_d, bool with_r) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems * kRows), [&](const int e) {
      int c = 0, k = 0;
      element(e, c, k);
      if (k >= rows || c >= count) return;
      if (with_d) Layout::at(d, first + c, r0 + k, block_size) = sc.d[c * kStride + k];
      if (with_r) Layout::at(rhs, first + c, r0 + k, block_size) = sc.r[c * kStride + k];
    });
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int first = team.league_rank() * kSystems;
    const int count = num_systems - first < kSystems ? num_systems - first : kSystems;
    const Scratch sc = scratch(team);
    const int chunks = (n + kRows - 1) / kRows;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
      sc.bad_pivot[c] = -1;
      sc.bad_solution[c] = -1;
    });

    // Elimination, leaves to root, a chunk at a time from the last.
    for (int ch = chunks - 1; ch >= 0; --ch) {
      const int r0 = ch * kRows, rows = n - r0 < kRows ? n - r0 : kRows;
      const bool last = ch == chunks - 1;
      team.team_barrier();
      load(team, sc, first, count, r0, rows, true);
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
        if (c >= count) return;
        const int s = first + c;
        T* const cu = sc.u + c * kStride;
        T* const cl = sc.l + c * kStride;
        T* const cd = sc.d + c * kStride;
        T* const cr = sc.r + c * kStride;
        if (!last) {  // the row below the previous chunk, carried with its updates
          cd[kRows - 1] = sc.carry[c];
          cr[kRows - 1] = cu[kRows];
        }
        int bad = sc.bad_pivot[c];
        HINESBATCH_DEVICE_NO_UNROLL
        for (int k = rows - 1; k >= 0; --k) {
          const int i = r0 + k;
          if (i == 0) break;
          const int p = sc.parent[k];
          const T di = cd[k], ui = cu[k], li = cl[k], ri = cr[k];
          if (!is_usable_pivot(di) && bad < 0) bad = i;
          const T f = ui / di;
          if (p >= r0 - 1) {
            const int kp = p >= r0 ? p - r0 : kRows;
            const T dp = cd[kp], rp = cr[kp];
            cd[kp] = dp - f * li;
            cr[kp] = rp - f * ri;
          } else {  // a parent further down: its row in memory, loaded with its chunk
            T& dref = Layout::at(d, s, p, block_size);
            T& rref = Layout::at(rhs, s, p, block_size);
            const T dp = dref, rp = rref;
            dref = dp - f * li;
            rref = rp - f * ri;
          }
        }
        if (r0 == 0 && !is_usable_pivot(cd[0]) && bad < 0) bad = 0;
        sc.bad_pivot[c] = bad;
        if (r0 > 0) {
          sc.carry[c] = cd[kRows];
          cu[kRows] = cr[kRows];  // u's spare slot; the next load leaves it alone
        }
      });
      team.team_barrier();
      // The first chunk stays in scratch for the substitution; its rhs is replaced by x.
      store(team, sc, first, count, r0, rows, true, r0 > 0);
    }

    // Substitution, root to leaves, a chunk at a time from the first (in scratch already).
    for (int ch = 0; ch < chunks; ++ch) {
      const int r0 = ch * kRows, rows = n - r0 < kRows ? n - r0 : kRows;
      if (ch > 0) {
        team.team_barrier();
        load(team, sc, first, count, r0, rows, false);
      }
      team.team_barrier();
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, kSystems), [&](const int c) {
        if (c >= count) return;
        const int s = first + c;
        const T* const cl = sc.l + c * kStride;
        const T* const cd = sc.d + c * kStride;
        T* const cr = sc.r + c * kStride;
        const T below = sc.carry[c];  // x of row r0 - 1
        int bad = sc.bad_solution[c];
        HINESBATCH_DEVICE_NO_UNROLL
        for (int k = 0; k < rows; ++k) {
          const int i = r0 + k;
          T x;
          if (i == 0) {
            x = cr[0] / cd[0];
          } else {
            const int p = sc.parent[k];
            const T xp = p >= r0       ? cr[p - r0]
                         : p == r0 - 1 ? below
                                       : T(Layout::at(rhs, s, p, block_size));
            x = (cr[k] - cl[k] * xp) / cd[k];
          }
          cr[k] = x;
          if (!is_finite_value(x) && bad < 0) bad = i;
        }
        sc.bad_solution[c] = bad;
        sc.carry[c] = cr[rows - 1];
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

}  // namespace hinesbatch::impl
