#pragma once
// The Hines and Thomas algorithms for ONE TILE of W systems at once (W lanes), the
// systems interleaved lane by lane: row i of a tile holds node (row) i of its W systems
// contiguously, so every step of the algorithm is one vector operation over the lanes.
// The sweep of one system is a serial chain; vector units only help across systems.
//
// The lane loop is the only thing that differs per backend (lanes_for / lanes_any):
// on a host it is a plain loop marked `omp simd` (or `GCC ivdep` without OpenMP), with a
// compile-time trip count for full tiles (Lanes<W>) so the compiler emits straight packed
// code; on a GPU it is Kokkos::ThreadVectorRange (lane k is vector lane k of the team).
//
// Failures (zero or non-finite pivot, non-finite solution) are detected with a NaN-
// propagating sum over the lanes per row (failure_flag, lanes_any); only a tile that
// failed pays for finding which system and row, and the answer is the one
// hines_solve_system / thomas_solve_system gives for that system.
#include <Kokkos_Core.hpp>
#include <type_traits>

#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {

// The most lanes thomas_solve_tile takes at once (its failure bookkeeping keeps one entry
// per lane); the drivers solve wider tiles in passes.
constexpr int max_tile_lanes = 64;

// A compile-time lane count (a full tile); a plain int is a run-time one. Its conversion is
// device code, which std::integral_constant's is not for nvcc.
template <int W>
struct Lanes {
  static constexpr int value = W;
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator int() const { return W; }
};

// The distance between a row's lanes in interleaved tiles: one, known at compile time (a
// plain long is a run-time one, a Flat tile's system length).
struct UnitLaneStride {
  KOKKOS_FORCEINLINE_FUNCTION constexpr operator long() const { return 1; }
};

#if defined(_OPENMP)
#define HINESBATCH_SIMD_PRAGMA(clause) _Pragma(HINESBATCH_SIMD_STRINGIFY(omp simd clause))
#define HINESBATCH_SIMD_STRINGIFY(x) #x
#elif defined(__GNUC__) && !defined(__clang__)
#define HINESBATCH_SIMD_PRAGMA(clause) _Pragma("GCC ivdep")
#else
#define HINESBATCH_SIMD_PRAGMA(clause)
#endif

#if defined(__CUDA_ARCH__) || defined(__HIP_DEVICE_COMPILE__)
#define HINESBATCH_LANES_ARE_THREADS 1
#endif

namespace impl {

// f(k) for every lane k, vectorised: lanes are independent (no lane reads another's).
template <class Member, class Count, class F>
KOKKOS_FORCEINLINE_FUNCTION void lanes_for(const Member& team, const Count lanes, const F& f) {
#if defined(HINESBATCH_LANES_ARE_THREADS)
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, static_cast<int>(lanes)), f);
#else
  (void)team;
  HINESBATCH_SIMD_PRAGMA()
  for (int k = 0; k < static_cast<int>(lanes); ++k) f(k);
#endif
}

// f(k) for every lane k, vectorised; f returns 0 for a good lane and NaN for a failed one
// (failure_flag below). Returns whether a lane the calling thread runs (host: all lanes;
// GPU: its own) failed. The flags are summed, not compared: plain arithmetic vectorises
// on every ISA (SSE2 cannot if-convert a double compare into an integer flag).
template <class Member, class Count, class F>
KOKKOS_FORCEINLINE_FUNCTION bool lanes_any(const Member& team, const Count lanes, const F& f) {
  using T = decltype(f(0));
  T sum = 0;
#if defined(HINESBATCH_LANES_ARE_THREADS)
  Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, static_cast<int>(lanes)),
                       [&](const int k) { sum += f(k); });
#else
  (void)team;
  HINESBATCH_SIMD_PRAGMA(reduction(+ : sum))
  for (int k = 0; k < static_cast<int>(lanes); ++k) sum += f(k);
#endif
  return !(sum == T(0));  // NaN
}

