#pragma once
// cuHinesBatch's one-thread-per-system sweeps with the eliminated values kept on chip
// (HinesSchedule::PerSystemOnChip).
//
// cuHinesBatch's kernel writes the eliminated d' and rhs' of every node to memory in the
// backward sweep and reads them back in the forward one: about 80 B per node in double, so
// it sits at half of what the memory could deliver. Here a team's lanes (a warp's threads
// on a GPU) take consecutive systems (on interleaved storage a warp's loads and stores of
// one node are one contiguous run) and each lane keeps, for the nodes [0, K), q = rhs'/d'
// and w = l/d' in team scratch: those nodes cost 40 B (u, l, d, rhs read once, x written
// once). K is as many nodes as fit (80 in double, 160 in float with Kokkos 3.4's 40 KB);
// the low nodes are the ones kept because a parent precedes its children, so a kept node's
// parent is kept too. Nodes [K, n) of a tree too big for the scratch are swept as
// cuHinesBatch does, in place in d and rhs (80 B per node; slow here, at a few warps per
// SM, so Auto only takes this schedule for trees that fit).
//
// Only about five warps per SM fit beside their scratch (double, 76 nodes), so memory
// latency is hidden by each lane's own requests: the inputs of 8 nodes are loaded at
// once, while the next 8 nodes' are asked into L2 (prefetch, no register held).
//
// Scratch is node-major, [node][lane]: the 32 lanes of a warp touch 32 consecutive
// words, no bank conflicts, and every lane follows the same control flow (one tree).
#include <Kokkos_Core.hpp>
#include <cstddef>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {
namespace impl {

template <class Batch, class ParentView, class ExecutionSpace>
struct SolvePerSystemOnChip {
  using Layout = typename Batch::layout_type;
  using T = typename Batch::scalar_type;
  using view_type = typename Batch::view_type;
  using member_type = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  // Nodes whose inputs are requested together (4 x 8 loads in flight per lane).
  static constexpr int kBatch = 8;

  view_type u, l, d, rhs;
  typename Batch::status_view status;
  ParentView parent;
  int n, block_size, num_systems;
  int kept;  // K: nodes [0, K) stay on chip

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int kept_nodes, int lanes) {
    return on_chip_lanes_scratch_bytes<T>(kept_nodes, lanes);
  }

