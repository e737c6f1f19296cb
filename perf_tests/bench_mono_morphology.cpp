// Mono-morphology batches (the cuHinesBatch paper's Figs. 3-5): the six paper classes x
// batch sizes x layouts on the default execution space, the sequential one-core baseline
// and the papers' Multicore (OpenMP over systems on Flat; in an OpenMP build that is
// Mono/Flat), and the SIMD-tile schedule on the host (Mono/SimdTiles: every OpenMP thread;
// SimdTiles1Core: Kokkos::Serial, one core, against Sequential).
//
// Byte model (double): each solve reads u, l, d, rhs once and writes rhs once:
// 5 x sizeof(T) bytes per node; the shared parent array is not counted (it is cached).
// That is what the team schedule moves (Mono/Team*: a team per system, hines_team.hpp); the
// one-thread-per-system sweeps (Mono/Flat, FullInterleaved, ...: cuHinesBatch's kernels)
// also write d' and rhs' and read them back, about 10 x sizeof(T) per node.
// Every timing checks afterwards that the solution it left is one: the largest relative
// residual (long double) of three systems is reported as max_rel_residual.
// Time: solve() alone, fenced; d and rhs are restored from a pristine copy outside the
// timed region because a solve overwrites them.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/hinesbatch.hpp"
#include "perf_common.hpp"
#include "random_systems.hpp"

