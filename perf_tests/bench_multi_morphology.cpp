// Multi-morphology batches (the ThomasBatch paper's §4): every cell its own tree.
//  - Fig. 6: the mono-morphology kernel on one shared tree against the paths for cells
//    that all differ (same size, branch ratios 10% and 50%), 25,600 cells.
//  - Fig. 14: 512-node binary trees of 2, 3 and 4 levels, 256 to 256,000 cells.
//  - Mixed real cells: the NeuroMorpho files of ../shared (when present), 1,000 to
//    256,000 cells: RealMixed one node per SWC point with random systems (the paper's
//    input), RealCable the same files as the simulation discretises them (Import3d's
//    sections, NEURON's compartments at d_lambda 0.1) with the simulation's matrix
//    (cable_matrix).
// Paths: Mono (Full-Interleaved, one tree), Naive (interleaved, per-cell parents),
// NaiveSorted (the same after sorting cells by size), LevelLaunches (the ThomasBatch
// paper's scheme: one launch per level and sweep), TeamLevels (one launch, a team per group
// of cells), PackedTeam and PackedLanes (cells packed without padding, a team per cell
// eliminating it on chip: PackedSchedule::TeamPieces, hines_team.hpp, and
// PackedSchedule::CellLanes, hines_lanes.hpp), MonoTeam (the mono-morphology team schedule
// on one shared tree), MonoAuto (the mono-morphology Auto on one shared tree: for the real
// mixes, MonoMeanSize, the shared file nearest the mix's mean size for every cell), Grouped
// (GroupedMultiBatch: the cells sharing a tree as one mono-morphology batch under Auto,
// Full-Interleaved, the groups side by side on streams of their own), GroupedFlat (the same
// in Flat storage), GroupedInOrder (the groups one after another on one stream) and
// GroupedOwnAuto (Auto decided by each group's own count instead of the whole batch's),
// GroupedNoSplit (no group on the split schedule), GroupedSplit<K> (every group on the
// split schedule with K lanes per cell) and GroupedUpTo16 (the grouped rule's lanes allowed
// up to 16); and
// Multi/RealMixed/<cells>/MonoSameTrees (to 25,600 cells), the mono-morphology rate of the mix's
// own trees (bench_mono_same_trees).
//
// Byte model: 5 x sizeof(T) bytes per node (read u, l, d, rhs, write x), as the
// mono-morphology benchmarks; per-cell parent arrays and branch metadata are not counted,
// so a path that needs them shows it as a lower fraction of the copy bandwidth.
// The planner runs once per input set, untimed; its time is reported as plan_seconds.
#include <benchmark/benchmark.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "cable_systems.hpp"
#include "hinesbatch/hinesbatch.hpp"
#include "perf_common.hpp"
#include "random_systems.hpp"
#include "shared_data.hpp"

