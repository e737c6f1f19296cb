#pragma once
// A multi-morphology batch for the team schedule: every cell its own tree, stored packed
// (cell by cell, each cell's nodes contiguous, no padding), solved by a team per cell on
// chip (solvers/hines_team.hpp) so that mixed batches move what a mono-morphology batch
// moves: 40 B per node in double.
//
// Cells that share a tree (the same parent array) share one TeamTreePlan: a network built
// from a few reconstructions plans each of them once, so planning 256,000 cells costs about
// as much as hashing their parent arrays.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/morphology/tree.hpp"
#include "hinesbatch/solvers/team_tree_plan.hpp"

namespace hinesbatch {

namespace impl {

// One plan of a PlanTable, seen through the accessors team_hines_solve reads.
template <class MemorySpace>
struct PlanRef {
  using index_view =
      Kokkos::View<const int*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  index_view pb, pn, pp, cb, ch, lb;
  int opb, opn, opp, ocb, och, olb;
  int num_nodes, num_pieces, num_levels;
  KOKKOS_INLINE_FUNCTION int piece_begin(int q) const { return pb(opb + q); }
  KOKKOS_INLINE_FUNCTION int piece_nodes(int k) const { return pn(opn + k); }
  KOKKOS_INLINE_FUNCTION int parent_node(int q) const { return pp(opp + q); }
  KOKKOS_INLINE_FUNCTION int child_begin(int q) const { return cb(ocb + q); }
  KOKKOS_INLINE_FUNCTION int children(int k) const { return ch(och + k); }
  KOKKOS_INLINE_FUNCTION int level_begin(int l) const { return lb(olb + l); }
};

// Every distinct tree's plan, concatenated; row p of `table` holds plan p's offsets into
// the six arrays and its sizes (fields below).
template <class MemorySpace>
struct PlanTable {
  enum Field {
    kPieceBegin,
    kPieceNodes,
    kParent,
    kChildBegin,
    kChildren,
    kLevelBegin,
    kNodes,
    kPieces,
    kLevels,
    kFields
  };
  using index_view = typename PlanRef<MemorySpace>::index_view;
  index_view pb, pn, pp, cb, ch, lb;
  Kokkos::View<const int**, Kokkos::LayoutRight, MemorySpace> table;

