#pragma once
// One tridiagonal system of any size solved by a block of warps that reads its input twice
// (ThomasSchedule::TeamPerSystemTwoPass). The warp schedule (thomas_warp.hpp) keeps a whole
// system in its lanes' registers, so past a few thousand rows one system takes a block of
// 8-32 warps at 100-160 registers a thread, one block fills an SM, and the SM idles at each
// of the block's barriers; past 8,192 rows it does not fit at all. Here the block's lanes
// take the system's lane-rows (R consecutive rows each, the warp schedule's lane code) in
// turn, and keep only what couples them:
//
//   1. reduce: lane-row g is eliminated in registers (warp_lane_eliminate) and folded with
//      the next lane-row's top row into row g of a tridiagonal system in the lane-rows'
//      x_last (warp_lane_fold), kept in shared memory (3 scalars per R rows); the rows
//      themselves are dropped;
//   2. solve: that system of G = ceil(m / R) rows by the block: each of Tn lanes takes K
//      consecutive rows of it (the modified Thomas algorithm in shared memory), one row per
//      lane is solved by PCR, and each lane expands its K rows in place;
//   3. expand: lane-row g is read and eliminated again, and its rows of x follow from its
//      x_last and the previous lane-row's (warp_lane_expand).
//
// Memory traffic per row: a, b, c, d read twice, x written once: 72 B in double, 40 B where
// the second read hits L2. Shared memory: about 3 sizeof(T) / R per row, so a block holds the
// reduced system of tens of thousands of rows and the block stays small (1-16 warps by the
// system's size, several blocks per SM); larger ones go to device memory. Same pivot rule as
// the warp schedule (no pivoting; a lane-row's first row is pivoted on b alone).
//
// One set of lane code for every backend: on CUDA the block's threads run the lanes and
// lane-rows meet through shuffles and shared memory; on host backends one thread runs the
// same lanes in turn, with the same shape, so the host suite checks the arithmetic the GPU
// runs.
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/solvers/impl/thomas_warp.hpp"

namespace hinesbatch {
namespace impl {

// Rows per lane-row: the warp schedule's register shape of 8 rows.
constexpr int kTwoPassRowsPerLane = kWarpRowsPerLane;

// How the block splits a system of at most m rows: `warps` warps of 32 lanes take its
// G lane-rows in turn; the reduced system of G rows is split into `lanes` segments of
// `segment` >= 2 rows (padded with identity rows to lanes x segment). A block may take
// `systems` > 1 systems side by side (Full-Interleaved storage: lane systems x q + j holds
// lane-row q of system j, so that a warp's load of one row index reads whole 32-byte
// sectors); each then has warps x 32 / systems lanes.
struct TwoPassShape {
  int warps = 1;
  int systems = 1;
  int system_threads = kWarpLanes;  // warps x 32 / systems (kept: no division on the device)
  int system_stride = 0;            // scalars from one system's shared memory to the next's
  int lane_rows = 1;                // G
  int segment = 2;                  // K
  int lanes = 1;                    // Tn

