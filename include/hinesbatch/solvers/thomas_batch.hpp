#pragma once
// Batched tridiagonal solves (docs/REFERENCE.md §3; the ThomasBatch paper's §4.1):
// ThomasBatch (N systems of one size m) and ThomasVBatch (N systems of different sizes):
// the public API. How a batch runs (the paper's one thread per system, a team or a warp per
// system) is a ThomasSchedule (thomas_schedule.hpp); the kernels are in
// impl/thomas_batch_impl.hpp. Nothing here knows about neurons: any code that solves many
// independent tridiagonal systems (ADI sweeps, reservoir line solves) can use it.
//
// Row i of a system:  a(i) x(i-1) + b(i) x(i) + c(i) x(i+1) = d(i);  a(0), c(m-1) ignored.
//
// The layout is deduced from the type of the coefficient Views (the conventions of
// layouts.hpp); a, b, c and d must all have the same layout and the same extents:
//   View<T**, LayoutRight>  (system, row)        Flat
//   View<T**, LayoutLeft>   (system, row)        Full-Interleaved (ThomasBatch's layout)
//   View<T***, LayoutRight> (tile, row, lane)    Block-Interleaved, BS = extent(2), system
//                                                s = tile * BS + lane
// a and b may be Views of const T. Every entry point takes an execution space instance
// first, only enqueues work on it and never fences; the check_* functions fence.
//
// Failures (zero or non-finite pivot, non-finite solution, bad size) are recorded, when a
// status View is passed, as the smallest flat index system * rows + row (for packed
// storage: offsets(system) + row), LLONG_MAX when none; check_thomas_status() turns them
// into an exception. Entry points without a status View do not check anything.

#include <Kokkos_Core.hpp>
#include <climits>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/solvers/impl/thomas_batch_impl.hpp"
#include "hinesbatch/solvers/thomas_schedule.hpp"