// f(k) for every lane k one after the other (host) or on the lane's own thread (GPU, the
// lanes ThreadVectorRange gives it: k = threadIdx.x + j * blockDim.x): the failure paths,
// which record results with atomics. No synchronisation, so that it may run in a branch
// only some lanes take (ThreadVectorRange ends with a __syncwarp over all of them).
template <class Member, class Count, class F>
KOKKOS_FORCEINLINE_FUNCTION void lanes_scalar(const Member& team, const Count lanes, const F& f) {
#if defined(HINESBATCH_LANES_ARE_THREADS)
  (void)team;
  for (int k = static_cast<int>(threadIdx.x); k < static_cast<int>(lanes);
       k += static_cast<int>(blockDim.x))
    f(k);
#else
  (void)team;
  for (int k = 0; k < static_cast<int>(lanes); ++k) f(k);
#endif
}

// 0 when pivot and y (= something / pivot) are finite, else NaN: x - x is NaN exactly
// for inf and NaN, and a zero pivot makes y = z / 0 infinite or NaN. So the flag is
// raised exactly when hines_solve_system / thomas_solve_system record a failure.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T failure_flag(const T pivot, const T y) {
  return (pivot - pivot) + (y - y);
}
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T failure_flag(const T y) {
  return y - y;
}

// How many rows ahead a host sweep asks for its next rows (prefetch_distance). In Full-
// Interleaved storage a tile's rows lie a whole batch apart: every row is another page and
// another short run of cache lines, which no hardware prefetcher follows, so each row's loads
// waited on memory. Measured on the 2-core dev machine (fp64, OpenMP, 2^20-2^24 nodes or
// rows, Full-Interleaved, docs/SOLVER_MAP.md): 4 rows ahead gave 1.17-2.28x on most trees
// (76-30,000 nodes) and on tridiagonal systems of 32-3,000 rows, nothing consistent on the
// paper classes of 305-695 nodes and trees of about 1,000; 8 and 16 were no better, asking
// for the parents' rows as well was worse.
// -DHINESBATCH_TILE_PREFETCH_ROWS=R changes it (0: none; experiments).
#if !defined(HINESBATCH_TILE_PREFETCH_ROWS)
#define HINESBATCH_TILE_PREFETCH_ROWS 4
#endif
constexpr int kTilePrefetchRows = HINESBATCH_TILE_PREFETCH_ROWS;

// The rows ahead a tile's sweep prefetches: kTilePrefetchRows for a host's interleaved tile
// whose rows lie more than 2 KiB apart (Full-Interleaved storage), else 0: a GPU, a Flat
// tile (each lane's rows are contiguous) and a Block-Interleaved tile (its rows adjacent)
// are streams the hardware already follows.
template <class T, class LaneStride>
KOKKOS_FORCEINLINE_FUNCTION int prefetch_distance(const long row_stride, const LaneStride) {
#if defined(HINESBATCH_LANES_ARE_THREADS)
  (void)row_stride;
  return 0;
#else
  return std::is_same<LaneStride, UnitLaneStride>::value &&
                 row_stride * static_cast<long>(sizeof(T)) > 2048
             ? kTilePrefetchRows
             : 0;
#endif
}

// Asks the caches for `lanes` consecutive values from p (an interleaved tile's row, a few
// rows ahead of the sweep); a hint only.
template <class T, class Count>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_row(const T* p, const Count lanes) {
#if !defined(HINESBATCH_LANES_ARE_THREADS) && defined(__GNUC__)
  constexpr int per_line = 64 / static_cast<int>(sizeof(T));
  for (int k = 0; k < static_cast<int>(lanes); k += per_line) __builtin_prefetch(p + k, 0, 3);
#else
  (void)p;
  (void)lanes;
#endif
}

// prefetch_row for the row at `offset` of each of the arrays.
template <class Count, class... T>
KOKKOS_FORCEINLINE_FUNCTION void prefetch_rows(const long offset, const Count lanes,
                                               const T*... arrays) {
  (prefetch_row(arrays + offset, lanes), ...);
}

}  // namespace impl