  static TwoPassShape for_rows(int m, int warps, int systems = 1, int scalar_bytes = 8) {
    TwoPassShape s;
    s.systems = systems;
    s.lane_rows = (m + kTwoPassRowsPerLane - 1) / kTwoPassRowsPerLane;
    // No more warps than lane-rows to give them.
    const int per_warp = kWarpLanes / systems;
    const int needed = (s.lane_rows + per_warp - 1) / per_warp;
    s.warps = warps < needed ? warps : needed;
    if (s.warps < 1) s.warps = 1;
    s.system_threads = s.warps * per_warp;
    const int threads = s.threads();
    s.segment = (s.lane_rows + threads - 1) / threads;
    if (s.segment < 2) s.segment = 2;
    s.lanes = (s.lane_rows + s.segment - 1) / s.segment;
    // Several systems: their arrays start W / systems scalars past a multiple of W apart (W
    // scalars a wavefront of shared memory: 16 in double, 32 in float), so that the same
    // row of each system, read by the lanes of one wavefront (W / systems consecutive rows
    // of each), falls in distinct banks. At a multiple of 16 apart they all fell in one
    // bank: 16-way conflicts at 4,096 rows in double (Nsight Compute).
    const std::size_t own = s.scratch_scalars();
    const int W = scalar_bytes >= 8 ? 16 : 32;
    s.system_stride = static_cast<int>(
        systems > 1 ? (own + W - 1) / W * W + (systems < W ? W / systems : 1) : own);
    return s;
  }
  // Lane-rows a warp takes of each of its systems in one round.
  KOKKOS_INLINE_FUNCTION int lane_rows_per_warp() const { return kWarpLanes / systems; }
  // Lanes (threads) of one system.
  KOKKOS_INLINE_FUNCTION int threads() const { return system_threads; }
  // Rounds of lane-rows: every thread takes one lane-row per round.
  KOKKOS_INLINE_FUNCTION int rounds() const { return (lane_rows + threads() - 1) / threads(); }
  // The reduced system padded to whole segments.
  KOKKOS_INLINE_FUNCTION int padded_rows() const { return lanes * segment; }
  // Groups of lane-rows (one warp's in one round), whose edges are folded after pass 1.
  KOKKOS_INLINE_FUNCTION int chunks() const { return rounds() * warps; }
  // Scalars of shared memory for one system: the reduced system (3 arrays), each chunk's last
  // lane-row's top and bottom rows and its first lane-row's top row (9), two PCR buffers of
  // Tn rows (8).
  KOKKOS_INLINE_FUNCTION std::size_t scratch_scalars() const {
    return 3 * static_cast<std::size_t>(padded_rows()) + 9 * static_cast<std::size_t>(chunks()) +
           8 * static_cast<std::size_t>(lanes);
  }
  // The block's: every system's, system_stride apart.
  KOKKOS_INLINE_FUNCTION std::size_t block_scratch_scalars() const {
    return static_cast<std::size_t>(systems) * static_cast<std::size_t>(system_stride);
  }
};

// The block's shared memory for one system, and the reduced solve's steps; each step takes
// one lane u of the Tn and is separated from the next by a barrier (CUDA) or run for every
// lane first (host backends).
template <class T>
struct TwoPassScratch {
  TwoPassShape shape;
  T* ra;  // the reduced system, row g: ra x_last(g-1) + x_last(g) + rc x_last(g+1) = rd
  T* rc;
  T* rd;
  T* edge;  // [9][chunks]: last lane-row's top (a, c, d), bottom (a, c, d), first's top
  T* pcr;   // [2 buffers][a, b, c, d][Tn]

  KOKKOS_INLINE_FUNCTION TwoPassScratch(const TwoPassShape s, T* base) : shape(s) {
    const std::size_t n = static_cast<std::size_t>(s.padded_rows());
    ra = base;
    rc = ra + n;
    rd = rc + n;
    edge = rd + n;
    pcr = edge + 9 * static_cast<std::size_t>(s.chunks());
  }
  KOKKOS_INLINE_FUNCTION T& edge_at(const int field, const int chunk) const {
    return edge[field * shape.chunks() + chunk];
  }
  KOKKOS_INLINE_FUNCTION T& pcr_at(const int buffer, const int array, const int u) const {
    return pcr[(buffer * 4 + array) * shape.lanes + u];
  }
  // Reduced row g (normalised: b = 1) from a lane-row's folded row.
  KOKKOS_INLINE_FUNCTION void put_row(const int g, const TriRow<T>& r) const {
    const T q = T(1) / r.b;
    ra[g] = r.a * q;
    rc[g] = r.c * q;
    rd[g] = r.d * q;
  }
  KOKKOS_INLINE_FUNCTION void put_identity(const int g) const { ra[g] = rc[g] = rd[g] = T(0); }

