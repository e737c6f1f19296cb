// The solver performance map: every schedule, and Auto, of the batched Hines and
// tridiagonal solvers over system sizes x batch totals x storage layouts, on the device and
// on the host, each point against the copy floor measured in the same run. What Auto
// should pick at a point is read off this map (scripts/solver_map.py draws it).
//
// Names (one benchmark per point; filter with --benchmark_filter):
//   Thomas/<backend>/<layout>/<schedule>/m:<rows>/total:<log2 rows in the batch>
//   Hines/<backend>/<layout>/<schedule>/<tree>/n:<nodes>/total:<log2 nodes in the batch>
//   ThomasV/<backend>/<layout>/<schedule>/<cp|ncp|packed>-<half|full>/m:<largest rows>/
//     total:<log2 of the batch's real rows>
// backend: Device (the default execution space) or Host (the default host space, all its
// threads); layout: Flat or FullInterleaved; schedule: Auto or one of the enum's values
// (TeamPerSystemInMemory from m = 1,000 on).
// The label holds the schedule Auto resolved to (for the staged schedule with its chunk shape
// when not the default, as "PerSystemStaged@32"). Points a schedule refuses (InputError) are
// reported as skipped with the refusal, never as a time.
//
// Options (before Google Benchmark's own):
//   --map-families=thomas,hines   which families (also thomasv: ThomasVBatch, below)
//   --map-backends=device,host    which backends
//   --map-totals=20,22,24,26,28   log2 of the rows / nodes in one batch (device)
//   --map-host-totals=20,22,24    the same for the host backend
//   --map-rows=2,3,...            tridiagonal sizes (default: 2 to 100,000, odd sizes and the
//                                 ones next to every power of two the schedules switch at)
//   --map-trees=all|classes,real,chain,star,random   Hines tree kinds ("all": these five);
//                                 also "compartments": every shared cell as the simulator
//                                 solves it, NEURON's sections in segments of at most 20 um
//                                 (trees Auto's table was not made from)
//   --map-vrows=4,16,...          ThomasVBatch's largest sizes (m_max)
//   --map-vspreads=half,full      its sizes uniform in [m_max / 2, m_max] or [1, m_max]
//   --map-vvariants=cp,ncp,packed padded storage computing the padding, or not; packed
//   --map-reps=3                  timed solves per point (after one untimed warm-up)
//   --map-staged-shapes=16,8p,... the staged schedule forced to a chunk shape (see MapOptions)
//   --map-two-pass-shapes=1,2,... the two-pass block forced to a number of warps a block
//   --map-two-pass-systems=4,8    the two-pass block forced to 4 or 8 systems a block (Full-
//                                 Interleaved, device), with the warps it takes by default
//   --map-split-lanes=16,32       the split schedule forced to K lanes per tree (device)
//   --map-export=FILE             write the selected Hines trees, in map order, as a cell file
//                                 for perf_tests/peers/hines_peers (int32 count, then per tree
//                                 int32 n and n int32 parents), list them (key, name, nodes,
//                                 height), and stop
//
// Inputs: random diagonally dominant systems from a counter-based hash on the backend
// itself (so a 2^28-row batch costs no host time): tridiagonal a, c uniform in [-1, 1),
// |b| = |a| + |c| + margin; Hines u, l uniform in [-1, 1), |d| = 1 + children + margin
// (>= the row's off-diagonal sum), margin in [0.1, 1.1], random signs. The inputs a solve
// overwrites (c and d; d and rhs) are restored from pristine copies before every solve,
// outside the timed region. After the timed solves the batch's status must be clean and the
// largest row residual |A x - b| / max |b| below 1e-8, else the point is an error.
//
// Byte model (fp64): 40 B per row or node (read the four coefficient arrays, write x once);
// floor_frac = that rate / the copy bandwidth of the same backend in the same run.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/hinesbatch.hpp"
#include "hinesbatch/morphology/neuron_compartments.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "perf_common.hpp"
#include "shared_data.hpp"

namespace hinesbatch::perf {
namespace {
double g_copy_bandwidth = 0, g_host_copy_bandwidth = 0;
}
double copy_bandwidth() { return g_copy_bandwidth; }
double host_copy_bandwidth() { return g_host_copy_bandwidth; }
}  // namespace hinesbatch::perf

// A named namespace: nvcc does not take extended lambdas in some internal-linkage contexts.
namespace hinesbatch::solver_map {

KOKKOS_INLINE_FUNCTION double abs_of(double x) { return x < 0 ? -x : x; }
KOKKOS_INLINE_FUNCTION double max_of(double a, double b) { return a > b ? a : b; }

struct MapOptions {
  std::vector<std::string> families{"thomas", "hines"};
  std::vector<std::string> backends{"device", "host"};
  std::vector<int> totals{20, 22, 24, 26, 28};
  std::vector<int> host_totals{20, 22, 24};
  std::vector<int> rows{2,    3,    4,    5,    7,     8,     12,    16,    24,   31,
                        32,   33,   48,   63,   64,    65,    80,    81,    96,   100,
                        127,  128,  129,  160,  200,   255,   256,   257,   300,  384,
                        500,  511,  512,  513,  700,   1000,  1024,  1500,  2000, 3000,
                        4096, 5000, 8192, 8193, 10000, 20000, 50000, 100000};
  // ThomasVBatch (family "thomasv"): the largest sizes m_max, how sizes spread below it
  // (half: [m_max / 2, m_max]; full: [1, m_max]) and the storages (cp, ncp, packed).
  std::vector<int> vrows{4,   16,   31,   64,   100,  129,   256,   300,
                         512, 1000, 2000, 4096, 8193, 20000, 100000};
  std::vector<std::string> vspreads{"half", "full"};
  std::vector<std::string> vvariants{"cp", "ncp", "packed"};
  std::vector<std::string> trees{"classes", "real", "chain", "star", "random"};
  int reps = 3;
  std::string export_trees;  // write the Hines trees as a peers' cell file and stop
  // Forced shapes of the block schedule, each measured beside the schedules as
  // "BlockPerSystem@<lanes>-<keep>" (keep: dr = d and rhs on chip, drp = and the plan,
  // all = and u and l); scripts/solver_map.py leaves them out of Auto's tables.
  std::vector<std::string> block_shapes;
  // Forced shapes of the staged schedule, measured as "PerSystemStaged@<rows>[a|p]" (rows
  // of a chunk: 8, 16 or 32; p: the next chunk asked of L2 while one is swept; a: a chunk
  // copied to scratch asynchronously, 16 and 32 rows).
  std::vector<std::string> staged_shapes;
  // Forced warps a block of the two-pass block, measured as "TeamPerSystemTwoPass@<warps>"
  // at the tridiagonal points from 256 rows (a Full-Interleaved block on a GPU holds 4
  // systems: its warps are theirs together).
  std::vector<int> two_pass_warps;
  std::vector<int> two_pass_systems;
  // Forced lanes per tree of the split schedule, measured as "Split@<K>" (Split itself takes
  // K from mono_split_lanes).
  std::vector<int> split_lanes;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  for (std::string t; std::getline(ss, t, ',');)
    if (!t.empty()) out.push_back(t);
  return out;
}

std::vector<int> split_ints(const std::string& s, const std::string& flag) {
  std::vector<int> out;
  for (const auto& t : split(s)) {
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != t.size() || v < 1)
      throw std::invalid_argument(flag + ": '" + t + "' is not a positive integer");
    out.push_back(v);
  }
  return out;
}

