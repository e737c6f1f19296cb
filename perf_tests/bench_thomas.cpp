// Batched tridiagonal solves (docs/REFERENCE.md §3; the ThomasBatch paper's §4.1):
// ThomasBatch (Figs. 9/10, 12b), ThomasVBatch (Fig. 13) and the accuracy of ThomasBatch
// against a long-double Thomas (Fig. 12a), on the default execution space, with the
// sequential one-core baseline (Serial on Flat) and, when the default space is CUDA, the
// paper's Multicore (OpenMP over systems on Flat).
//
// Names (every timing ends in /manual_time, so filters can select m and N with '/m/N/'):
//   ThomasBatch/<Method>/<f64|f32>/<m>/<N>      Method: Sequential, Flat, FullInterleaved
//                                               (cuThomasBatch), BlockInterleaved
//                                               (BS 128), Multicore (CUDA builds only):
//                                               one thread per system (PerSystem);
//                                               TeamFlat, TeamFullInterleaved,
//                                               TeamBlockInterleaved: a team per system,
//                                               eliminated on chip (TeamPerSystem);
//                                               WarpFlat, WarpFullInterleaved (m <= 512):
//                                               a warp per system, rows in registers
//                                               (WarpPerSystem);
//                                               SimdTiles (OpenMP, m <= 512; every host
//                                               thread), SimdTiles1Core (Serial, one core):
//                                               a tile of W systems per vector instruction
//   ThomasVBatch/<Method>/<f64|f32>/<N>         Method: ComputingPadding, NoComputingPadding
//                                               (both on padded Full-Interleaved storage;
//                                               Team...: the same on TeamPerSystem),
//                                               Warp...PaddingFlat: WarpPerSystem on padded
//                                               Flat storage,
//                                               Packed (rank-1 storage; WarpPacked: on
//                                               WarpPerSystem), Fixed256, Fixed512
//                                               (ThomasBatch Full-Interleaved, m = 256 / 512)
//   ThomasAccuracy/<f64|f32>/<m>/iterations:1   64 systems, error vs long double (PerSystem;
//   ThomasAccuracy/Team/...: TeamPerSystem, ThomasAccuracy/Warp/...: WarpPerSystem)
//
// Byte models (T = the scalar type):
//   bytes_per_s: the minimal model, 5 x sizeof(T) per (real) row: read a, b, c, d once,
//     write x once. frac_copy_bw = bytes_per_s / the device copy bandwidth.
//   traffic_bytes_per_s: the memory accesses the kernel makes (thomas_system.hpp, no cache
//     reuse assumed): forward sweep reads a (m-1), b (m), c (m-1), d (m) and writes d' (m),
//     c' (m-1); back substitution reads d' (m-1), c' (m-1) and writes x (m-1): 9m - 6
//     elements per system of m rows, about 9 x sizeof(T) per row. Computing Padding runs
//     m_max rows for every system (9 m_max - 6) and reads sizes(s); No Computing Padding
//     9 sizes(s) - 6 plus sizes(s); Packed 9 sizes(s) - 6 plus the N + 1 offsets.
//     traffic_frac_copy_bw = traffic_bytes_per_s / the device copy bandwidth. The team
//     schedule reads a, b, c, d once and writes x once: 5m - 2 elements per system (a(0)
//     and c(m-1) are not read), its minimal model.
//   rows_per_s (items): real rows solved per second (padding rows are not counted).
//   bytes_allocated (Fig. 12b): the solver's storage, a, b, c, d in the benchmark's layout
//     (padded tile lanes / rows included) plus sizes or offsets for ThomasVBatch; the solvers
//     need no workspace. The benchmark's pristine copies of c and d are not counted.
//
// Time: the solve alone, bracketed by exec.fence(); c and d (overwritten by the solve) are
// restored from pristine copies outside the timed region. The status is checked after the
// loop: a failed solve is reported as an error, never as a timing.
//
// Inputs: random diagonally dominant systems (thomas_reference.hpp), seeded per input set,
// generated once per (type, m, N) (or (type, N) for ThomasVBatch) and shared by every
// method registered on it; only one input set is alive at a time (256,000 x 512 rows in
// double is 4 GiB on the host, plus 6 arrays in the solver's memory space).
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <exception>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"
#include "hinesbatch/solvers/thomas_simd_tiles.hpp"
#include "perf_common.hpp"
#include "thomas_reference.hpp"

