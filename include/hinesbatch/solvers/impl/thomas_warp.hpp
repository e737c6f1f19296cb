#pragma once
// One tridiagonal system solved in registers by a warp, or by P warps of one block for large
// systems (ThomasSchedule::WarpPerSystem): the register-blocked Thomas-PCR hybrid of László,
// Giles & Appleyard (ACM TOMS 42(4), 2016). The team schedule (thomas_team.hpp) stages the
// system through team scratch and waits at a team barrier between its phases; measured on
// the H100 it is latency-bound at 0.42 of the copy bandwidth. Here the rows stay in
// registers:
//
//   1. lane k loads rows [kR, kR + R) into registers (R a compile-time constant, so the
//      loops unroll and the rows stay in registers) and eliminates them with the modified
//      Thomas algorithm: every row then reads x_j = D_j - A_j x_first - C_j x_last;
//   2. fold:  the lane's top row (x_first in terms of the previous lane's x_last and its own
//      x_last) is substituted into its bottom row, with the next lane's top row taken by a
//      shuffle: one row per lane of a tridiagonal system in the lanes' x_last;
//   3. PCR:   that system (one row per lane) is solved by parallel cyclic reduction, over
//      warp shuffles when one warp owns the system (log2 32 = 5 steps, no barrier), through
//      shared memory (one barrier per step) when P warps do;
//   4. expand: x_first from the previous lane's x_last, the interior rows from x_first and
//      x_last, and the lane writes its R rows of x.
//
// Memory traffic: a, b, c, d read once, x written once (40 B per row in double). Small
// systems use a group of L < 32 lanes (several systems per warp): with fewer lanes the
// reduced system is smaller, and every lane keeps at least four rows to work on. Larger
// systems take 6, 8, 10 or 12 rows per lane on one warp, then on P = 2 ... 8 warps of a block,
// the fewest rows that hold the system; past 3,072 rows 16 or 32 warps of 6 or 8 rows (up to
// 8,192 rows). A shape's time is that of the rows it could hold, padding or not (the lanes
// run in step), so the row counts between the powers of two are what keep a system just past
// one from running at two thirds or half the rate. 16 rows per lane would need ~170
// registers and starve the SM of warps (measured: 0.65 of the copy floor at m = 512 against
// 0.88-0.90 with 8 rows). Larger systems take the team schedule.
//
// One functor for every backend: on CUDA the warp's lanes are the vector lanes of a team
// thread (vector length 32) and exchange rows through __shfl_sync; elsewhere the same lane
// code runs the lanes in turn on one thread, the shuffles reading arrays (so the host test
// suite checks the arithmetic that the GPU runs).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <type_traits>

#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {
namespace impl {

constexpr int kWarpLanes = 32;
// Rows per lane of the largest shapes, and the most warps per system (a CUDA block of 1,024
// threads): m <= 32 x 32 x 8 = 8,192.
constexpr int kWarpRowsPerLane = 8;
// Rows per lane of the shapes from 32 lanes on whose systems fit in three quarters of them
// (still even: a lane's rows of a Flat system load as 16-byte pairs where aligned).
constexpr int kWarpFewerRowsPerLane = 6;
constexpr int kWarpMaxWarps = 32;
constexpr int kWarpMaxRows = kWarpLanes * kWarpMaxWarps * kWarpRowsPerLane;
// Rows per lane past eight, on at most kWarpWideRowsMaxWarps warps (10 and 12 rows take
// 124-159 registers on sm_90, which a block of 16 or 32 warps cannot give): a system just
// past 8 rows a lane takes 10 or 12 rows on the same lanes rather than 6 on twice as many
// (measured on an H200, fp64: m = 257-3,072 1.1-2.0x the shapes before them).
constexpr int kWarpWideRowsPerLane[] = {10, 12};
constexpr int kWarpWideRowsMaxWarps = 8;

// How the warp schedule splits a system of m rows: `lanes` lanes of `rows_per_lane` rows;
// lanes > 32 means lanes / 32 warps of one block.
struct WarpThomasShape {
  int lanes = 0, rows_per_lane = 0;  // 0: too large for registers