// "128-drp" -> the block schedule's shape (lanes 0: chosen by solve).
impl::BlockShape block_shape_of(const std::string& text) {
  const auto dash = text.find('-');
  const std::string keep = dash == std::string::npos ? "" : text.substr(dash + 1);
  if (dash == std::string::npos || (keep != "dr" && keep != "drp" && keep != "all"))
    throw std::invalid_argument("--map-block-shapes: '" + text +
                                "' is not LANES-KEEP (KEEP: dr, drp or all)");
  impl::BlockShape shape;
  shape.lanes = split_ints(text.substr(0, dash), "--map-block-shapes").at(0);
  shape.plan_on_chip = keep != "dr";
  shape.coefficients_on_chip = keep == "all";
  return shape;
}

// "16p" -> the staged schedule's shape, as rows * 4 + 2 * async + prefetch.
int staged_shape_of(const std::string& text) {
  std::string rows = text;
  const bool prefetch = !rows.empty() && rows.back() == 'p';
  if (prefetch) rows.pop_back();
  const bool async = !rows.empty() && rows.back() == 'a';
  if (async) rows.pop_back();
  if ((rows != "8" && rows != "16" && rows != "32") || (async && prefetch))
    throw std::invalid_argument("--map-staged-shapes: '" + text + "' is not 8, 16 or 32 [a|p]");
  return std::stoi(rows) * 4 + (async ? 2 : 0) + (prefetch ? 1 : 0);
}

template <class Exec, class Tree, class Batch>
void solve_staged_shape(const Exec& exec, const Tree& tree, const Batch& batch, int shape) {
  switch (shape) {
    case 8 * 4:
      return impl::solve_staged<8, false>(exec, tree.parents(), batch);
    case 8 * 4 + 1:
      return impl::solve_staged<8, true>(exec, tree.parents(), batch);
    case 16 * 4:
      return impl::solve_staged<16, false>(exec, tree.parents(), batch);
    case 16 * 4 + 1:
      return impl::solve_staged<16, true>(exec, tree.parents(), batch);
    case 16 * 4 + 2:
      return impl::solve_staged<16, false, true>(exec, tree.parents(), batch);
    case 32 * 4:
      return impl::solve_staged<32, false>(exec, tree.parents(), batch);
    case 32 * 4 + 1:
      return impl::solve_staged<32, true>(exec, tree.parents(), batch);
    case 32 * 4 + 2:
      return impl::solve_staged<32, false, true>(exec, tree.parents(), batch);
  }
  throw std::invalid_argument("unknown staged shape " + std::to_string(shape));
}

// ThomasVBatch's storages and spreads of sizes (the thomasv family, below).
enum class VVariant { ComputingPadding, NoComputingPadding, Packed };
VVariant vvariant_of(const std::string& text) {
  if (text == "cp") return VVariant::ComputingPadding;
  if (text == "ncp") return VVariant::NoComputingPadding;
  if (text == "packed") return VVariant::Packed;
  throw std::invalid_argument("--map-vvariants: '" + text + "' is not cp, ncp or packed");
}
int vspread_low(const std::string& spread, int m_max) {
  if (spread == "half") return (m_max + 1) / 2;
  if (spread == "full") return 1;
  throw std::invalid_argument("--map-vspreads: '" + spread + "' is not half or full");
}

// Takes the --map-* options out of argv (Google Benchmark refuses what it does not know).
MapOptions parse_map_options(int& argc, char** argv) {
  MapOptions o;
  int kept = 1;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const auto eq = a.find('=');
    const std::string key = a.substr(0, eq),
                      value = eq == std::string::npos ? "" : a.substr(eq + 1);
    if (key.rfind("--map-", 0) != 0) {
      argv[kept++] = argv[i];
      continue;
    }
    if (eq == std::string::npos) throw std::invalid_argument(key + " needs =VALUE");
    if (key == "--map-families")
      o.families = split(value);
    else if (key == "--map-backends")
      o.backends = split(value);
    else if (key == "--map-totals")
      o.totals = split_ints(value, key);
    else if (key == "--map-host-totals")
      o.host_totals = split_ints(value, key);
    else if (key == "--map-rows")
      o.rows = split_ints(value, key);
    else if (key == "--map-vrows")
      o.vrows = split_ints(value, key);
    else if (key == "--map-vspreads") {
      o.vspreads = split(value);
      for (const auto& v : o.vspreads) vspread_low(v, 2);
    } else if (key == "--map-vvariants") {
      o.vvariants = split(value);
      for (const auto& v : o.vvariants) vvariant_of(v);
    } else if (key == "--map-trees")
      o.trees = value == "all" ? MapOptions{}.trees : split(value);
    else if (key == "--map-export")
      o.export_trees = value;
    else if (key == "--map-reps")
      o.reps = split_ints(value, key).at(0);
    else if (key == "--map-block-shapes") {
      o.block_shapes = split(value);
      for (const auto& s : o.block_shapes) block_shape_of(s);  // refuse a bad one here
    } else if (key == "--map-staged-shapes") {
      o.staged_shapes = split(value);
      for (const auto& s : o.staged_shapes) staged_shape_of(s);
    } else if (key == "--map-two-pass-shapes") {
      o.two_pass_warps = split_ints(value, key);
      for (int w : o.two_pass_warps)
        if (w > 32)
          throw std::invalid_argument(key + ": at most 32 warps, not " + std::to_string(w));
    } else if (key == "--map-split-lanes") {
      o.split_lanes = split_ints(value, key);
      for (int k : o.split_lanes)
        if (k < 1 || k > 32)
          throw std::invalid_argument(key + ": 1 to 32 lanes, not " + std::to_string(k));
    } else if (key == "--map-two-pass-systems") {
      o.two_pass_systems = split_ints(value, key);
      for (int p : o.two_pass_systems)
        if (p != 4 && p != 8)
          throw std::invalid_argument(key + ": 4 or 8 systems a block, not " + std::to_string(p));
    } else
      throw std::invalid_argument("unknown option " + key);
  }
  argc = kept;
  for (int t : o.totals)
    if (t > 30)
      throw std::invalid_argument("--map-totals: 2^" + std::to_string(t) + " is too large");
  return o;
}

