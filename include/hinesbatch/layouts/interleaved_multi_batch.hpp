#pragma once
// The naive multi-morphology batch (the baseline of the ThomasBatch paper's Fig. 6): the
// mono-morphology layout, Full-Interleaved padded to the largest cell, with one parent
// array per cell stored the same way. One thread per cell; each stops at its own size.
// Optionally the cells are sorted by size first, so the threads of a warp hold cells of
// similar size (CoreNEURON's "permute 1" idea without its node permutation).
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/batch_storage.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

template <class Scalar, class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class InterleavedMultiBatch
    : public BatchStorage<InterleavedMultiBatch<Scalar, MemorySpace>, Scalar> {
 public:
  using scalar_type = Scalar;
  using memory_space = MemorySpace;
  using view_type = Kokkos::View<Scalar**, Kokkos::LayoutLeft, MemorySpace>;
  using parent_view = Kokkos::View<int**, Kokkos::LayoutLeft, MemorySpace>;
  using size_view = Kokkos::View<int*, MemorySpace>;
  using status_view = SolveStatus<MemorySpace>;

  template <class ExecutionSpace>
  InterleavedMultiBatch(const ExecutionSpace& exec, const std::vector<Tree>& cells,
                        bool sort_by_size = false) {
    const int n = static_cast<int>(cells.size());
    cell_offset_.assign(n + 1, 0);
    for (int c = 0; c < n; ++c) {
      if (cells[c].size() < 1)
        throw InputError("InterleavedMultiBatch: cell " + std::to_string(c) + " has no nodes", {},
                         0, "0");
      cell_offset_[c + 1] = cell_offset_[c] + cells[c].size();
      max_nodes_ = std::max(max_nodes_, cells[c].size());
    }
    cell_of_slot_.resize(n);
    std::iota(cell_of_slot_.begin(), cell_of_slot_.end(), 0);
    if (sort_by_size)
      std::stable_sort(cell_of_slot_.begin(), cell_of_slot_.end(),
                       [&](int a, int b) { return cells[a].size() > cells[b].size(); });
    auto alloc = [&](const char* label) {
      return view_type(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n,
                       max_nodes_);
    };
    u_ = alloc("hinesbatch::multi_u");
    l_ = alloc("hinesbatch::multi_l");
    d_ = alloc("hinesbatch::multi_d");
    rhs_ = alloc("hinesbatch::multi_rhs");
    parents_ = parent_view(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, "hinesbatch::multi_parent"), n, max_nodes_);
    sizes_ = size_view("hinesbatch::multi_sizes", n);
    auto hp = Kokkos::create_mirror_view(parents_);
    auto hs = Kokkos::create_mirror_view(sizes_);
    for (int s = 0; s < n; ++s) {
      const Tree& t = cells[cell_of_slot_[s]];
      hs(s) = t.size();
      for (int i = 0; i < t.size(); ++i) hp(s, i) = t.parent(i);
    }
    Kokkos::deep_copy(exec, parents_, hp);
    Kokkos::deep_copy(exec, sizes_, hs);
    status_ = make_solve_status<MemorySpace>();
    exec.fence();
  }

  int num_cells() const { return static_cast<int>(cell_of_slot_.size()); }
  int max_nodes() const { return max_nodes_; }
  std::int64_t num_nodes() const { return cell_offset_.back(); }
  const view_type& u() const { return u_; }
  const view_type& l() const { return l_; }
  const view_type& d() const { return d_; }
  const view_type& rhs() const { return rhs_; }
  const parent_view& parents() const { return parents_; }
  const size_view& sizes() const { return sizes_; }
  const status_view& status() const { return status_; }
  std::size_t allocated_bytes() const {
    return 4 * u_.span() * sizeof(Scalar) + parents_.span() * sizeof(int) +
           sizes_.span() * sizeof(int);
  }

  // fill, solution_to_host, diagonal_to_host and check: BatchStorage (batch_storage.hpp);
  // host arrays in canonical order (cell by cell). Padding is never read.

 private:
  friend class BatchStorage<InterleavedMultiBatch, Scalar>;
  static constexpr bool kCanonicalStorage = false;
  std::int64_t canonical_size() const { return num_nodes(); }
  std::string canonical_what() const { return "the batch's cells"; }
  template <class Host, class F>
  void for_each_slot(Host& host, F f) const {
    for (int s = 0; s < num_cells(); ++s) {
      const int c = cell_of_slot_[s];
      for (std::int64_t k = cell_offset_[c]; k < cell_offset_[c + 1]; ++k)
        f(k, host(s, static_cast<int>(k - cell_offset_[c])));
    }
  }
  SolveLocation locate(long long key) const {
    return {"cell", static_cast<long long>(cell_of_slot_[key / max_nodes_]), key % max_nodes_};
  }

  std::vector<std::int64_t> cell_offset_;
  std::vector<int> cell_of_slot_;
  int max_nodes_ = 0;
  view_type u_, l_, d_, rhs_;
  parent_view parents_;
  size_view sizes_;
  status_view status_;
};

}  // namespace hinesbatch
