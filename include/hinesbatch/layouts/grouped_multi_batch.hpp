#pragma once
// A multi-morphology batch grouped by tree: the cells that share a tree (a network's
// copies of one reconstruction) form a mono-morphology batch of their own, solved by the
// mono-morphology schedules (Auto: the solver map's table for that tree), the groups'
// launches side by side on a GPU; trees repeated fewer than min_group_cells times go
// together into one naive interleaved batch sorted by size (InterleavedMultiBatch).
// Host arrays go in and out in canonical order (cell by cell, node by node), as for every
// other batch; a failure is named by the cell's canonical index.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/launch_streams.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/interleaved_multi_batch.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/morphology/tree.hpp"
#include "hinesbatch/solvers/device_tree.hpp"

namespace hinesbatch {

struct GroupedBatchOptions {
  // A tree shared by fewer cells goes to the interleaved rest (a launch of its own would
  // hold less than a warp's worth of systems).
  int min_group_cells = 32;
  // At most this many groups, the largest by nodes; the other trees go to the rest.
  int max_groups = 64;
};

template <class Scalar, class Layout = layouts::FullInterleaved,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class GroupedMultiBatch {
  static_assert(std::is_same<Layout, layouts::Flat>::value ||
                    std::is_same<Layout, layouts::FullInterleaved>::value,
                "GroupedMultiBatch: the groups are Flat or FullInterleaved batches");

 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using memory_space = MemorySpace;
  using group_batch = HinesBatch<Scalar, Layout, MemorySpace>;
  using rest_batch = InterleavedMultiBatch<Scalar, MemorySpace>;

  struct Group {
    DeviceTree<MemorySpace> tree;
    group_batch batch;
    std::vector<int> cells;  // canonical indices, ascending
  };

  template <class ExecutionSpace>
  GroupedMultiBatch(const ExecutionSpace& exec, const std::vector<Tree>& cells,
                    const GroupedBatchOptions& options = {}) {
    const int n = static_cast<int>(cells.size());
    cell_offset_.assign(n + 1, 0);
    for (int c = 0; c < n; ++c) {
      if (cells[c].size() < 1)
        throw InputError("GroupedMultiBatch: cell " + std::to_string(c) + " has no nodes", {}, 0,
                         "0");
      cell_offset_[c + 1] = cell_offset_[c] + cells[c].size();
    }
    // Cells by tree: equal parent arrays are one tree.
    struct Kind {
      int first = 0;
      std::vector<int> cells;
    };
    std::vector<Kind> kinds;
    {
      const auto hash = [](const std::vector<int>* p) {
        std::size_t h = p->size();
        for (int v : *p) h = h * 1000003u ^ static_cast<std::size_t>(v);
        return h;
      };
      const auto equal = [](const std::vector<int>* a, const std::vector<int>* b) {
        return *a == *b;
      };
      std::unordered_map<const std::vector<int>*, int, decltype(hash), decltype(equal)> kind_of(
          16, hash, equal);
      for (int c = 0; c < n; ++c) {
        const auto found = kind_of.emplace(&cells[c].parents(), static_cast<int>(kinds.size()));
        if (found.second) kinds.push_back(Kind{c, {}});
        kinds[found.first->second].cells.push_back(c);
      }
    }
    std::vector<int> order(kinds.size());
    for (std::size_t k = 0; k < kinds.size(); ++k) order[k] = static_cast<int>(k);
    const auto work = [&](int k) {
      return static_cast<std::int64_t>(kinds[k].cells.size()) * cells[kinds[k].first].size();
    };
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return work(a) > work(b); });
    std::vector<int> rest_cells;
    for (int k : order) {
      const Kind& kind = kinds[k];
      if (static_cast<int>(kind.cells.size()) >= std::max(1, options.min_group_cells) &&
          static_cast<int>(groups_.size()) < options.max_groups) {
        const Tree& tree = cells[kind.first];
        groups_.push_back(Group{DeviceTree<MemorySpace>(exec, tree),
                                group_batch(static_cast<int>(kind.cells.size()), tree.size()),
                                kind.cells});
      } else {
        rest_cells.insert(rest_cells.end(), kind.cells.begin(), kind.cells.end());
      }
    }
    std::sort(rest_cells.begin(), rest_cells.end());
    rest_cells_ = std::move(rest_cells);
    if (!rest_cells_.empty()) {
      std::vector<Tree> trees;
      trees.reserve(rest_cells_.size());
      for (int c : rest_cells_) trees.push_back(cells[c]);
      rest_.emplace_back(exec, trees, true);
    }
    exec.fence();
  }

  int num_cells() const { return static_cast<int>(cell_offset_.size()) - 1; }
  std::int64_t num_nodes() const { return cell_offset_.back(); }
  int num_groups() const { return static_cast<int>(groups_.size()); }
  const std::vector<Group>& groups() const { return groups_; }
  // The cells of trees shared by too few cells, and their batch (none when empty).
  const std::vector<int>& rest_cells() const { return rest_cells_; }
  bool has_rest() const { return !rest_.empty(); }
  const rest_batch& rest() const { return rest_.front(); }
  std::size_t allocated_bytes() const {
    std::size_t bytes = 0;
    for (const Group& g : groups_) bytes += g.batch.allocated_bytes();
    for (const rest_batch& r : rest_) bytes += r.allocated_bytes();
    return bytes;
  }

  // Copies host arrays in canonical order into the batch. Throws InputError if a size does
  // not match. Fences exec.
  template <class ExecutionSpace>
  void fill(const ExecutionSpace& exec, const std::vector<Scalar>& u, const std::vector<Scalar>& l,
            const std::vector<Scalar>& d, const std::vector<Scalar>& rhs) {
    const char* names[] = {"u", "l", "d", "rhs"};
    const std::vector<Scalar>* arrays[] = {&u, &l, &d, &rhs};
    for (int a = 0; a < 4; ++a)
      require_elements(arrays[a]->size(), num_nodes(), names[a],
                       "the batch's " + std::to_string(num_cells()) + " cells");
    for_each_part([&](auto& part, const std::vector<int>& part_cells) {
      std::vector<Scalar> parts[4];
      for (int a = 0; a < 4; ++a) parts[a] = gather_cells(*arrays[a], part_cells);
      part.fill(exec, parts[0], parts[1], parts[2], parts[3]);
    });
  }
  // The solution (rhs after a solve) in canonical order. Fences exec.
  template <class ExecutionSpace>
  void solution_to_host(const ExecutionSpace& exec, std::vector<Scalar>& x) const {
    collect(x,
            [&](const auto& part, std::vector<Scalar>& out) { part.solution_to_host(exec, out); });
  }
  // The diagonal (after a solve: the eliminated pivots' reciprocals) in canonical order.
  template <class ExecutionSpace>
  void diagonal_to_host(const ExecutionSpace& exec, std::vector<Scalar>& x) const {
    collect(x,
            [&](const auto& part, std::vector<Scalar>& out) { part.diagonal_to_host(exec, out); });
  }

  // Throws SolverError naming the cell (canonical index) and node of the first failure the
  // solves since the last check recorded (the smallest failing cell), then clears every
  // group's record.
  template <class ExecutionSpace>
  void check(const ExecutionSpace& exec) const {
    long long cell = -1, node = -1;
    std::string tail;
    for_each_part([&](const auto& part, const std::vector<int>& part_cells) {
      try {
        part.check(exec);
      } catch (const SolverError& e) {
        const long long c = part_cells[static_cast<std::size_t>(e.system())];
        if (cell >= 0 && c > cell) return;
        const std::string what = e.what();
        const std::size_t at = what.find(", node ");
        cell = c;
        node = e.node();
        tail = at == std::string::npos ? ": " + what : what.substr(at);
      }
    });
    if (cell >= 0) throw SolverError("hinesbatch: cell " + std::to_string(cell) + tail, cell, node);
  }

  // Streams the groups' launches run on (CUDA; a no-op elsewhere), kept between solves.
  template <class ExecutionSpace>
  impl::LaunchStreams<ExecutionSpace>& launch_streams() const {
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same<ExecutionSpace, Kokkos::Cuda>::value) return cuda_streams_;
#endif
    static impl::LaunchStreams<ExecutionSpace> none;  // stateless outside CUDA
    return none;
  }

 private:
  template <class F>
  void for_each_part(F f) const {
    for (const Group& g : groups_) f(g.batch, g.cells);
    for (const rest_batch& r : rest_) f(r, rest_cells_);
  }
  template <class F>
  void for_each_part(F f) {
    for (Group& g : groups_) f(g.batch, g.cells);
    for (rest_batch& r : rest_) f(r, rest_cells_);
  }
  std::vector<Scalar> gather_cells(const std::vector<Scalar>& all,
                                   const std::vector<int>& part_cells) const {
    std::vector<Scalar> out;
    for (int c : part_cells)
      out.insert(out.end(), all.begin() + cell_offset_[c], all.begin() + cell_offset_[c + 1]);
    return out;
  }
  template <class Read>
  void collect(std::vector<Scalar>& x, Read read) const {
    x.assign(static_cast<std::size_t>(num_nodes()), Scalar(0));
    std::vector<Scalar> out;
    for_each_part([&](const auto& part, const std::vector<int>& part_cells) {
      read(part, out);
      std::size_t k = 0;
      for (int c : part_cells)
        for (std::int64_t i = cell_offset_[c]; i < cell_offset_[c + 1]; ++i) x[i] = out[k++];
    });
  }

  std::vector<std::int64_t> cell_offset_;
  std::vector<Group> groups_;
  std::vector<int> rest_cells_;
  std::vector<rest_batch> rest_;  // empty or one
#if defined(KOKKOS_ENABLE_CUDA)
  mutable impl::LaunchStreams<Kokkos::Cuda> cuda_streams_;
#endif
};

}  // namespace hinesbatch