// A counter-based hash (splitmix64): uniform in [-1, 1) for (seed, index).
KOKKOS_INLINE_FUNCTION double hash_unit(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + i + 0x632BE59BD9B4E5ull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

// One buffer per array, grown to the largest point and reused (a 2^28-row batch allocated
// once, not per point).
template <class Mem>
struct BufferPool {
  std::vector<Kokkos::View<double*, Mem>> buffers;
  double* get(int k, std::size_t n) {
    if (static_cast<int>(buffers.size()) <= k) buffers.resize(k + 1);
    auto& b = buffers[k];
    if (b.extent(0) < n) {
      b = Kokkos::View<double*, Mem>();  // free before allocating the larger one
      b = Kokkos::View<double*, Mem>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "map_buffer"),
                                     n);
      advise_huge_pages(b);  // as the library's own batches are
    }
    return b.data();
  }
  static BufferPool& instance() {
    static auto* pool = new BufferPool;  // never freed: see flush_device_cache
    return *pool;
  }
};

template <class Layout>
struct KokkosLayoutOf;
template <>
struct KokkosLayoutOf<layouts::Flat> {
  using type = Kokkos::LayoutRight;
};
template <>
struct KokkosLayoutOf<layouts::FullInterleaved> {
  using type = Kokkos::LayoutLeft;
};

// On GPUs, overwrites the L2 cache (256 MB written), so that a small batch's restored
// inputs are not served from it: every point then reads its inputs from memory, as the
// floor's copy does.
template <class Exec>
void flush_device_cache(const Exec& exec) {
  using Mem = typename Exec::memory_space;
  if constexpr (!hinesbatch::is_host_backend<Exec>()) {
    // Never freed (as the buffers below): a View freed after Kokkos::finalize aborts.
    static const auto* junk = new Kokkos::View<double*, Mem>("map_l2_flush", std::size_t(1) << 25);
    Kokkos::deep_copy(exec, *junk, 0.0);
  }
}