namespace hinesbatch {

// ---------------------------------------------------------------------------------------
// ThomasBatch: num_systems systems of m = extent(1) rows each (-1: every system the storage
// holds; Block-Interleaved: the first num_systems lanes, so the last tile may be partial).
// Overwrites d(s, 0..m-1) with the solution; with ThomasSchedule::PerSystem also c(s, 0..m-2)
// with c' (see ThomasSchedule for what the others leave in c). c(s, m-1), a, b and any system
// past num_systems (padding lanes) are untouched. No checks: see the overloads with a status.
// Throws InputError (before launching anything) if the extents of a, b, c, d differ, m == 0,
// or num_systems is outside [-1, systems held].
template <class ExecutionSpace, class AV, class BV, class CV, class DV>
void thomas_batch(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c, const DV& d,
                  int num_systems = -1) {
  impl::thomas_batch_impl(exec, a, b, c, d, impl::no_status_view<ExecutionSpace>(), false,
                          num_systems, ThomasSchedule::Auto);
}
template <class ExecutionSpace, class AV, class BV, class CV, class DV>
void thomas_batch(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c, const DV& d,
                  ThomasSchedule schedule, int num_systems = -1) {
  impl::thomas_batch_impl(exec, a, b, c, d, impl::no_status_view<ExecutionSpace>(), false,
                          num_systems, schedule);
}

// Same, recording failures in status (a ThomasStatus, e.g. make_thomas_status(exec)) at
// flat index s * m + row; check with check_thomas_status(exec, status, m).
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class StatusView,
          class = typename std::enable_if<Kokkos::is_view<StatusView>::value>::type>
void thomas_batch(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c, const DV& d,
                  const StatusView& status, int num_systems = -1) {
  impl::thomas_batch_impl(exec, a, b, c, d, status, true, num_systems, ThomasSchedule::Auto);
}
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class StatusView,
          class = typename std::enable_if<Kokkos::is_view<StatusView>::value>::type>
void thomas_batch(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c, const DV& d,
                  const StatusView& status, ThomasSchedule schedule, int num_systems = -1) {
  impl::thomas_batch_impl(exec, a, b, c, d, status, true, num_systems, schedule);
}

// ---------------------------------------------------------------------------------------
// ThomasVBatch on padded storage: system s has sizes(s) rows (N = sizes.extent(0)), stored
// in a Flat / Full-Interleaved View with N systems or a Block-Interleaved View with
// ceil(N / BS) tiles, all padded to m_max = extent(1) rows. Rows past a system's size are
// padding. Extents are checked on the host (InputError); the values of sizes are checked
// on the device: a system with sizes(s) outside [1, m_max] is not solved and is reported
// through the status (check_thomas_status throws InputError naming it). Callers without a
// status, or who want the error before solving, can call check_vbatch_sizes() (fences).
// Auto on GPUs (double, Flat and Full-Interleaved): the schedule measured fastest for
// ThomasVBatch nearest to m_max and the padded rows, computing the padding or not (their
// own tables: src/solvers/auto_thomas_vbatch_table.hpp, docs/SOLVER_MAP.md); otherwise
// ThomasBatch's.

// Sets the padding rows of every system to identity rows: rows sizes(s)..m_max-1 get
// b = 1 and a = c = d = 0, and c(sizes(s) - 1) = 0 (that c is ignored by the system
// anyway). Real rows are otherwise untouched. Call it once after filling a, b, c and d,
// before thomas_vbatch_computing_padding. Systems with an invalid size are skipped.
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class SizesView>
void pad_vbatch(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c, const DV& d,
                const SizesView& sizes) {
  using Checks = impl::TridiagonalViews<ExecutionSpace, AV, BV, CV, DV>;
  using Layout = typename Checks::layout;
  static_assert(!std::is_const<typename AV::value_type>::value &&
                    !std::is_const<typename BV::value_type>::value,
                "hinesbatch::pad_vbatch writes a and b too: they cannot be Views of const");
  const char* where = "hinesbatch::pad_vbatch";
  impl::require_same_extents(where, a, b, c, d);
  impl::check_padded_extents<Layout>(where, d, sizes);
  const int n = static_cast<int>(sizes.extent(0));
  if (n == 0) return;
  Kokkos::parallel_for(std::string(where) + "_" + Layout::name,
                       Kokkos::RangePolicy<ExecutionSpace>(exec, 0, n),
                       impl::PadVBatch<Layout, AV, BV, CV, DV, SizesView>{
                           a, b, c, d, sizes, impl::row_extent(d), impl::block_size_of<Layout>(d)});
}

// Computing Padding (as the ThomasBatch paper names it): every thread runs all m_max rows,
// without branching on its size; needs pad_vbatch first (otherwise the padding is solved as
// data and the answer is wrong). Overwrites d(s, 0..m_max-1) with the solution (0 in the
// padding rows) and c(s, 0..m_max-2) with c' (0 from row sizes(s) - 1 on). The real rows'
// answers are those of thomas_vbatch_no_computing_padding.
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class SizesView>
void thomas_vbatch_computing_padding(const ExecutionSpace& exec, const AV& a, const BV& b,
                                     const CV& c, const DV& d, const SizesView& sizes,
                                     ThomasSchedule schedule = ThomasSchedule::Auto) {
  impl::thomas_vbatch_impl<impl::RowCount::ComputingPadding>(
      "hinesbatch::thomas_vbatch_computing_padding", exec, a, b, c, d, sizes,
      impl::no_status_view<ExecutionSpace>(), false, schedule);
}
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class SizesView,
          class StatusView>
void thomas_vbatch_computing_padding(const ExecutionSpace& exec, const AV& a, const BV& b,
                                     const CV& c, const DV& d, const SizesView& sizes,
                                     const StatusView& status,
                                     ThomasSchedule schedule = ThomasSchedule::Auto) {
  impl::thomas_vbatch_impl<impl::RowCount::ComputingPadding>(
      "hinesbatch::thomas_vbatch_computing_padding", exec, a, b, c, d, sizes, status, true,
      schedule);
}

// No Computing Padding (as the ThomasBatch paper names it): thread s stops at sizes(s)
// (divergent). Overwrites d(s, 0..sizes(s)-1) with the solution and c(s, 0..sizes(s)-2)
// with c'; the padding rows and c(s, sizes(s)-1) are neither read nor written. pad_vbatch
// is not needed.
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class SizesView>
void thomas_vbatch_no_computing_padding(const ExecutionSpace& exec, const AV& a, const BV& b,
                                        const CV& c, const DV& d, const SizesView& sizes,
                                        ThomasSchedule schedule = ThomasSchedule::Auto) {
  impl::thomas_vbatch_impl<impl::RowCount::NoComputingPadding>(
      "hinesbatch::thomas_vbatch_no_computing_padding", exec, a, b, c, d, sizes,
      impl::no_status_view<ExecutionSpace>(), false, schedule);
}
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class SizesView,
          class StatusView>
void thomas_vbatch_no_computing_padding(const ExecutionSpace& exec, const AV& a, const BV& b,
                                        const CV& c, const DV& d, const SizesView& sizes,
                                        const StatusView& status,
                                        ThomasSchedule schedule = ThomasSchedule::Auto) {
  impl::thomas_vbatch_impl<impl::RowCount::NoComputingPadding>(
      "hinesbatch::thomas_vbatch_no_computing_padding", exec, a, b, c, d, sizes, status, true,
      schedule);
}

// No Computing Padding on packed Flat storage (the ThomasBatch paper's divergent, uncoalesced
// variant): a, b, c, d are rank-1 Views of all systems back to back, system s in rows
// [offsets(s), offsets(s+1)) (offsets has N + 1 entries, offsets(0) usually 0). Overwrites d
// over each system's rows with its solution and, with ThomasSchedule::PerSystem, c over all but
// its last row with c'. Auto on GPUs: in double the ThomasVBatch map's table for packed
// storage by the mean size (rows over systems) and the rows (PerSystem for small systems,
// WarpPerSystem from about 100 rows), in float WarpPerSystem; PerSystem on hosts. The warp
// schedule takes up to 8,192 rows a system (one pass over the offsets finds the largest;
// PerSystem past it).
// Rows outside every system are untouched. A system with an empty, reversed or out-of-range
// row range is not solved and is reported through the status; failures are recorded at
// flat index offsets(s) + row (check_thomas_status(exec, status, offsets) decodes them).
// check_vbatch_offsets() checks the offsets on the host (fences).
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class OffsetsView>
void thomas_vbatch_packed(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                          const DV& d, const OffsetsView& offsets,
                          ThomasSchedule schedule = ThomasSchedule::Auto) {
  impl::thomas_packed_impl(exec, a, b, c, d, offsets, impl::no_status_view<ExecutionSpace>(), false,
                           schedule);
}
template <class ExecutionSpace, class AV, class BV, class CV, class DV, class OffsetsView,
          class StatusView>
void thomas_vbatch_packed(const ExecutionSpace& exec, const AV& a, const BV& b, const CV& c,
                          const DV& d, const OffsetsView& offsets, const StatusView& status,
                          ThomasSchedule schedule = ThomasSchedule::Auto) {
  impl::thomas_packed_impl(exec, a, b, c, d, offsets, status, true, schedule);
}

// ---------------------------------------------------------------------------------------
// Checks (these fence exec).

// Throws if the solves that wrote status since its last check failed, then clears it:
// SolverError "system s, row i: zero or non-finite pivot" (a pivot failure is reported in
// preference to the non-finite solution it causes) or "... non-finite solution" (the row
// where the non-finite value entered); InputError for a VBatch system with an invalid size.
// num_rows_per_system: m for ThomasBatch, m_max (extent(1)) for padded ThomasVBatch.
template <class ExecutionSpace, class StatusView>
void check_thomas_status(const ExecutionSpace& exec, const StatusView& status,
                         long long num_rows_per_system) {
  const auto v = impl::read_and_clear_status(exec, status);
  if (v.first == LLONG_MAX && v.second == LLONG_MAX) return;
  if (v.first < 0)
    impl::throw_bad_size(impl::bad_size_system(v.first),
                         "outside [1, " + std::to_string(num_rows_per_system) + "]");
  const bool pivot = v.first != LLONG_MAX;
  const long long at = pivot ? v.first : v.second;
  const long long m = num_rows_per_system > 0 ? num_rows_per_system : 1;
  impl::throw_thomas_failure(pivot, at / m, at % m);
}

// The same for thomas_vbatch_packed: offsets is the View the solve used (copied to host).
template <class ExecutionSpace, class StatusView, class OffsetsView,
          class = typename std::enable_if<Kokkos::is_view<OffsetsView>::value>::type>
void check_thomas_status(const ExecutionSpace& exec, const StatusView& status,
                         const OffsetsView& offsets) {
  const auto v = impl::read_and_clear_status(exec, status);
  if (v.first == LLONG_MAX && v.second == LLONG_MAX) return;
  const auto host = impl::to_host(exec, offsets);
  if (v.first < 0) {
    const long long s = impl::bad_size_system(v.first);
    impl::throw_bad_size(s, "rows [" + std::to_string(host(s)) + ", " +
                                std::to_string(host(s + 1)) + ") of packed storage");
  }
  const bool pivot = v.first != LLONG_MAX;
  const long long at = pivot ? v.first : v.second;
  // The system holding row `at`: the last s with offsets(s) <= at (offsets are valid here,
  // or the bad-size branch above would have been taken).
  long long lo = 0, hi = static_cast<long long>(host.extent(0)) - 2;
  while (lo < hi) {
    const long long mid = (lo + hi + 1) / 2;
    if (static_cast<long long>(host(mid)) <= at)
      lo = mid;
    else
      hi = mid - 1;
  }
  impl::throw_thomas_failure(pivot, lo, at - static_cast<long long>(host(lo)));
}

// Opt-in host check of ThomasVBatch sizes: throws InputError naming the first system whose
// size is outside [1, m_max], and its size. Fences exec (copies sizes to the host).
template <class ExecutionSpace, class SizesView>
void check_vbatch_sizes(const ExecutionSpace& exec, const SizesView& sizes, long long m_max) {
  const auto host = impl::to_host(exec, sizes);
  for (std::size_t s = 0; s < host.extent(0); ++s)
    if (host(s) < 1 || static_cast<long long>(host(s)) > m_max)
      throw InputError("hinesbatch::thomas_vbatch: system " + std::to_string(s) + " has size " +
                           std::to_string(host(s)) + ", outside [1, " + std::to_string(m_max) + "]",
                       {}, 0, std::to_string(host(s)));
}

// Opt-in host check of packed offsets: N + 1 >= 1 entries, offsets(s) < offsets(s + 1)
// (no empty system), offsets(0) >= 0 and offsets(N) <= num_rows (the packed Views' extent).
template <class ExecutionSpace, class OffsetsView>
void check_vbatch_offsets(const ExecutionSpace& exec, const OffsetsView& offsets,
                          long long num_rows) {
  const auto host = impl::to_host(exec, offsets);
  const char* where = "hinesbatch::thomas_vbatch_packed";
  if (host.extent(0) < 1)
    throw InputError(std::string(where) + ": offsets needs N + 1 >= 1 entries", {}, 0, "0");
  if (host(0) < 0)
    throw InputError(std::string(where) + ": offsets(0) is negative", {}, 0,
                     std::to_string(host(0)));
  for (std::size_t s = 0; s + 1 < host.extent(0); ++s)
    if (host(s + 1) <= host(s))
      throw InputError(std::string(where) + ": system " + std::to_string(s) + " has size " +
                           std::to_string(static_cast<long long>(host(s + 1)) - host(s)) +
                           " (offsets must increase strictly)",
                       {}, 0, std::to_string(static_cast<long long>(host(s + 1)) - host(s)));
  const long long last = static_cast<long long>(host(host.extent(0) - 1));
  if (last > num_rows)
    throw InputError(std::string(where) + ": offsets(N) = " + std::to_string(last) +
                         " is past the " + std::to_string(num_rows) + " rows of the storage",
                     {}, 0, std::to_string(last));
}

}  // namespace hinesbatch