namespace {

using namespace hinesbatch;

template <class T>
const test::HostSystems<T>& cached_systems(const Tree& tree, int cls, int num_systems) {
  // Inputs are generated once per (class, N) and reused by every layout: fresh random
  // data per process run, identical across the layouts compared.
  static std::map<std::pair<int, int>, std::unique_ptr<test::HostSystems<T>>> cache;
  auto& slot = cache[{cls, num_systems}];
  if (!slot) {
    cache.clear();  // keep one input set alive: large batches take gigabytes
    auto& fresh = cache[{cls, num_systems}];
    fresh = std::make_unique<test::HostSystems<T>>(
        test::random_systems<T>(tree, num_systems, 1000 + cls));
    return *fresh;
  }
  return *slot;
}

template <class T>
void BM_Sequential(benchmark::State& state) {
  const auto& cls = paper_classes().at(state.range(0));
  const int num_systems = static_cast<int>(state.range(1));
  const Tree tree = paper_class_tree(cls.id);
  const auto& in = cached_systems<T>(tree, static_cast<int>(state.range(0)), num_systems);
  std::vector<T> d, x;
  for (auto _ : state) {
    state.PauseTiming();
    d = in.d;
    x = in.rhs;
    state.ResumeTiming();
    hines_solve_serial_batch(tree, num_systems, in.u.data(), in.l.data(), d.data(), x.data());
    benchmark::DoNotOptimize(x.data());
  }
  const double nodes = double(num_systems) * tree.size();
  perf::set_counters(state, nodes, 5.0 * sizeof(T) * nodes);
  state.SetLabel(cls.name);
}

template <class T, class Layout, class Exec, HinesSchedule kSchedule = HinesSchedule::PerSystem>
void BM_Solve(benchmark::State& state) {
  const auto& cls = paper_classes().at(state.range(0));
  const int num_systems = static_cast<int>(state.range(1));
  int bs = state.range(2) > 0 ? static_cast<int>(state.range(2)) : 128;
  const Tree tree = paper_class_tree(cls.id);
  if (std::is_same<Layout, layouts::BlockShared>::value) {
    const long fit =
        Kokkos::TeamPolicy<Exec>::scratch_size_max(0) / (long(tree.size()) * long(sizeof(T))) - 1;
    bs = static_cast<int>(std::min<long>(bs, fit));
    if (bs < 1) {
      state.SkipWithError("a BlockShared tile does not fit in team scratch");
      return;
    }
  }
  const auto& in = cached_systems<T>(tree, static_cast<int>(state.range(0)), num_systems);
  Exec exec;
  using Batch = HinesBatch<T, Layout, typename Exec::memory_space>;
  Batch batch(num_systems, tree.size(), bs), pristine(num_systems, tree.size(), bs);
  pristine.fill(exec, in.u, in.l, in.d, in.rhs);
  Kokkos::deep_copy(exec, batch.u(), pristine.u());
  Kokkos::deep_copy(exec, batch.l(), pristine.l());
  // range(3): the team plan's longest piece; range(4): the warp plan's lanes per system;
  // range(5): the on-chip schedule's kept nodes (0: chosen from the tree / the scratch).
  DeviceTree<typename Exec::memory_space> dtree(exec, tree, static_cast<int>(state.range(3)),
                                                static_cast<int>(state.range(4)),
                                                static_cast<int>(state.range(5)));
  for (auto _ : state) {
    Kokkos::deep_copy(exec, batch.d(), pristine.d());
    Kokkos::deep_copy(exec, batch.rhs(), pristine.rhs());
    exec.fence();
    const auto t0 = std::chrono::steady_clock::now();
    solve(exec, dtree, batch, kSchedule);
    exec.fence();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  batch.check(exec);  // a benchmark of a failed solve is worthless
  std::vector<T> x;
  batch.solution_to_host(exec, x);
  double residual = 0;
  const int n = tree.size();
  for (int s : {0, num_systems / 2, num_systems - 1}) {
    const std::size_t o = static_cast<std::size_t>(s) * n;
    residual =
        std::max(residual, relative_residual(tree, in.u.data() + o, in.l.data() + o,
                                             in.d.data() + o, in.rhs.data() + o, x.data() + o));
  }
  if (!(residual <= (std::is_same<T, float>::value ? 1e-4 : 1e-12))) {
    state.SkipWithError(("residual " + std::to_string(residual) + " of the solution").c_str());
    return;
  }
  state.counters["max_rel_residual"] = residual;
  const double nodes = double(num_systems) * tree.size();
  const double bytes = 5.0 * sizeof(T) * nodes;
  perf::set_counters(state, nodes, bytes);
  state.counters["frac_copy_bw"] = benchmark::Counter(
      bytes / perf::copy_bandwidth_of<Exec>(), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["block_size"] = bs;
  if (kSchedule == HinesSchedule::WarpPerSystem) state.counters["lanes"] = dtree.warp_plan().lanes;
  if (kSchedule == HinesSchedule::PerSystemOnChip)
    state.counters["kept_nodes"] = on_chip_kept_nodes<T, Exec>(dtree);
  // Auto: the schedule it resolved to, beside the class.
  const HinesSchedule ran = resolve_schedule<Exec, Layout, T>(kSchedule, tree.size());
  state.SetLabel(kSchedule == HinesSchedule::Auto
                     ? std::string(cls.name) + " Auto=" + to_string(ran)
                     : std::string(cls.name));
}

// The SIMD-tile schedule (solvers/simd_tiles_solve.hpp) on a host space: tiles of W =
// simd_tile_lanes<T, Exec>() systems (the vector width this binary is compiled for), the
// batch first written by the solve's schedule (fill_tiles: first-touch placement). Same
// byte model and timing as BM_Solve; the pristine d and rhs are placed the same way.
// kWallClock: manual wall-clock time, as BM_Solve (the multi-threaded runs); otherwise CPU
// time with the restores paused, as BM_Sequential (SimdTiles1Core: one core against one
// core, measured the same way, also when other processes share the machine).
template <class T, class Exec, bool kWallClock>
void BM_SimdTiles(benchmark::State& state) {
  const auto& cls = paper_classes().at(state.range(0));
  const int num_systems = static_cast<int>(state.range(1));
  const Tree tree = paper_class_tree(cls.id);
  const auto& in = cached_systems<T>(tree, static_cast<int>(state.range(0)), num_systems);
  Exec exec;
  auto batch = make_simd_tile_batch<T>(exec, num_systems, tree.size());
  fill_tiles(exec, batch, in.u, in.l, in.d, in.rhs);
  using View = typename decltype(batch)::view_type;
  const int w = batch.block_size();
  const View d0 = layouts::BlockInterleaved::allocate<View>("d0", num_systems, tree.size(), w);
  const View rhs0 = layouts::BlockInterleaved::allocate<View>("rhs0", num_systems, tree.size(), w);
  touch_tiles(exec, d0);
  touch_tiles(exec, rhs0);
  Kokkos::deep_copy(exec, d0, batch.d());
  Kokkos::deep_copy(exec, rhs0, batch.rhs());
  DeviceTree<typename Exec::memory_space> dtree(exec, tree);
  for (auto _ : state) {
    if (!kWallClock) state.PauseTiming();
    Kokkos::deep_copy(exec, batch.d(), d0);
    Kokkos::deep_copy(exec, batch.rhs(), rhs0);
    exec.fence();
    if (!kWallClock) state.ResumeTiming();
    const auto t0 = std::chrono::steady_clock::now();
    solve_simd_tiles(exec, dtree, batch);
    exec.fence();
    if (kWallClock)
      state.SetIterationTime(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  batch.check(exec);
  const double nodes = double(num_systems) * tree.size();
  const double bytes = 5.0 * sizeof(T) * nodes;
  perf::set_counters(state, nodes, bytes);
  state.counters["frac_copy_bw"] = benchmark::Counter(
      bytes / perf::copy_bandwidth_of<Exec>(), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["block_size"] = w;
  state.counters["threads"] = Exec().concurrency();
  state.SetLabel(cls.name);
}

using Default = Kokkos::DefaultExecutionSpace;

// Registered class by class and batch size, every method in a row, so that one input
// set (up to gigabytes) is generated once and shared by all methods compared on it.
// range(0): paper class 0..5; range(1): number of neurons; range(2): block size.
template <class T>
void register_paper_benchmarks() {
  using benchmark::RegisterBenchmark;
  for (int c = 0; c < 6; ++c) {
    for (int neurons : {256, 2560, 25600, 256000}) {
      const std::string suffix =
          std::string("/") + paper_classes()[c].name + "/" + std::to_string(neurons);
      auto add = [&](const std::string& name, void (*fn)(benchmark::State&), bool manual) {
        auto* b = RegisterBenchmark((name + suffix).c_str(), fn)
                      ->Args({c, neurons, 128, 0, 0, 0})
                      ->Unit(benchmark::kMillisecond);
        if (manual) b->UseManualTime();
      };
      add("Mono/Sequential", BM_Sequential<T>, false);
      add("Mono/Flat", BM_Solve<T, layouts::Flat, Default>, true);
      add("Mono/FullInterleaved", BM_Solve<T, layouts::FullInterleaved, Default>, true);
      add("Mono/BlockInterleaved", BM_Solve<T, layouts::BlockInterleaved, Default>, true);
      add("Mono/BlockShared", BM_Solve<T, layouts::BlockShared, Default>, true);
      constexpr auto team = HinesSchedule::TeamPerSystem;
      add("Mono/TeamFlat", BM_Solve<T, layouts::Flat, Default, team>, true);
      add("Mono/TeamFullInterleaved", BM_Solve<T, layouts::FullInterleaved, Default, team>, true);
      add("Mono/TeamBlockInterleaved", BM_Solve<T, layouts::BlockInterleaved, Default, team>, true);
      constexpr auto warp = HinesSchedule::WarpPerSystem;
      add("Mono/WarpFlat", BM_Solve<T, layouts::Flat, Default, warp>, true);
      add("Mono/WarpFullInterleaved", BM_Solve<T, layouts::FullInterleaved, Default, warp>, true);
      constexpr auto on_chip = HinesSchedule::PerSystemOnChip;
      add("Mono/OnChipFlat", BM_Solve<T, layouts::Flat, Default, on_chip>, true);
      add("Mono/OnChipFullInterleaved", BM_Solve<T, layouts::FullInterleaved, Default, on_chip>,
          true);
      add("Mono/OnChipBlockInterleaved", BM_Solve<T, layouts::BlockInterleaved, Default, on_chip>,
          true);
      // What a caller gets without choosing: HinesSchedule::Auto on each input layout.
      constexpr auto automatic = HinesSchedule::Auto;
      add("Mono/AutoFlat", BM_Solve<T, layouts::Flat, Default, automatic>, true);
      add("Mono/AutoFullInterleaved", BM_Solve<T, layouts::FullInterleaved, Default, automatic>,
          true);
#if defined(KOKKOS_ENABLE_OPENMP) && defined(KOKKOS_ENABLE_CUDA)
      // cuHinesBatch's CPU baseline
      add("Mono/Multicore", BM_Solve<T, layouts::Flat, Kokkos::OpenMP>, true);
#endif
#if defined(KOKKOS_ENABLE_OPENMP)
      add("Mono/SimdTiles", BM_SimdTiles<T, Kokkos::OpenMP, true>, true);  // every host thread
#endif
#if defined(KOKKOS_ENABLE_SERIAL)
      add("Mono/SimdTiles1Core", BM_SimdTiles<T, Kokkos::Serial, false>, false);  // vs Sequential
#endif
    }
  }
  // The cuHinesBatch paper's Fig. 4: block-size sweep for Block-Interleaved and
  // Block-Shared, medium-high class.
  for (int bs : {32, 64, 128, 256, 512}) {
    for (auto [name, fn] :
         {std::pair{"BlockSize/BlockInterleaved", BM_Solve<T, layouts::BlockInterleaved, Default>},
          std::pair{"BlockSize/BlockShared", BM_Solve<T, layouts::BlockShared, Default>}})
      RegisterBenchmark((std::string(name) + "/" + std::to_string(bs)).c_str(), fn)
          ->Args({3, 256000, bs, 0, 0, 0})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
  }
}

// fp32: cuHinesBatch's Full-Interleaved kernel against the team schedule (Mono32/...).
void register_float_benchmarks() {
  using benchmark::RegisterBenchmark;
  constexpr auto team = HinesSchedule::TeamPerSystem;
  constexpr auto warp = HinesSchedule::WarpPerSystem;
  for (int c = 0; c < 6; ++c)
    for (int neurons : {25600, 256000}) {
      const std::string suffix =
          std::string("/") + paper_classes()[c].name + "/" + std::to_string(neurons);
      for (auto [name, fn] :
           {std::pair{"Mono32/FullInterleaved", BM_Solve<float, layouts::FullInterleaved, Default>},
            std::pair{"Mono32/TeamFlat", BM_Solve<float, layouts::Flat, Default, team>},
            std::pair{"Mono32/TeamFullInterleaved",
                      BM_Solve<float, layouts::FullInterleaved, Default, team>},
            std::pair{"Mono32/WarpFlat", BM_Solve<float, layouts::Flat, Default, warp>},
            std::pair{"Mono32/WarpFullInterleaved",
                      BM_Solve<float, layouts::FullInterleaved, Default, warp>},
            std::pair{"Mono32/OnChipFullInterleaved",
                      BM_Solve<float, layouts::FullInterleaved, Default,
                               HinesSchedule::PerSystemOnChip>}})
        RegisterBenchmark((std::string(name) + suffix).c_str(), fn)
            ->Args({c, neurons, 128, 0, 0, 0})
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
    }
}

// The team plan's piece length (MonoPieces/TeamFlat/<class>/25600/.../<length>): the tuning
// behind TeamTreePlan::build's default.
void register_piece_benchmarks() {
  for (int c = 0; c < 6; ++c)
    for (int len : {2, 4, 8, 16, 32, 64})  // 25,600 teams of a warp fill an H100
      benchmark::RegisterBenchmark(
          (std::string("MonoPieces/TeamFlat/") + paper_classes()[c].name + "/25600").c_str(),
          BM_Solve<double, layouts::Flat, Default, HinesSchedule::TeamPerSystem>)
          ->Args({c, 25600, 128, len, 0, 0})
          ->UseManualTime()
          ->Unit(benchmark::kMillisecond);
}

// The warp plan's lanes per system (MonoLanes/WarpFlat/<class>/<N>/.../<lanes>): the check
// of WarpTreePlan::choose_lanes.
void register_lane_benchmarks() {
  for (int c = 0; c < 6; ++c)
    for (int neurons : {25600, 256000})
      for (int lanes : {4, 8, 16, 32})
        benchmark::RegisterBenchmark(
            (std::string("MonoLanes/WarpFlat/") + paper_classes()[c].name + "/" +
             std::to_string(neurons))
                .c_str(),
            BM_Solve<double, layouts::Flat, Default, HinesSchedule::WarpPerSystem>)
            ->Args({c, neurons, 128, 0, lanes, 0})
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
}

// The on-chip schedule's kept nodes (MonoKept/OnChipFullInterleaved/<class>/<N>/.../<K>):
// bytes per node against warps per SM (fewer kept nodes: less scratch, more warps).
void register_kept_benchmarks() {
  for (int c = 0; c < 6; ++c)
    for (int neurons : {25600, 256000})
      for (int kept : {16, 32, 48, 64, 96})
        benchmark::RegisterBenchmark(
            (std::string("MonoKept/OnChipFullInterleaved/") + paper_classes()[c].name + "/" +
             std::to_string(neurons))
                .c_str(),
            BM_Solve<double, layouts::FullInterleaved, Default, HinesSchedule::PerSystemOnChip>)
            ->Args({c, neurons, 128, 0, 0, kept})
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
}

[[maybe_unused]] const bool registered =
    (register_paper_benchmarks<double>(), register_float_benchmarks(), register_piece_benchmarks(),
     register_lane_benchmarks(), register_kept_benchmarks(), true);

}  // namespace