// Times `solve` reps times (after one warm-up), restoring the overwritten inputs first.
template <class Exec>
void time_solves(benchmark::State& state, const Exec& exec, const std::function<void()>& restore,
                 const std::function<void()>& solve) {
  restore();
  solve();
  exec.fence();
  for (auto _ : state) {
    restore();
    flush_device_cache(exec);
    exec.fence();
    const auto t0 = std::chrono::steady_clock::now();
    solve();
    exec.fence();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
}

void set_map_counters(benchmark::State& state, double items, double floor_bw) {
  perf::set_counters(state, items, 40.0 * items);
  // floor_frac = bytes_per_s / floor: the counter holds a solve's bytes over the floor (the
  // seconds the floor needs for them), which Google Benchmark divides by the solve time.
  state.counters["floor_frac"] =
      benchmark::Counter(40.0 * items / floor_bw, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["copy_GBps"] = floor_bw * 1e-9;
}

// ----------------------------------------------------------------------------- tridiagonal

// A tridiagonal point's end: the last solve's largest residual (worst) against the largest
// right-hand side (scale) must be below 1e-8, else the point is an error; then its counters
// (items: the batch's real rows, m: its rows a system, or the largest).
bool finish_thomas_point(benchmark::State& state, double worst, double scale, double items, int m,
                         int systems, double floor_bw) {
  const double rel = worst / scale;
  if (!(rel < 1e-8)) {
    state.SkipWithError(("residual " + std::to_string(rel)).c_str());
    return false;
  }
  set_map_counters(state, items, floor_bw);
  state.counters["max_rel_residual"] = rel;
  state.counters["rows"] = m;
  state.counters["systems"] = systems;
  return true;
}

template <class Layout, class Exec, class V, class Status>
void solve_two_pass_forced(const Exec& exec, const V& a, const V& b, const V& c, const V& d,
                           const Status& status, int num_systems, int m, int warps,
                           int block_systems) {
  using SizesView = Kokkos::View<const int*, typename V::memory_space>;
  impl::launch_thomas_two_pass<impl::RowCount::Fixed, Layout>("solver_map_thomas", exec, a, b, c, d,
                                                              SizesView(), status, true,
                                                              num_systems, m, warps, block_systems);
}

template <class Exec, class Layout>
void BM_Thomas(benchmark::State& state, ThomasSchedule schedule, int m, long long total,
               int two_pass_warps = 0, int two_pass_systems = 0) {
  using Mem = typename Exec::memory_space;
  using KL = typename KokkosLayoutOf<Layout>::type;
  using V = Kokkos::View<double**, KL, Mem>;
  const Exec exec;
  const long long n_sys = std::max<long long>(1, total / m);
  if (n_sys > std::numeric_limits<int>::max()) {
    state.SkipWithError("too many systems for an int count");
    return;
  }
  const int N = static_cast<int>(n_sys);
  const std::size_t len = static_cast<std::size_t>(N) * m;
  auto& pool = BufferPool<Mem>::instance();
  V a(pool.get(0, len), N, m), b(pool.get(1, len), N, m), c(pool.get(2, len), N, m),
      d(pool.get(3, len), N, m), c0(pool.get(4, len), N, m), d0(pool.get(5, len), N, m);
  const std::uint64_t seed = 1000003ull * m + N;
  Kokkos::parallel_for(
      "map_fill_thomas", Kokkos::RangePolicy<Exec>(exec, 0, len), KOKKOS_LAMBDA(std::size_t e) {
        const int s = static_cast<int>(e / m), i = static_cast<int>(e % m);
        const double av = i == 0 ? 0.0 : hash_unit(seed, 4 * e);
        const double cv = i == m - 1 ? 0.0 : hash_unit(seed, 4 * e + 1);
        const double r = hash_unit(seed, 4 * e + 2);
        const double margin = 0.6 + 0.5 * r;
        a(s, i) = av;
        b(s, i) = (r < 0 ? -1.0 : 1.0) * (abs_of(av) + abs_of(cv) + margin);
        c0(s, i) = cv;
        d0(s, i) = hash_unit(seed, 4 * e + 3);
      });
  auto status = make_thomas_status(exec);
  try {
    time_solves(
        state, exec,
        [&] {
          Kokkos::deep_copy(exec, c, c0);
          Kokkos::deep_copy(exec, d, d0);
        },
        [&] {
          if (two_pass_warps > 0 || two_pass_systems > 0)
            solve_two_pass_forced<Layout>(exec, a, b, c, d, status, N, m, two_pass_warps,
                                          two_pass_systems);
          else
            thomas_batch(exec, a, b, c, d, status, schedule);
        });
  } catch (const InputError& e) {
    state.SkipWithError(e.what());
    return;
  }
  exec.fence();
  try {
    check_thomas_status(exec, status, m);
  } catch (const std::exception& e) {
    state.SkipWithError((std::string("solve failed: ") + e.what()).c_str());
    return;
  }
  // Residual of the last solve (x in d) against the pristine c and d.
  double worst = 0, scale = 0;
  Kokkos::parallel_reduce(
      "map_residual_thomas", Kokkos::RangePolicy<Exec>(exec, 0, len),
      KOKKOS_LAMBDA(std::size_t e, double& w) {
        const int s = static_cast<int>(e / m), i = static_cast<int>(e % m);
        double r = b(s, i) * d(s, i) - d0(s, i);
        if (i > 0) r += a(s, i) * d(s, i - 1);
        if (i < m - 1) r += c0(s, i) * d(s, i + 1);
        w = max_of(w, abs_of(r));
      },
      Kokkos::Max<double>(worst));
  Kokkos::parallel_reduce(
      "map_scale_thomas", Kokkos::RangePolicy<Exec>(exec, 0, len),
      KOKKOS_LAMBDA(std::size_t e, double& w) { w = max_of(w, abs_of(d0(e / m, e % m))); },
      Kokkos::Max<double>(scale));
  if (!finish_thomas_point(state, worst, scale, double(len), m, N, perf::copy_bandwidth_of<Exec>()))
    return;
  state.SetLabel(to_string(impl::resolve_schedule<Exec, Layout, double>(schedule, m, N)));
}

// ------------------------------------------------------------ tridiagonal, different sizes

// ThomasVBatch (systems of different sizes): the padded storage's two ways through the
// padding (CP: every system runs all m_max rows, the padding made identity rows by
// pad_vbatch; NCP: each system stops at its size, the padding never read) and packed
// storage (Flat, the systems back to back). Sizes uniform in [ceil(m_max / 2), m_max]
// ("half") or in [1, m_max] ("full"); the batch's real rows (the counted items) about
// 2^total. NCP's padding holds NaN, so a schedule that used it would fail the residual.
// Row i of system s (of size rows) of a map ThomasVBatch: the same numbers in every storage.
struct VRow {
  double a, b, c, d;
};
KOKKOS_INLINE_FUNCTION VRow vrow(std::uint64_t seed, int m, int s, int i, int size) {
  const std::size_t e = static_cast<std::size_t>(s) * m + i;
  VRow r;
  r.a = i == 0 ? 0.0 : hash_unit(seed, 4 * e);
  r.c = i == size - 1 ? 0.0 : hash_unit(seed, 4 * e + 1);
  const double h = hash_unit(seed, 4 * e + 2);
  r.b = (h < 0 ? -1.0 : 1.0) * (abs_of(r.a) + abs_of(r.c) + 0.6 + 0.5 * h);
  r.d = hash_unit(seed, 4 * e + 3);
  return r;
}

template <class Exec, class Layout>
void BM_ThomasV(benchmark::State& state, ThomasSchedule schedule, VVariant variant, int low, int m,
                long long total) {
  using Mem = typename Exec::memory_space;
  using KL = typename KokkosLayoutOf<Layout>::type;
  using V = Kokkos::View<double**, KL, Mem>;
  using V1 = Kokkos::View<double*, Mem>;
  const Exec exec;
  const double mean = 0.5 * (low + m);
  const long long n_sys = std::max<long long>(1, static_cast<long long>(double(total) / mean));
  if (n_sys > std::numeric_limits<int>::max()) {
    state.SkipWithError("too many systems for an int count");
    return;
  }
  const int N = static_cast<int>(n_sys);
  Kokkos::View<int*, Mem> sizes(Kokkos::view_alloc(Kokkos::WithoutInitializing, "map_vsizes"), N);
  const std::uint64_t seed = 2000003ull * m + N + low;
  const int span = m - low + 1;
  Kokkos::parallel_for(
      "map_vsizes", Kokkos::RangePolicy<Exec>(exec, 0, N), KOKKOS_LAMBDA(int s) {
        const double u = 0.5 * (hash_unit(seed, s) + 1.0);  // [0, 1)
        const int k = static_cast<int>(u * span);
        sizes(s) = low + (k < span ? k : span - 1);
      });
  Kokkos::View<long long*, Mem> offsets("map_voffsets", N + 1);
  long long rows = 0;
  Kokkos::parallel_scan(
      "map_voffsets", Kokkos::RangePolicy<Exec>(exec, 0, N),
      KOKKOS_LAMBDA(int s, long long& acc, bool final) {
        acc += sizes(s);
        if (final) offsets(s + 1) = acc;
      },
      rows);
  exec.fence();
  auto& pool = BufferPool<Mem>::instance();
  auto status = make_thomas_status(exec);
  double worst = 0, scale = 0;
  try {
    if (variant == VVariant::Packed) {
      const std::size_t len = static_cast<std::size_t>(rows);
      V1 a(pool.get(0, len), len), b(pool.get(1, len), len), c(pool.get(2, len), len),
          d(pool.get(3, len), len), c0(pool.get(4, len), len), d0(pool.get(5, len), len);
      Kokkos::parallel_for(
          "map_fill_thomasv_packed", Kokkos::RangePolicy<Exec>(exec, 0, N), KOKKOS_LAMBDA(int s) {
            const long long o = offsets(s);
            for (int i = 0; i < sizes(s); ++i) {
              const VRow r = vrow(seed, m, s, i, sizes(s));
              a(o + i) = r.a;
              b(o + i) = r.b;
              c0(o + i) = r.c;
              d0(o + i) = r.d;
            }
          });
      time_solves(
          state, exec,
          [&] {
            Kokkos::deep_copy(exec, c, c0);
            Kokkos::deep_copy(exec, d, d0);
          },
          [&] { thomas_vbatch_packed(exec, a, b, c, d, offsets, status, schedule); });
      exec.fence();
      check_thomas_status(exec, status, offsets);
      Kokkos::parallel_reduce(
          "map_residual_thomasv_packed", Kokkos::RangePolicy<Exec>(exec, 0, N),
          KOKKOS_LAMBDA(int s, double& w) {
            const long long o = offsets(s);
            const int n = sizes(s);
            for (int i = 0; i < n; ++i) {
              double r = b(o + i) * d(o + i) - d0(o + i);
              if (i > 0) r += a(o + i) * d(o + i - 1);
              if (i < n - 1) r += c0(o + i) * d(o + i + 1);
              w = max_of(w, abs_of(r));
            }
          },
          Kokkos::Max<double>(worst));
      Kokkos::parallel_reduce(
          "map_scale_thomasv_packed", Kokkos::RangePolicy<Exec>(exec, 0, len),
          KOKKOS_LAMBDA(std::size_t e, double& w) { w = max_of(w, abs_of(d0(e))); },
          Kokkos::Max<double>(scale));
    } else {
      const std::size_t len = static_cast<std::size_t>(N) * m;
      V a(pool.get(0, len), N, m), b(pool.get(1, len), N, m), c(pool.get(2, len), N, m),
          d(pool.get(3, len), N, m), c0(pool.get(4, len), N, m), d0(pool.get(5, len), N, m);
      const double poison =
          variant == VVariant::NoComputingPadding ? std::numeric_limits<double>::quiet_NaN() : 0.0;
      Kokkos::parallel_for(
          "map_fill_thomasv", Kokkos::RangePolicy<Exec>(exec, 0, len),
          KOKKOS_LAMBDA(std::size_t e) {
            const int s = static_cast<int>(e / m), i = static_cast<int>(e % m);
            if (i < sizes(s)) {
              const VRow r = vrow(seed, m, s, i, sizes(s));
              a(s, i) = r.a;
              b(s, i) = r.b;
              c0(s, i) = r.c;
              d0(s, i) = r.d;
            } else {
              a(s, i) = b(s, i) = c0(s, i) = d0(s, i) = poison;
            }
          });
      if (variant == VVariant::ComputingPadding) pad_vbatch(exec, a, b, c0, d0, sizes);
      time_solves(
          state, exec,
          [&] {
            Kokkos::deep_copy(exec, c, c0);
            Kokkos::deep_copy(exec, d, d0);
          },
          [&] {
            if (variant == VVariant::ComputingPadding)
              thomas_vbatch_computing_padding(exec, a, b, c, d, sizes, status, schedule);
            else
              thomas_vbatch_no_computing_padding(exec, a, b, c, d, sizes, status, schedule);
          });
      exec.fence();
      check_thomas_status(exec, status, m);
      Kokkos::parallel_reduce(
          "map_residual_thomasv", Kokkos::RangePolicy<Exec>(exec, 0, len),
          KOKKOS_LAMBDA(std::size_t e, double& w) {
            const int s = static_cast<int>(e / m), i = static_cast<int>(e % m), n = sizes(s);
            if (i >= n) return;
            double r = b(s, i) * d(s, i) - d0(s, i);
            if (i > 0) r += a(s, i) * d(s, i - 1);
            if (i < n - 1) r += c0(s, i) * d(s, i + 1);
            w = max_of(w, abs_of(r));
          },
          Kokkos::Max<double>(worst));
      Kokkos::parallel_reduce(
          "map_scale_thomasv", Kokkos::RangePolicy<Exec>(exec, 0, len),
          KOKKOS_LAMBDA(std::size_t e, double& w) {
            if (static_cast<int>(e % m) < sizes(e / m)) w = max_of(w, abs_of(d0(e / m, e % m)));
          },
          Kokkos::Max<double>(scale));
    }
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  if (!finish_thomas_point(state, worst, scale, double(rows), m, N,
                           perf::copy_bandwidth_of<Exec>()))
    return;
  state.counters["mean_rows"] = double(rows) / N;
  if (variant == VVariant::Packed) {
    int largest = 0;
    Kokkos::parallel_reduce(
        "map_vlargest", Kokkos::RangePolicy<Exec>(exec, 0, N),
        KOKKOS_LAMBDA(int s, int& w) { w = sizes(s) > w ? sizes(s) : w; },
        Kokkos::Max<int>(largest));
    state.SetLabel(
        to_string(impl::resolve_packed_schedule<Exec, double>(schedule, largest, rows, N)));
  } else if (variant == VVariant::ComputingPadding) {
    state.SetLabel(to_string(
        impl::resolve_vbatch_schedule<impl::RowCount::ComputingPadding, Exec, Layout, double>(
            schedule, m, N)));
  } else {
    state.SetLabel(to_string(
        impl::resolve_vbatch_schedule<impl::RowCount::NoComputingPadding, Exec, Layout, double>(
            schedule, m, N)));
  }
}

// -------------------------------------------------------------------------------- Hines

// "dir/AKO60sdax2lay.CNG.swc" -> "AKO60sdax2lay".
std::string cell_name(const std::string& path) {
  const std::string file = path.substr(path.find_last_of('/') + 1);
  return file.substr(0, file.find(".CNG"));
}

struct MapTree {
  std::string name;
  std::function<Tree()> make;
  int size;
};

std::vector<MapTree> map_trees(const std::vector<std::string>& kinds) {
  std::vector<MapTree> out;
  auto has = [&](const char* k) { return std::find(kinds.begin(), kinds.end(), k) != kinds.end(); };
  if (has("classes"))
    for (const auto& c : paper_classes())
      out.push_back({std::string("class-") + c.name, [id = c.id] { return paper_class_tree(id); },
                     paper_class_tree(c.id).size()});
  if (has("real"))
    for (const auto& f : test::real_morphology_files()) {
      const std::string base = cell_name(f);
      out.push_back(
          {"real-" + base, [f] { return read_swc(f).tree(); }, read_swc(f).tree().size()});
    }
  if (has("chain"))
    for (int n : {16, 100, 1000, 10000}) out.push_back({"chain", [n] { return chain_tree(n); }, n});
  if (has("star"))
    for (int n : {16, 100, 1000}) out.push_back({"star", [n] { return star_tree(n); }, n});
  if (has("random"))
    for (int n : {50, 200, 1000, 3000, 10000, 30000})
      out.push_back({"random", [n] { return random_tree(n, 7 + n); }, n});
  if (has("compartments"))
    for (const auto& f : test::real_morphology_files()) {
      const std::string base = cell_name(f);
      const auto make = [f] {
        SectionOptions o;
        o.max_segment_length_um = 20;
        return neuron_compartments(neuron_sections(read_swc(f), o), 100.0).tree;
      };
      out.push_back({"seg20-" + base, make, make().size()});
    }
  return out;
}

// One device tree alive at a time (large trees' plans are not small).
template <class Mem>
const DeviceTree<Mem>& cached_device_tree(const MapTree& t) {
  static std::string key;
  static DeviceTree<Mem>* tree = nullptr;  // the last one never freed: see flush_device_cache
  const std::string want = t.name + "/" + std::to_string(t.size);
  if (!tree || key != want) {
    delete tree;
    tree = nullptr;
    tree = new DeviceTree<Mem>(typename Mem::execution_space(), t.make());
    key = want;
  }
  return *tree;
}

template <class Exec, class Layout>
void BM_Hines(benchmark::State& state, HinesSchedule schedule, const MapTree& mt, long long total,
              const impl::BlockShape* shape = nullptr, int staged_shape = 0, int split_lanes = 0) {
  using Mem = typename Exec::memory_space;
  using Batch = HinesBatch<double, Layout, Mem>;
  using V = typename Batch::view_type;
  const Exec exec;
  const DeviceTree<Mem>& tree = cached_device_tree<Mem>(mt);
  const int n = tree.size();
  const long long n_sys = std::max<long long>(1, total / n);
  if (n_sys > std::numeric_limits<int>::max()) {
    state.SkipWithError("too many systems for an int count");
    return;
  }
  const int N = static_cast<int>(n_sys);
  const std::size_t len = static_cast<std::size_t>(N) * n;
  auto& pool = BufferPool<Mem>::instance();
  V u(pool.get(0, len), N, n), l(pool.get(1, len), N, n), d(pool.get(2, len), N, n),
      rhs(pool.get(3, len), N, n), d0(pool.get(4, len), N, n), rhs0(pool.get(5, len), N, n),
      r(pool.get(6, len), N, n);
  Batch batch(u, l, d, rhs);
  // Children per node, for a diagonal that dominates its row.
  Kokkos::View<int*, Mem> children("map_children", n);
  const auto parents = tree.parents();
  Kokkos::parallel_for(
      "map_children", Kokkos::RangePolicy<Exec>(exec, 1, n),
      KOKKOS_LAMBDA(int i) { Kokkos::atomic_add(&children(parents(i)), 1); });
  const std::uint64_t seed = 7000003ull * n + N;
  Kokkos::parallel_for(
      "map_fill_hines", Kokkos::RangePolicy<Exec>(exec, 0, len), KOKKOS_LAMBDA(std::size_t e) {
        const int s = static_cast<int>(e / n), i = static_cast<int>(e % n);
        const double uv = i == 0 ? 0.0 : hash_unit(seed, 4 * e);
        const double lv = i == 0 ? 0.0 : hash_unit(seed, 4 * e + 1);
        const double q = hash_unit(seed, 4 * e + 2);
        u(s, i) = uv;
        l(s, i) = lv;
        d0(s, i) = (q < 0 ? -1.0 : 1.0) * (1.0 + children(i) + 0.6 + 0.5 * q);
        rhs0(s, i) = hash_unit(seed, 4 * e + 3);
      });
  try {
    time_solves(
        state, exec,
        [&] {
          Kokkos::deep_copy(exec, d, d0);
          Kokkos::deep_copy(exec, rhs, rhs0);
        },
        [&] {
          if (shape)
            impl::solve_block_per_system(exec, tree, batch, *shape);
          else if (split_lanes)
            impl::solve_split_per_system(exec, tree, batch, split_lanes);
          else if (staged_shape)
            solve_staged_shape(exec, tree, batch, staged_shape);
          else
            solve(exec, tree, batch, schedule);
        });
  } catch (const InputError& e) {
    state.SkipWithError(e.what());
    return;
  }
  exec.fence();
  try {
    batch.check(exec);
  } catch (const std::exception& e) {
    state.SkipWithError((std::string("solve failed: ") + e.what()).c_str());
    return;
  }
  // r = A x - rhs0 per system (one thread per system scatters its rows), x in rhs.
  Kokkos::parallel_for(
      "map_residual_hines", Kokkos::RangePolicy<Exec>(exec, 0, N), KOKKOS_LAMBDA(int s) {
        for (int i = 0; i < n; ++i) r(s, i) = d0(s, i) * rhs(s, i) - rhs0(s, i);
        for (int i = 1; i < n; ++i) {
          const int p = parents(i);
          r(s, i) += l(s, i) * rhs(s, p);
          r(s, p) += u(s, i) * rhs(s, i);
        }
      });
  double worst = 0, scale = 0;
  Kokkos::parallel_reduce(
      "map_residual_max", Kokkos::RangePolicy<Exec>(exec, 0, len),
      KOKKOS_LAMBDA(std::size_t e, double& w) { w = max_of(w, abs_of(r(e / n, e % n))); },
      Kokkos::Max<double>(worst));
  Kokkos::parallel_reduce(
      "map_scale_hines", Kokkos::RangePolicy<Exec>(exec, 0, len),
      KOKKOS_LAMBDA(std::size_t e, double& w) { w = max_of(w, abs_of(rhs0(e / n, e % n))); },
      Kokkos::Max<double>(scale));
  const double rel = worst / scale;
  if (!(rel < 1e-8)) {
    state.SkipWithError(("residual " + std::to_string(rel)).c_str());
    return;
  }
  set_map_counters(state, double(len), perf::copy_bandwidth_of<Exec>());
  state.counters["max_rel_residual"] = rel;
  state.counters["nodes"] = n;
  state.counters["systems"] = N;
  const int height = tree.height();
  state.counters["height"] = height;
  const HinesSchedule resolved = resolve_schedule<Exec, Layout, double>(schedule, n, N, height);
  if (resolved == HinesSchedule::Split)
    state.counters["lanes"] = split_lanes ? split_lanes : impl::mono_split_lanes(exec, tree, N);
  std::string label = to_string(resolved);
  if (resolved == HinesSchedule::PerSystemStaged && !shape && !staged_shape)
    label +=
        impl::suffix_of(impl::resolve_staged_shape<Exec, Layout, double>(schedule, n, N, height));
  state.SetLabel(label);
}

// --------------------------------------------------------------------------- registration

// One map point: timed by the solves themselves, o.reps of them.
template <class F>
void register_point(const MapOptions& o, const std::string& name, F f) {
  benchmark::RegisterBenchmark(name.c_str(), f)
      ->UseManualTime()
      ->Iterations(o.reps)
      ->Unit(benchmark::kMillisecond);
}

// "Thomas/<backend>/<layout>/<schedule>/m:<m>/total:<t>" (scripts/solver_map.py reads it).
template <class Layout>
std::string thomas_point(const std::string& backend, const std::string& schedule, int m, int t) {
  return "Thomas/" + backend + "/" + Layout::name + "/" + schedule + "/m:" + std::to_string(m) +
         "/total:" + std::to_string(t);
}

// "Hines/<backend>/<layout>/<schedule>/<tree>/n:<nodes>/total:<t>".
template <class Layout>
std::string hines_point(const std::string& backend, const std::string& schedule, const MapTree& mt,
                        int t) {
  return "Hines/" + backend + "/" + Layout::name + "/" + schedule + "/" + mt.name +
         "/n:" + std::to_string(mt.size) + "/total:" + std::to_string(t);
}

template <class Exec, class Layout>
void register_thomas(const MapOptions& o, const std::string& backend,
                     const std::vector<int>& totals) {
  for (int t : totals)
    for (int m : o.rows)
      for (auto s : {ThomasSchedule::Auto, ThomasSchedule::PerSystem,
                     ThomasSchedule::PerSystemOnChip, ThomasSchedule::TeamPerSystem,
                     ThomasSchedule::WarpPerSystem, ThomasSchedule::TeamPerSystemInMemory,
                     ThomasSchedule::SimdTiles, ThomasSchedule::TeamPerSystemTwoPass}) {
        if (m > (1ll << t)) continue;
        // Tiles of consecutive systems: interleaved storage, measured on the host (on GPUs
        // they are the one-thread-per-system sweep).
        if (s == ThomasSchedule::SimdTiles && !is_host_backend<Exec>()) continue;
        // The in-memory team is made for systems past what a block holds: from 1,000 rows.
        if (s == ThomasSchedule::TeamPerSystemInMemory && m < 1000) continue;
        // The two-pass block is made for systems past what one warp's registers hold.
        if (s == ThomasSchedule::TeamPerSystemTwoPass && m < 256) continue;
        register_point(
            o, thomas_point<Layout>(backend, to_string(s), m, t),
            [s, m, t](benchmark::State& st) { BM_Thomas<Exec, Layout>(st, s, m, 1ll << t); });
      }
  for (int t : totals)
    for (int m : o.rows)
      for (int w : o.two_pass_warps) {
        if (m > (1ll << t) || m < 256) continue;
        register_point(
            o, thomas_point<Layout>(backend, "TeamPerSystemTwoPass@" + std::to_string(w), m, t),
            [w, m, t](benchmark::State& st) {
              BM_Thomas<Exec, Layout>(st, ThomasSchedule::TeamPerSystemTwoPass, m, 1ll << t, w);
            });
      }
  // Systems a block: what the Full-Interleaved block on GPUs takes.
  if (is_host_backend<Exec>() || !std::is_same<Layout, layouts::FullInterleaved>::value) return;
  for (int t : totals)
    for (int m : o.rows)
      for (int p : o.two_pass_systems) {
        if (m > (1ll << t) || m < 256) continue;
        register_point(
            o, thomas_point<Layout>(backend, "TeamPerSystemTwoPass@s" + std::to_string(p), m, t),
            [p, m, t](benchmark::State& st) {
              BM_Thomas<Exec, Layout>(st, ThomasSchedule::TeamPerSystemTwoPass, m, 1ll << t, 0, p);
            });
      }
}

// "ThomasV/<backend>/<layout>/<schedule>/<variant>-<spread>/m:<m_max>/total:<t>".
template <class Layout>
std::string thomasv_point(const std::string& backend, const std::string& schedule,
                          const std::string& kind, int m, int t) {
  return "ThomasV/" + backend + "/" + Layout::name + "/" + schedule + "/" + kind +
         "/m:" + std::to_string(m) + "/total:" + std::to_string(t);
}

template <class Exec, class Layout>
void register_thomasv(const MapOptions& o, const std::string& backend,
                      const std::vector<int>& totals) {
  constexpr bool flat = std::is_same<Layout, layouts::Flat>::value;
  for (const auto& vtext : o.vvariants) {
    const VVariant v = vvariant_of(vtext);
    for (const auto& spread : o.vspreads)
      for (int t : totals)
        for (int m : o.vrows)
          for (auto s : {ThomasSchedule::Auto, ThomasSchedule::PerSystem,
                         ThomasSchedule::PerSystemOnChip, ThomasSchedule::TeamPerSystem,
                         ThomasSchedule::WarpPerSystem, ThomasSchedule::TeamPerSystemInMemory,
                         ThomasSchedule::SimdTiles, ThomasSchedule::TeamPerSystemTwoPass}) {
            if (m > (1ll << t)) continue;
            // Packed storage is its own (Flat) layout, solved by a thread or a warp a system.
            if (v == VVariant::Packed &&
                (!flat || (s != ThomasSchedule::Auto && s != ThomasSchedule::PerSystem &&
                           s != ThomasSchedule::WarpPerSystem)))
              continue;
            if (s == ThomasSchedule::SimdTiles && !is_host_backend<Exec>()) continue;
            if (s == ThomasSchedule::TeamPerSystemInMemory && m < 1000) continue;
            if (s == ThomasSchedule::TeamPerSystemTwoPass && m < 256) continue;
            const int low = vspread_low(spread, m);
            register_point(o,
                           thomasv_point<Layout>(backend, to_string(s), vtext + "-" + spread, m, t),
                           [s, v, low, m, t](benchmark::State& st) {
                             BM_ThomasV<Exec, Layout>(st, s, v, low, m, 1ll << t);
                           });
          }
  }
}

template <class Exec, class Layout>
void register_hines(const MapOptions& o, const std::string& backend, const std::vector<int>& totals,
                    const std::vector<MapTree>& trees) {
  // Tree-major: one device tree is built per tree and reused by its points.
  for (const auto& mt : trees)
    for (int t : totals)
      for (auto s : {HinesSchedule::Auto, HinesSchedule::PerSystem, HinesSchedule::PerSystemOnChip,
                     HinesSchedule::TeamPerSystem, HinesSchedule::WarpPerSystem,
                     HinesSchedule::BlockPerSystem, HinesSchedule::PerSystemStaged,
                     HinesSchedule::Split, HinesSchedule::SimdTiles}) {
        if (mt.size > (1ll << t)) continue;
        if (s == HinesSchedule::SimdTiles && !is_host_backend<Exec>()) continue;
        register_point(
            o, hines_point<Layout>(backend, to_string(s), mt, t),
            [s, mt, t](benchmark::State& st) { BM_Hines<Exec, Layout>(st, s, mt, 1ll << t); });
      }
  for (const auto& mt : trees)
    for (int t : totals)
      for (const std::string& text : o.block_shapes) {
        if (mt.size > (1ll << t)) continue;
        const impl::BlockShape shape = block_shape_of(text);
        register_point(o, hines_point<Layout>(backend, "BlockPerSystem@" + text, mt, t),
                       [shape, mt, t](benchmark::State& st) {
                         BM_Hines<Exec, Layout>(st, HinesSchedule::BlockPerSystem, mt, 1ll << t,
                                                &shape);
                       });
      }
  for (const auto& mt : trees)
    for (int t : totals)
      for (int k : o.split_lanes) {
        if (mt.size > (1ll << t) || is_host_backend<Exec>()) continue;
        register_point(o, hines_point<Layout>(backend, "Split@" + std::to_string(k), mt, t),
                       [k, mt, t](benchmark::State& st) {
                         BM_Hines<Exec, Layout>(st, HinesSchedule::Split, mt, 1ll << t, nullptr, 0,
                                                k);
                       });
      }
  for (const auto& mt : trees)
    for (int t : totals)
      for (const std::string& text : o.staged_shapes) {
        if (mt.size > (1ll << t)) continue;
        const int shape = staged_shape_of(text);
        register_point(o, hines_point<Layout>(backend, "PerSystemStaged@" + text, mt, t),
                       [shape, mt, t](benchmark::State& st) {
                         BM_Hines<Exec, Layout>(st, HinesSchedule::PerSystemStaged, mt, 1ll << t,
                                                nullptr, shape);
                       });
      }
}

template <class Exec>
void register_backend(const MapOptions& o, const std::string& backend,
                      const std::vector<int>& totals, const std::vector<MapTree>& trees) {
  auto has = [&](const char* f) {
    return std::find(o.families.begin(), o.families.end(), f) != o.families.end();
  };
  if (has("thomas")) {
    register_thomas<Exec, layouts::Flat>(o, backend, totals);
    register_thomas<Exec, layouts::FullInterleaved>(o, backend, totals);
  }
  if (has("thomasv")) {
    register_thomasv<Exec, layouts::Flat>(o, backend, totals);
    register_thomasv<Exec, layouts::FullInterleaved>(o, backend, totals);
  }
  if (has("hines")) {
    // Layout-major inside a tree would rebuild the plans; interleave layouts per tree.
    for (const auto& mt : trees) {
      register_hines<Exec, layouts::Flat>(o, backend, totals, {mt});
      register_hines<Exec, layouts::FullInterleaved>(o, backend, totals, {mt});
    }
  }
}

}  // namespace hinesbatch::solver_map

int main(int argc, char** argv) {
  using namespace hinesbatch;
  using namespace hinesbatch::solver_map;
  Kokkos::ScopeGuard kokkos(argc, argv);
  MapOptions o;
  try {
    o = parse_map_options(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hinesbatch_solver_map: %s\n", e.what());
    return 2;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  using Exec = Kokkos::DefaultExecutionSpace;
  using Host = Kokkos::DefaultHostExecutionSpace;
  perf::g_copy_bandwidth = perf::measure_copy_bandwidth(Exec(), std::size_t(1) << 30);
  perf::g_host_copy_bandwidth = std::is_same<Exec, Host>::value
                                    ? perf::g_copy_bandwidth
                                    : perf::measure_copy_bandwidth(Host(), std::size_t(1) << 30);
  benchmark::AddCustomContext("execution_space", Exec::name());
  benchmark::AddCustomContext("copy_bandwidth_GBps", std::to_string(perf::g_copy_bandwidth * 1e-9));
  benchmark::AddCustomContext("host_execution_space", Host::name());
  benchmark::AddCustomContext("host_copy_bandwidth_GBps",
                              std::to_string(perf::g_host_copy_bandwidth * 1e-9));
  benchmark::AddCustomContext("host_concurrency", std::to_string(Host().concurrency()));
  const auto trees = map_trees(o.trees);
  if (!o.export_trees.empty()) {
    std::FILE* f = std::fopen(o.export_trees.c_str(), "wb");
    auto put = [&](std::int32_t v) { return std::fwrite(&v, sizeof v, 1, f) == 1; };
    bool ok = f && put(static_cast<std::int32_t>(trees.size()));
    for (std::size_t k = 0; ok && k < trees.size(); ++k) {
      const Tree t = trees[k].make();
      ok = put(t.size());
      for (int i = 0; ok && i < t.size(); ++i) ok = put(t.parent(i));
      std::printf("class%zu %s %d %d\n", k, trees[k].name.c_str(), t.size(), t.height());
    }
    if (!f || std::fclose(f) != 0 || !ok) {
      std::fprintf(stderr, "hinesbatch_solver_map: cannot write %s\n", o.export_trees.c_str());
      return 1;
    }
    return 0;
  }
  auto has_backend = [&](const char* b) {
    return std::find(o.backends.begin(), o.backends.end(), b) != o.backends.end();
  };
  if (has_backend("device")) register_backend<Exec>(o, "Device", o.totals, trees);
  if (has_backend("host") && !std::is_same<Exec, Host>::value)
    register_backend<Host>(o, "Host", o.host_totals, trees);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
