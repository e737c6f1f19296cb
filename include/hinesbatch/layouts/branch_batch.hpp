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
      : offset(copy(exec, plan.branch_offset, "hinesbatch::branch_offset")),
        parent_index(copy(exec, plan.branch_parent_index, "hinesbatch::branch_parent")),
        stride(copy(exec, plan.branch_stride, "hinesbatch::branch_stride")),
        length(copy(exec, plan.branch_length, "hinesbatch::branch_length")),
        level(copy(exec, plan.branch_level, "hinesbatch::branch_level")),
        child_begin(copy(exec, plan.branch_child_begin, "hinesbatch::child_begin")),
        child_end(copy(exec, plan.branch_child_end, "hinesbatch::child_end")),
        children(copy(exec, plan.children, "hinesbatch::children")),
        group_level_begin(copy(exec, plan.group_level_begin, "hinesbatch::group_level_begin")),
        level_branches(copy(exec, plan.level_branches, "hinesbatch::level_branches")),
        num_levels(plan.num_levels()),
        num_groups(plan.num_groups()) {
    exec.fence();  // the host vectors belong to the caller
  }
  DeviceBranchPlan() = default;

 private:
  template <class ExecutionSpace, class T>
  static Kokkos::View<const T*, MemorySpace> copy(const ExecutionSpace& exec,
                                                  const std::vector<T>& src, const char* label) {
    Kokkos::View<T*, MemorySpace> v(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), src.size());
    auto host = Kokkos::create_mirror_view(v);
    for (std::size_t k = 0; k < src.size(); ++k) host(k) = src[k];
    Kokkos::deep_copy(exec, v, host);
    exec.fence();
    return v;
  }
};

template <class Scalar, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class BranchBatch {
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

  // Host arrays in canonical order (plan().num_nodes() elements each). Fences exec.
  template <class ExecutionSpace>
  void fill(const ExecutionSpace& exec, const std::vector<Scalar>& u, const std::vector<Scalar>& l,
            const std::vector<Scalar>& d, const std::vector<Scalar>& rhs) {
    scatter(exec, u_, u, "u");
    scatter(exec, l_, l, "l");
    scatter(exec, d_, d, "d");
    scatter(exec, rhs_, rhs, "rhs");
  }
  template <class ExecutionSpace>
  void solution_to_host(const ExecutionSpace& exec, std::vector<Scalar>& x) const {
    auto host = Kokkos::create_mirror_view(rhs_);
    Kokkos::deep_copy(exec, host, rhs_);
    exec.fence();
    x.resize(static_cast<std::size_t>(plan_->num_nodes()));
    for (std::size_t k = 0; k < x.size(); ++k) x[k] = host(plan_->storage_of[k]);
  }

  // Throws SolverError naming the cell and node of the first zero or non-finite pivot or
  // non-finite solution of the last solves, then clears the record. One fence.
  template <class ExecutionSpace>
  void check(const ExecutionSpace& exec) const {
    const auto r = take_solve_status(exec, status_);
    if (!r.failed()) return;
    const auto [cell, node] =
        plan_->cell_node_of_storage(r.key() & ((1LL << BranchPlan::kLevelShift) - 1));
    throw_solve_failure("cell " + std::to_string(cell) + ", node " + std::to_string(node),
                        r.pivot(), {}, cell, node);
  }

 private:
  template <class ExecutionSpace>
  void scatter(const ExecutionSpace& exec, const view_type& v, const std::vector<Scalar>& src,
               const char* what) const {
    require_elements(src.size(), plan_->num_nodes(), what, "the batch's cells");
    auto host = Kokkos::create_mirror_view(v);
    for (std::size_t k = 0; k < src.size(); ++k) host(plan_->storage_of[k]) = src[k];
    Kokkos::deep_copy(exec, v, host);
    exec.fence();
  }

  const BranchPlan* plan_ = nullptr;
  DeviceBranchPlan<MemorySpace> device_plan_;
  view_type u_, l_, d_, rhs_, junction_d_, junction_rhs_;
  status_view status_;
};

}  // namespace hinesbatch