namespace {

using namespace hinesbatch;
using Default = Kokkos::DefaultExecutionSpace;
using Mem = Default::memory_space;
using Clock = std::chrono::steady_clock;

enum class Path {
  Mono,
  Naive,
  NaiveSorted,
  LevelLaunches,
  TeamLevels,
  PackedTeam,
  PackedLanes,
  MonoTeam,
  MonoAuto,
  Grouped,
  GroupedFlat,
  GroupedInOrder,
  GroupedOwnAuto,
  GroupedNoSplit,
  GroupedSplit2,
  GroupedSplit4,
  GroupedSplit8,
  GroupedSplit16,
  GroupedUpTo16
};
const char* path_name(Path p) {
  switch (p) {
    case Path::Mono:
      return "Mono";
    case Path::Naive:
      return "Naive";
    case Path::NaiveSorted:
      return "NaiveSorted";
    case Path::LevelLaunches:
      return "LevelLaunches";
    case Path::PackedTeam:
      return "PackedTeam";
    case Path::PackedLanes:
      return "PackedLanes";
    case Path::MonoTeam:
      return "MonoTeam";
    case Path::MonoAuto:
      return "MonoAuto";
    case Path::Grouped:
      return "Grouped";
    case Path::GroupedFlat:
      return "GroupedFlat";
    case Path::GroupedInOrder:
      return "GroupedInOrder";
    case Path::GroupedOwnAuto:
      return "GroupedOwnAuto";
    case Path::GroupedNoSplit:
      return "GroupedNoSplit";
    case Path::GroupedSplit2:
      return "GroupedSplit2";
    case Path::GroupedSplit4:
      return "GroupedSplit4";
    case Path::GroupedSplit8:
      return "GroupedSplit8";
    case Path::GroupedSplit16:
      return "GroupedSplit16";
    case Path::GroupedUpTo16:
      return "GroupedUpTo16";
    default:
      return "TeamLevels";
  }
}

// One input set alive at a time: cells and their systems in canonical order.
struct Input {
  std::string key;
  std::vector<Tree> cells;
  test::HostSystems<double> sys;
  std::int64_t nodes = 0;
};
std::unique_ptr<Input> g_input;

// Real cells as the simulation discretises them, `count` of them cycling through the kinds.
struct CycledCells {
  std::vector<NeuronCompartments> kinds;
  int count = 0;
};
// Trees get random systems; compartments get the simulation's matrix. Cells that share a
// tree share its systems' pattern, not their values.
std::size_t count_of(const std::vector<Tree>& cells) { return cells.size(); }
std::size_t count_of(const CycledCells& cells) { return cells.kinds.empty() ? 0 : cells.count; }
const Tree& tree_at(const std::vector<Tree>& cells, std::size_t c) { return cells[c]; }
const Tree& tree_at(const CycledCells& cells, std::size_t c) {
  return cells.kinds[c % cells.kinds.size()].tree;
}
test::HostSystems<double> systems_at(const std::vector<Tree>& cells, std::size_t c) {
  return test::random_systems<double>(cells[c], 1, 7919 * c + 17);
}
test::HostSystems<double> systems_at(const CycledCells& cells, std::size_t c) {
  return test::cable_systems<double>(cells.kinds[c % cells.kinds.size()], 1, 7919 * c + 17);
}

// Each cell's systems depend on its index alone, so every host thread makes some of them,
// straight into their place: a batch of 256,000 real cells (3e8 nodes) took most of a
// benchmark run's time made one cell after another and appended.
template <class MakeCells>
const Input& input(const std::string& key, MakeCells make) {
  if (!g_input || g_input->key != key) {
    g_input.reset();
    auto in = std::make_unique<Input>();
    in->key = key;
    const auto made = make();
    const std::size_t count = count_of(made);
    std::vector<std::size_t> offset(count + 1, 0);
    in->cells.reserve(count);
    for (std::size_t c = 0; c < count; ++c) {
      in->cells.push_back(tree_at(made, c));
      offset[c + 1] = offset[c] + static_cast<std::size_t>(in->cells[c].size());
    }
    in->nodes = static_cast<std::int64_t>(offset[count]);
    auto& s = in->sys;
    s.num_systems = static_cast<int>(count);
    s.num_nodes = count > 0 ? in->cells[0].size() : 0;
    for (auto* v : {&s.u, &s.l, &s.d, &s.rhs}) v->resize(offset[count]);
    constexpr std::size_t kChunk = 64;
    std::atomic<std::size_t> next{0};
    const auto work = [&] {
      for (std::size_t first; (first = next.fetch_add(kChunk)) < count;)
        for (std::size_t c = first; c < std::min(count, first + kChunk); ++c) {
          const auto one = systems_at(made, c);
          std::copy(one.u.begin(), one.u.end(), s.u.begin() + offset[c]);
          std::copy(one.l.begin(), one.l.end(), s.l.begin() + offset[c]);
          std::copy(one.d.begin(), one.d.end(), s.d.begin() + offset[c]);
          std::copy(one.rhs.begin(), one.rhs.end(), s.rhs.begin() + offset[c]);
        }
    };
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < std::max(1u, std::thread::hardware_concurrency()); ++t)
      helpers.emplace_back(work);
    work();
    for (auto& h : helpers) h.join();
    g_input = std::move(in);
  }
  return *g_input;
}

