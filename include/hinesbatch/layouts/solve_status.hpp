#pragma once
// The failure record every batch container keeps: two device counters holding the
// smallest key (a flat or storage index) at which a solve met a zero or non-finite
// pivot, and produced a non-finite value; LLONG_MAX when none. Solves write it only on
// failure (atomic min), so checking costs nothing until check() is called.
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdint>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"

namespace hinesbatch {

template <class MemorySpace>
using SolveStatus = Kokkos::View<long long[2], MemorySpace>;

struct SolveStatusRecord {
  long long bad_pivot = LLONG_MAX, bad_value = LLONG_MAX;
  bool failed() const { return bad_pivot != LLONG_MAX || bad_value != LLONG_MAX; }
  bool pivot() const { return bad_pivot != LLONG_MAX; }  // a bad pivot causes the bad values
  long long key() const { return pivot() ? bad_pivot : bad_value; }
};

// A cleared record (fences: containers make it once, at construction).
template <class MemorySpace>
SolveStatus<MemorySpace> make_solve_status() {
  SolveStatus<MemorySpace> status("hinesbatch::status");
  Kokkos::deep_copy(status, LLONG_MAX);
  return status;
}

namespace impl {
// Device side of the record: the smallest failing (system offset + node or row) is kept, a
// zero or non-finite pivot in status(0), a non-finite solution in status(1); a negative
// node means none. Every solver records through these two.
template <class StatusView>
KOKKOS_INLINE_FUNCTION void record_nodes(const StatusView& status, long long system_offset,
                                         long long pivot_node, long long x_node) {
  if (pivot_node >= 0) Kokkos::atomic_fetch_min(&status(0), system_offset + pivot_node);
  if (x_node >= 0) Kokkos::atomic_fetch_min(&status(1), system_offset + x_node);
}
// f: a SolveFailure (solvers/impl/hines_system.hpp) or anything with bad_pivot and bad_solution.
template <class StatusView, class Failure>
KOKKOS_INLINE_FUNCTION void record_failure(const StatusView& status, const Failure& f,
                                           long long system_offset) {
  record_nodes(status, system_offset, f.bad_pivot, f.bad_solution);
}
}  // namespace impl

// Reads the record and clears it for the next solves. Fences exec.
template <class ExecutionSpace, class StatusView>
SolveStatusRecord take_solve_status(const ExecutionSpace& exec, const StatusView& status) {
  const auto host = impl::to_host(exec, status);
  // Copy out before the reset: on a host space the mirror is the status itself.
  SolveStatusRecord r{host(0), host(1)};
  if (r.failed()) {
    Kokkos::deep_copy(exec, status, LLONG_MAX);
    exec.fence();
  }
  return r;
}

// where names the system and node ("system 3, node 7"); system and node are the same as
// numbers, for SolverError::system() / node().
[[noreturn]] inline void throw_solve_failure(const std::string& where, bool pivot,
                                             const std::string& value = {}, long long system = -1,
                                             long long node = -1) {
  throw SolverError("hinesbatch: " + where +
                        (pivot ? ": zero or non-finite pivot" : ": non-finite solution") + value +
                        " (input has a zero diagonal, NaN or inf, or is not diagonally dominant)",
                    system, node);
}

// Host arrays handed to a batch must have exactly its element count.
inline void require_elements(std::size_t got, long long want, const char* array,
                             const std::string& batch) {
  if (static_cast<long long>(got) != want)
    throw InputError(std::string("hinesbatch: array ") + array + " has " + std::to_string(got) +
                         " elements, " + batch + " needs " + std::to_string(want),
                     {}, 0, std::to_string(got));
}

}  // namespace hinesbatch