  int warps() const { return lanes > kWarpLanes ? lanes / kWarpLanes : 1; }

  static WarpThomasShape for_rows(int m) {
    // Eight rows per lane where the system allows (measured on the H100, fp64, N = 256,000:
    // 32 lanes x 8 rows 0.89 of the copy floor at m = 256, 32 x 4 0.79 at m = 128, 16 x 4
    // 0.83 at m = 64). From 32 lanes on, six rows per lane where they suffice: a system just
    // past a power of two otherwise leaves half the lanes (or a whole warp) without rows while
    // the others work through eight each. Up to 16 rows, groups of 2 or 4 lanes (16 or 8
    // systems a warp): a group's time is that of the rows it holds, padding or not (measured
    // on an H200, fp64: m = 2-16 1.8-6.2x groups of 8 lanes).
    if (m <= 2 * 4) return {2, 4};
    if (m <= 4 * 4) return {4, 4};
    if (m <= 8 * 4) return {8, 4};
    if (m <= 8 * 8) return {8, 8};
    if (m <= 16 * 8) return {16, 8};
    for (int lanes = kWarpLanes; lanes <= kWarpLanes * kWarpMaxWarps; lanes *= 2) {
      if (m <= lanes * kWarpRowsPerLane)
        return {lanes,
                m <= lanes * kWarpFewerRowsPerLane ? kWarpFewerRowsPerLane : kWarpRowsPerLane};
      if (lanes <= kWarpLanes * kWarpWideRowsMaxWarps)
        for (const int rows : kWarpWideRowsPerLane)
          if (m <= lanes * rows) return {lanes, rows};
    }
    return WarpThomasShape{};
  }
};

// One row of a tridiagonal system: a x_prev + b x + c x_next = d.
template <class T>
struct TriRow {
  T a, b, c, d;
};

template <class T>
KOKKOS_INLINE_FUNCTION TriRow<T> identity_row() {
  return TriRow<T>{T(0), T(1), T(0), T(0)};
}

// One PCR step: row r with the rows `stride` above (lo) and below (hi) eliminated; the
// result couples to the rows 2 x stride away.
template <class T>
KOKKOS_INLINE_FUNCTION TriRow<T> pcr_eliminate(const TriRow<T>& r, const TriRow<T>& lo,
                                               const TriRow<T>& hi) {
  const T f = r.a / lo.b, g = r.c / hi.b;
  return TriRow<T>{-f * lo.a, r.b - f * lo.c - g * hi.a, -g * hi.c, r.d - f * lo.d - g * hi.d};
}

// What phase 1 leaves in a lane: rows 1 .. R-2 as x_j = D_j - A_j x_first - C_j x_last; the
// top row a x_prev_last + x_first + c x_last = d in (A, C, D)[0] and the bottom row
// a x_first + x_last + c x_next_first = d in (A, C, D)[R-1].
template <class T, int R>
struct WarpLaneRows {
  T A[R], C[R], D[R];
  int bad_pivot = -1;        // first row of the lane with an unusable pivot (-1: none)
  int bad_input_pivot = -1;  // first row whose input coefficients make a pivot non-finite
  int bad_input_value = -1;  // first row whose input d is not finite
};

// On CUDA, 16-byte loads and stores where a lane's rows are contiguous and aligned (Flat
// storage): a lane's R rows are consecutive, so a warp's scalar accesses touch 2 R x 32
// bytes-wide rows of cache lines per instruction; vectors halve (double) or quarter (float)
// the instructions and the L1 wavefronts they cost.
template <class T>
struct Vector16 {
  static constexpr int width = 1;
};
#if defined(__CUDA_ARCH__)
template <>
struct Vector16<double> {
  static constexpr int width = 2;
  using type = double2;
};
template <>
struct Vector16<float> {
  static constexpr int width = 4;
  using type = float4;
};
#endif

template <class V>
KOKKOS_INLINE_FUNCTION bool contiguous_aligned(const V& v, const int first) {
  return v.stride(0) == 1 && (reinterpret_cast<std::uintptr_t>(v.data() + first) & 15u) == 0;
}

// out[j] = v(first + j) for rows in [lo, hi), `fill` elsewhere.
template <class T, int R, class V>
KOKKOS_INLINE_FUNCTION void load_lane_rows(const V& v, const int first, const int lo, const int hi,
                                           const T fill, T (&out)[R]) {
  constexpr int W = Vector16<T>::width;
  if constexpr (W > 1 && R % W == 0) {
    if (first >= lo && first + R <= hi && contiguous_aligned(v, first)) {
      using Vec = typename Vector16<T>::type;
      const Vec* p = reinterpret_cast<const Vec*>(v.data() + first);
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < R / W; ++q) {
        const Vec t = p[q];
        const T* e = reinterpret_cast<const T*>(&t);
        HINESBATCH_DEVICE_UNROLL
        for (int w = 0; w < W; ++w) out[q * W + w] = e[w];
      }
      return;
    }
  }
  HINESBATCH_DEVICE_UNROLL
  for (int j = 0; j < R; ++j) {
    const int r = first + j;
    out[j] = r >= lo && r < hi ? T(v(r)) : fill;
  }
}

