#pragma once
// The Hines algorithm for ONE system (docs/REFERENCE.md §1), written once over 1-D accessors so
// that every layout and every backend runs the same code: the caller picks the system
// (a subview of a batch, a row of a scratch tile) and the execution policy.
#include <Kokkos_Core.hpp>
#include <type_traits>

namespace hinesbatch {

// Pivot and solution checks cost two compares per node and no memory traffic: a
// failure is recorded in the batch's status instead of returning garbage silently.
struct SolveFailure {
  long long bad_pivot = -1;     // node index, -1 if none
  long long bad_solution = -1;  // node index, -1 if none
};

template <class T>
KOKKOS_INLINE_FUNCTION bool is_usable_pivot(T x) {
  return x != T(0) && x - x == T(0);  // x - x is NaN for inf and NaN
}
template <class T>
KOKKOS_INLINE_FUNCTION bool is_finite_value(T x) {
  return x - x == T(0);
}

// A loop the device compiler must not unroll: unrolled, the row loops of the one-thread-
// per-system solvers hold several rows' addresses and values at once and need more
// registers, hence fewer warps per SM, and a kernel that streams from memory needs every
// warp it can get (ThomasBatch double on sm_90: 55 registers unrolled, 48 not).
// HINESBATCH_DEVICE_UNROLL: a loop of constant trip count unrolled on the device, where its
// values must live in registers (host compilers decide for themselves).
#if defined(__CUDA_ARCH__)
#define HINESBATCH_DEVICE_NO_UNROLL _Pragma("unroll 1")
#define HINESBATCH_DEVICE_UNROLL _Pragma("unroll")
#else
#define HINESBATCH_DEVICE_NO_UNROLL
#define HINESBATCH_DEVICE_UNROLL
#endif

namespace impl {

// Marks loaded values as needed here, on the device: the loads that produce them are then
// issued before this point and waited for together. Without it the compiler sinks a load
// to its use, which can sit behind a division's slow-path branch or a store it may not
// pass (the arrays could alias), and a row then costs two memory round trips instead of
// one. Generates no instruction; no effect on the host.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void loads_complete_here(T&) {}
#if defined(__CUDA_ARCH__)
KOKKOS_FORCEINLINE_FUNCTION void loads_complete_here(double& x) { asm volatile("" : "+d"(x)); }
KOKKOS_FORCEINLINE_FUNCTION void loads_complete_here(float& x) { asm volatile("" : "+f"(x)); }
#endif

// Asks the GPU's L2 cache for the line holding *p without waiting for it or holding a
// register: the later load of it is then an L2 hit. No effect on the host.
KOKKOS_FORCEINLINE_FUNCTION void prefetch_to_l2(const void* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("prefetch.global.L2 [%0];" : : "l"(p));
#else
  (void)p;
#endif
}

// Whether this device compilation has asynchronous global-to-shared copies (sm_80 on):
// false on the host and on older GPUs, which take the register path instead.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
inline constexpr bool kHasAsyncCopies = true;
#else
inline constexpr bool kHasAsyncCopies = false;
#endif

// Copies *global to *shared without passing through registers: the copy is in flight until
// wait_async_copies(), so a thread may start all of a chunk's copies and wait once. Where
// there are no such copies (kHasAsyncCopies false), a plain copy.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void copy_async(T* shared, const T* global) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "cp.async copies 4, 8 or 16 B");
  const unsigned to = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile(
      "{\n .reg .u64 g;\n cvta.to.global.u64 g, %1;\n cp.async.ca.shared.global [%0], [g], "
      "%2;\n}\n" ::"r"(to),
      "l"(global), "n"(sizeof(T))
      : "memory");
#else
  *shared = *global;
#endif
}

// Waits for this thread's copy_async copies (other threads see them after a barrier).
KOKKOS_FORCEINLINE_FUNCTION void wait_async_copies() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n cp.async.wait_group 0;\n" ::: "memory");
#endif
}

// The same pointer, opaque to the device compiler: indexing it with an int offset is then
// one wide multiply-add, instead of the 64-bit index arithmetic the compiler rebuilds from
// how the pointer was formed. (Its accesses become generic ones, which on global memory
// cost the same.) No effect on the host.
template <class T>
KOKKOS_FORCEINLINE_FUNCTION T* opaque_pointer(T* p) {
#if defined(__CUDA_ARCH__)
  asm volatile("" : "+l"(p));
#endif
  return p;
}

}  // namespace impl

// Solves A x = rhs for the tree given by parent(i) < i. A[p(i)][i] = u(i),
// A[i][p(i)] = l(i), A[i][i] = d(i). Overwrites d with the eliminated diagonal and rhs
// with x; u, l and parent are only read.
template <class Parent, class U, class L, class D, class R>
KOKKOS_INLINE_FUNCTION SolveFailure hines_solve_system(const Parent& parent, int n, const U& u,
                                                       const L& l, const D& d, const R& rhs) {
  using T = typename std::remove_cv<typename std::remove_reference<decltype(d(0))>::type>::type;
  SolveFailure failure;
  // Row indices of the failures, kept in int (fewer registers than SolveFailure's long long).
  int bad_pivot = -1, bad_solution = -1;
  // Backward sweep (elimination), leaves to root. Every load of a node comes before its
  // stores (d and rhs are distinct arrays), so they are in flight together.
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = n - 1; i > 0; --i) {
    const int p = parent(i);
    T di = d(i);
    T ui = u(i);
    T li = l(i);
    T ri = rhs(i);
    T dp = d(p);
    T rp = rhs(p);
    impl::loads_complete_here(di);
    impl::loads_complete_here(ui);
    impl::loads_complete_here(li);
    impl::loads_complete_here(ri);
    impl::loads_complete_here(dp);
    impl::loads_complete_here(rp);
    if (!is_usable_pivot(di) && bad_pivot < 0) bad_pivot = i;
    const T f = ui / di;
    d(p) = dp - f * li;
    rhs(p) = rp - f * ri;
  }
  const T d0 = d(0);
  if (!is_usable_pivot(d0) && bad_pivot < 0) bad_pivot = 0;
  // Forward sweep (substitution), root to leaves.
  const T x0 = rhs(0) / d0;
  rhs(0) = x0;
  if (!is_finite_value(x0)) bad_solution = 0;
  HINESBATCH_DEVICE_NO_UNROLL
  for (int i = 1; i < n; ++i) {
    const T xi = (rhs(i) - l(i) * rhs(parent(i))) / d(i);
    rhs(i) = xi;
    if (!is_finite_value(xi) && bad_solution < 0) bad_solution = i;
  }
  failure.bad_pivot = bad_pivot;
  failure.bad_solution = bad_solution;
  return failure;
}

}  // namespace hinesbatch
