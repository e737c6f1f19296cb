#pragma once
// The ThomasBatch paper's one-thread-per-system Thomas sweeps with the eliminated values
// kept on chip (ThomasSchedule::PerSystemOnChip): the lane's part. The driver
// (impl/thomas_batch_impl.hpp, ThomasPerSystemOnChip) puts the 32 lanes of a warp on 32
// consecutive systems, so on interleaved storage a warp's loads and stores of one row are
// one contiguous run.
//
// The ThomasBatch paper's kernel writes c' and d' of every row to memory in the forward
// sweep and reads them back in the backward one: about 80 B per row in double, half of what
// the memory could deliver. Here c' and d' of rows [0, K) stay in team scratch: those rows
// cost 40 B (a, b, c, d read once, x written once). K is as many rows as fit (80 in double,
// 160 in float with Kokkos 3.4's 40 KB, on_chip_capacity); rows [K, m) of a longer system
// are swept as the paper's kernel does, c' and d' in place in c and d (slow here, at a few
// warps per SM: Auto only takes this schedule for systems that fit).
//
// The arithmetic and the failure rules are those of thomas_solve_system (the sequential
// Thomas, the ThomasBatch paper's kernel): beta(i) = b(i) - a(i) c'(i-1),
// d'(i) = (d(i) - a(i) d'(i-1)) / beta(i), c'(i) = c(i) / beta(i); x(i) = d'(i) - c'(i) x(i+1).
//
// As in hines_on_chip.hpp, only a few warps per SM fit beside their scratch, so each lane
// hides memory latency itself: the inputs of kBatch rows are loaded at once and waited for
// together while the next kBatch rows' lines are asked into L2 (no register held).
#include <Kokkos_Core.hpp>

#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {
namespace impl {

// Rows whose inputs a lane requests together (4 x 8 loads in flight).
constexpr int kThomasOnChipBatch = 8;

// The back substitution of thomas_solve_on_chip in step: the swept rows (if any) of this
// lane from memory, then the kept rows [0, kr) over the row indices [0, kept_steps) every
// lane steps through, x(last) stored in its turn. x holds d'(last).
template <class T>
KOKKOS_INLINE_FUNCTION SolveFailure thomas_on_chip_back_in_step(
    const int rows, const int kr, const int kept_steps, T* const pc, T* const pd, const int ns,
    T* const sc, T* const sd, const int stride, T x, const int bad_pivot, int bad_solution) {
  constexpr int kBatch = kThomasOnChipBatch;
  const int last = rows - 1;
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = last - 1; i >= kr; --i) {
    const int o = i * ns;
    T ci = pc[o], di = pd[o];
    loads_complete_here(ci);
    loads_complete_here(di);
    x = di - ci * x;
    if (!is_finite_value(x) && bad_solution < 0) bad_solution = i;
    pd[o] = x;
  }
  HINESBATCH_DEVICE_NO_UNROLL
  for (int high = kept_steps - 1; high >= 0; high -= kBatch) {
    T bc[kBatch], bd[kBatch];
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      const int i = high - q;
      const bool below_last = i >= 0 && i < kr && i < last;
      bc[q] = below_last ? sc[i * stride] : T(0);
      bd[q] = below_last ? sd[i * stride] : T(0);
    }
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      const int i = high - q;
      if (i >= 0 && i < kr) {
        if (i < last) {
          x = bd[q] - bc[q] * x;
          if (!is_finite_value(x) && bad_solution < 0) bad_solution = i;
        }
        pd[i * ns] = x;
      }
    }
  }
  SolveFailure failure;
  failure.bad_pivot = bad_pivot;
  failure.bad_solution = bad_solution;
  return failure;
}

