#pragma once
// One tridiagonal system too large for on-chip scratch, solved by a team of many lanes with
// the partitioned elimination's intermediate rows in device memory (the schedule
// ThomasSchedule::TeamPerSystemInMemory). Made for batches of few large systems: one thread
// per system leaves most of a GPU idle there, and the on-chip team and warp schedules stop at
// what a block holds.
//
// The same partition as the on-chip team schedule (thomas_team.hpp: lane k owns R
// consecutive rows, a reduced system couples the lanes), but nothing is staged: each lane
// reads its rows' a, b, c, d from the input once and keeps only what its back substitution
// needs.
//
//   1. forward: lane k eliminates its rows' lower diagonal (the modified Thomas algorithm):
//      row j then reads x_j = dp_j - ap_j x_first - cp_j x_{j+1}. (ap, cp, dp) of its interior
//      rows go to memory, [row][lane] (the lanes of a warp write consecutive words). Row 1
//      in terms of x_first and x_last is carried along the sweep (a linear recurrence), so
//      no backward sweep is needed to couple the first row to the last: each lane ends with
//      two rows, x_first in terms of x_last of lane k-1 and its own x_last, and x_last in
//      terms of x_first and the first row of lane k+1;
//   2. reduce: the first rows are substituted into the last rows: a tridiagonal system of
//      one row per lane in the x_last, in team scratch;
//   3. PCR:    that system by parallel cyclic reduction, log2(lanes) steps;
//   4. back:   each lane: x_first from x_last of lanes k-1 and k, then its interior rows
//      from the bottom up out of (ap, cp, dp), each written once.
//
// Memory traffic per row: a, b, c, d read (4 scalars), ap, cp, dp written and read back
// (6), x written (1): 88 B in double, against 40 B for the solve's floor and about 80 B for
// the one-thread-per-system Thomas (whose c' and d' also go to memory and back). The
// intermediate rows of the teams in flight are mostly L2-resident on an H100. Flat input is
// read and written a lane's row at a time (lanes R rows apart: sectors shared by a lane's
// consecutive rows through L1/L2), Full- and Block-Interleaved input one system's row at a
// time.
//
// Partitioned elimination: no pivoting (the matrices are assumed diagonally dominant); a
// lane's first row is pivoted on b alone, so a zero b there is reported as a zero pivot even
// where the sequential Thomas would pass it (as the on-chip team schedule does).
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/impl/thomas_team.hpp"

namespace hinesbatch {
namespace impl {

// How the in-memory team splits a system of m rows: `lanes` (a power of two) lanes of
// rows_per_lane >= 2 consecutive rows, aimed at kInMemoryTargetRowsPerLane rows each (enough
// rows between the team barriers to stream, few enough lanes' worth of reduced system) and
// at most max_lanes lanes.
constexpr int kInMemoryTargetRowsPerLane = 32;
struct InMemoryTeamShape {
  int lanes = 1;
  int rows_per_lane = 2;

