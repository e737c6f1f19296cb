#pragma once
// A multi-morphology batch stored as the BranchPlan lays it out (level blocks of
// interleaved branches, per group), with the plan's arrays copied to the device.
// Host data goes in and out in the plan's canonical order: cell by cell, each cell's
// nodes in its Hines numbering.
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/layouts/batch_storage.hpp"
#include "hinesbatch/layouts/branch_plan.hpp"
#include "hinesbatch/layouts/solve_status.hpp"

namespace hinesbatch {

template <class MemorySpace>
struct DeviceBranchPlan {
  using index_view = Kokkos::View<const std::int64_t*, MemorySpace>;
  using int_view = Kokkos::View<const int*, MemorySpace>;
  index_view offset, parent_index;
  int_view stride, length, level, child_begin, child_end, children, group_level_begin,
      level_branches;
  int num_levels = 0, num_groups = 0;

  template <class ExecutionSpace>
  DeviceBranchPlan(const ExecutionSpace& exec, const BranchPlan& plan)
      : offset(impl::to_device<MemorySpace>(exec, plan.branch_offset, "hinesbatch::branch_offset")),
        parent_index(impl::to_device<MemorySpace>(exec, plan.branch_parent_index,
                                                  "hinesbatch::branch_parent")),
        stride(impl::to_device<MemorySpace>(exec, plan.branch_stride, "hinesbatch::branch_stride")),
        length(impl::to_device<MemorySpace>(exec, plan.branch_length, "hinesbatch::branch_length")),
        level(impl::to_device<MemorySpace>(exec, plan.branch_level, "hinesbatch::branch_level")),
        child_begin(
            impl::to_device<MemorySpace>(exec, plan.branch_child_begin, "hinesbatch::child_begin")),
        child_end(
            impl::to_device<MemorySpace>(exec, plan.branch_child_end, "hinesbatch::child_end")),
        children(impl::to_device<MemorySpace>(exec, plan.children, "hinesbatch::children")),
        group_level_begin(impl::to_device<MemorySpace>(exec, plan.group_level_begin,
                                                       "hinesbatch::group_level_begin")),
        level_branches(
            impl::to_device<MemorySpace>(exec, plan.level_branches, "hinesbatch::level_branches")),
        num_levels(plan.num_levels()),
        num_groups(plan.num_groups()) {}
  DeviceBranchPlan() = default;
};

template <class Scalar, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class BranchBatch : public BatchStorage<BranchBatch<Scalar, MemorySpace>, Scalar> {
 public:
  using scalar_type = Scalar;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<Scalar*, MemorySpace>;
  using status_view = SolveStatus<MemorySpace>;

  template <class ExecutionSpace>
  BranchBatch(const ExecutionSpace& exec, const BranchPlan& plan)
      : plan_(&plan), device_plan_(exec, plan) {
    const auto n = static_cast<std::size_t>(plan.storage_size());
    auto alloc = [n](const char* label) {
      return view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
    };
    u_ = alloc("hinesbatch::branch_u");
    l_ = alloc("hinesbatch::branch_l");
    d_ = alloc("hinesbatch::branch_d");
    rhs_ = alloc("hinesbatch::branch_rhs");
    junction_d_ = view_type("hinesbatch::junction_d", plan.num_branches());
    junction_rhs_ = view_type("hinesbatch::junction_rhs", plan.num_branches());
    status_ = make_solve_status<MemorySpace>();
  }

  const BranchPlan& plan() const { return *plan_; }
  const DeviceBranchPlan<MemorySpace>& device_plan() const { return device_plan_; }
  const view_type& u() const { return u_; }
  const view_type& l() const { return l_; }
  const view_type& d() const { return d_; }
  const view_type& rhs() const { return rhs_; }
  const view_type& junction_d() const { return junction_d_; }
  const view_type& junction_rhs() const { return junction_rhs_; }
  const status_view& status() const { return status_; }
  std::size_t allocated_bytes() const {
    return (4 * u_.span() + 2 * junction_d_.span()) * sizeof(Scalar);
  }

  // fill, solution_to_host, diagonal_to_host and check: BatchStorage (batch_storage.hpp);
  // host arrays in canonical order (plan().num_nodes() elements each).

 private:
  friend class BatchStorage<BranchBatch, Scalar>;
  static constexpr bool kCanonicalStorage = false;
  std::int64_t canonical_size() const { return plan_->num_nodes(); }
  std::string canonical_what() const { return "the batch's cells"; }
  template <class Host, class F>
  void for_each_slot(Host& host, F f) const {
    const std::int64_t n = plan_->num_nodes();
    for (std::int64_t k = 0; k < n; ++k) f(k, host(plan_->storage_of[k]));
  }
  SolveLocation locate(long long key) const {
    const auto [cell, node] =
        plan_->cell_node_of_storage(key & ((1LL << BranchPlan::kLevelShift) - 1));
    return {"cell", static_cast<long long>(cell), static_cast<long long>(node)};
  }

  const BranchPlan* plan_ = nullptr;
  DeviceBranchPlan<MemorySpace> device_plan_;
  view_type u_, l_, d_, rhs_, junction_d_, junction_rhs_;
  status_view status_;
};

}  // namespace hinesbatch