// v(first + j) = x[j] for rows below hi.
template <class T, int R, class V>
KOKKOS_INLINE_FUNCTION void store_lane_rows(const V& v, const int first, const int hi,
                                            const T (&x)[R]) {
  constexpr int W = Vector16<T>::width;
  if constexpr (W > 1 && R % W == 0) {
    if (first + R <= hi && contiguous_aligned(v, first)) {
      using Vec = typename Vector16<T>::type;
      Vec* p = reinterpret_cast<Vec*>(v.data() + first);
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < R / W; ++q) {
        Vec t;
        T* e = reinterpret_cast<T*>(&t);
        HINESBATCH_DEVICE_UNROLL
        for (int w = 0; w < W; ++w) e[w] = x[q * W + w];
        p[q] = t;
      }
      return;
    }
  }
  HINESBATCH_DEVICE_UNROLL
  for (int j = 0; j < R; ++j)
    if (first + j < hi) v(first + j) = x[j];
}

// Phase 1 for the lane owning rows [first, first + R) of a system of `rows` rows. Rows past
// the system are identity rows (x = 0, coupled to nothing); a(0) and c(rows-1) are not read.
template <class T, int R, class AV, class BV, class CV, class DV>
KOKKOS_INLINE_FUNCTION void warp_lane_eliminate(const int first, const int rows, const AV& a,
                                                const BV& b, const CV& c, const DV& d,
                                                WarpLaneRows<T, R>& L) {
  T av[R], bv[R], cv[R], dv[R];
  // All loads first, so that they are in flight together.
  load_lane_rows<T, R>(a, first, 1, rows, T(0), av);
  load_lane_rows<T, R>(b, first, 0, rows, T(1), bv);
  load_lane_rows<T, R>(c, first, 0, rows - 1, T(0), cv);
  load_lane_rows<T, R>(d, first, 0, rows, T(0), dv);
  HINESBATCH_DEVICE_UNROLL
  for (int j = 0; j < R; ++j) {
    // Where the sequential Thomas would meet them: a, b in row r's pivot, c in row r+1's.
    const int r = first + j;
    if (r < rows) {
      if ((!is_finite_value(av[j]) || !is_finite_value(bv[j])) && L.bad_input_pivot < 0)
        L.bad_input_pivot = r;
      if (!is_finite_value(cv[j]) && L.bad_input_pivot < 0) L.bad_input_pivot = r + 1;
      if (!is_finite_value(dv[j]) && L.bad_input_value < 0) L.bad_input_value = r;
    }
  }
  auto inverse_pivot = [&](const T p, const int j) {
    if (!is_usable_pivot(p) && L.bad_pivot < 0 && first + j < rows) L.bad_pivot = first + j;
    return T(1) / p;
  };
  // Forward: rows 0 and 1 normalised, then row j reads A_j x_0 + x_j + C_j x_{j+1} = D_j.
  T q = inverse_pivot(bv[0], 0);
  T a0 = av[0] * q, c0 = cv[0] * q, d0 = dv[0] * q;
  q = inverse_pivot(bv[1], 1);
  L.A[1] = av[1] * q;
  L.C[1] = cv[1] * q;
  L.D[1] = dv[1] * q;
  HINESBATCH_DEVICE_UNROLL
  for (int j = 2; j < R; ++j) {
    q = inverse_pivot(bv[j] - av[j] * L.C[j - 1], j);
    L.D[j] = q * (dv[j] - av[j] * L.D[j - 1]);
    L.A[j] = -q * av[j] * L.A[j - 1];
    L.C[j] = q * cv[j];
  }
  // Backward: row j in terms of x_0 and x_{R-1} (row R-2 already is).
  HINESBATCH_DEVICE_UNROLL
  for (int j = R - 3; j >= 1; --j) {
    L.D[j] -= L.C[j] * L.D[j + 1];
    L.A[j] -= L.C[j] * L.A[j + 1];
    L.C[j] = -L.C[j] * L.C[j + 1];
  }
  // Top row: row 0 with row 1 substituted (for R = 2 row 1 is the bottom row, x_last).
  if (R >= 3) {
    q = inverse_pivot(T(1) - c0 * L.A[1], 0);
    d0 = q * (d0 - c0 * L.D[1]);
    c0 = -q * c0 * L.C[1];
    a0 = q * a0;
  }
  L.A[0] = a0;
  L.C[0] = c0;
  L.D[0] = d0;
}