  // Lane u's segment [uK, uK + K): forward and backward sweeps of the modified Thomas
  // algorithm in place (interior row j then reads x_j = D_j - A_j x_first - C_j x_last);
  // the top row, with row 1 substituted, goes to the segment's first slot.
  KOKKOS_INLINE_FUNCTION void eliminate_segment(const int u) const {
    const int K = shape.segment, s = u * K;
    T a0 = ra[s], c0 = rc[s], d0 = rd[s];
    T Ap = ra[s + 1], Cp = rc[s + 1], Dp = rd[s + 1];
    for (int j = 2; j < K; ++j) {
      const int i = s + j;
      const T aj = ra[i];
      const T q = T(1) / (T(1) - aj * Cp);
      Dp = q * (rd[i] - aj * Dp);
      Ap = -q * aj * Ap;
      Cp = q * rc[i];
      ra[i] = Ap;
      rc[i] = Cp;
      rd[i] = Dp;
    }
    if (K >= 3) {
      T An = ra[s + K - 2], Cn = rc[s + K - 2], Dn = rd[s + K - 2];
      for (int j = K - 3; j >= 1; --j) {
        const int i = s + j;
        const T cj = rc[i];
        Dn = rd[i] - cj * Dn;
        An = ra[i] - cj * An;
        Cn = -cj * Cn;
        ra[i] = An;
        rc[i] = Cn;
        rd[i] = Dn;
      }
      const T q = T(1) / (T(1) - c0 * An);
      d0 = q * (d0 - c0 * Dn);
      c0 = -q * c0 * Cn;
      a0 = q * a0;
    }
    ra[s] = a0;
    rc[s] = c0;
    rd[s] = d0;
  }
  // Lane u's row of the lanes' system (in their x_last), into PCR buffer 0; reads lane
  // u + 1's top row, so every segment is eliminated before.
  KOKKOS_INLINE_FUNCTION void fold_segment(const int u) const {
    const int K = shape.segment, s = u * K, e = s + K - 1;
    const TriRow<T> top{ra[s], T(1), rc[s], rd[s]}, bottom{ra[e], T(1), rc[e], rd[e]};
    const TriRow<T> next =
        u + 1 < shape.lanes ? TriRow<T>{ra[s + K], T(1), rc[s + K], rd[s + K]} : identity_row<T>();
    const TriRow<T> r = fold_lane_rows(top, bottom, next);
    pcr_at(0, 0, u) = r.a;
    pcr_at(0, 1, u) = r.b;
    pcr_at(0, 2, u) = r.c;
    pcr_at(0, 3, u) = r.d;
  }
  // One PCR step of stride `stride` for lane u, buffer `in` to the other.
  KOKKOS_INLINE_FUNCTION void pcr_step(const int u, const int stride, const int in) const {
    const int out = in ^ 1, n = shape.lanes;
    auto row = [&](const int v) {
      return TriRow<T>{pcr_at(in, 0, v), pcr_at(in, 1, v), pcr_at(in, 2, v), pcr_at(in, 3, v)};
    };
    const TriRow<T> lo = u >= stride ? row(u - stride) : identity_row<T>();
    const TriRow<T> hi = u + stride < n ? row(u + stride) : identity_row<T>();
    const TriRow<T> r = pcr_eliminate(row(u), lo, hi);
    pcr_at(out, 0, u) = r.a;
    pcr_at(out, 1, u) = r.b;
    pcr_at(out, 2, u) = r.c;
    pcr_at(out, 3, u) = r.d;
  }
  // Lane u's segment of x in place (rd), from its x_last and lane u - 1's (PCR buffer cur).
  KOKKOS_INLINE_FUNCTION void expand_segment(const int u, const int cur) const {
    const int K = shape.segment, s = u * K;
    const T x_last = pcr_at(cur, 3, u) / pcr_at(cur, 1, u);
    const T x_prev = u > 0 ? pcr_at(cur, 3, u - 1) / pcr_at(cur, 1, u - 1) : T(0);
    const T x_first = rd[s] - ra[s] * x_prev - rc[s] * x_last;
    for (int j = 1; j < K - 1; ++j)
      rd[s + j] = rd[s + j] - ra[s + j] * x_first - rc[s + j] * x_last;
    rd[s] = x_first;
    rd[s + K - 1] = x_last;
  }
  // x_last of lane-row g once the reduced system is solved.
  KOKKOS_INLINE_FUNCTION T x_last(const int g) const { return g >= 0 ? rd[g] : T(0); }
};

// What a lane-row's solve records: a non-finite input is named where it is (not where the
// elimination spreads it: the lane-row's pivots are then its consequences), else a bad pivot
// of its rows; a non-finite x unless some input of the system was bad.
template <class T, int R, class Record>
KOKKOS_INLINE_FUNCTION void two_pass_record(const WarpLaneRows<T, R>& S, const int bad_value,
                                            const bool any_bad_input, const Record& record) {
  if (S.bad_input_pivot >= 0 || S.bad_input_value >= 0)
    record(S.bad_input_pivot, S.bad_input_value);
  else if (S.bad_pivot >= 0)
    record(S.bad_pivot, -1);
  if (bad_value >= 0 && !any_bad_input) record(-1, bad_value);
}

#if defined(__CUDA_ARCH__)
// The whole solve for lane `lane` of warp w of the block; every thread of the block calls it
// together. The block takes P systems side by side (shape.systems == P): the lane holds
// lane-row slot lane / P of system lane % P, whose `rows` (0: no system there, identity rows
// only) and Views it is given, and whose shape.scratch_scalars() values start at
// scratch + (lane % P) x shape.system_stride.
template <class T, int R, int P, class AV, class BV, class CV, class DV, class Record>
__device__ inline void two_pass_solve_lane(const int w, const int lane, const TwoPassShape shape,
                                           T* scratch, const int rows, const AV& a, const BV& b,
                                           const CV& c, const DV& d, const Record& record) {
  static_assert(P >= 1 && kWarpLanes % P == 0, "P systems per block divide a warp");
  constexpr int kPerWarp = kWarpLanes / P;  // lane-rows of a system a warp takes a round
  const int j = lane % P, q = lane / P;
  const TwoPassScratch<T> sc(shape, scratch + j * shape.system_stride);
  const int G = (rows + R - 1) / R, t = w * kPerWarp + q, threads = shape.threads();
  // One system a block: its own rounds. Several: the block's (every lane of a warp shuffles
  // in every round).
  const int rounds = P == 1 ? (G + threads - 1) / threads : shape.rounds();
  // 1. Reduce. Lanes past the system eliminate identity rows (no loads), so a warp's last
  // real lane-row folds with an identity top row, as the sequential order has it.
  bool bad_input = false;
  for (int round = 0; round < rounds; ++round) {
    const int g = round * threads + t, chunk = round * shape.warps + w;
    WarpLaneRows<T, R> S;
    warp_lane_eliminate<T, R>(g * R, rows, a, b, c, d, S);
    bad_input = bad_input || S.bad_input_pivot >= 0 || S.bad_input_value >= 0;
    const TriRow<T> top{S.A[0], T(1), S.C[0], S.D[0]};
    const TriRow<T> next_top = shfl_down_row<kWarpLanes>(top, P);
    if (q == 0) {
      sc.edge_at(6, chunk) = top.a;
      sc.edge_at(7, chunk) = top.c;
      sc.edge_at(8, chunk) = top.d;
    }
    if (q == kPerWarp - 1) {  // its next lane-row is another warp's: folded below
      sc.edge_at(0, chunk) = top.a;
      sc.edge_at(1, chunk) = top.c;
      sc.edge_at(2, chunk) = top.d;
      sc.edge_at(3, chunk) = S.A[R - 1];
      sc.edge_at(4, chunk) = S.C[R - 1];
      sc.edge_at(5, chunk) = S.D[R - 1];
    } else if (g < G) {
      sc.put_row(g, warp_lane_fold<T, R>(S, next_top));
    }
  }
  // Whether some input of this lane's system was bad (each system its own answer).
  bool any_bad_input = false;
  if constexpr (P == 1) {
    any_bad_input = __syncthreads_or(bad_input) != 0;
  } else {
    HINESBATCH_DEVICE_UNROLL
    for (int k = 0; k < P; ++k) {
      const bool any = __syncthreads_or(bad_input && j == k) != 0;
      if (k == j) any_bad_input = any;
    }
  }
  // Each chunk's last lane-row with the next chunk's first top row; the padding rows.
  const int chunks = rounds * shape.warps;
  for (int k = t; k < chunks; k += threads) {
    const int g = k * kPerWarp + kPerWarp - 1;
    if (g >= G) continue;
    const TriRow<T> top{sc.edge_at(0, k), T(1), sc.edge_at(1, k), sc.edge_at(2, k)};
    const TriRow<T> bottom{sc.edge_at(3, k), T(1), sc.edge_at(4, k), sc.edge_at(5, k)};
    const TriRow<T> next = k + 1 < chunks ? TriRow<T>{sc.edge_at(6, k + 1), T(1),
                                                      sc.edge_at(7, k + 1), sc.edge_at(8, k + 1)}
                                          : identity_row<T>();
    sc.put_row(g, fold_lane_rows(top, bottom, next));
  }
  for (int g = G + t; g < shape.padded_rows(); g += threads) sc.put_identity(g);
  __syncthreads();
  // 2. The lane-rows' system.
  for (int u = t; u < shape.lanes; u += threads) sc.eliminate_segment(u);
  __syncthreads();
  for (int u = t; u < shape.lanes; u += threads) sc.fold_segment(u);
  __syncthreads();
  int cur = 0;
  for (int s = 1; s < shape.lanes; s *= 2) {
    for (int u = t; u < shape.lanes; u += threads) sc.pcr_step(u, s, cur);
    cur ^= 1;
    __syncthreads();
  }
  for (int u = t; u < shape.lanes; u += threads) sc.expand_segment(u, cur);
  __syncthreads();
  // 3. Expand, in pass 1's order (taking the last round first costs two registers a
  // thread on sm_90: 129, three blocks per SM instead of four).
  for (int round = 0; round < rounds; ++round) {
    const int g = round * threads + t;
    if (g >= G) continue;
    WarpLaneRows<T, R> S;
    warp_lane_eliminate<T, R>(g * R, rows, a, b, c, d, S);
    int bad_value = -1;
    warp_lane_expand<T, R>(g * R, rows, S, sc.x_last(g), sc.x_last(g - 1), d, bad_value);
    two_pass_record(S, bad_value, any_bad_input, record);
  }
}
#endif

// The same solve with the lanes run in turn on one thread (host backends), in the same
// arithmetic: lane-row g folds with lane-row g + 1's top row, the reduced system is split
// into the same segments.
template <class T, int R, class AV, class BV, class CV, class DV, class Record>
KOKKOS_INLINE_FUNCTION void two_pass_solve_in_turn(const TwoPassShape shape, T* scratch,
                                                   const int rows, const AV& a, const BV& b,
                                                   const CV& c, const DV& d, const Record& record) {
  const TwoPassScratch<T> sc(shape, scratch);
  const int G = (rows + R - 1) / R;
  bool any_bad_input = false;
  WarpLaneRows<T, R> prev;
  for (int g = 0; g <= G; ++g) {
    WarpLaneRows<T, R> S;
    // Lane-row G: identity rows, whose top row is the identity row.
    warp_lane_eliminate<T, R>(g * R, rows, a, b, c, d, S);
    any_bad_input = any_bad_input || S.bad_input_pivot >= 0 || S.bad_input_value >= 0;
    if (g > 0)
      sc.put_row(g - 1, warp_lane_fold<T, R>(prev, TriRow<T>{S.A[0], T(1), S.C[0], S.D[0]}));
    prev = S;
  }
  for (int g = G; g < shape.padded_rows(); ++g) sc.put_identity(g);
  for (int u = 0; u < shape.lanes; ++u) sc.eliminate_segment(u);
  for (int u = 0; u < shape.lanes; ++u) sc.fold_segment(u);
  int cur = 0;
  for (int s = 1; s < shape.lanes; s *= 2) {
    for (int u = 0; u < shape.lanes; ++u) sc.pcr_step(u, s, cur);
    cur ^= 1;
  }
  for (int u = 0; u < shape.lanes; ++u) sc.expand_segment(u, cur);
  for (int g = 0; g < G; ++g) {
    WarpLaneRows<T, R> S;
    warp_lane_eliminate<T, R>(g * R, rows, a, b, c, d, S);
    int bad_value = -1;
    warp_lane_expand<T, R>(g * R, rows, S, sc.x_last(g), sc.x_last(g - 1), d, bad_value);
    two_pass_record(S, bad_value, any_bad_input, record);
  }
}

}  // namespace impl
}  // namespace hinesbatch