  KOKKOS_INLINE_FUNCTION PlanRef<MemorySpace> plan(int p) const {
    return PlanRef<MemorySpace>{pb,
                                pn,
                                pp,
                                cb,
                                ch,
                                lb,
                                table(p, kPieceBegin),
                                table(p, kPieceNodes),
                                table(p, kParent),
                                table(p, kChildBegin),
                                table(p, kChildren),
                                table(p, kLevelBegin),
                                table(p, kNodes),
                                table(p, kPieces),
                                table(p, kLevels)};
  }
};

}  // namespace impl

template <class Scalar, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class PackedMultiBatch {
 public:
  using scalar_type = Scalar;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<Scalar*, MemorySpace>;
  using status_view = SolveStatus<MemorySpace>;
  using plan_table = impl::PlanTable<MemorySpace>;

  // piece_length: the longest piece of the plans (0: chosen per tree).
  template <class ExecutionSpace>
  PackedMultiBatch(const ExecutionSpace& exec, const std::vector<Tree>& cells,
                   int piece_length = 0) {
    const int n = static_cast<int>(cells.size());
    cell_offset_.assign(n + 1, 0);
    std::vector<int> cell_plan(n);
    std::map<std::vector<int>, int> plan_of_tree;
    std::vector<TeamTreePlan> plans;
    for (int c = 0; c < n; ++c) {
      if (cells[c].size() < 1)
        throw InputError("PackedMultiBatch: cell " + std::to_string(c) + " has no nodes", {}, 0,
                         "0");
      cell_offset_[c + 1] = cell_offset_[c] + cells[c].size();
      const auto found = plan_of_tree.find(cells[c].parents());
      if (found != plan_of_tree.end()) {
        cell_plan[c] = found->second;
      } else {
        cell_plan[c] = static_cast<int>(plans.size());
        plan_of_tree.emplace(cells[c].parents(), cell_plan[c]);
        plans.push_back(TeamTreePlan::build(cells[c], piece_length));
      }
    }
    num_plans_ = static_cast<int>(plans.size());
    // Concatenate the plans.
    std::vector<int> pb, pn, pp, cb, ch, lb;
    Kokkos::View<int**, Kokkos::LayoutRight, MemorySpace> table(
        "hinesbatch::plan_table", std::max(1, num_plans_), int(plan_table::kFields));
    auto ht = Kokkos::create_mirror_view(table);
    for (int p = 0; p < num_plans_; ++p) {
      const TeamTreePlan& plan = plans[p];
      ht(p, plan_table::kPieceBegin) = static_cast<int>(pb.size());
      ht(p, plan_table::kPieceNodes) = static_cast<int>(pn.size());
      ht(p, plan_table::kParent) = static_cast<int>(pp.size());
      ht(p, plan_table::kChildBegin) = static_cast<int>(cb.size());
      ht(p, plan_table::kChildren) = static_cast<int>(ch.size());
      ht(p, plan_table::kLevelBegin) = static_cast<int>(lb.size());
      ht(p, plan_table::kNodes) = plan.num_nodes;
      ht(p, plan_table::kPieces) = plan.num_pieces();
      ht(p, plan_table::kLevels) = plan.num_levels();
      pb.insert(pb.end(), plan.piece_begin.begin(), plan.piece_begin.end());
      pn.insert(pn.end(), plan.piece_nodes.begin(), plan.piece_nodes.end());
      pp.insert(pp.end(), plan.parent_node.begin(), plan.parent_node.end());
      cb.insert(cb.end(), plan.child_begin.begin(), plan.child_begin.end());
      ch.insert(ch.end(), plan.children.begin(), plan.children.end());
      lb.insert(lb.end(), plan.level_begin.begin(), plan.level_begin.end());
      max_scratch_scalars_ =
          std::max(max_scratch_scalars_, 4 * static_cast<std::size_t>(plan.num_nodes) +
                                             4 * static_cast<std::size_t>(plan.num_pieces()) + 1);
    }
    Kokkos::deep_copy(exec, table, ht);
    plans_.table = table;
    plans_.pb = ints(exec, "hinesbatch::plans_piece_begin", pb);
    plans_.pn = ints(exec, "hinesbatch::plans_piece_nodes", pn);
    plans_.pp = ints(exec, "hinesbatch::plans_parent_node", pp);
    plans_.cb = ints(exec, "hinesbatch::plans_child_begin", cb);
    plans_.ch = ints(exec, "hinesbatch::plans_children", ch);
    plans_.lb = ints(exec, "hinesbatch::plans_level_begin", lb);
    cell_plan_ = ints(exec, "hinesbatch::cell_plan", cell_plan);
    Kokkos::View<std::int64_t*, MemorySpace> offsets(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hinesbatch::cell_offset"), n + 1);
    auto ho = Kokkos::create_mirror_view(offsets);
    for (int c = 0; c <= n; ++c) ho(c) = cell_offset_[c];
    Kokkos::deep_copy(exec, offsets, ho);
    cell_offsets_ = offsets;
    auto alloc = [&](const char* label) {
      return view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)),
                       static_cast<std::size_t>(cell_offset_.back()));
    };
    u_ = alloc("hinesbatch::packed_u");
    l_ = alloc("hinesbatch::packed_l");
    d_ = alloc("hinesbatch::packed_d");
    rhs_ = alloc("hinesbatch::packed_rhs");
    status_ = make_solve_status<MemorySpace>();
    exec.fence();
  }

  int num_cells() const { return static_cast<int>(cell_offset_.size()) - 1; }
  int num_plans() const { return num_plans_; }
  std::int64_t num_nodes() const { return cell_offset_.back(); }
  const view_type& u() const { return u_; }
  const view_type& l() const { return l_; }
  const view_type& d() const { return d_; }
  const view_type& rhs() const { return rhs_; }
  const status_view& status() const { return status_; }
  const plan_table& plans() const { return plans_; }
  const Kokkos::View<const int*, MemorySpace>& cell_plan() const { return cell_plan_; }
  const Kokkos::View<const std::int64_t*, MemorySpace>& cell_offsets() const {
    return cell_offsets_;
  }
  // Team scratch of the largest plan, in scalars.
  std::size_t max_scratch_scalars() const { return max_scratch_scalars_; }
  std::size_t allocated_bytes() const {
    return 4 * u_.span() * sizeof(Scalar) + cell_offsets_.span() * sizeof(std::int64_t) +
           cell_plan_.span() * sizeof(int);
  }

  // Host arrays in canonical order (cell by cell): the storage order itself. Fences exec.
  template <class ExecutionSpace>
  void fill(const ExecutionSpace& exec, const std::vector<Scalar>& u, const std::vector<Scalar>& l,
            const std::vector<Scalar>& d, const std::vector<Scalar>& rhs) {
    copy_in(exec, u_, u, "u");
    copy_in(exec, l_, l, "l");
    copy_in(exec, d_, d, "d");
    copy_in(exec, rhs_, rhs, "rhs");
  }
  template <class ExecutionSpace>
  void solution_to_host(const ExecutionSpace& exec, std::vector<Scalar>& x) const {
    x.resize(static_cast<std::size_t>(num_nodes()));
    Kokkos::View<Scalar*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> dst(x.data(),
                                                                                          x.size());
    Kokkos::deep_copy(exec, dst, rhs_);
    exec.fence();
  }
  // Throws SolverError naming the cell and node of the first failure. Fences exec.
  template <class ExecutionSpace>
  void check(const ExecutionSpace& exec) const {
    const auto r = take_solve_status(exec, status_);
    if (!r.failed()) return;
    const auto it = std::upper_bound(cell_offset_.begin(), cell_offset_.end(), r.key());
    const int c = static_cast<int>(it - cell_offset_.begin()) - 1;
    const long long node = r.key() - cell_offset_[c];
    throw_solve_failure("cell " + std::to_string(c) + ", node " + std::to_string(node), r.pivot(),
                        {}, c, node);
  }

 private:
  template <class ExecutionSpace>
  static Kokkos::View<const int*, MemorySpace> ints(const ExecutionSpace& exec,
                                                    const std::string& label,
                                                    const std::vector<int>& src) {
    Kokkos::View<int*, MemorySpace> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label),
                                      std::max<std::size_t>(1, src.size()));
    auto h = Kokkos::create_mirror_view(v);
    std::copy(src.begin(), src.end(), h.data());
    Kokkos::deep_copy(exec, v, h);
    exec.fence();  // h may be a temporary
    return v;
  }
  template <class ExecutionSpace>
  void copy_in(const ExecutionSpace& exec, const view_type& v, const std::vector<Scalar>& src,
               const char* what) const {
    require_elements(src.size(), num_nodes(), what, "the batch's cells");
    Kokkos::View<const Scalar*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> from(
        src.data(), src.size());
    Kokkos::deep_copy(exec, v, from);
    exec.fence();
  }

  std::vector<std::int64_t> cell_offset_;
  int num_plans_ = 0;
  std::size_t max_scratch_scalars_ = 1;
  plan_table plans_;
  Kokkos::View<const int*, MemorySpace> cell_plan_;
  Kokkos::View<const std::int64_t*, MemorySpace> cell_offsets_;
  view_type u_, l_, d_, rhs_;
  status_view status_;
};

}  // namespace hinesbatch
