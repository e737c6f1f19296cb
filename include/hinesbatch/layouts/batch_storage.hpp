#pragma once
// What every Hines batch container (HinesBatch, BranchBatch, InterleavedMultiBatch,
// PackedMultiBatch) does the same way, written once: the four host arrays in canonical
// order (system by system, node by node) go into the device copy through the container's
// placement, the solution comes back through it, and a failure a solve recorded is thrown
// naming the system and node.
//
// A container derives from BatchStorage<Container, Scalar> and provides
//   std::int64_t canonical_size() const       elements of each host array
//   std::string canonical_what() const        what the arrays belong to, for size errors
//   template <class Host, class F>
//   void for_each_slot(Host& host, F f) const calls f(k, slot) for every canonical element
//                                             k and its place in a host mirror of the
//                                             storage
//   SolveLocation locate(long long key) const the system and node of a status key
//   static constexpr bool kCanonicalStorage   true when the storage is one View in
//                                             canonical order: the host arrays are then
//                                             copied straight in and out, no mirror
// and may hide
//   failure_detail(exec, record, location)    text appended to the failure (default none).
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/layouts/solve_status.hpp"

namespace hinesbatch {

// Where a solve failed: "system 3, node 7" (word = "system") or "cell 3, node 7".
struct SolveLocation {
  const char* word = "system";
  long long system = -1, node = -1;
};

template <class Container, class Scalar>
class BatchStorage {
 public:
  // Copies host arrays in canonical order into the batch. Throws InputError if a size
  // does not match. Fences exec: the host arrays may be released on return.
  template <class ExecutionSpace>
  void fill(const ExecutionSpace& exec, const std::vector<Scalar>& u, const std::vector<Scalar>& l,
            const std::vector<Scalar>& d, const std::vector<Scalar>& rhs) {
    const Container& c = self();
    scatter(exec, c.u(), u, "u");
    scatter(exec, c.l(), l, "l");
    scatter(exec, c.d(), d, "d");
    scatter(exec, c.rhs(), rhs, "rhs");
  }

  // The solution (rhs after a solve) in canonical order. Fences exec.
  template <class ExecutionSpace>
  void solution_to_host(const ExecutionSpace& exec, std::vector<Scalar>& x) const {
    gather(exec, self().rhs(), x);
  }
  // The diagonal (after a solve: the eliminated pivots' reciprocals) in canonical order.
  template <class ExecutionSpace>
  void diagonal_to_host(const ExecutionSpace& exec, std::vector<Scalar>& x) const {
    gather(exec, self().d(), x);
  }

  // Throws SolverError naming the system (or cell) and node of the first zero or
  // non-finite pivot, or else of the first non-finite solution, of the solves since the
  // last check, then clears the record. One fence when nothing failed.
  template <class ExecutionSpace>
  void check(const ExecutionSpace& exec) const {
    const SolveStatusRecord r = take_solve_status(exec, self().status());
    if (!r.failed()) return;
    const SolveLocation at = self().locate(r.key());
    throw_solve_failure(std::string(at.word) + " " + std::to_string(at.system) + ", node " +
                            std::to_string(at.node),
                        r.pivot(), self().failure_detail(exec, r, at), at.system, at.node);
  }

  // Default: nothing beyond the location.
  template <class ExecutionSpace>
  std::string failure_detail(const ExecutionSpace&, const SolveStatusRecord&,
                             const SolveLocation&) const {
    return {};
  }

 private:
  template <class T>
  using HostArray = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;

  const Container& self() const { return static_cast<const Container&>(*this); }

  template <class ExecutionSpace, class View>
  void scatter(const ExecutionSpace& exec, const View& v, const std::vector<Scalar>& src,
               const char* what) const {
    require_elements(src.size(), self().canonical_size(), what, self().canonical_what());
    if constexpr (Container::kCanonicalStorage) {
      Kokkos::deep_copy(exec, v, HostArray<const Scalar>(src.data(), src.size()));
      exec.fence();  // src belongs to the caller
      return;
    }
    auto host = Kokkos::create_mirror_view(v);
    self().for_each_slot(host, [&](std::int64_t k, Scalar& slot) { slot = src[k]; });
    Kokkos::deep_copy(exec, v, host);
    exec.fence();  // host is a temporary (or v itself on a host space)
  }
  template <class ExecutionSpace, class View>
  void gather(const ExecutionSpace& exec, const View& v, std::vector<Scalar>& dst) const {
    dst.resize(static_cast<std::size_t>(self().canonical_size()));
    if constexpr (Container::kCanonicalStorage) {
      Kokkos::deep_copy(exec, HostArray<Scalar>(dst.data(), dst.size()), v);
      exec.fence();
      return;
    }
    auto host = impl::to_host(exec, v);
    self().for_each_slot(host, [&](std::int64_t k, const Scalar& slot) { dst[k] = slot; });
  }
};

}  // namespace hinesbatch