// Phase 2: the lane's row of the reduced system in x_last, given the next lane's top row
// (identity for the last lane). Bottom row with x_first = d_t - a_t x_prev_last - c_t x_last
// and x_next_first = d_n - a_n x_last - c_n x_next_last substituted.
// The fold from the lane's top and bottom rows alone (their b is 1 and not read).
template <class T>
KOKKOS_INLINE_FUNCTION TriRow<T> fold_lane_rows(const TriRow<T>& top, const TriRow<T>& bottom,
                                                const TriRow<T>& next_top) {
  return TriRow<T>{-bottom.a * top.a, T(1) - bottom.a * top.c - bottom.c * next_top.a,
                   -bottom.c * next_top.c, bottom.d - bottom.a * top.d - bottom.c * next_top.d};
}
template <class T, int R>
KOKKOS_INLINE_FUNCTION TriRow<T> warp_lane_fold(const WarpLaneRows<T, R>& L,
                                                const TriRow<T>& next_top) {
  return fold_lane_rows(TriRow<T>{L.A[0], T(1), L.C[0], L.D[0]},
                        TriRow<T>{L.A[R - 1], T(1), L.C[R - 1], L.D[R - 1]}, next_top);
}

// Phase 4: the lane's rows of x from its x_last and the previous lane's (0 for lane 0).
template <class T, int R, class DV>
KOKKOS_INLINE_FUNCTION void warp_lane_expand(const int first, const int rows,
                                             const WarpLaneRows<T, R>& L, const T x_last,
                                             const T x_prev_last, const DV& d, int& bad_value_row) {
  T x[R];
  const T x_first = L.D[0] - L.A[0] * x_prev_last - L.C[0] * x_last;
  x[0] = x_first;
  HINESBATCH_DEVICE_UNROLL
  for (int j = 1; j < R - 1; ++j) x[j] = L.D[j] - L.A[j] * x_first - L.C[j] * x_last;
  x[R - 1] = x_last;
  store_lane_rows<T, R>(d, first, rows, x);
  HINESBATCH_DEVICE_UNROLL
  for (int j = 0; j < R; ++j)
    if (first + j < rows && !is_finite_value(x[j]) && bad_value_row < 0) bad_value_row = first + j;
}