  static InMemoryTeamShape for_rows(int m, int max_lanes) {
    InMemoryTeamShape shape;
    int lanes = 1;
    while (lanes * 2 <= max_lanes && static_cast<long long>(lanes) * kInMemoryTargetRowsPerLane < m)
      lanes *= 2;
    while (lanes > 1 && lanes * 2 > m) lanes /= 2;
    shape.lanes = lanes;
    const int per_lane = (m + lanes - 1) / lanes;
    shape.rows_per_lane = per_lane < 2 ? 2 : per_lane;
    return shape;
  }
  // Rows of a lane whose (ap, cp, dp) go to memory: all but its first and last.
  KOKKOS_INLINE_FUNCTION int interior_rows() const { return rows_per_lane - 2; }
  // Level-0 scalars: two buffers of the reduced system's four arrays, and a flag.
  KOKKOS_INLINE_FUNCTION std::size_t reduced_scalars() const {
    return 8 * static_cast<std::size_t>(lanes) + 1;
  }
  // Level-1 scalars: (ap, cp, dp) of every lane's interior rows, and (a, c, d) of every
  // lane's first row after the elimination.
  KOKKOS_INLINE_FUNCTION std::size_t memory_scalars() const {
    return 3 * static_cast<std::size_t>(interior_rows()) * lanes +
           3 * static_cast<std::size_t>(lanes);
  }
  // Lanes of reduced system the level-0 scratch of `bytes` holds for scalars of `scalar_size`
  // bytes: the largest power of two, at most 1,024.
  static int max_lanes_for(std::size_t bytes, std::size_t scalar_size) {
    const std::size_t fit = (bytes / scalar_size - 1) / 8;
    int lanes = 1;
    while (lanes * 2 <= 1024 && static_cast<std::size_t>(lanes) * 2 <= fit) lanes *= 2;
    return lanes;
  }
};

// Solves rows 0..rows-1 of one system (a(0) and c(rows-1) are not read) with the team's
// threads: `reduced` holds shape.reduced_scalars() values (on chip), `memory`
// shape.memory_scalars() (device memory). d <- x; a, b, c are only read. Failures are
// recorded (smallest row) through record(pivot_row, solution_row), called by the thread that
// met them (-1 for none): an input coefficient that is not finite is named at its row (a, b:
// that row's pivot; c: the next row's; d: that row's solution), not the rows the
// partitioned elimination spreads it to.
template <class T, class Member, class A, class B, class C, class D, class Record>
KOKKOS_INLINE_FUNCTION void team_thomas_solve_in_memory(const Member& team, T* reduced, T* memory,
                                                        const InMemoryTeamShape shape,
                                                        const int rows, const A& a, const B& b,
                                                        const C& c, const D& d,
                                                        const Record& record) {
  const int L = shape.lanes, R = shape.rows_per_lane;
  const std::size_t interior = static_cast<std::size_t>(shape.interior_rows()) * L;
  T* const mA = memory;  // [interior row j - 1][lane]
  T* const mC = mA + interior;
  T* const mD = mC + interior;
  T* const first_rows = mD + interior;  // [a, c, d][lane]
  auto red = [&](int buffer, int array, int k) -> T& {
    return reduced[(buffer * 4 + array) * L + k];
  };
  T* const bad_input = reduced + 8 * L;
  if (team.team_rank() == 0) *bad_input = T(0);
  team.team_barrier();

  // Rows are loaded kBatch at a time, all loads of a batch issued before its first use.
  constexpr int kBatch = 4;

  // 1. Forward, lane by lane.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, L), [&](const int k) {
    const int first = k * R;
    int bad = -1;
    // After a non-finite input (recorded at its row) the lane's later pivots, and its first
    // row's, are its consequences: not recorded.
    bool input_seen_bad = false;
    auto pivot = [&](T p, int row) {
      if (!is_usable_pivot(p) && bad < 0 && !input_seen_bad && row < rows) bad = row;
      return T(1) / p;
    };
    T a0 = T(0), c0 = T(0), d0 = T(0);  // the first row, normalised
    T ap = T(0), cp = T(0), dp = T(0);  // the row just eliminated
    T e = T(0), f = T(0), g = T(0);     // x_1 = e - f x_first - g x_next
    for (int j0 = 0; j0 < R; j0 += kBatch) {
      T av[kBatch], bv[kBatch], cv[kBatch], dv[kBatch];
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int row = first + j0 + q;
        // Rows past the system are identity rows (x = 0, coupled to nothing).
        av[q] = T(0);
        bv[q] = T(1);
        cv[q] = T(0);
        dv[q] = T(0);
        if (j0 + q < R && row < rows) {
          if (row > 0) av[q] = a(row);
          bv[q] = b(row);
          if (row < rows - 1) cv[q] = c(row);
          dv[q] = d(row);
        }
        loads_complete_here(av[q]);
        loads_complete_here(bv[q]);
        loads_complete_here(cv[q]);
        loads_complete_here(dv[q]);
      }
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int j = j0 + q, row = first + j;
        if (j >= R) break;
        if (row < rows) {
          // Where the sequential Thomas would meet them: a, b in row's pivot, c in the next's.
          const bool pivot_here = !is_finite_value(av[q]) || !is_finite_value(bv[q]);
          const bool pivot_next = !is_finite_value(cv[q]);
          const bool value_here = !is_finite_value(dv[q]);
          if (pivot_here || pivot_next || value_here) {
            *bad_input = T(1);
            input_seen_bad = true;
            record(pivot_here ? row : (pivot_next ? row + 1 : -1), value_here ? row : -1);
          }
        }
        if (j == 0) {
          const T r = pivot(bv[q], row);
          a0 = av[q] * r;
          c0 = cv[q] * r;
          d0 = dv[q] * r;
          continue;
        }
        if (j == 1) {
          const T r = pivot(bv[q], row);
          ap = av[q] * r;
          cp = cv[q] * r;
          dp = dv[q] * r;
          e = dp;
          f = ap;
          g = cp;
        } else {
          const T r = pivot(bv[q] - av[q] * cp, row);
          dp = r * (dv[q] - av[q] * dp);
          ap = -r * av[q] * ap;
          cp = r * cv[q];
          if (j < R - 1) {  // x_j = dp - ap x_first - cp x_{j+1}, into x_1's
            e -= g * dp;
            f -= g * ap;
            g = -g * cp;
          }
        }
        if (j < R - 1) {
          const std::size_t at = static_cast<std::size_t>(j - 1) * L + k;
          mA[at] = ap;
          mC[at] = cp;
          mD[at] = dp;
        }
      }
    }
    if (R >= 3) {  // the first row with x_1 = e - f x_first - g x_last substituted
      const T r = pivot(T(1) - c0 * f, first);
      d0 = r * (d0 - c0 * e);
      c0 = -r * c0 * g;
      a0 = r * a0;
    }
    first_rows[k] = a0;
    first_rows[L + k] = c0;
    first_rows[2 * L + k] = d0;
    // For the reduction: first rows in buffer 1, last rows (x_last + ap x_first + cp
    // x_first(k+1) = dp) in buffer 0.
    red(1, 0, k) = a0;
    red(1, 1, k) = c0;
    red(1, 2, k) = d0;
    red(0, 0, k) = ap;
    red(0, 1, k) = cp;
    red(0, 2, k) = dp;
    if (bad >= 0) record(bad, -1);
  });
  team.team_barrier();

  // 2. The last row of lane k with x_first of lanes k and k+1 substituted: row k of a
  // tridiagonal system in x_last (buffer 0: A, B, C, D).
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, L), [&](const int k) {
    const T al = red(0, 0, k), cl = red(0, 1, k), dl = red(0, 2, k);
    const T an = k + 1 < L ? red(1, 0, k + 1) : T(0), cn = k + 1 < L ? red(1, 1, k + 1) : T(0),
            dn = k + 1 < L ? red(1, 2, k + 1) : T(0);
    red(0, 0, k) = -al * red(1, 0, k);
    red(0, 1, k) = T(1) - al * red(1, 1, k) - cl * an;
    red(0, 2, k) = -cl * cn;
    red(0, 3, k) = dl - al * red(1, 2, k) - cl * dn;
  });
  team.team_barrier();

  // 3. PCR: after the step of stride s, row r couples to r +- 2s.
  const int cur = team_pcr<T>(team, red, L);

  // 4. Back substitution, lane by lane, bottom up; each x written once.
  const bool input_ok = *bad_input == T(0);
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, L), [&](const int k) {
    const int first = k * R;
    auto put = [&](int row, T x) {
      if (row >= rows) return;
      d(row) = x;
      if (!is_finite_value(x) && input_ok) record(-1, row);
    };
    const T xl = red(cur, 3, k) / red(cur, 1, k);
    const T xp = k > 0 ? red(cur, 3, k - 1) / red(cur, 1, k - 1) : T(0);
    const T x0 = first_rows[2 * L + k] - first_rows[k] * xp - first_rows[L + k] * xl;
    put(first + R - 1, xl);
    T xn = xl;
    for (int j0 = R - 2; j0 >= 1; j0 -= kBatch) {
      T av[kBatch], cv[kBatch], dv[kBatch];
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int j = j0 - q;
        av[q] = cv[q] = dv[q] = T(0);
        if (j >= 1) {
          const std::size_t at = static_cast<std::size_t>(j - 1) * L + k;
          av[q] = mA[at];
          cv[q] = mC[at];
          dv[q] = mD[at];
        }
        loads_complete_here(av[q]);
        loads_complete_here(cv[q]);
        loads_complete_here(dv[q]);
      }
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int j = j0 - q;
        if (j < 1) break;
        xn = dv[q] - av[q] * x0 - cv[q] * xn;
        put(first + j, xn);
      }
    }
    put(first, x0);
  });
}

}  // namespace impl
}  // namespace hinesbatch
