#pragma once
// One tridiagonal system solved on chip by a team: the Thomas-PCR hybrid of László, Giles &
// Appleyard (ACM TOMS 42(4), 2016). The one-thread-per-system Thomas streams c' and d' to
// memory between its two sweeps (about 80 B per row in double); here a team reads each
// coefficient once, eliminates in team scratch and writes only the solution: 40 B per row,
// the floor of a batched solve.
//
//   1. stage:   the team copies the system's rows into scratch (coalesced for Flat input);
//   2. reduce:  lane k owns rows [kR, kR + R) and eliminates them in place with the modified
//               Thomas algorithm, so that every row reads x_i = D_i - A_i x_first - C_i x_last;
//               its first and last rows become two rows of a reduced tridiagonal system of
//               2 x lanes rows coupling the lanes;
//   3. PCR:     the reduced system is solved by parallel cyclic reduction, log2(2 lanes) steps;
//   4. expand:  each lane recovers its interior rows from x_first and x_last;
//   5. write:   the team writes x back (coalesced for Flat input).
//
// Partitioned elimination rounds differently from the sequential Thomas (the test suite
// compares it with a long-double reference; see docs/PERFORMANCE.md for the accuracy). No
// pivoting, as the Thomas algorithm: the matrices are assumed diagonally dominant.
//
// The routine is written over 1-D row accessors, so the layout of the batch and the
// execution policy are chosen outside it. Scratch is laid out [local row][lane] with a
// stride of lanes + 1 so that the lanes of a warp touch consecutive words in phases 2 and 4
// and distinct banks while staging.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <type_traits>

#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {
namespace impl {

// Parallel cyclic reduction of a team schedule's reduced system of n rows, row r's
// a, b, c, d at red(buffer, 0..3, r): each step reads one buffer and writes the other,
// after the step of stride s row r couples to r +- 2s. Returns the buffer that holds the
// decoupled rows.
template <class T, class Member, class Reduced>
KOKKOS_INLINE_FUNCTION int team_pcr(const Member& team, const Reduced& red, const int n) {
  int cur = 0;
  for (int s = 1; s < n; s *= 2) {
    const int in = cur, out = cur ^ 1;
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const int r) {
      T ar = red(in, 0, r), br = red(in, 1, r), cr = red(in, 2, r), dr = red(in, 3, r);
      if (r - s >= 0) {
        const T f = ar / red(in, 1, r - s);
        br -= f * red(in, 2, r - s);
        dr -= f * red(in, 3, r - s);
        ar = -f * red(in, 0, r - s);
      } else {
        ar = T(0);
      }
      if (r + s < n) {
        const T f = cr / red(in, 1, r + s);
        br -= f * red(in, 0, r + s);
        dr -= f * red(in, 3, r + s);
        cr = -f * red(in, 2, r + s);
      } else {
        cr = T(0);
      }
      red(out, 0, r) = ar;
      red(out, 1, r) = br;
      red(out, 2, r) = cr;
      red(out, 3, r) = dr;
    });
    team.team_barrier();
    cur = out;
  }
  return cur;
}

// How a team splits a system of m rows: `lanes` (a power of two) lanes of rows_per_lane >= 2
// consecutive rows. Aimed at 8 rows per lane (enough work between the team barriers, few
// enough to keep the reduced system small) and at least a warp of lanes.
struct TeamThomasShape {
  int lanes = 1;
  int rows_per_lane = 2;

  static TeamThomasShape for_rows(int m, int max_lanes = 256) {
    TeamThomasShape shape;
    const int target_rows = 8;
    int lanes = 1;
    while (lanes < max_lanes && lanes * target_rows < m) lanes *= 2;
    // Small systems: a warp of lanes, but never fewer than two rows each.
    while (lanes < 32 && lanes * 2 * 2 <= m) lanes *= 2;
    while (lanes > 1 && lanes * 2 > m) lanes /= 2;
    shape.lanes = lanes;
    shape.rows_per_lane = m <= 2 * lanes ? 2 : (m + lanes - 1) / lanes;
    return shape;
  }
  KOKKOS_INLINE_FUNCTION int stride() const { return lanes + 1; }
  // Scalars of scratch: four staged arrays, two buffers of the reduced system and a flag.
  KOKKOS_INLINE_FUNCTION std::size_t scratch_scalars() const {
    return 4 * static_cast<std::size_t>(rows_per_lane) * stride() +
           8 * 2 * static_cast<std::size_t>(lanes) + 1;
  }
};