// Solves the `lanes` systems of one tile of a mono-morphology batch (tree parent(i) < i,
// n nodes). Node i of lane k is element i * row_stride + k * ls of u, l, d, rhs (a tile of a
// Block-Interleaved View: &v(tile, 0, 0), row_stride = v.stride(1), ls = 1; consecutive
// systems of a Full-Interleaved View: &v(first, 0), row_stride = v.stride(1), ls = 1; or of a
// Flat View: &v(first, 0), row_stride = 1, ls = v.stride(0)). Same conventions as
// hines_solve_system: d becomes the eliminated diagonal, rhs the solution; lanes past
// `lanes` are not touched. on_failure(k, bad_pivot, bad_solution) is called for every
// lane k whose solve failed, with the node indices hines_solve_system would return.
//
// inverse: scratch for n rows of inverse_stride values, or nullptr. With it, each node
// costs one division (1 / d(i), kept for the forward sweep) instead of two: a division is
// the slowest vector instruction (about 2 cycles per double on current x86, whatever the
// width), and two of them per node bound a core below its share of memory bandwidth.
// x then differs from the divided x by rounding (an ulp or so per node).
template <class Member, class Count, class Parent, class T, class LaneStride, class OnFailure>
KOKKOS_INLINE_FUNCTION void hines_solve_tile(const Member& team, const Count lanes,
                                             const Parent& parent, const int n,
                                             const long row_stride, const LaneStride ls, const T* u,
                                             const T* l, T* d, T* rhs, T* inverse,
                                             const long inverse_stride,
                                             const OnFailure& on_failure) {
  bool failed = false;
  const int ahead = impl::prefetch_distance<T>(row_stride, ls);
  if (inverse) {
    // Backward sweep, leaves to root: d(i) is final when node i is reached (only its
    // children, all > i, update it), so its pivot is checked here.
    for (int i = n - 1; i > 0; --i) {
      const long ri = i * row_stride, rp = parent(i) * row_stride;
      const T *ui = u + ri, *li = l + ri, *di = d + ri, *xi = rhs + ri;
      T *dp = d + rp, *xp = rhs + rp, *inv = inverse + i * inverse_stride;
      if (ahead > 0 && i > ahead)
        impl::prefetch_rows((i - ahead) * row_stride, lanes, u, l, d, rhs);
      failed |= impl::lanes_any(team, lanes, [&](const int k) {
        const long e = k * ls;
        const T r = T(1) / di[e];
        inv[k] = r;
        const T f = ui[e] * r;
        dp[e] -= f * li[e];
        xp[e] -= f * xi[e];
        return impl::failure_flag(di[e], r);  // r is infinite for a zero pivot
      });
    }
    // Forward sweep, root to leaves.
    failed |= impl::lanes_any(team, lanes, [&](const int k) {
      const long e = k * ls;
      const T r = T(1) / d[e];
      const T x = rhs[e] * r;
      rhs[e] = x;
      return impl::failure_flag(d[e], x + r);
    });
    for (int i = 1; i < n; ++i) {
      const long ri = i * row_stride, rp = parent(i) * row_stride;
      const T *li = l + ri, *xp = rhs + rp, *inv = inverse + i * inverse_stride;
      T* xi = rhs + ri;
      if (ahead > 0 && i + ahead < n) impl::prefetch_rows((i + ahead) * row_stride, lanes, l, rhs);
      failed |= impl::lanes_any(team, lanes, [&](const int k) {
        const long e = k * ls;
        const T x = (xi[e] - li[e] * xp[e]) * inv[k];
        xi[e] = x;
        return impl::failure_flag(x);
      });
    }
  } else {
    for (int i = n - 1; i > 0; --i) {
      const long ri = i * row_stride, rp = parent(i) * row_stride;
      const T *ui = u + ri, *li = l + ri, *di = d + ri, *xi = rhs + ri;
      T *dp = d + rp, *xp = rhs + rp;
      if (ahead > 0 && i > ahead)
        impl::prefetch_rows((i - ahead) * row_stride, lanes, u, l, d, rhs);
      impl::lanes_for(team, lanes, [&](const int k) {
        const long e = k * ls;
        const T f = ui[e] / di[e];
        dp[e] -= f * li[e];
        xp[e] -= f * xi[e];
      });
    }
    // Forward sweep, checking each node's pivot and solution.
    failed = impl::lanes_any(team, lanes, [&](const int k) {
      const long e = k * ls;
      const T x = rhs[e] / d[e];
      rhs[e] = x;
      return impl::failure_flag(d[e], x);
    });
    for (int i = 1; i < n; ++i) {
      const long ri = i * row_stride, rp = parent(i) * row_stride;
      const T *li = l + ri, *di = d + ri, *xp = rhs + rp;
      T* xi = rhs + ri;
      if (ahead > 0 && i + ahead < n)
        impl::prefetch_rows((i + ahead) * row_stride, lanes, l, d, rhs);
      failed |= impl::lanes_any(team, lanes, [&](const int k) {
        const long e = k * ls;
        const T x = (xi[e] - li[e] * xp[e]) / di[e];
        xi[e] = x;
        return impl::failure_flag(di[e], x);
      });
    }
  }
  if (!failed) return;
  // Rare: name the node per failed lane, in hines_solve_system's order (pivots from the
  // leaves down, node 0 last; solutions from the root up). d holds every pivot used.
  impl::lanes_scalar(team, lanes, [&](const int k) {
    const long e = k * ls;
    int bad_pivot = -1, bad_solution = -1;
    for (int i = n - 1; i > 0 && bad_pivot < 0; --i)
      if (!is_usable_pivot(d[i * row_stride + e])) bad_pivot = i;
    if (bad_pivot < 0 && !is_usable_pivot(d[e])) bad_pivot = 0;
    for (int i = 0; i < n && bad_solution < 0; ++i)
      if (!is_finite_value(rhs[i * row_stride + e])) bad_solution = i;
    if (bad_pivot >= 0 || bad_solution >= 0) on_failure(k, bad_pivot, bad_solution);
  });
}