// Every timed solve starts from the inputs restore() puts back (untimed).
// Seconds of one solve_once after restore, each fenced apart.
double timed_once(const Default& exec, const std::function<void()>& restore,
                  const std::function<void()>& solve_once) {
  restore();
  exec.fence();
  const auto t0 = Clock::now();
  solve_once();
  exec.fence();
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void timed_loop(benchmark::State& state, const Default& exec, const std::function<void()>& restore,
                const std::function<void()>& solve_once) {
  for (auto _ : state) state.SetIterationTime(timed_once(exec, restore, solve_once));
}

template <class View>
void timed_solve_loop(benchmark::State& state, const Default& exec, const View& d, const View& rhs,
                      const View& d0, const View& rhs0, const std::function<void()>& solve_once) {
  timed_loop(
      state, exec,
      [&] {
        Kokkos::deep_copy(exec, d, d0);
        Kokkos::deep_copy(exec, rhs, rhs0);
      },
      solve_once);
}

// Proof of work: the largest relative residual of the first, middle and last cell's solution
// (x in canonical order).
double sampled_residual(const Input& in, const std::vector<double>& x) {
  const auto& s = in.sys;
  std::vector<std::int64_t> offset(in.cells.size() + 1, 0);
  for (std::size_t c = 0; c < in.cells.size(); ++c) offset[c + 1] = offset[c] + in.cells[c].size();
  double residual = 0;
  for (std::size_t c : {std::size_t(0), in.cells.size() / 2, in.cells.size() - 1}) {
    const std::size_t o = static_cast<std::size_t>(offset[c]);
    residual =
        std::max(residual, relative_residual(in.cells[c], s.u.data() + o, s.l.data() + o,
                                             s.d.data() + o, s.rhs.data() + o, x.data() + o));
  }
  return residual;
}

void report(benchmark::State& state, const Input& in, std::size_t allocated) {
  const double nodes = static_cast<double>(in.nodes);
  const double bytes = 5.0 * sizeof(double) * nodes;
  perf::set_counters(state, nodes, bytes);
  state.counters["frac_copy_bw"] = benchmark::Counter(
      bytes / perf::copy_bandwidth(), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes_allocated"] = static_cast<double>(allocated);
  state.counters["cells"] = static_cast<double>(in.cells.size());
}

// A copy of a coefficient array taken after fill(): every timed solve starts from it.
template <class View>
View pristine_copy(const View& v) {
  View copy(Kokkos::view_alloc(std::string("hinesbatch::pristine"), Kokkos::WithoutInitializing),
            v.layout());
  Kokkos::deep_copy(copy, v);
  return copy;
}

// What bounds a grouped solve: each group solved alone on exec (its schedule as the grouped
// solve decides it, the fastest of 5 runs; counters alone_ms_g<k> in the batch's order and
// alone_ms_rest, their largest alone_ms_max and sum alone_ms_sum), and the group of the
// largest tree alone under each schedule (big_ms_<schedule>; big_ms_OwnAuto: Auto decided by
// the group's own count).
template <class Batch>
void alone_times(benchmark::State& state, const Default& exec, const Batch& batch,
                 const impl::GroupedLaunch& launch,
                 const std::vector<std::function<void()>>& restore) {
  const auto restore_all = [&] {
    for (const auto& f : restore) f();
  };
  auto best_ms = [&](const std::function<void()>& solve_once) {
    double best = 1e300;
    for (int rep = 0; rep < 5; ++rep)
      best = std::min(best, 1e3 * timed_once(exec, restore_all, solve_once));
    return best;
  };
  double most = 0, sum = 0;
  int k = 0, big = 0;
  for (const auto& g : batch.groups()) {
    state.counters["split_g" + std::to_string(k)] =
        impl::grouped_split_lanes(exec, batch, g, HinesSchedule::Auto, launch);
    const double ms =
        best_ms([&] { impl::solve_group(exec, batch, g, HinesSchedule::Auto, launch); });
    state.counters["alone_ms_g" + std::to_string(k)] = ms;
    if (g.tree.size() > batch.groups()[big].tree.size()) big = k;
    most = std::max(most, ms);
    sum += ms;
    ++k;
  }
  if (batch.has_rest()) {
    const double ms = best_ms([&] { solve(exec, batch.rest()); });
    state.counters["alone_ms_rest"] = ms;
    most = std::max(most, ms);
    sum += ms;
  }
  state.counters["alone_ms_max"] = most;
  state.counters["alone_ms_sum"] = sum;
  if (batch.num_groups() == 0) return;
  const auto& g = batch.groups()[big];
  state.counters["big_nodes"] = g.tree.size();
  state.counters["big_cells"] = g.batch.num_systems();
  for (const auto schedule :
       {HinesSchedule::PerSystem, HinesSchedule::PerSystemStaged, HinesSchedule::PerSystemOnChip,
        HinesSchedule::TeamPerSystem, HinesSchedule::WarpPerSystem, HinesSchedule::BlockPerSystem})
    state.counters[std::string("big_ms_") + to_string(schedule)] =
        best_ms([&] { solve(exec, g.tree, g.batch, schedule); });
  state.counters["big_ms_OwnAuto"] =
      best_ms([&] { solve(exec, g.tree, g.batch, HinesSchedule::Auto); });
  for (int lanes : {2, 4, 8, 16})
    state.counters["big_ms_Split" + std::to_string(lanes)] =
        best_ms([&] { impl::solve_split_per_system(exec, g.tree, g.batch, lanes); });
  batch.check(exec);  // none of these solves met a failure
}

// Runs one path on the current input set.
void run_path(benchmark::State& state, const Input& in, Path path) {
  Default exec;
  const auto& s = in.sys;
  if (path == Path::PackedTeam || path == Path::PackedLanes) {
    const auto schedule =
        path == Path::PackedTeam ? PackedSchedule::TeamPieces : PackedSchedule::CellLanes;
    const auto t0 = Clock::now();
    PackedMultiBatch<double, Mem> batch(exec, in.cells, schedule);
    const double plan_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    batch.fill(exec, s.u, s.l, s.d, s.rhs);
    const auto r0 = pristine_copy(batch.rhs());
    timed_solve_loop(state, exec, batch.d(), batch.rhs(), batch.d(), r0,
                     [&] { solve(exec, batch, schedule); });
    batch.check(exec);
    std::vector<double> x;
    batch.solution_to_host(exec, x);
    const double residual = sampled_residual(in, x);
    if (!(residual <= 1e-12)) {
      state.SkipWithError(("residual " + std::to_string(residual)).c_str());
      return;
    }
    report(state, in, batch.allocated_bytes());
    state.counters["plan_seconds"] = plan_seconds;
    state.counters["plans"] = batch.num_plans();
    state.counters["max_rel_residual"] = residual;
  } else if (path == Path::Grouped || path == Path::GroupedFlat || path == Path::GroupedInOrder ||
             path == Path::GroupedOwnAuto || path == Path::GroupedNoSplit ||
             path == Path::GroupedSplit2 || path == Path::GroupedSplit4 ||
             path == Path::GroupedSplit8 || path == Path::GroupedSplit16 ||
             path == Path::GroupedUpTo16) {
    impl::GroupedLaunch launch;
    launch.side_by_side = path != Path::GroupedInOrder;
    launch.auto_by_batch = path != Path::GroupedOwnAuto;
    if (path == Path::GroupedNoSplit) launch.split_lanes = 0;
    if (path == Path::GroupedSplit2) launch.split_lanes = 2;
    if (path == Path::GroupedSplit4) launch.split_lanes = 4;
    if (path == Path::GroupedSplit8) launch.split_lanes = 8;
    if (path == Path::GroupedSplit16) launch.split_lanes = 16;
    auto go = [&](auto layout) {
      const auto t0 = Clock::now();
      GroupedMultiBatch<double, decltype(layout), Mem> batch(exec, in.cells);
      const double plan_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
      batch.fill(exec, s.u, s.l, s.d, s.rhs);
      std::vector<std::function<void()>> restore;
      auto keep = [&](const auto& part) {
        const auto d = part.d(), r = part.rhs();
        const auto d0 = pristine_copy(d), r0 = pristine_copy(r);
        restore.push_back([=] {
          Kokkos::deep_copy(exec, d, d0);
          Kokkos::deep_copy(exec, r, r0);
        });
      };
      for (const auto& g : batch.groups()) keep(g.batch);
      if (batch.has_rest()) keep(batch.rest());
      // GroupedUpTo16: the grouped solve with the rule's lanes allowed up to 16 (it stops at
      // 8), each group launched as solve_grouped launches it.
      const auto solve_up_to_16 = [&] {
        auto& streams = batch.template launch_streams<Default>();
        streams.reserve(std::min(batch.num_groups() + 1, launch.max_streams));
        streams.fork(exec);
        int i = 0;
        for (const auto& g : batch.groups()) {
          const auto& space = streams.space(exec, i++);
          if (impl::grouped_split_lanes(exec, batch, g, HinesSchedule::Auto, launch) > 1)
            impl::solve_split_per_system(
                space, g.tree, g.batch,
                impl::grouped_choose_split_lanes(exec, g.tree, batch.num_cells(), 16),
                batch.num_cells());
          else
            impl::solve_group(space, batch, g, HinesSchedule::Auto, launch);
        }
        if (batch.has_rest()) solve(streams.space(exec, i++), batch.rest());
        streams.join(exec);
      };
      const auto solve_once = [&] {
        if (path == Path::GroupedUpTo16)
          solve_up_to_16();
        else
          impl::solve_grouped(exec, batch, HinesSchedule::Auto, launch);
      };
      solve_once();  // block plans are built on a first solve
      timed_loop(
          state, exec,
          [&] {
            for (const auto& f : restore) f();
          },
          solve_once);
      batch.check(exec);
      std::vector<double> x;
      batch.solution_to_host(exec, x);
      const double residual = sampled_residual(in, x);
      if (!(residual <= 1e-12)) {
        state.SkipWithError(("residual " + std::to_string(residual)).c_str());
        return;
      }
      report(state, in, batch.allocated_bytes());
      state.counters["plan_seconds"] = plan_seconds;
      state.counters["groups"] = batch.num_groups();
      state.counters["rest_cells"] = static_cast<double>(batch.rest_cells().size());
      state.counters["max_rel_residual"] = residual;
      if (path == Path::Grouped) alone_times(state, exec, batch, launch, restore);
      // The schedule Auto took for the largest group.
      if (batch.num_groups() > 0) {
        const auto& g = batch.groups().front();
        const long long systems = impl::grouped_auto_systems(batch, g, launch);
        const int lanes = impl::grouped_split_lanes(exec, batch, g, HinesSchedule::Auto, launch);
        state.SetLabel(
            std::string("largest group: ") +
            (lanes > 1 ? "split, " + std::to_string(lanes) + " lanes"
                       : std::string(to_string(resolve_schedule<Default, decltype(layout), double>(
                             HinesSchedule::Auto, g.tree.size(), systems, g.tree.height())))));
      }
    };
    if (path == Path::GroupedFlat)
      go(layouts::Flat{});
    else
      go(layouts::FullInterleaved{});
  } else if (path == Path::Mono || path == Path::MonoTeam || path == Path::MonoAuto) {
    // Every cell has the first cell's tree (callers use it only where that is true).
    const Tree& tree = in.cells.front();
    HinesBatch<double, layouts::FullInterleaved, Mem> batch(static_cast<int>(in.cells.size()),
                                                            tree.size());
    batch.fill(exec, s.u, s.l, s.d, s.rhs);
    const auto d0 = pristine_copy(batch.d()), r0 = pristine_copy(batch.rhs());
    DeviceTree<Mem> dtree(exec, tree);
    const auto schedule = path == Path::MonoTeam   ? HinesSchedule::TeamPerSystem
                          : path == Path::MonoAuto ? HinesSchedule::Auto
                                                   : HinesSchedule::PerSystem;
    solve(exec, dtree, batch, schedule);  // block plans are built on a first solve
    timed_solve_loop(state, exec, batch.d(), batch.rhs(), d0, r0,
                     [&] { solve(exec, dtree, batch, schedule); });
    batch.check(exec);
    report(state, in, batch.allocated_bytes());
    if (path == Path::MonoAuto)
      state.SetLabel(to_string(resolve_schedule<Default, layouts::FullInterleaved, double>(
          HinesSchedule::Auto, tree.size(), batch.num_systems(), tree.height())));
  } else if (path == Path::Naive || path == Path::NaiveSorted) {
    InterleavedMultiBatch<double, Mem> batch(exec, in.cells, path == Path::NaiveSorted);
    batch.fill(exec, s.u, s.l, s.d, s.rhs);
    const auto d0 = pristine_copy(batch.d()), r0 = pristine_copy(batch.rhs());
    timed_solve_loop(state, exec, batch.d(), batch.rhs(), d0, r0, [&] { solve(exec, batch); });
    batch.check(exec);
    report(state, in, batch.allocated_bytes());
  } else {
    const auto t0 = Clock::now();
    const BranchPlan plan(in.cells);
    const double plan_seconds = std::chrono::duration<double>(Clock::now() - t0).count();
    BranchBatch<double, Mem> batch(exec, plan);
    batch.fill(exec, s.u, s.l, s.d, s.rhs);
    const auto d0 = pristine_copy(batch.d()), r0 = pristine_copy(batch.rhs());
    const auto schedule =
        path == Path::LevelLaunches ? BranchSchedule::LevelLaunches : BranchSchedule::TeamLevels;
    timed_solve_loop(state, exec, batch.d(), batch.rhs(), d0, r0,
                     [&] { solve(exec, batch, schedule); });
    batch.check(exec);
    report(state, in, batch.allocated_bytes());
    state.counters["plan_seconds"] = plan_seconds;
    state.counters["levels"] = plan.num_levels();
    state.counters["groups"] = plan.num_groups();
  }
}

// The mono-morphology rate of the mix's own trees: each shared file's tree solved alone as a
// mono-morphology batch of as many cells as the mix (Full-Interleaved, Auto; the mean of 5
// solves after an untimed one), and the mix's nodes timed at those rates. The manual time is
// the sum over the trees of (the mix's nodes of that tree / that tree's rate): what a solver
// running every cell of the mix at its own tree's mono-morphology rate would take. Counters:
// each tree's rate in G nodes/s (mono_gnodes_<nodes>).
void bench_mono_same_trees(benchmark::State& state, int n) {
  Default exec;
  const auto kinds = test::real_morphology_trees();
  if (kinds.empty()) {
    state.SkipWithError("no input (../shared/morphologies absent?)");
    return;
  }
  double seconds = 0, mix_nodes = 0;
  std::size_t bytes = 0;
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    const Tree& tree = kinds[k];
    const auto sys = test::random_systems<double>(tree, n, 31 + k);
    HinesBatch<double, layouts::FullInterleaved, Mem> batch(n, tree.size());
    batch.fill(exec, sys.u, sys.l, sys.d, sys.rhs);
    const auto d0 = pristine_copy(batch.d()), r0 = pristine_copy(batch.rhs());
    DeviceTree<Mem> dtree(exec, tree);
    solve(exec, dtree, batch);  // block plans are built on a first solve
    double solve_seconds = 0;
    constexpr int kReps = 5;
    for (int rep = 0; rep < kReps; ++rep)
      solve_seconds += timed_once(
          exec,
          [&] {
            Kokkos::deep_copy(exec, batch.d(), d0);
            Kokkos::deep_copy(exec, batch.rhs(), r0);
          },
          [&] { solve(exec, dtree, batch); });
    batch.check(exec);
    const double rate = static_cast<double>(n) * tree.size() * kReps / solve_seconds;
    state.counters["mono_gnodes_" + std::to_string(tree.size())] = rate / 1e9;
    // The mix cycles the files: cell c has tree c % kinds.size().
    const double cells =
        static_cast<double>((n - static_cast<int>(k) + kinds.size() - 1) / kinds.size());
    mix_nodes += cells * tree.size();
    seconds += cells * tree.size() / rate;
    bytes = std::max(bytes, batch.allocated_bytes());
  }
  for (auto _ : state) state.SetIterationTime(seconds);
  const double nodes = mix_nodes;
  perf::set_counters(state, nodes, 5.0 * sizeof(double) * nodes);
  state.counters["bytes_allocated"] = static_cast<double>(bytes);
  state.counters["cells"] = n;
}

template <class MakeCells>
void add(const std::string& name, const std::string& key, MakeCells make, Path path) {
  benchmark::RegisterBenchmark((name + "/" + path_name(path)).c_str(),
                               [key, make, path](benchmark::State& state) {
                                 const Input& in = input(key, make);
                                 if (in.cells.empty()) {
                                   state.SkipWithError("no input (../shared/morphologies absent?)");
                                   return;
                                 }
                                 run_path(state, in, path);
                               })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

bool register_all() {
  const Path multi[] = {Path::Naive,      Path::NaiveSorted, Path::LevelLaunches,
                        Path::TeamLevels, Path::PackedTeam,  Path::PackedLanes};
  // Fig. 6: 25,600 cells of 512 nodes; Mono shares one random tree, the others differ.
  for (int ratio : {10, 50}) {
    const std::string base = "Multi/Fig6/branch" + std::to_string(ratio) + "/25600";
    add(
        base, base + "/mono",
        [ratio] { return std::vector<Tree>(25600, random_tree(512, 99, ratio / 100.0)); },
        Path::Mono);
    for (Path p : multi)
      add(
          base, base + "/multi",
          [ratio] {
            std::vector<Tree> cells;
            for (int c = 0; c < 25600; ++c)
              cells.push_back(random_tree(512, 1000 + c, ratio / 100.0));
            return cells;
          },
          p);
  }
  // Fig. 14: 512-node binary trees of 2, 3, 4 levels, every cell the same tree.
  for (int levels : {2, 3, 4})
    for (int n : {256, 2560, 25600, 256000}) {
      const std::string base =
          "Multi/Fig14/levels" + std::to_string(levels) + "/" + std::to_string(n);
      for (Path p : {Path::Mono, Path::Naive, Path::LevelLaunches, Path::TeamLevels,
                     Path::PackedTeam, Path::PackedLanes, Path::MonoTeam})
        add(
            base, base, [levels, n] { return std::vector<Tree>(n, p2_binary_tree(levels)); }, p);
      add(
          base, base, [levels, n] { return std::vector<Tree>(n, p2_binary_tree(levels)); },
          Path::Grouped);
    }
  // Mixed real cells (the ThomasBatch paper's motivation): the files cycled.
  const Path grouped[] = {Path::Grouped,        Path::GroupedFlat,    Path::GroupedInOrder,
                          Path::GroupedOwnAuto, Path::GroupedNoSplit, Path::GroupedSplit2,
                          Path::GroupedSplit4,  Path::GroupedSplit8,  Path::GroupedSplit16,
                          Path::GroupedUpTo16};
  // The counts make a map over batch sizes: about 2^20, 2^23, 2^25, 2^27 and 2^28 nodes.
  const int counts[] = {1000, 6400, 25600, 102400, 256000};
  for (int n : counts) {
    const std::string base = "Multi/RealMixed/" + std::to_string(n);
    const auto mixed = [n] {
      const auto kinds = test::real_morphology_trees();
      std::vector<Tree> cells;
      if (kinds.empty()) return cells;
      for (int c = 0; c < n; ++c) cells.push_back(kinds[c % kinds.size()]);
      return cells;
    };
    for (Path p : grouped) add(base, base, mixed, p);
    for (Path p : multi) add(base, base, mixed, p);
    // The mono-morphology rate of a tree of the mix's size: every cell the shared file
    // nearest the mean size.
    add(
        base + "/MonoMeanSize", base + "/mono",
        [n] {
          const auto kinds = test::real_morphology_trees();
          std::vector<Tree> cells;
          if (kinds.empty()) return cells;
          double mean = 0;
          for (const Tree& t : kinds) mean += t.size();
          mean /= kinds.size();
          const Tree* nearest = &kinds.front();
          for (const Tree& t : kinds)
            if (std::abs(t.size() - mean) < std::abs(nearest->size() - mean)) nearest = &t;
          return std::vector<Tree>(n, *nearest);
        },
        Path::MonoAuto);
  }
  // The mix's own trees each alone (random systems made on the host: at most 25,600 cells).
  for (int n : {1000, 6400, 25600})
    benchmark::RegisterBenchmark(
        ("Multi/RealMixed/" + std::to_string(n) + "/MonoSameTrees").c_str(),
        [n](benchmark::State& state) { bench_mono_same_trees(state, n); })
        ->UseManualTime()
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
  for (int n : counts) {
    const std::string base = "Multi/RealCable/" + std::to_string(n);
    for (Path p : grouped)
      add(
          base, base,
          [n] {
            return CycledCells{test::real_neuron_cells(), n};
          },
          p);
    for (Path p : multi)
      add(
          base, base,
          [n] {
            return CycledCells{test::real_neuron_cells(), n};
          },
          p);
  }
  return true;
}

[[maybe_unused]] const bool registered = register_all();

}  // namespace