// A system's rows staged in shared memory for the lanes (Full-Interleaved input, see
// ThomasWarpTransposed): lane k's R rows at k (R + 1) ... k (R + 1) + R - 1. The padding
// row spreads the lanes' reads of one row index over distinct banks (2 wavefronts for 32
// doubles, the minimum). stride(0) = 0 tells the row loads not to use vector loads.
template <class T, int R>
struct LaneBlockedRows {
  T* p;
  static constexpr int stride_of_lane = R + 1;
  KOKKOS_INLINE_FUNCTION static int index(const int r) { return (r / R) * (R + 1) + r % R; }
  KOKKOS_INLINE_FUNCTION T& operator()(const int r) const { return p[index(r)]; }
  KOKKOS_INLINE_FUNCTION int stride(int) const { return 0; }
  KOKKOS_INLINE_FUNCTION T* data() const { return p; }
};

#if defined(__CUDA_ARCH__)
// Row exchanges inside groups of L lanes (__shfl_*_sync's width).
template <int L, class T>
__device__ inline TriRow<T> shfl_up_row(const TriRow<T>& r, const int delta) {
  constexpr unsigned all = 0xffffffffu;
  return TriRow<T>{__shfl_up_sync(all, r.a, delta, L), __shfl_up_sync(all, r.b, delta, L),
                   __shfl_up_sync(all, r.c, delta, L), __shfl_up_sync(all, r.d, delta, L)};
}
template <int L, class T>
__device__ inline TriRow<T> shfl_down_row(const TriRow<T>& r, const int delta) {
  constexpr unsigned all = 0xffffffffu;
  return TriRow<T>{__shfl_down_sync(all, r.a, delta, L), __shfl_down_sync(all, r.b, delta, L),
                   __shfl_down_sync(all, r.c, delta, L), __shfl_down_sync(all, r.d, delta, L)};
}

// The whole solve for lane k (0 <= k < L) of a group of L lanes of one warp. Every lane of the
// warp calls it together (a group with nothing to solve passes rows = 0).
template <class T, int R, int L, class AV, class BV, class CV, class DV, class Record>
__device__ inline void warp_thomas_solve_lane(const int lane, const int rows, const AV& a,
                                              const BV& b, const CV& c, const DV& d,
                                              const Record& record) {
  const int k = lane % L, first = k * R;
  WarpLaneRows<T, R> S;
  warp_lane_eliminate<T, R>(first, rows, a, b, c, d, S);
  const TriRow<T> top{S.A[0], T(1), S.C[0], S.D[0]};
  TriRow<T> next_top = shfl_down_row<L>(top, 1);
  if (k == L - 1) next_top = identity_row<T>();
  TriRow<T> row = warp_lane_fold<T, R>(S, next_top);
  HINESBATCH_DEVICE_UNROLL
  for (int s = 1; s < L; s *= 2) {
    TriRow<T> lo = shfl_up_row<L>(row, s), hi = shfl_down_row<L>(row, s);
    if (k < s) lo = identity_row<T>();
    if (k + s >= L) hi = identity_row<T>();
    row = pcr_eliminate(row, lo, hi);
  }
  const T x_last = row.d / row.b;
  T x_prev_last = __shfl_up_sync(0xffffffffu, x_last, 1, L);
  if (k == 0) x_prev_last = T(0);
  int bad_value = -1;
  warp_lane_expand<T, R>(first, rows, S, x_last, x_prev_last, d, bad_value);
  // A non-finite input is named where it is, not where elimination spread it.
  const bool my_bad_input = S.bad_input_pivot >= 0 || S.bad_input_value >= 0;
  const unsigned group = (L == 32 ? 0xffffffffu : (1u << L) - 1u) << (lane - k);
  const bool bad_input = (__ballot_sync(0xffffffffu, my_bad_input) & group) != 0u;
  if (my_bad_input) record(S.bad_input_pivot, S.bad_input_value);
  if (S.bad_pivot >= 0) record(S.bad_pivot, -1);
  if (bad_value >= 0 && !bad_input) record(-1, bad_value);
}

