#pragma once
// The Hines algorithm split by branch (the ThomasBatch paper's §4): the elimination and the
// substitution of ONE unbranched section, written once for every schedule (one launch per
// level, or a team walking the levels). A branch's node k sits at offset + k * stride; node
// 0 hangs from a node of the parent branch, the last node carries the child branches.
//
// Races are avoided by gathering, not scattering: a branch leaves what its elimination
// contributes to its parent's last node in its own junction slot, and the parent sums
// its children's slots before eliminating. The order of that sum is fixed, so results
// do not depend on thread scheduling.
#include <Kokkos_Core.hpp>
#include <cstdint>

#include "hinesbatch/layouts/branch_plan.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {

template <class Plan, class View, class StatusView>
struct BranchSweeps {
  using memory_space = typename View::memory_space;
  Plan plan;
  View u, l, d, rhs, junction_d, junction_rhs;
  StatusView status;

  // Records the first failure of a sweep of branch b (see BranchPlan::kLevelShift).
  KOKKOS_INLINE_FUNCTION void fail(int which, int b, std::int64_t at) const {
    const int rank = which == 0 ? plan.num_levels - 1 - plan.level(b) : plan.level(b);
    Kokkos::atomic_fetch_min(&status(which),
                             (static_cast<long long>(rank) << BranchPlan::kLevelShift) | at);
  }

  // Backward sweep of branch b: its children (deeper level) must be done.
  KOKKOS_INLINE_FUNCTION void eliminate(const int b) const {
    const std::int64_t off = plan.offset(b), st = plan.stride(b);
    const int len = plan.length(b);
    std::int64_t i = off + (len - 1) * st;
    auto dl = d(i);
    auto rl = rhs(i);
    for (int c = plan.child_begin(b); c < plan.child_end(b); ++c) {
      const int child = plan.children(c);
      dl -= junction_d(child);
      rl -= junction_rhs(child);
    }
    // dl, rl carry the eliminated values of the current node; each node's d and rhs
    // are read once and their eliminated values written once.
    bool failed = false;
    for (int k = len - 1; k > 0; --k, i -= st) {
      if (!is_usable_pivot(dl) && !failed) {
        fail(0, b, i);
        failed = true;
      }
      const auto f = u(i) / dl;
      const auto dp = d(i - st) - f * l(i);
      const auto rp = rhs(i - st) - f * rl;
      d(i) = dl;
      rhs(i) = rl;
      dl = dp;
      rl = rp;
    }
    if (!is_usable_pivot(dl) && !failed) fail(0, b, i);
    d(i) = dl;
    rhs(i) = rl;
    if (plan.parent_index(b) >= 0) {
      const auto f = u(i) / dl;
      junction_d(b) = f * l(i);
      junction_rhs(b) = f * rl;
    }
  }

  // Forward sweep of branch b: its parent (shallower level) must be done.
  KOKKOS_INLINE_FUNCTION void substitute(const int b) const {
    const std::int64_t off = plan.offset(b), st = plan.stride(b);
    const int len = plan.length(b);
    const std::int64_t p = plan.parent_index(b);
    auto x = p >= 0 ? (rhs(off) - l(off) * rhs(p)) / d(off) : rhs(off) / d(off);
    rhs(off) = x;
    bool failed = !is_finite_value(x);
    if (failed) fail(1, b, off);
    std::int64_t i = off;
    for (int k = 1; k < len; ++k) {
      i += st;
      x = (rhs(i) - l(i) * x) / d(i);
      rhs(i) = x;
      if (!is_finite_value(x) && !failed) {
        fail(1, b, i);
        failed = true;
      }
    }
  }
};

}  // namespace hinesbatch