  KOKKOS_FORCEINLINE_FUNCTION T& at(const view_type& v, int s, int i) const {
    return Layout::at(v, s, i, block_size);
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
    const int lanes = team.team_size(), lane = team.team_rank();
    T* const base = on_chip_lanes_scratch<T>(team, kept, lanes);
    const int s = team.league_rank() * lanes + lane;
    if (s >= num_systems) return;  // no team synchronisation below
    // Node i of this lane: ad[i * lanes] holds what its children subtract from d (then q,
    // then x), ar[i * lanes] what they subtract from rhs (then w).
    T* const ad = base + lane;
    T* const ar = base + static_cast<std::size_t>(kept) * lanes + lane;
    // Node i of this system sits at pu[i * ns], pl[i * ns], ... (the four views have one
    // shape; the driver checks that every offset fits in an int): one multiply per node
    // for all four instead of each View's 64-bit index arithmetic.
    const T* const pu = opaque_pointer(&at(u, s, 0));
    const T* const pl = opaque_pointer(&at(l, s, 0));
    T* const pd = opaque_pointer(&at(d, s, 0));
    T* const pr = opaque_pointer(&at(rhs, s, 0));
    const int ns = n > 1 ? static_cast<int>(&at(u, s, 1) - &at(u, s, 0)) : 0;
    const int* const par = parent.data();
    int bad_pivot = -1, bad_solution = -1;          // as hines_solve_system records them
    for (int q = 0; q < kBatch && q < kept; ++q) {  // the first batch, while scratch is zeroed
      const int o = (kept - 1 - q) * ns;
      prefetch_to_l2(pu + o);
      prefetch_to_l2(pl + o);
      prefetch_to_l2(pd + o);
      prefetch_to_l2(pr + o);
    }
    for (int i = 0; i < kept; ++i) {
      ad[i * lanes] = T(0);
      ar[i * lanes] = T(0);
    }

    // 1. Backward sweep over the nodes that did not fit: cuHinesBatch's step, in place in d
    // and rhs; a kept parent's sums are updated in scratch.
    HINESBATCH_DEVICE_NO_UNROLL
    for (int i = n - 1; i >= kept; --i) {
      const int p = par[i], o = i * ns;
      T di = pd[o], ui = pu[o], li = pl[o], ri = pr[o];
      loads_complete_here(di);
      loads_complete_here(ui);
      loads_complete_here(li);
      loads_complete_here(ri);
      if (!is_usable_pivot(di) && bad_pivot < 0) bad_pivot = i;
      const T f = ui / di;
      if (p >= kept) {
        pd[p * ns] -= f * li;
        pr[p * ns] -= f * ri;
      } else {
        ad[p * lanes] += f * li;
        ar[p * lanes] += f * ri;
      }
    }

    // 2. Backward sweep over the kept nodes, kBatch at a time: the batch's inputs are
    // requested together and waited for together, while the next batch's are asked into
    // L2. (Loads carried over to the next batch in registers instead would be copied
    // between registers by the compiler right after they are issued, which waits for
    // them.)
    HINESBATCH_DEVICE_NO_UNROLL
    for (int top = kept - 1; top > 0; top -= kBatch) {
      T bu[kBatch], bl[kBatch], bd[kBatch], br[kBatch];
      int bp[kBatch];
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int i = top - q > 0 ? top - q : 0;  // past the root: node 0 again, unused
        const int o = i * ns;
        bu[q] = pu[o];
        bl[q] = pl[o];
        bd[q] = pd[o];
        br[q] = pr[o];
        bp[q] = par[i];
      }
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int o = (top - kBatch - q > 0 ? top - kBatch - q : 0) * ns;
        prefetch_to_l2(pu + o);
        prefetch_to_l2(pl + o);
        prefetch_to_l2(pd + o);
        prefetch_to_l2(pr + o);
      }
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        loads_complete_here(bu[q]);
        loads_complete_here(bl[q]);
        loads_complete_here(bd[q]);
        loads_complete_here(br[q]);
      }
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int i = top - q;
        if (i > 0) {
          const T di = bd[q] - ad[i * lanes], ri = br[q] - ar[i * lanes];
          if (!is_usable_pivot(di) && bad_pivot < 0) bad_pivot = i;
          const T inv = T(1) / di;
          const T f = bu[q] * inv;
          const int p = bp[q];
          ad[p * lanes] += f * bl[q];
          ar[p * lanes] += f * ri;
          ad[i * lanes] = ri * inv;     // q
          ar[i * lanes] = bl[q] * inv;  // w
        }
      }
    }

    // 3. Forward sweep over the kept nodes, x = q - w x(parent), written to rhs at once.
    const T d0 = pd[0] - ad[0], r0 = pr[0] - ar[0];
    if (!is_usable_pivot(d0) && bad_pivot < 0) bad_pivot = 0;
    const T x0 = r0 / d0;
    ad[0] = x0;
    pr[0] = x0;
    if (!is_finite_value(x0)) bad_solution = 0;
    HINESBATCH_DEVICE_NO_UNROLL
    for (int low = 1; low < kept; low += kBatch) {
      int bp[kBatch];
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) bp[q] = par[low + q < kept ? low + q : 0];
      HINESBATCH_DEVICE_UNROLL
      for (int q = 0; q < kBatch; ++q) {
        const int i = low + q;
        if (i < kept) {
          const T xi = ad[i * lanes] - ar[i * lanes] * ad[bp[q] * lanes];
          ad[i * lanes] = xi;
          pr[i * ns] = xi;
          if (!is_finite_value(xi) && bad_solution < 0) bad_solution = i;
        }
      }
    }
    // 4. The nodes that did not fit, as cuHinesBatch does.
    HINESBATCH_DEVICE_NO_UNROLL
    for (int i = kept; i < n; ++i) {
      const int p = par[i], o = i * ns;
      const T xp = p < kept ? ad[p * lanes] : pr[p * ns];
      const T xi = (pr[o] - pl[o] * xp) / pd[o];
      pr[o] = xi;
      if (!is_finite_value(xi) && bad_solution < 0) bad_solution = i;
    }
    if (bad_pivot >= 0 || bad_solution >= 0)
      record_nodes(status, static_cast<long long>(s) * n, bad_pivot, bad_solution);
  }
};

}  // namespace impl
}  // namespace hinesbatch