// Interleaved tiles: lane k of a row is the row's k-th element.
template <class Member, class Count, class Parent, class T, class OnFailure>
KOKKOS_INLINE_FUNCTION void hines_solve_tile(const Member& team, const Count lanes,
                                             const Parent& parent, const int n,
                                             const long row_stride, const T* u, const T* l, T* d,
                                             T* rhs, T* inverse, const long inverse_stride,
                                             const OnFailure& on_failure) {
  hines_solve_tile(team, lanes, parent, n, row_stride, UnitLaneStride{}, u, l, d, rhs, inverse,
                   inverse_stride, on_failure);
}

// The same with the reciprocals' rows as far apart as the systems' (Block-Interleaved
// tiles, whose scratch mirrors the tile).
template <class Member, class Count, class Parent, class T, class OnFailure>
KOKKOS_INLINE_FUNCTION void hines_solve_tile(const Member& team, const Count lanes,
                                             const Parent& parent, const int n,
                                             const long row_stride, const T* u, const T* l, T* d,
                                             T* rhs, T* inverse, const OnFailure& on_failure) {
  hines_solve_tile(team, lanes, parent, n, row_stride, u, l, d, rhs, inverse, row_stride,
                   on_failure);
}

// Solves the `lanes` (<= max_tile_lanes) tridiagonal systems of m rows of one tile (row i of lane k
// is element i * row_stride + k * ls of a, b, c, d: ls = 1 for interleaved tiles, the system
// length for Flat storage, whose row_stride is 1). Same conventions and results as
// thomas_solve_system: d becomes x, c(0..m-2) becomes c', a, b and c(m-1) are not
// written (a(0), c(m-1) not read). on_failure(k, bad_pivot, bad_solution) as above.
// One division per row (1 / beta, then two products) instead of two: results differ from
// thomas_solve_system's by rounding only.
template <class Member, class Count, class T, class LaneStride, class OnFailure>
KOKKOS_INLINE_FUNCTION void thomas_solve_tile(const Member& team, const Count lanes, const int m,
                                              const long row_stride, const LaneStride ls,
                                              const T* a, const T* b, T* c, T* d,
                                              const OnFailure& on_failure) {
  if (m <= 0) return;
  // Per-lane first failures, set up only when a row fails (beta is not stored, so the
  // failing rows are named as they are met).
  bool failed = false;
  int bad_pivot[max_tile_lanes], bad_solution[max_tile_lanes];
  auto begin_failure = [&]() {
    if (failed) return;
    failed = true;
    for (int k = 0; k < max_tile_lanes; ++k) bad_pivot[k] = bad_solution[k] = -1;
  };
  // Row i of the forward elimination failed in some lane: recompute its pivot (a, b and
  // the previous row's c' are still there) and check its d'.
  auto forward_failure = [&](const int i) {
    begin_failure();
    impl::lanes_scalar(team, lanes, [&](const int k) {
      const long r = i * row_stride + k * ls;
      const T beta = i == 0 ? b[r] : b[r] - a[r] * c[r - row_stride];
      if (!is_usable_pivot(beta) && bad_pivot[k] < 0) bad_pivot[k] = i;
      if (!is_finite_value(d[r]) && bad_solution[k] < 0) bad_solution[k] = i;
    });
  };

  // Row 0: beta = b(0).
  if (m == 1) {
    if (impl::lanes_any(team, lanes, [&](const int k) {
          const T x = d[k * ls] / b[k * ls];
          d[k * ls] = x;
          return impl::failure_flag(b[k * ls], x);
        }))
      forward_failure(0);
  } else if (impl::lanes_any(team, lanes, [&](const int k) {
               const T beta = b[k * ls];
               const T r = T(1) / beta;
               const T dp = d[k * ls] * r;
               c[k * ls] = c[k * ls] * r;
               d[k * ls] = dp;
               return impl::failure_flag(beta, dp);
             })) {
    forward_failure(0);
  }
  // Rows 1..m-2: the previous row's c' and d' are read back from the tile (L1-resident:
  // they were written one row ago).
  const int ahead = impl::prefetch_distance<T>(row_stride, ls);
  for (int i = 1; i < m - 1; ++i) {
    const long r = i * row_stride;
    const T *ai = a + r, *bi = b + r, *cq = c + r - row_stride, *dq = d + r - row_stride;
    T *ci = c + r, *di = d + r;
    if (ahead > 0 && i + ahead < m)
      impl::prefetch_rows((i + ahead) * row_stride, lanes, a, b, c, d);
    if (impl::lanes_any(team, lanes, [&](const int k) {
          const T beta = bi[k * ls] - ai[k * ls] * cq[k * ls];
          const T r = T(1) / beta;
          const T dp = (di[k * ls] - ai[k * ls] * dq[k * ls]) * r;
          ci[k * ls] = ci[k * ls] * r;
          di[k * ls] = dp;
          return impl::failure_flag(beta, dp);
        }))
      forward_failure(i);
  }
  if (m > 1) {  // the last row: c(m-1) is outside the matrix
    const int i = m - 1;
    const long r = i * row_stride;
    const T *ai = a + r, *bi = b + r, *cq = c + r - row_stride, *dq = d + r - row_stride;
    T* di = d + r;
    if (impl::lanes_any(team, lanes, [&](const int k) {
          const T beta = bi[k * ls] - ai[k * ls] * cq[k * ls];
          const T dp = (di[k * ls] - ai[k * ls] * dq[k * ls]) / beta;
          di[k * ls] = dp;
          return impl::failure_flag(beta, dp);
        }))
      forward_failure(i);
  }
  // Back substitution: x(i) = d'(i) - c'(i) x(i+1); thomas_solve_system names the highest
  // such row, and only when the forward elimination found no non-finite d'.
  for (int i = m - 2; i >= 0; --i) {
    const long r = i * row_stride;
    const T *ci = c + r, *xn = d + r + row_stride;
    T* di = d + r;
    if (ahead > 0 && i >= ahead) impl::prefetch_rows((i - ahead) * row_stride, lanes, c, d);
    if (impl::lanes_any(team, lanes, [&](const int k) {
          const T x = di[k * ls] - ci[k * ls] * xn[k * ls];
          di[k * ls] = x;
          return impl::failure_flag(x);
        })) {
      begin_failure();
      impl::lanes_scalar(team, lanes, [&](const int k) {
        if (!is_finite_value(di[k * ls]) && bad_solution[k] < 0) bad_solution[k] = i;
      });
    }
  }
  if (!failed) return;
  impl::lanes_scalar(team, lanes, [&](const int k) {
    if (bad_pivot[k] >= 0 || bad_solution[k] >= 0) on_failure(k, bad_pivot[k], bad_solution[k]);
  });
}

// Interleaved tiles: lane k of a row is the row's k-th element.
template <class Member, class Count, class T, class OnFailure>
KOKKOS_INLINE_FUNCTION void thomas_solve_tile(const Member& team, const Count lanes, const int m,
                                              const long row_stride, const T* a, const T* b, T* c,
                                              T* d, const OnFailure& on_failure) {
  thomas_solve_tile(team, lanes, m, row_stride, UnitLaneStride{}, a, b, c, d, on_failure);
}

}  // namespace hinesbatch