#endif

// The whole solve for lane `lane` of warp w of the P warps (one CUDA block) that own G
// systems. G = 1 (Flat storage): block lane k = 32 w + lane holds rows [kR, kR + R) of the
// block's system. G > 1 (Full-Interleaved storage): lane = G q + j holds chunk k = (32 / G) w
// + q of system j, so the G lanes reading one row index read G consecutive systems: G
// sizeof(T) contiguous bytes (whole 32-byte sectors for G = 4 in double). Chunk k of system j
// goes through buf[k G + j]. `buf` is the block's shared memory for
// warps_thomas_buffer_rows<T, P>() rows, through which the reduced systems' rows go (32 P
// slots per half, whatever G). Up to 16 KB per half it is double-buffered, so that each PCR
// step needs one barrier (a half is written again only two barriers after it was last
// read); 32 warps of double would need 64 KB there (Kokkos 3.4 gives a team 48 KB), so they
// take one half and two barriers per step. `bad_input` (G > 1): G ints of shared memory,
// zeroed before the block's first barrier. Every thread of the block calls it together.
template <class T, int P>
KOKKOS_INLINE_FUNCTION constexpr bool warps_thomas_double_buffered() {
  return kWarpLanes * P * int(sizeof(TriRow<T>)) <= 16384;
}
template <class T, int P>
KOKKOS_INLINE_FUNCTION constexpr int warps_thomas_buffer_rows() {
  return (warps_thomas_double_buffered<T, P>() ? 2 : 1) * kWarpLanes * P;
}

#if defined(__CUDA_ARCH__)
template <class T, int R, int P, int G, class AV, class BV, class CV, class DV, class Record>
__device__ inline void warps_thomas_solve_lane(const int w, const int lane, TriRow<T>* buf,
                                               int* bad_input_of, const int rows, const AV& a,
                                               const BV& b, const CV& c, const DV& d,
                                               const Record& record) {
  static_assert(G >= 1 && kWarpLanes % G == 0, "G systems per block divide a warp");
  constexpr int kChunksPerWarp = kWarpLanes / G;
  constexpr int N = kChunksPerWarp * P;  // chunks (rows of the reduced system) per system
  constexpr int kHalf = kWarpLanes * P;  // slots per buffer half: N G
  constexpr bool two_halves = warps_thomas_double_buffered<T, P>();
  const int j = lane % G, k = w * kChunksPerWarp + lane / G, first = k * R;
  auto slot = [j](const int chunk) { return chunk * G + j; };
  WarpLaneRows<T, R> S;
  warp_lane_eliminate<T, R>(first, rows, a, b, c, d, S);
  buf[slot(k)] = TriRow<T>{S.A[0], T(1), S.C[0], S.D[0]};
  __syncthreads();
  TriRow<T> row = warp_lane_fold<T, R>(S, k + 1 < N ? buf[slot(k + 1)] : identity_row<T>());
  int half = two_halves ? 1 : 0;  // half 0 is read (buf[slot(k + 1)]) until the next barrier
  for (int s = 1; s < N; s *= 2) {
    if (!two_halves) __syncthreads();  // the previous step's reads are done
    TriRow<T>* h = buf + half * kHalf;
    h[slot(k)] = row;
    __syncthreads();
    const TriRow<T> lo = k >= s ? h[slot(k - s)] : identity_row<T>();
    const TriRow<T> hi = k + s < N ? h[slot(k + s)] : identity_row<T>();
    row = pcr_eliminate(row, lo, hi);
    if (two_halves) half ^= 1;
  }
  const T x_last = row.d / row.b;
  // x_last of the system's previous chunk: a shuffle inside the warp, shared memory across
  // warps (the half written two steps ago, whose reads ended before the last barrier).
  T x_prev_last = __shfl_up_sync(0xffffffffu, x_last, G);
  if (!two_halves) __syncthreads();
  T* last_of_warp = reinterpret_cast<T*>(buf + half * kHalf);
  if (lane >= kWarpLanes - G) last_of_warp[w * G + j] = x_last;
  // A non-finite input is named where it is, not where elimination spread it.
  const bool my_bad_input = S.bad_input_pivot >= 0 || S.bad_input_value >= 0;
  bool bad_input;
  if (G == 1) {
    bad_input = __syncthreads_or(my_bad_input) != 0;
  } else {
    if (my_bad_input) atomicOr(bad_input_of + j, 1);
    __syncthreads();
    bad_input = bad_input_of[j] != 0;
  }
  if (lane < G) x_prev_last = w > 0 ? last_of_warp[(w - 1) * G + j] : T(0);
  int bad_value = -1;
  warp_lane_expand<T, R>(first, rows, S, x_last, x_prev_last, d, bad_value);
  if (my_bad_input) record(S.bad_input_pivot, S.bad_input_value);
  if (S.bad_pivot >= 0) record(S.bad_pivot, -1);
  if (bad_value >= 0 && !bad_input) record(-1, bad_value);
}
#endif