// Solves one system of `rows` rows whose row i is at pa[i * ns], pb[i * ns], pc[i * ns],
// pd[i * ns] (x goes to d; c' of rows >= kept to c). sc[i * stride] and sd[i * stride]
// hold c' and d' of the kept rows i < kept. a(0) and c(rows - 1) may be loaded but are
// never used. Returns the failure rows as thomas_solve_system does (-1: none).
//
// kInStep: the lanes of a warp hold systems of different sizes, all within `steps` >= rows
// rows, in interleaved storage. The kept rows are then swept over the same row indices by
// every lane, each loading and storing only its own rows, so that a warp's accesses to one
// row index stay side by side (without it, a lane that has passed its last row loads that row
// again, and each lane starts its back substitution at its own row).
template <class T, bool kInStep = false>
KOKKOS_INLINE_FUNCTION SolveFailure thomas_solve_on_chip(const int rows, const int kept,
                                                         const T* const pa, const T* const pb,
                                                         T* const pc, T* const pd, const int ns,
                                                         T* const sc, T* const sd, const int stride,
                                                         const int steps = 0) {
  constexpr int kBatch = kThomasOnChipBatch;
  const int kr = rows < kept ? rows : kept;  // rows kept on chip: [0, kr)
  const int last = rows - 1;
  // The kept rows' loop runs over [0, kr), or in step over [0, min(steps, kept)).
  const int kept_steps = kInStep ? (steps < kept ? steps : kept) : kr;
  int bad_pivot = -1, bad_solution = -1;
  auto ask_l2 = [&](const int first) {  // the lines of rows first ... first + kBatch - 1
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      if (kInStep && first + q > last) break;
      const int o = (first + q < last ? first + q : last) * ns;
      prefetch_to_l2(pa + o);
      prefetch_to_l2(pb + o);
      prefetch_to_l2(pc + o);
      prefetch_to_l2(pd + o);
    }
  };
  ask_l2(0);

  // 1. Forward elimination of the kept rows, kBatch at a time: the batch's inputs are
  // requested together and waited for together while the next batch's are asked into L2.
  T cp = T(0), dp = T(0);
  HINESBATCH_DEVICE_NO_UNROLL
  for (int low = 0; low < kept_steps; low += kBatch) {
    T ba[kBatch], bb[kBatch], bc[kBatch], bd[kBatch];
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      if (kInStep && low + q >= kr) {  // not a row of this system: nothing loaded
        ba[q] = bb[q] = bc[q] = bd[q] = T(0);
        continue;
      }
      const int o = (low + q < last ? low + q : last) * ns;  // past the end: the last row again
      ba[q] = pa[o];
      bb[q] = pb[o];
      bc[q] = pc[o];
      bd[q] = pd[o];
    }
    ask_l2(low + kBatch);
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      loads_complete_here(ba[q]);
      loads_complete_here(bb[q]);
      loads_complete_here(bc[q]);
      loads_complete_here(bd[q]);
    }
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      const int i = low + q;
      if (i < kr) {
        const T ai = i > 0 ? ba[q] : T(0);     // a(0) is outside the matrix
        const T ci = i < last ? bc[q] : T(0);  // and so is c(rows - 1)
        const T beta = bb[q] - ai * cp;
        if (!is_usable_pivot(beta) && bad_pivot < 0) bad_pivot = i;
        dp = (bd[q] - ai * dp) / beta;
        if (!is_finite_value(dp) && bad_solution < 0) bad_solution = i;
        cp = ci / beta;
        sc[i * stride] = cp;
        sd[i * stride] = dp;
      }
    }
  }
  // 2. The rows that did not fit, as the ThomasBatch paper's kernel does: c' and d' in place.
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = kr; i < rows; ++i) {
    const int o = i * ns;
    T ai = pa[o], bi = pb[o], di = pd[o];
    T ci = i < last ? pc[o] : T(0);
    loads_complete_here(ai);
    loads_complete_here(bi);
    loads_complete_here(ci);
    loads_complete_here(di);
    const T beta = bi - ai * cp;
    if (!is_usable_pivot(beta) && bad_pivot < 0) bad_pivot = i;
    dp = (di - ai * dp) / beta;
    if (!is_finite_value(dp) && bad_solution < 0) bad_solution = i;
    cp = ci / beta;
    pd[o] = dp;
    if (i < last) pc[o] = cp;
  }

  // 3. Back substitution: x(last) = d'(last) (already checked), then the swept rows from
  // memory, then the kept rows from scratch, x written to d at once.
  T x = dp;
  if (kInStep)
    return thomas_on_chip_back_in_step(rows, kr, kept_steps, pc, pd, ns, sc, sd, stride, x,
                                       bad_pivot, bad_solution);
  if (kr == rows) pd[last * ns] = x;  // a kept last row was not stored by step 2
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = last - 1; i >= kr; --i) {
    const int o = i * ns;
    T ci = pc[o], di = pd[o];
    loads_complete_here(ci);
    loads_complete_here(di);
    x = di - ci * x;
    if (!is_finite_value(x) && bad_solution < 0) bad_solution = i;
    pd[o] = x;
  }
  // The kept rows below both the last row and the swept ones, kBatch at a time: the
  // batch's c' and d' are read from scratch before its x are stored (the compiler may not
  // move a scratch load past a store it cannot tell apart from it).
  const int top = (kr < last ? kr : last) - 1;
  HINESBATCH_DEVICE_NO_UNROLL
  for (int high = top; high >= 0; high -= kBatch) {
    T bc[kBatch], bd[kBatch];
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      const int i = high - q > 0 ? high - q : 0;
      bc[q] = sc[i * stride];
      bd[q] = sd[i * stride];
    }
    HINESBATCH_DEVICE_UNROLL
    for (int q = 0; q < kBatch; ++q) {
      const int i = high - q;
      if (i >= 0) {
        x = bd[q] - bc[q] * x;
        if (!is_finite_value(x) && bad_solution < 0) bad_solution = i;
        pd[i * ns] = x;
      }
    }
  }
  SolveFailure failure;
  failure.bad_pivot = bad_pivot;
  failure.bad_solution = bad_solution;
  return failure;
}

}  // namespace impl
}  // namespace hinesbatch
