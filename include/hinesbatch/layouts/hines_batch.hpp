#pragma once
// A batch of N Hines systems of n nodes each (upper u, lower l, diagonal d, right-hand
// side rhs) in one of the layouts of layouts.hpp, in one memory space.
//
// Host data goes in and out in the canonical order [system][node] (element s*n + i);
// the layout is an internal matter of the device copy.
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/batch_storage.hpp"
#include "hinesbatch/layouts/layouts.hpp"
#include "hinesbatch/layouts/solve_status.hpp"

namespace hinesbatch {

template <class Scalar, class Layout,
          class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class HinesBatch : public BatchStorage<HinesBatch<Scalar, Layout, MemorySpace>, Scalar> {
 public:
  using scalar_type = Scalar;
  using layout_type = Layout;
  using memory_space = MemorySpace;
  using view_type = typename Layout::template view_type<Scalar, MemorySpace>;
  // Smallest flat index (s*n + i) where the solve met a zero or non-finite pivot, and
  // where it produced a non-finite solution; LLONG_MAX when none. Written by the solve
  // only on failure, read and reset by check().
  using status_view = SolveStatus<MemorySpace>;

  static constexpr int default_block_size = 128;

  HinesBatch() = default;
  HinesBatch(int num_systems, int num_nodes, int block_size = default_block_size)
      : num_systems_(num_systems), num_nodes_(num_nodes), block_size_(block_size) {
    if (num_systems < 0)
      throw InputError("number of systems must be >= 0", {}, 0, std::to_string(num_systems));
    if (num_nodes < 1)
      throw InputError("systems need at least one node", {}, 0, std::to_string(num_nodes));
    if (Layout::tiled && block_size < 1)
      throw InputError("block size must be >= 1", {}, 0, std::to_string(block_size));
    if (!Layout::tiled) block_size_ = 1;
    u_ = Layout::template allocate<view_type>("hinesbatch::u", num_systems, num_nodes, block_size_);
    l_ = Layout::template allocate<view_type>("hinesbatch::l", num_systems, num_nodes, block_size_);
    d_ = Layout::template allocate<view_type>("hinesbatch::d", num_systems, num_nodes, block_size_);
    rhs_ = Layout::template allocate<view_type>("hinesbatch::rhs", num_systems, num_nodes,
                                                block_size_);
    status_ = make_solve_status<MemorySpace>();
  }

  // Adopts existing (num_systems, num_nodes) Views instead of allocating, e.g. unmanaged
  // Views on a caller's arrays (the Python binding solves numpy arrays in place this way).
  // Flat and Full-Interleaved only; the four Views must have the same extents.
  HinesBatch(const view_type& u, const view_type& l, const view_type& d, const view_type& rhs)
      : num_systems_(static_cast<int>(rhs.extent(0))),
        num_nodes_(static_cast<int>(rhs.extent(1))),
        u_(u),
        l_(l),
        d_(d),
        rhs_(rhs) {
    static_assert(!Layout::tiled, "HinesBatch: only untiled batches can adopt Views");
    for (const view_type* v : {&u, &l, &d})
      if (v->extent(0) != rhs.extent(0) || v->extent(1) != rhs.extent(1))
        throw InputError("HinesBatch: u, l, d and rhs must have the same extents", {}, 0,
                         std::to_string(v->extent(0)) + "x" + std::to_string(v->extent(1)));
    if (num_nodes_ < 1)
      throw InputError("systems need at least one node", {}, 0, std::to_string(num_nodes_));
    status_ = make_solve_status<MemorySpace>();
  }

  int num_systems() const { return num_systems_; }
  int num_nodes() const { return num_nodes_; }
  int block_size() const { return block_size_; }
  long long num_elements() const { return static_cast<long long>(num_systems_) * num_nodes_; }
  // Bytes held by the four arrays, tile padding included.
  std::size_t allocated_bytes() const { return 4 * u_.span() * sizeof(Scalar); }

  const view_type& u() const { return u_; }
  const view_type& l() const { return l_; }
  const view_type& d() const { return d_; }
  const view_type& rhs() const { return rhs_; }
  const status_view& status() const { return status_; }

  // fill, solution_to_host, diagonal_to_host and check: BatchStorage (batch_storage.hpp);
  // host arrays in [system][node] order.

 private:
  friend class BatchStorage<HinesBatch, Scalar>;
  static constexpr bool kCanonicalStorage = false;
  std::int64_t canonical_size() const { return num_elements(); }
  std::string canonical_what() const {
    return "a batch of " + std::to_string(num_systems_) + " systems of " +
           std::to_string(num_nodes_) + " nodes";
  }
  template <class Host, class F>
  void for_each_slot(Host& host, F f) const {
    for (int s = 0; s < num_systems_; ++s)
      for (int i = 0; i < num_nodes_; ++i)
        f(static_cast<std::int64_t>(s) * num_nodes_ + i, Layout::at(host, s, i, block_size_));
  }
  SolveLocation locate(long long key) const {
    return {"system", key / num_nodes_, key % num_nodes_};
  }
  // The failing pivot or value itself.
  template <class ExecutionSpace>
  std::string failure_detail(const ExecutionSpace& exec, const SolveStatusRecord& r,
                             const SolveLocation& at) const {
    const auto hv = impl::to_host(exec, r.pivot() ? d_ : rhs_);
    const double v = static_cast<double>(
        Layout::at(hv, static_cast<int>(at.system), static_cast<int>(at.node), block_size_));
    return (r.pivot() ? " d = " : " x = ") + std::to_string(v);
  }

  int num_systems_ = 0, num_nodes_ = 0, block_size_ = 1;
  view_type u_, l_, d_, rhs_;
  status_view status_;
};

}  // namespace hinesbatch