// The same solve with the L lanes run in turn (backends without warp shuffles; L > 32 is the
// P-warp solve, PCR over L rows in the same order).
template <class T, int R, int L, class AV, class BV, class CV, class DV, class Record>
KOKKOS_INLINE_FUNCTION void warp_thomas_solve_emulated(const int rows, const AV& a, const BV& b,
                                                       const CV& c, const DV& d,
                                                       const Record& record) {
  WarpLaneRows<T, R> S[L];
  TriRow<T> row[L], next[L];
  bool bad_input = false;
  for (int k = 0; k < L; ++k) {
    warp_lane_eliminate<T, R>(k * R, rows, a, b, c, d, S[k]);
    bad_input = bad_input || S[k].bad_input_pivot >= 0 || S[k].bad_input_value >= 0;
  }
  for (int k = 0; k < L; ++k) {
    const TriRow<T> next_top = k + 1 < L
                                   ? TriRow<T>{S[k + 1].A[0], T(1), S[k + 1].C[0], S[k + 1].D[0]}
                                   : identity_row<T>();
    row[k] = warp_lane_fold<T, R>(S[k], next_top);
  }
  for (int s = 1; s < L; s *= 2) {
    for (int k = 0; k < L; ++k)
      next[k] = pcr_eliminate(row[k], k >= s ? row[k - s] : identity_row<T>(),
                              k + s < L ? row[k + s] : identity_row<T>());
    for (int k = 0; k < L; ++k) row[k] = next[k];
  }
  T x_prev_last = T(0);
  for (int k = 0; k < L; ++k) {
    const T x_last = row[k].d / row[k].b;
    int bad_value = -1;
    warp_lane_expand<T, R>(k * R, rows, S[k], x_last, x_prev_last, d, bad_value);
    x_prev_last = x_last;
    if (S[k].bad_input_pivot >= 0 || S[k].bad_input_value >= 0)
      record(S[k].bad_input_pivot, S[k].bad_input_value);
    if (S[k].bad_pivot >= 0) record(S[k].bad_pivot, -1);
    if (bad_value >= 0 && !bad_input) record(-1, bad_value);
  }
}

}  // namespace impl
}  // namespace hinesbatch