namespace {

using namespace hinesbatch;
using Default = Kokkos::DefaultExecutionSpace;

template <class T>
std::string type_name() {
  return std::is_same<T, float>::value ? "f32" : "f64";
}

constexpr int kBlockSize = 128;  // Block-Interleaved tile (cuHinesBatch's best)

// ---------------------------------------------------------------------------------------
// Inputs: one set alive at a time, shared by consecutive benchmarks with the same key.

struct InputCache {
  std::string key;
  std::shared_ptr<void> data;
};
InputCache& input_cache() {
  static InputCache cache;
  return cache;
}

template <class T, class Make>
const test::TridiagonalSystems<T>& cached_input(const std::string& key, const Make& make) {
  auto& cache = input_cache();
  if (cache.key != key || !cache.data) {
    cache.data.reset();  // free the previous set before generating the next
    cache.key.clear();
    cache.data = std::make_shared<test::TridiagonalSystems<T>>(make());
    cache.key = key;
  }
  return *static_cast<const test::TridiagonalSystems<T>*>(cache.data.get());
}

std::uint64_t seed_of(std::uint64_t kind, std::uint64_t m, std::uint64_t n, std::size_t bytes) {
  return 0x7407a5ULL + kind * 0x9E3779B97F4A7C15ULL + m * 1000003ULL + n * 7919ULL + bytes;
}

// N systems of m rows, packed (= Flat order, system s at rows [s m, (s+1) m)).
template <class T>
const test::TridiagonalSystems<T>& fixed_input(int m, int n) {
  return cached_input<T>(
      type_name<T>() + "/fixed/" + std::to_string(m) + "/" + std::to_string(n),
      [&] { return test::random_tridiagonal<T>(n, m, seed_of(1, m, n, sizeof(T))); });
}

// N systems with sizes uniform in [256, 512] (the ThomasBatch paper's Fig. 13).
template <class T>
const test::TridiagonalSystems<T>& vbatch_input(int n) {
  return cached_input<T>(type_name<T>() + "/vbatch/" + std::to_string(n), [&] {
    std::mt19937_64 gen(seed_of(2, 0, n, sizeof(T)));
    std::uniform_int_distribution<int> size(256, 512);
    std::vector<int> sizes(static_cast<std::size_t>(n));
    for (auto& s : sizes) s = size(gen);
    return test::random_tridiagonal<T>(sizes, seed_of(3, 0, n, sizeof(T)));
  });
}

// ---------------------------------------------------------------------------------------
// Storage: one coefficient array in layout L, filled from value(s, i) through a host
// mirror (one array at a time, so the host holds at most one extra array).

template <class L, class View, class Exec, class Value>
View make_storage(const Exec& exec, const std::string& label, int n, int m, int bs,
                  const Value& value) {
  using T = typename View::non_const_value_type;
  View v = L::template allocate<View>(label, n, m, bs);
  auto h = Kokkos::create_mirror_view(v);
  if (L::tiled && n % bs != 0) std::fill(h.data(), h.data() + h.span(), T(0));  // idle tile lanes
  constexpr int kChunk = 128;  // systems per pass: both sides stream through the cache
  for (int s0 = 0; s0 < n; s0 += kChunk) {
    const int s1 = std::min(n, s0 + kChunk);
    for (int i = 0; i < m; ++i)
      for (int s = s0; s < s1; ++s) L::at(h, s, i, bs) = value(s, i);
  }
  Kokkos::deep_copy(exec, v, h);
  exec.fence();
  return v;
}

template <class View, class Exec, class Src>
View make_rows(const Exec& exec, const std::string& label, const std::vector<Src>& src) {
  View v(Kokkos::view_alloc(Kokkos::WithoutInitializing, label), src.size());
  auto h = Kokkos::create_mirror_view(v);
  std::copy(src.begin(), src.end(), h.data());
  Kokkos::deep_copy(exec, v, h);
  exec.fence();
  return v;
}

template <class Exec, class Solve>
double timed_solve(const Exec& exec, const Solve& solve) {
  exec.fence();
  const auto t0 = std::chrono::steady_clock::now();
  solve();
  exec.fence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Counters shared by every timing (see the byte models at the top of the file).
template <class T>
void report(benchmark::State& state, double rows, double traffic_bytes, double allocated_bytes,
            const std::string& label) {
  using benchmark::Counter;
  const double bytes = 5.0 * sizeof(T) * rows;
  perf::set_counters(state, rows, bytes);
  state.counters["rows_per_s"] = state.counters["nodes_per_s"];
  state.counters.erase("nodes_per_s");
  state.counters["traffic_bytes_per_s"] =
      Counter(traffic_bytes, Counter::kIsIterationInvariantRate, Counter::kIs1024);
  state.counters["frac_copy_bw"] =
      Counter(bytes / perf::copy_bandwidth(), Counter::kIsIterationInvariantRate);
  state.counters["traffic_frac_copy_bw"] =
      Counter(traffic_bytes / perf::copy_bandwidth(), Counter::kIsIterationInvariantRate);
  state.counters["bytes_allocated"] =
      Counter(allocated_bytes, Counter::kDefaults, Counter::kIs1024);
  state.SetLabel(label);
}

// Elements the Thomas kernel reads and writes on one system of m rows (thomas_system.hpp),
// and the team schedule (thomas_team.hpp).
double thomas_traffic_elements(double m) { return m >= 1 ? 9.0 * m - 6.0 : 0.0; }
double team_traffic_elements(double m) { return m >= 1 ? 5.0 * m - 2.0 : 0.0; }

// Proof that a timed solve did its work: the largest long-double relative residual over a
// few systems (first, middle, last) of the solution left in d. x_of(s, i) reads it.
template <class T, class XOf>
double sampled_residual(const test::TridiagonalSystems<T>& in, const XOf& x_of) {
  double worst = 0;
  const int n = in.num_systems();
  for (int s : {0, n / 2, n - 1}) {
    const int m = in.size(s);
    const std::size_t o = static_cast<std::size_t>(in.offsets[s]);
    std::vector<T> x(static_cast<std::size_t>(m));
    for (int i = 0; i < m; ++i) x[i] = x_of(s, i);
    worst = std::max(worst, test::tridiagonal_relative_residual(m, &in.a[o], &in.b[o], &in.c[o],
                                                                &in.d[o], x.data()));
  }
  return worst;
}
template <class T>
double residual_tolerance() {
  return std::is_same<T, float>::value ? 1e-4 : 1e-12;
}

// E.g. "min 5x8B/row; traffic (9m-6)x8B/sys".
template <class T>
std::string byte_model_label(const char* traffic_elements) {
  const std::string t = std::to_string(sizeof(T));
  return "min 5x" + t + "B/row; traffic " + traffic_elements + "x" + t + "B/sys";
}

// ---------------------------------------------------------------------------------------
// ThomasBatch: N systems of m rows in layout L on Exec (Serial / OpenMP on Flat: the
// Sequential / Multicore baselines).

template <class T, class L, class Exec>
void BM_Batch(benchmark::State& state, int m, int n,
              ThomasSchedule schedule = ThomasSchedule::PerSystem) {
  using Mem = typename Exec::memory_space;
  using View = typename L::template view_type<T, Mem>;
  const int bs = L::tiled ? kBlockSize : 1;
  const auto& in = fixed_input<T>(m, n);
  Exec exec;
  auto from = [m](const std::vector<T>& src) {
    return [&src, m](int s, int i) { return src[static_cast<std::size_t>(s) * m + i]; };
  };
  const View a = make_storage<L, View>(exec, "thomas_a", n, m, bs, from(in.a));
  const View b = make_storage<L, View>(exec, "thomas_b", n, m, bs, from(in.b));
  const View c0 = make_storage<L, View>(exec, "thomas_c0", n, m, bs, from(in.c));
  const View d0 = make_storage<L, View>(exec, "thomas_d0", n, m, bs, from(in.d));
  const View c = L::template allocate<View>("thomas_c", n, m, bs);
  const View d = L::template allocate<View>("thomas_d", n, m, bs);
  const auto status = make_thomas_status(exec);
  for (auto _ : state) {
    Kokkos::deep_copy(exec, c, c0);
    Kokkos::deep_copy(exec, d, d0);
    state.SetIterationTime(
        timed_solve(exec, [&] { thomas_batch(exec, a, b, c, d, status, schedule, n); }));
  }
  try {
    check_thomas_status(exec, status, m);  // a benchmark of a failed solve is worthless
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  auto hd = Kokkos::create_mirror_view(d);
  Kokkos::deep_copy(exec, hd, d);
  exec.fence();
  const double residual = sampled_residual(in, [&](int s, int i) { return L::at(hd, s, i, bs); });
  if (!(residual <= residual_tolerance<T>())) {
    state.SkipWithError(("residual " + std::to_string(residual) + " of the solution").c_str());
    return;
  }
  const ThomasSchedule resolved = impl::resolve_schedule<Exec, L, T>(schedule, m, n);
  // The on-chip schedule: its kept rows move 5 elements, the rest 9 (as the ThomasBatch
  // paper's kernel).
  // The in-memory team: a, b, c, d read, (a', c', d') of each row written and read back, x
  // written.
  const int kept = resolved == ThomasSchedule::PerSystemOnChip ? on_chip_kept<T, Exec>(m) : 0;
  const bool in_memory = resolved == ThomasSchedule::TeamPerSystemInMemory;
  // The tile schedule moves what PerSystem does (c' written and read back).
  const bool per_system =
      resolved == ThomasSchedule::PerSystem || resolved == ThomasSchedule::SimdTiles;
  const bool team = !per_system && kept == 0 && !in_memory;
  const double elements = kept > 0    ? team_traffic_elements(kept) + 9.0 * (m - kept)
                          : in_memory ? 11.0 * m
                          : team      ? team_traffic_elements(m)
                                      : thomas_traffic_elements(m);
  const double rows = double(n) * m;
  report<T>(state, rows, double(n) * elements * sizeof(T), 4.0 * sizeof(T) * double(a.span()),
            byte_model_label<T>(kept > 0    ? "(5K-2+9(m-K))"
                                : in_memory ? "(11m)"
                                : team      ? "(5m-2)"
                                            : "(9m-6)") +
                (schedule == ThomasSchedule::Auto ? std::string(" Auto=") + to_string(resolved)
                                                  : std::string()));
  if (kept > 0) state.counters["kept_rows"] = kept;
  state.counters["block_size"] = bs;
  state.counters["max_rel_residual"] = residual;
}

// ---------------------------------------------------------------------------------------
// ThomasBatch with the SIMD-tile schedule on a host space (thomas_batch_simd_tiles): tiles
// of W = simd_tile_lanes<T, Exec>() systems, every array first written by the solve's
// schedule (touch_tiles, then filled in place: first-touch placement).

template <class T, class Exec>
void BM_BatchSimdTiles(benchmark::State& state, int m, int n) {
  using L = layouts::BlockInterleaved;
  using View = typename L::template view_type<T, typename Exec::memory_space>;
  const int w = simd_tile_lanes<T, Exec>();
  const auto& in = fixed_input<T>(m, n);
  Exec exec;
  auto placed = [&](const char* label, const std::vector<T>* src) {
    View v = L::template allocate<View>(label, n, m, w);
    touch_tiles(exec, v);
    exec.fence();
    if (src) {
      auto h = Kokkos::create_mirror_view(v);  // v itself on a host space
      for (int s = 0; s < n; ++s)
        for (int i = 0; i < m; ++i) L::at(h, s, i, w) = (*src)[static_cast<std::size_t>(s) * m + i];
      Kokkos::deep_copy(exec, v, h);
      exec.fence();
    }
    return v;
  };
  const View a = placed("thomas_a", &in.a), b = placed("thomas_b", &in.b),
             c0 = placed("thomas_c0", &in.c), d0 = placed("thomas_d0", &in.d),
             c = placed("thomas_c", nullptr), d = placed("thomas_d", nullptr);
  const auto status = make_thomas_status(exec);
  for (auto _ : state) {
    Kokkos::deep_copy(exec, c, c0);
    Kokkos::deep_copy(exec, d, d0);
    state.SetIterationTime(
        timed_solve(exec, [&] { thomas_batch_simd_tiles(exec, a, b, c, d, status, n); }));
  }
  try {
    check_thomas_status(exec, status, m);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const double residual = sampled_residual(in, [&](int s, int i) { return L::at(d, s, i, w); });
  if (!(residual <= residual_tolerance<T>())) {
    state.SkipWithError(("residual " + std::to_string(residual) + " of the solution").c_str());
    return;
  }
  const double rows = double(n) * m;
  report<T>(state, rows, double(n) * thomas_traffic_elements(m) * sizeof(T),
            4.0 * sizeof(T) * double(a.span()), byte_model_label<T>("(9m-6)"));
  state.counters["max_rel_residual"] = residual;
  // report() divides by the default space's copy bandwidth: this runs on the host.
  using benchmark::Counter;
  state.counters["frac_copy_bw"] = Counter(5.0 * sizeof(T) * rows / perf::copy_bandwidth_of<Exec>(),
                                           Counter::kIsIterationInvariantRate);
  state.counters["traffic_frac_copy_bw"] =
      Counter(double(n) * thomas_traffic_elements(m) * sizeof(T) / perf::copy_bandwidth_of<Exec>(),
              Counter::kIsIterationInvariantRate);
  state.counters["block_size"] = w;
  state.counters["threads"] = Exec().concurrency();
}

// ---------------------------------------------------------------------------------------
// ThomasVBatch on padded Full-Interleaved storage (the ThomasBatch paper's layout), m_max =
// the largest size.
// Computing Padding: pad_vbatch once at set-up (identity padding rows), not timed.

template <class T, bool kComputingPadding, class L = layouts::FullInterleaved>
void BM_VBatchPadded(benchmark::State& state, int n,
                     ThomasSchedule schedule = ThomasSchedule::PerSystem) {
  using Mem = typename Default::memory_space;
  using View = typename L::template view_type<T, Mem>;
  const auto& in = vbatch_input<T>(n);
  const int m_max = in.max_size();
  Default exec;
  auto from = [&in](const std::vector<T>& src) {
    return [&src, &in](int s, int i) { return i < in.size(s) ? src[in.offsets[s] + i] : T(0); };
  };
  std::vector<int> host_sizes(static_cast<std::size_t>(n));
  for (int s = 0; s < n; ++s) host_sizes[s] = in.size(s);
  const auto sizes = make_rows<Kokkos::View<int*, Mem>>(exec, "thomas_sizes", host_sizes);
  const View a = make_storage<L, View>(exec, "thomas_a", n, m_max, 1, from(in.a));
  const View b = make_storage<L, View>(exec, "thomas_b", n, m_max, 1, from(in.b));
  const View c0 = make_storage<L, View>(exec, "thomas_c0", n, m_max, 1, from(in.c));
  const View d0 = make_storage<L, View>(exec, "thomas_d0", n, m_max, 1, from(in.d));
  if (kComputingPadding) pad_vbatch(exec, a, b, c0, d0, sizes);
  const View c = L::template allocate<View>("thomas_c", n, m_max, 1);
  const View d = L::template allocate<View>("thomas_d", n, m_max, 1);
  const auto status = make_thomas_status(exec);
  for (auto _ : state) {
    Kokkos::deep_copy(exec, c, c0);
    Kokkos::deep_copy(exec, d, d0);
    state.SetIterationTime(timed_solve(exec, [&] {
      if (kComputingPadding)
        thomas_vbatch_computing_padding(exec, a, b, c, d, sizes, status, schedule);
      else
        thomas_vbatch_no_computing_padding(exec, a, b, c, d, sizes, status, schedule);
    }));
  }
  try {
    check_thomas_status(exec, status, m_max);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  auto hd = Kokkos::create_mirror_view(d);
  Kokkos::deep_copy(exec, hd, d);
  exec.fence();
  const double residual = sampled_residual(in, [&](int s, int i) { return L::at(hd, s, i, 1); });
  if (!(residual <= residual_tolerance<T>())) {
    state.SkipWithError(("residual " + std::to_string(residual) + " of the solution").c_str());
    return;
  }
  state.counters["max_rel_residual"] = residual;
  const ThomasSchedule resolved = impl::resolve_schedule<Default, L, T>(schedule, m_max, n);
  const bool team = resolved != ThomasSchedule::PerSystem && resolved != ThomasSchedule::SimdTiles;
  double traffic = 0;
  for (int s = 0; s < n; ++s) {
    const double rows = kComputingPadding ? m_max : in.size(s);
    traffic += (team ? team_traffic_elements(rows) : thomas_traffic_elements(rows)) * sizeof(T);
  }
  traffic += double(n) * sizeof(int);  // sizes(s)
  report<T>(state, double(in.rows()), traffic,
            4.0 * sizeof(T) * double(a.span()) + double(n) * sizeof(int),
            byte_model_label<T>(team ? (kComputingPadding ? "(5m_max-2)" : "(5m_s-2)")
                                     : (kComputingPadding ? "(9m_max-6)" : "(9m_s-6)")));
  state.counters["m_max"] = m_max;
}

// ThomasVBatch on packed rank-1 storage (divergent and uncoalesced: the ThomasBatch
// paper's worst case).
// WarpPacked: the same storage on WarpPerSystem (contiguous systems, 40 B per row).
template <class T>
void BM_VBatchPacked(benchmark::State& state, int n,
                     ThomasSchedule schedule = ThomasSchedule::PerSystem) {
  using Mem = typename Default::memory_space;
  using Rows = Kokkos::View<T*, Mem>;
  const auto& in = vbatch_input<T>(n);
  Default exec;
  const auto offsets = make_rows<Kokkos::View<int*, Mem>>(exec, "thomas_offsets", in.offsets);
  const Rows a = make_rows<Rows>(exec, "thomas_a", in.a);
  const Rows b = make_rows<Rows>(exec, "thomas_b", in.b);
  const Rows c0 = make_rows<Rows>(exec, "thomas_c0", in.c);
  const Rows d0 = make_rows<Rows>(exec, "thomas_d0", in.d);
  const Rows c(Kokkos::view_alloc(Kokkos::WithoutInitializing, "thomas_c"), in.rows());
  const Rows d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "thomas_d"), in.rows());
  const auto status = make_thomas_status(exec);
  for (auto _ : state) {
    Kokkos::deep_copy(exec, c, c0);
    Kokkos::deep_copy(exec, d, d0);
    state.SetIterationTime(timed_solve(
        exec, [&] { thomas_vbatch_packed(exec, a, b, c, d, offsets, status, schedule); }));
  }
  try {
    check_thomas_status(exec, status, offsets);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  const bool warp = schedule != ThomasSchedule::PerSystem;
  double traffic = double(n + 1) * sizeof(int);  // offsets
  for (int s = 0; s < n; ++s)
    traffic += (warp ? team_traffic_elements(in.size(s)) : thomas_traffic_elements(in.size(s))) *
               sizeof(T);
  report<T>(state, double(in.rows()), traffic,
            4.0 * sizeof(T) * double(in.rows()) + double(n + 1) * sizeof(int),
            byte_model_label<T>(warp ? "(5m_s-2)" : "(9m_s-6)"));
  state.counters["m_max"] = in.max_size();
}

// ---------------------------------------------------------------------------------------
// ThomasAccuracy (the ThomasBatch paper's Fig. 12a): one solve of 64 systems of m rows
// (Full-Interleaved, the default space); max over systems of ||x - x_ref||_2 / ||x_ref||_2
// against the long-double Thomas, and of the relative residual ||d - A x||_2 / ||d||_2
// (long double).

template <class T>
void BM_Accuracy(benchmark::State& state, int m,
                 ThomasSchedule schedule = ThomasSchedule::PerSystem) {
  using L = layouts::FullInterleaved;
  using Mem = typename Default::memory_space;
  using View = typename L::template view_type<T, Mem>;
  constexpr int n = 64;
  const auto in = test::random_tridiagonal<T>(n, m, seed_of(4, m, n, sizeof(T)));
  Default exec;
  auto from = [m](const std::vector<T>& src) {
    return [&src, m](int s, int i) { return src[static_cast<std::size_t>(s) * m + i]; };
  };
  const View a = make_storage<L, View>(exec, "thomas_a", n, m, 1, from(in.a));
  const View b = make_storage<L, View>(exec, "thomas_b", n, m, 1, from(in.b));
  const View c0 = make_storage<L, View>(exec, "thomas_c0", n, m, 1, from(in.c));
  const View d0 = make_storage<L, View>(exec, "thomas_d0", n, m, 1, from(in.d));
  const View c = L::template allocate<View>("thomas_c", n, m, 1);
  const View d = L::template allocate<View>("thomas_d", n, m, 1);
  const auto status = make_thomas_status(exec);
  for (auto _ : state) {
    Kokkos::deep_copy(exec, c, c0);
    Kokkos::deep_copy(exec, d, d0);
    thomas_batch(exec, a, b, c, d, status, schedule);
    exec.fence();
  }
  try {
    check_thomas_status(exec, status, m);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  auto hd = Kokkos::create_mirror_view(d);
  Kokkos::deep_copy(exec, hd, d);
  exec.fence();
  std::vector<long double> xr(static_cast<std::size_t>(m));
  std::vector<T> x(static_cast<std::size_t>(m));
  double max_err = 0, max_res = 0;
  for (int s = 0; s < n; ++s) {
    const std::size_t o = static_cast<std::size_t>(s) * m;
    const T *ps = &in.a[o], *pb = &in.b[o], *pc = &in.c[o], *pd = &in.d[o];
    test::thomas_reference(m, ps, pb, pc, pd, xr.data());
    long double ee = 0, rr = 0;
    for (int i = 0; i < m; ++i) {
      x[i] = L::at(hd, s, i, 1);
      const long double e = static_cast<long double>(x[i]) - xr[i];
      ee += e * e;
      rr += xr[i] * xr[i];
    }
    const double err = static_cast<double>(std::sqrt(rr > 0 ? ee / rr : ee));
    max_err = std::max(max_err, err == err ? err : HUGE_VAL);
    max_res = std::max(max_res, test::tridiagonal_relative_residual(m, ps, pb, pc, pd, x.data()));
  }
  state.counters["max_rel_error"] = max_err;
  state.counters["log10_max_rel_error"] = std::log10(max_err > 0 ? max_err : 1e-300);
  state.counters["max_rel_residual"] = max_res;
  state.counters["systems"] = n;
  state.SetLabel(std::string("vs long-double Thomas, FullInterleaved, ") + to_string(schedule));
}

// ---------------------------------------------------------------------------------------
// Registration: grouped by input set, every method in a row, so that one input set (up to
// gigabytes) is generated once and shared by all the methods compared on it.

template <class Fn>
void add_timing(const std::string& name, Fn&& fn) {
  benchmark::RegisterBenchmark(name.c_str(), std::forward<Fn>(fn))
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

template <class T>
void register_thomas_benchmarks() {
  using benchmark::State;
  const std::string ty = "/" + type_name<T>() + "/";
  // The ThomasBatch paper's Figs. 9/10: small sizes with 256 .. 256,000 systems, large with
  // 20 .. 20,000.
  const std::vector<std::pair<std::vector<int>, std::vector<int>>> groups = {
      {{64, 128, 256, 512}, {256, 2560, 25600, 256000}},
      {{1024, 2048, 4096, 8192}, {20, 200, 2000, 20000}}};
  for (const auto& group : groups)
    for (int m : group.first)
      for (int n : group.second) {
        const std::string suffix = ty + std::to_string(m) + "/" + std::to_string(n);
#if defined(KOKKOS_ENABLE_SERIAL)
        add_timing("ThomasBatch/Sequential" + suffix,
                   [m, n](State& s) { BM_Batch<T, layouts::Flat, Kokkos::Serial>(s, m, n); });
#endif
        add_timing("ThomasBatch/Flat" + suffix,
                   [m, n](State& s) { BM_Batch<T, layouts::Flat, Default>(s, m, n); });
        add_timing("ThomasBatch/FullInterleaved" + suffix,
                   [m, n](State& s) { BM_Batch<T, layouts::FullInterleaved, Default>(s, m, n); });
        add_timing("ThomasBatch/BlockInterleaved" + suffix,
                   [m, n](State& s) { BM_Batch<T, layouts::BlockInterleaved, Default>(s, m, n); });
        // What a caller gets without choosing: ThomasSchedule::Auto on each input layout.
        constexpr auto automatic = ThomasSchedule::Auto;
        add_timing("ThomasBatch/AutoFlat" + suffix,
                   [m, n](State& s) { BM_Batch<T, layouts::Flat, Default>(s, m, n, automatic); });
        add_timing("ThomasBatch/AutoFullInterleaved" + suffix, [m, n](State& s) {
          BM_Batch<T, layouts::FullInterleaved, Default>(s, m, n, automatic);
        });
        constexpr auto team = ThomasSchedule::TeamPerSystem;
        add_timing("ThomasBatch/TeamFlat" + suffix,
                   [m, n](State& s) { BM_Batch<T, layouts::Flat, Default>(s, m, n, team); });
        add_timing("ThomasBatch/TeamFullInterleaved" + suffix, [m, n](State& s) {
          BM_Batch<T, layouts::FullInterleaved, Default>(s, m, n, team);
        });
        add_timing("ThomasBatch/TeamBlockInterleaved" + suffix, [m, n](State& s) {
          BM_Batch<T, layouts::BlockInterleaved, Default>(s, m, n, team);
        });
        if (m >= 1024) {
          constexpr auto in_memory = ThomasSchedule::TeamPerSystemInMemory;
          add_timing("ThomasBatch/TeamInMemoryFlat" + suffix,
                     [m, n](State& s) { BM_Batch<T, layouts::Flat, Default>(s, m, n, in_memory); });
          add_timing("ThomasBatch/TeamInMemoryFullInterleaved" + suffix, [m, n](State& s) {
            BM_Batch<T, layouts::FullInterleaved, Default>(s, m, n, in_memory);
          });
        }
        constexpr auto warp = ThomasSchedule::WarpPerSystem;
        if (m <= impl::kWarpMaxRows) {
          add_timing("ThomasBatch/WarpFlat" + suffix,
                     [m, n](State& s) { BM_Batch<T, layouts::Flat, Default>(s, m, n, warp); });
          add_timing("ThomasBatch/WarpFullInterleaved" + suffix, [m, n](State& s) {
            BM_Batch<T, layouts::FullInterleaved, Default>(s, m, n, warp);
          });
        }
        if (m <= 512) {
          constexpr auto on_chip = ThomasSchedule::PerSystemOnChip;
          add_timing("ThomasBatch/OnChipFullInterleaved" + suffix, [m, n](State& s) {
            BM_Batch<T, layouts::FullInterleaved, Default>(s, m, n, on_chip);
          });
          add_timing("ThomasBatch/OnChipBlockInterleaved" + suffix, [m, n](State& s) {
            BM_Batch<T, layouts::BlockInterleaved, Default>(s, m, n, on_chip);
          });
        }
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_CUDA)
        add_timing("ThomasBatch/Multicore" + suffix, [m, n](State& s) {  // the paper's CPU baseline
          BM_Batch<T, layouts::Flat, Kokkos::OpenMP>(s, m, n);
        });
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
        if (m <= 512)
          add_timing("ThomasBatch/SimdTiles" + suffix,
                     [m, n](State& s) { BM_BatchSimdTiles<T, Kokkos::OpenMP>(s, m, n); });
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
        if (m <= 512)
          add_timing("ThomasBatch/SimdTiles1Core" + suffix,
                     [m, n](State& s) { BM_BatchSimdTiles<T, Kokkos::Serial>(s, m, n); });
#endif
      }
  // Full-Interleaved batches, the ThomasBatch paper's kernel against other schedules:
  // family/<Name>FullInterleaved (that kernel: family/FullInterleaved).
  const auto add_interleaved =
      [&](const std::string& family, std::initializer_list<int> ms, std::initializer_list<int> ns,
          std::initializer_list<std::pair<const char*, ThomasSchedule>> others) {
        using FI = layouts::FullInterleaved;
        for (int m : ms)
          for (int n : ns) {
            const std::string suffix = ty + std::to_string(m) + "/" + std::to_string(n);
            add_timing(family + "/FullInterleaved" + suffix,
                       [m, n](State& s) { BM_Batch<T, FI, Default>(s, m, n); });
            for (const auto& [name, schedule] : others)
              add_timing(family + "/" + name + "FullInterleaved" + suffix,
                         [m, n, schedule = schedule](State& s) {
                           BM_Batch<T, FI, Default>(s, m, n, schedule);
                         });
          }
      };
  // Sizes around what the on-chip schedule keeps (80 rows in double, 160 in float on CUDA):
  // the transposed warp schedule and the on-chip one.
  add_interleaved(
      "ThomasOnChipSizes", {32, 80, 160}, {25600, 256000},
      {{"Warp", ThomasSchedule::WarpPerSystem}, {"OnChip", ThomasSchedule::PerSystemOnChip}});
  // Where Auto switches Full-Interleaved systems of 129-512 rows from the warp schedule to
  // the ThomasBatch paper's kernel (impl::interleaved_warp_auto_max_systems: 67,584 systems
  // on an H100).
  add_interleaved("ThomasAutoSwitch", {256, 512}, {64000, 128000, 192000},
                  {{"Warp", ThomasSchedule::WarpPerSystem}, {"Auto", ThomasSchedule::Auto}});
  // The ThomasBatch paper's Fig. 13: sizes uniform in [256, 512] against fixed-size batches
  // of 256 and 512.
  for (int n : {256, 2560, 25600, 256000}) {
    const std::string suffix = ty + std::to_string(n);
    add_timing("ThomasVBatch/ComputingPadding" + suffix,
               [n](State& s) { BM_VBatchPadded<T, true>(s, n); });
    add_timing("ThomasVBatch/NoComputingPadding" + suffix,
               [n](State& s) { BM_VBatchPadded<T, false>(s, n); });
    add_timing("ThomasVBatch/TeamComputingPadding" + suffix,
               [n](State& s) { BM_VBatchPadded<T, true>(s, n, ThomasSchedule::TeamPerSystem); });
    add_timing("ThomasVBatch/TeamNoComputingPadding" + suffix,
               [n](State& s) { BM_VBatchPadded<T, false>(s, n, ThomasSchedule::TeamPerSystem); });
    constexpr auto warp = ThomasSchedule::WarpPerSystem;
    add_timing("ThomasVBatch/WarpComputingPaddingFlat" + suffix,
               [n](State& s) { BM_VBatchPadded<T, true, layouts::Flat>(s, n, warp); });
    add_timing("ThomasVBatch/WarpNoComputingPaddingFlat" + suffix,
               [n](State& s) { BM_VBatchPadded<T, false, layouts::Flat>(s, n, warp); });
    add_timing("ThomasVBatch/Packed" + suffix, [n](State& s) { BM_VBatchPacked<T>(s, n); });
    add_timing("ThomasVBatch/WarpPacked" + suffix,
               [n](State& s) { BM_VBatchPacked<T>(s, n, ThomasSchedule::WarpPerSystem); });
    add_timing("ThomasVBatch/Fixed256" + suffix,
               [n](State& s) { BM_Batch<T, layouts::FullInterleaved, Default>(s, 256, n); });
    add_timing("ThomasVBatch/Fixed512" + suffix,
               [n](State& s) { BM_Batch<T, layouts::FullInterleaved, Default>(s, 512, n); });
  }
  // The ThomasBatch paper's Fig. 12a: accuracy (not a timing).
  for (int m = 64; m <= 8192; m *= 2) {
    benchmark::RegisterBenchmark(("ThomasAccuracy" + ty + std::to_string(m)).c_str(),
                                 [m](State& s) { BM_Accuracy<T>(s, m); })
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
    if (m <= impl::kWarpMaxRows)
      benchmark::RegisterBenchmark(
          ("ThomasAccuracy/Warp" + ty + std::to_string(m)).c_str(),
          [m](State& s) { BM_Accuracy<T>(s, m, ThomasSchedule::WarpPerSystem); })
          ->Iterations(1)
          ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(
        ("ThomasAccuracy/Team" + ty + std::to_string(m)).c_str(),
        [m](State& s) { BM_Accuracy<T>(s, m, ThomasSchedule::TeamPerSystem); })
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  }
}

[[maybe_unused]] const bool registered =
    (register_thomas_benchmarks<double>(), register_thomas_benchmarks<float>(), true);

}  // namespace