// Solves rows 0..rows-1 of one system (a(0) and c(rows-1) are not read) with the team's
// threads; `scratch` holds shape.scratch_scalars() values. d <- x; a, b, c are only read.
// Failures are recorded (smallest row) through record(pivot_row, solution_row), called by
// the thread that met them (-1 for none).
template <class T, class Member, class A, class B, class C, class D, class Record>
KOKKOS_INLINE_FUNCTION void team_thomas_solve(const Member& team, T* scratch,
                                              const TeamThomasShape shape, const int rows,
                                              const A& a, const B& b, const C& c, const D& d,
                                              const Record& record) {
  const int lanes = shape.lanes, R = shape.rows_per_lane, W = shape.stride();
  const int slots = R * W;
  T* const sA = scratch;
  T* const sB = sA + slots;
  T* const sC = sB + slots;
  T* const sD = sC + slots;
  T* const red = sD + slots;  // [buffer][A, B, C, D][2 lanes]
  const int nred = 2 * lanes;
  // Set when an input coefficient is not finite: that row is then named, not the rows the
  // partitioned elimination spreads the value to.
  T* const bad_input = red + 8 * nred;
  if (team.team_rank() == 0) *bad_input = T(0);
  team.team_barrier();
  auto red_at = [&](int buffer, int array, int r) -> T& {
    return red[(buffer * 4 + array) * nred + r];
  };

  // 1. Stage: rows past the system are identity rows (x = 0, coupled to nothing). Each
  // thread loads kBatch rows (coalesced: consecutive threads, consecutive rows) before it
  // stores any: scratch stores may alias the loads as far as the compiler knows, so a loop
  // of load-store pairs would wait for memory once per row.
  constexpr int kBatch = 4;
  const int total = lanes * R, chunks = (total + kBatch - 1) / kBatch;
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, chunks), [&](const int ch) {
    T av[kBatch], bv[kBatch], cv[kBatch], dv[kBatch];
    for (int q = 0; q < kBatch; ++q) {
      const int r = ch + q * chunks;
      av[q] = T(0);
      bv[q] = T(1);
      cv[q] = T(0);
      dv[q] = T(0);
      if (r < rows) {
        if (r > 0) av[q] = a(r);
        bv[q] = b(r);
        if (r < rows - 1) cv[q] = c(r);
        dv[q] = d(r);
      }
      loads_complete_here(av[q]);
      loads_complete_here(bv[q]);
      loads_complete_here(cv[q]);
      loads_complete_here(dv[q]);
    }
    for (int q = 0; q < kBatch; ++q) {
      const int r = ch + q * chunks;
      if (r >= total) break;
      const int k = r / R, j = r - k * R, at = j * W + k;
      sA[at] = av[q];
      sB[at] = bv[q];
      sC[at] = cv[q];
      sD[at] = dv[q];
      if (r < rows) {
        // Where the sequential Thomas would meet them: a, b in row r's pivot, c in row r+1's.
        const bool pivot_r = !is_finite_value(av[q]) || !is_finite_value(bv[q]);
        const bool pivot_next = !is_finite_value(cv[q]);
        const bool value_r = !is_finite_value(dv[q]);
        if (pivot_r || pivot_next || value_r) {
          *bad_input = T(1);
          record(pivot_r ? r : (pivot_next ? r + 1 : -1), value_r ? r : -1);
        }
      }
    }
  });
  team.team_barrier();

  // 2. Each lane: modified Thomas on its rows (forward, then backward), then the two rows of
  // the reduced system. Afterwards row j (0 < j < R-1) reads x_j = D_j - A_j x_0 - C_j x_{R-1}.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lanes), [&](const int k) {
    const int first = k * R;
    int bad = -1;
    auto pivot = [&](T p, int j) {
      if (!is_usable_pivot(p) && bad < 0 && first + j < rows) bad = first + j;
      return T(1) / p;
    };
    // Rows 0 and 1: normalised (row 0 couples to the previous lane, row 1 to x_0).
    T r = pivot(sB[k], 0);
    T a0 = sA[k] * r, c0 = sC[k] * r, d0 = sD[k] * r;
    r = pivot(sB[W + k], 1);
    T ap = sA[W + k] * r, cp = sC[W + k] * r, dp = sD[W + k] * r;
    sA[W + k] = ap;
    sC[W + k] = cp;
    sD[W + k] = dp;
    for (int j = 2; j < R; ++j) {
      const int at = j * W + k;
      const T aj = sA[at];
      r = pivot(sB[at] - aj * cp, j);
      dp = r * (sD[at] - aj * dp);
      ap = -r * aj * ap;
      cp = r * sC[at];
      sA[at] = ap;
      sC[at] = cp;
      sD[at] = dp;
    }
    // Last row stays as it is: A x_0 + x_{R-1} + C x_next = D. Backward from R-3.
    if (R >= 3) {
      T an = sA[(R - 2) * W + k], cn = sC[(R - 2) * W + k], dn = sD[(R - 2) * W + k];
      for (int j = R - 3; j >= 1; --j) {
        const int at = j * W + k;
        const T cj = sC[at];
        dn = sD[at] - cj * dn;
        an = sA[at] - cj * an;
        cn = -cj * cn;
        sA[at] = an;
        sC[at] = cn;
        sD[at] = dn;
      }
      // Row 0 with row 1 (x_1 = dn - an x_0 - cn x_{R-1}) substituted.
      r = pivot(T(1) - c0 * an, 0);
      d0 = r * (d0 - c0 * dn);
      c0 = -r * c0 * cn;
      a0 = r * a0;
    }
    red_at(0, 0, 2 * k) = a0;
    red_at(0, 1, 2 * k) = T(1);
    red_at(0, 2, 2 * k) = c0;
    red_at(0, 3, 2 * k) = d0;
    const int last = (R - 1) * W + k;
    red_at(0, 0, 2 * k + 1) = sA[last];
    red_at(0, 1, 2 * k + 1) = T(1);
    red_at(0, 2, 2 * k + 1) = sC[last];
    red_at(0, 3, 2 * k + 1) = sD[last];
    if (bad >= 0) record(bad, -1);
  });
  team.team_barrier();

  // 3. PCR on the reduced system: after the step of stride s, row r couples to r +- 2s.
  const int cur = team_pcr<T>(team, red_at, nred);

  // 4. Each lane: x of its first and last rows, then its interior rows.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, lanes), [&](const int k) {
    const T x0 = red_at(cur, 3, 2 * k) / red_at(cur, 1, 2 * k);
    const T xl = red_at(cur, 3, 2 * k + 1) / red_at(cur, 1, 2 * k + 1);
    for (int j = 1; j < R - 1; ++j) {
      const int at = j * W + k;
      sD[at] = sD[at] - sA[at] * x0 - sC[at] * xl;
    }
    sD[k] = x0;
    sD[(R - 1) * W + k] = xl;
  });
  team.team_barrier();

  // 5. Write the solution; the smallest row with a non-finite value is recorded.
  Kokkos::parallel_for(Kokkos::TeamThreadRange(team, rows), [&](const int r) {
    const int k = r / R, j = r - k * R;
    const T x = sD[j * W + k];
    d(r) = x;
    if (!is_finite_value(x) && *bad_input == T(0)) record(-1, r);
  });
}

}  // namespace impl
}  // namespace hinesbatch
