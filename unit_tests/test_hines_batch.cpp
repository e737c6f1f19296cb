// The batched mono-morphology solve, every layout x {float, double} x backend, against
// the sequential Hines algorithm and a dense LU, on fresh random diagonally dominant
// systems, with the read-back buffer poisoned so an unwritten element fails.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <thread>

#include "backends.hpp"
#include "device_residual.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/hines_serial.hpp"
#include "hinesbatch/solvers/impl/split_tree_plan.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"
#include "hinesbatch/solvers/impl/warp_tree_plan.hpp"
#include "random_systems.hpp"
#include "shared_data.hpp"

namespace {

using namespace hinesbatch;
using namespace hinesbatch::test;

// DeviceTree's plan options (0: chosen from the tree).
struct DeviceTreeOptions {
  int piece_length = 0, warp_lanes = 0, on_chip_nodes = 0;
};

template <class C>
class HinesBatchSolve : public ::testing::Test {
 public:
  using T = typename C::scalar_type;
  using L = typename C::layout_type;
  using E = typename C::execution_space;
  using Batch = HinesBatch<T, L, typename E::memory_space>;

  static double tolerance() { return std::is_same<T, float>::value ? 1e-4 : 1e-12; }

  // Block size for the tiled layouts; Block-Shared must fit a tile's rhs in scratch.
  static int block_size_for(int n, int wanted = 32) {
    if (!L::tiled) return 1;
    if (std::is_same<L, layouts::BlockShared>::value) {
      const long max_bytes = Kokkos::TeamPolicy<E>::scratch_size_max(0);
      const long fit = max_bytes / (static_cast<long>(n) * long(sizeof(T))) - 1;
      return static_cast<int>(std::max(0L, std::min<long>(wanted, fit)));
    }
    return wanted;
  }

  struct Outcome {
    std::vector<T> x;
    HostSystems<T> input;
  };

  // Solves num_systems random systems on tree with solve_batch(exec, dtree, batch), the
  // batch poisoned (tile padding included) before it is filled; returns the solution read
  // back.
  template <class SolveBatch>
  static Outcome run_with(const Tree& tree, int num_systems, std::uint64_t seed, int block_size,
                          const DeviceTreeOptions& tree_options, const SolveBatch& solve_batch) {
    E exec;
    Outcome out{{}, random_systems<T>(tree, num_systems, seed)};
    const auto& in = out.input;
    Batch batch(num_systems, tree.size(), block_size);
    const T nan = std::numeric_limits<T>::quiet_NaN();
    Kokkos::deep_copy(batch.u(), nan);
    Kokkos::deep_copy(batch.l(), nan);
    Kokkos::deep_copy(batch.d(), nan);
    Kokkos::deep_copy(batch.rhs(), nan);
    batch.fill(exec, in.u, in.l, in.d, in.rhs);
    DeviceTree<typename E::memory_space> dtree(exec, tree, tree_options.piece_length,
                                               tree_options.warp_lanes, tree_options.on_chip_nodes);
    solve_batch(exec, dtree, batch);
    batch.check(exec);
    out.x.assign(in.rhs.size(), nan);
    batch.solution_to_host(exec, out.x);
    return out;
  }

  static Outcome run(const Tree& tree, int num_systems, std::uint64_t seed, int block_size,
                     HinesSchedule schedule = HinesSchedule::Auto, int piece_length = 0,
                     int warp_lanes = 0, int on_chip_nodes = 0) {
    return run_with(tree, num_systems, seed, block_size, {piece_length, warp_lanes, on_chip_nodes},
                    [&](const E& exec, const auto& dtree, const Batch& batch) {
                      solve(exec, dtree, batch, schedule);
                    });
  }

  // The block schedule with a forced shape (lanes, what stays on chip) and level-0 scratch
  // capped at level0_bytes (0: what the device gives).
  static Outcome run_block(const Tree& tree, int num_systems, std::uint64_t seed, int block_size,
                           impl::BlockShape shape, std::size_t level0_bytes = 0) {
    return run_with(tree, num_systems, seed, block_size, {},
                    [&](const E& exec, const auto& dtree, const Batch& batch) {
                      impl::solve_block_per_system(exec, dtree, batch, shape, level0_bytes);
                    });
  }

  // The solution against the sequential algorithm (same precision) and the residual of
  // every system in long double.
  static void expect_correct(const Tree& tree, const Outcome& o, const std::string& what) {
    const auto& in = o.input;
    const int n = tree.size();
    std::vector<T> d = in.d, ref = in.rhs;
    hines_solve_serial_batch(tree, in.num_systems, in.u.data(), in.l.data(), d.data(), ref.data());
    double worst_residual = 0, worst_diff = 0;
    for (int s = 0; s < in.num_systems; ++s) {
      const std::size_t off = static_cast<std::size_t>(s) * n;
      const double r = relative_residual(tree, in.u.data() + off, in.l.data() + off,
                                         in.d.data() + off, in.rhs.data() + off, o.x.data() + off);
      ASSERT_TRUE(r <= tolerance()) << what << ": system " << s << " relative residual " << r;
      worst_residual = std::max(worst_residual, r);
      long double dd = 0, rr = 0;
      for (int i = 0; i < n; ++i) {
        ASSERT_FALSE(std::isnan(o.x[off + i]))
            << what << ": unwritten element s=" << s << " i=" << i;
        const long double diff = (long double)o.x[off + i] - ref[off + i];
        dd += diff * diff;
        rr += (long double)ref[off + i] * ref[off + i];
      }
      const double rel = rr > 0 ? std::sqrt(double(dd / rr)) : std::sqrt(double(dd));
      ASSERT_TRUE(rel <= 10 * tolerance())
          << what << ": system " << s << " differs from sequential by " << rel;
      worst_diff = std::max(worst_diff, rel);
    }
    RecordProperty("worst_residual_" + what, std::to_string(worst_residual));
  }

  static std::vector<HinesSchedule> schedules() {
    std::vector<HinesSchedule> s{HinesSchedule::PerSystem,      HinesSchedule::TeamPerSystem,
                                 HinesSchedule::WarpPerSystem,  HinesSchedule::PerSystemOnChip,
                                 HinesSchedule::BlockPerSystem, HinesSchedule::PerSystemStaged,
                                 HinesSchedule::Split,          HinesSchedule::Auto};
    // The tile schedule takes every layout but Block-Shared.
    if (!std::is_same<L, layouts::BlockShared>::value) s.push_back(HinesSchedule::SimdTiles);
    return s;
  }

  // Every schedule (Auto included) on random systems of tree.
  static void check(const Tree& tree, int num_systems, const std::string& what,
                    int wanted_block_size = 32, int piece_length = 0, int warp_lanes = 0,
                    int on_chip_nodes = 0) {
    const int bs = block_size_for(tree.size(), wanted_block_size);
    if (bs < 1) {
      // Not a skip: with tiles of one lane the solve must either be correct or be refused
      // with an InputError naming team scratch (never a silent wrong answer or a crash).
      try {
        const auto o = run(tree, num_systems, 0x7e57 + num_systems, 1);
        expect_correct(tree, o, what + " N=" + std::to_string(num_systems) + " BS=1");
      } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("team scratch"), std::string::npos) << e.what();
        const long max_bytes = Kokkos::TeamPolicy<E>::scratch_size_max(0);
        EXPECT_GT(static_cast<long>(tree.size() * sizeof(T)) + 1024, max_bytes)
            << what << ": a one-lane tile of " << tree.size() << " nodes refused";
        RecordProperty("refused_" + what, "tile does not fit in team scratch");
      }
      return;
    }
    static std::uint64_t seed = 0x5eed;
    for (const auto schedule : schedules()) {
      const auto o =
          run(tree, num_systems, ++seed, bs, schedule, piece_length, warp_lanes, on_chip_nodes);
      expect_correct(tree, o,
                     what + " N=" + std::to_string(num_systems) + " BS=" + std::to_string(bs) +
                         " " + to_string(schedule));
    }
  }
};

using SolveConfigs = AsGtestTypes<
    ConfigProduct<std::tuple<float, double>, AllLayouts, EnabledExecutionSpaces>::tuple>::type;
TYPED_TEST_SUITE(HinesBatchSolve, SolveConfigs);

// On host backends Auto takes the tile schedule for every layout but Block-Shared, which
// refuses it by name.
TYPED_TEST(HinesBatchSolve, HostAutoTakesTilesAndBlockSharedRefusesThem) {
  using T = typename TestFixture::T;
  using L = typename TestFixture::L;
  using E = typename TestFixture::E;
  const bool block_shared = std::is_same<L, layouts::BlockShared>::value;
  if (is_host_backend<E>())
    for (int n : {1, 76, 3000})
      for (long long systems : {1ll, 1000ll, -1ll})
        EXPECT_EQ((resolve_schedule<E, L, T>(HinesSchedule::Auto, n, systems)),
                  block_shared ? HinesSchedule::PerSystem : HinesSchedule::SimdTiles)
            << n << " nodes, " << systems << " systems";
  if (!block_shared || TestFixture::block_size_for(40) < 1) return;
  const Tree tree = random_tree(40, 7);
  try {
    TestFixture::run(tree, 5, 3, TestFixture::block_size_for(40), HinesSchedule::SimdTiles);
    ADD_FAILURE() << "SimdTiles on a Block-Shared batch was not refused";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not BlockShared"), std::string::npos) << e.what();
  }
}

// Full-Interleaved tiles on a host are interleaved_tile_lanes systems wide, and two vectors
// (simd_tile_lanes) for systems whose tile rows would pass 4 MiB per array: both widths,
// each with full and partial tiles, with SimdTiles and Auto.
TYPED_TEST(HinesBatchSolve, InterleavedTilesWideAndForLongSystemsNarrow) {
  using T = typename TestFixture::T;
  using L = typename TestFixture::L;
  using E = typename TestFixture::E;
  if (std::is_same<L, layouts::BlockShared>::value) GTEST_SKIP() << "no tiles on Block-Shared";
  const int wide = interleaved_tile_lanes<T, E>(), narrow = simd_tile_lanes<T, E>();
  EXPECT_EQ((interleaved_tile_lanes<T, E>(3000)), wide);
  EXPECT_EQ((interleaved_tile_lanes<T, E>(40000)), narrow);
  if (is_host_backend<E>()) EXPECT_GE(wide, 32);
  const Tree long_chain = chain_tree(40000);
  const Tree cell = random_tree(3000, 17);
  for (const auto schedule : {HinesSchedule::SimdTiles, HinesSchedule::Auto}) {
    for (int num : {wide + 5, 2 * narrow + 1}) {
      const std::string tag = " N=" + std::to_string(num) + " " + to_string(schedule);
      TestFixture::expect_correct(cell, TestFixture::run(cell, num, 0x1a7e + num, 32, schedule),
                                  "random3000" + tag);
      TestFixture::expect_correct(long_chain,
                                  TestFixture::run(long_chain, num, 0x2a7e + num, 32, schedule),
                                  "chain40000" + tag);
    }
  }
}

// A host sweep asks for its rows a few ahead where a tile's rows lie more than 2 KiB apart
// (Full-Interleaved storage of many systems), not for Flat tiles or adjacent rows; trees
// shorter than, as long as and longer than that distance solve right with it.
TYPED_TEST(HinesBatchSolve, InterleavedTilesWithRowsFarApart) {
  using T = typename TestFixture::T;
  using L = typename TestFixture::L;
  EXPECT_EQ(impl::prefetch_distance<T>(4096 / sizeof(T), UnitLaneStride{}),
            impl::kTilePrefetchRows);
  EXPECT_EQ(impl::prefetch_distance<T>(2048 / sizeof(T), UnitLaneStride{}), 0);
  EXPECT_EQ(impl::prefetch_distance<T>(4096 / sizeof(T), 4096L), 0);
  if (!std::is_same<L, layouts::FullInterleaved>::value)
    GTEST_SKIP() << "rows far apart: Full-Interleaved storage";
  const int num = static_cast<int>(2048 / sizeof(T)) + 37;  // rows more than 2 KiB apart
  for (const auto schedule : {HinesSchedule::SimdTiles, HinesSchedule::Auto}) {
    for (int n = 1; n <= impl::kTilePrefetchRows + 3; ++n) {
      const Tree tree = random_tree(n, 0xfa + n);
      TestFixture::expect_correct(tree, TestFixture::run(tree, num, 0x3a7e + n, 32, schedule),
                                  "random" + std::to_string(n) + " " + to_string(schedule));
    }
    const Tree cell = random_tree(700, 29);
    TestFixture::expect_correct(cell, TestFixture::run(cell, num, 0x4a7e, 32, schedule),
                                std::string("random700 ") + to_string(schedule));
  }
}

// On GPUs, double Flat and Full-Interleaved batches take the schedule the solver map
// measured fastest at the nearest point (src/solvers/auto_hines_table.hpp): at every point of the
// table exactly that one, and the solve with Auto is right at sizes between the points.
TYPED_TEST(HinesBatchSolve, AutoTakesTheSolverMapsChoiceOnGpus) {
  using T = typename TestFixture::T;
  using L = typename TestFixture::L;
  using E = typename TestFixture::E;
  const bool gpu = !is_host_backend<E>();
  if (gpu && std::is_same<T, double>::value &&
      (std::is_same<L, layouts::Flat>::value || std::is_same<L, layouts::FullInterleaved>::value)) {
    const auto check = [](const auto& table) {
      for (const auto& p : table) {
        const long long systems = (1ll << p.total_log2) / p.size;
        const std::string at = std::to_string(p.size) + " nodes, height " +
                               std::to_string(p.height) + ", 2^" + std::to_string(p.total_log2);
        const HinesSchedule got =
            resolve_schedule<E, L, T>(HinesSchedule::Auto, p.size, systems, p.height);
        EXPECT_EQ(got, p.schedule) << at;
        const impl::StagedShape shape =
            impl::resolve_staged_shape<E, L, T>(HinesSchedule::Auto, p.size, systems, p.height);
        EXPECT_EQ(shape.rows, p.shape.rows) << at;
        EXPECT_EQ(shape.async, p.shape.async) << at;
        EXPECT_EQ(shape.prefetch, p.shape.prefetch) << at;
        // A schedule asked for by name runs its default shape.
        EXPECT_TRUE(impl::is_default(
            impl::resolve_staged_shape<E, L, T>(HinesSchedule::PerSystemStaged, p.size, systems)));
      }
    };
    if (std::is_same<L, layouts::Flat>::value)
      check(impl::auto_table(impl::HinesAutoTable::Flat));
    else
      check(impl::auto_table(impl::HinesAutoTable::FullInterleaved));
  }
  for (int n : {90, 700, 2500}) {
    const Tree tree = random_tree(n, 11 + n);
    const int bs = TestFixture::block_size_for(n);
    if (bs < 1) continue;  // Block-Shared: a tile's rhs of this tree does not fit in scratch
    for (int systems : {3, 700}) {
      const auto o = TestFixture::run(tree, systems, 5 + n, bs, HinesSchedule::Auto);
      TestFixture::expect_correct(tree, o, "auto " + std::to_string(n));
    }
  }
}

TYPED_TEST(HinesBatchSolve, TinyTrees) {
  for (int n : {1, 2, 3}) this->check(chain_tree(n), 5, "chain" + std::to_string(n));
  this->check(star_tree(4), 1, "star4");
}

TYPED_TEST(HinesBatchSolve, PaperClassesAcrossBatchSizes) {
  for (const auto& c : paper_classes())
    for (int num_systems : {1, 33, 1000}) this->check(paper_class_tree(c.id), num_systems, c.name);
}

TYPED_TEST(HinesBatchSolve, HardShapes) {
  this->check(chain_tree(5000), 20, "chain5000");
  this->check(star_tree(1000), 50, "star1000");
  this->check(balanced_binary_tree(12), 20, "binary4095");
  this->check(random_tree(5000, 7), 10, "random5000");
  for (int levels : {2, 3, 4}) this->check(p2_binary_tree(levels), 100, "p2binary");
}

// The team schedule's plan with pieces of every length, on trees with long chains, many
// junctions, and junctions whose children are chains of one node.
TYPED_TEST(HinesBatchSolve, TeamPieceLengths) {
  for (int len : {1, 2, 3, 5, 16, 64}) {
    const std::string tag = " pieces<=" + std::to_string(len);
    this->check(chain_tree(300), 7, "chain300" + tag, 32, len);
    this->check(random_tree(400, 11), 7, "random400" + tag, 32, len);
    this->check(star_tree(50), 7, "star50" + tag, 32, len);
    this->check(paper_class_tree(PaperClass::BigLow), 7, "biglow" + tag, 32, len);
  }
}

// The warp schedule's plan with every lane count, on trees whose lane ranges cut chains,
// stars, deep binary trees and trees not numbered depth first (random_tree), and more
// lanes than nodes.
TYPED_TEST(HinesBatchSolve, WarpLaneCounts) {
  for (int lanes : {1, 2, 4, 8, 16, 32}) {
    const std::string tag = " lanes=" + std::to_string(lanes);
    for (int n : {1, 2, 5, 31, 33})
      this->check(random_tree(n, 3 + n), 7, "random" + std::to_string(n) + tag, 32, 0, lanes);
    this->check(chain_tree(300), 7, "chain300" + tag, 32, 0, lanes);
    this->check(random_tree(400, 11), 7, "random400" + tag, 32, 0, lanes);
    this->check(star_tree(50), 7, "star50" + tag, 32, 0, lanes);
    this->check(balanced_binary_tree(8), 7, "binary255" + tag, 32, 0, lanes);
    this->check(random_tree(400, 5, 0.9), 7, "bushy400" + tag, 32, 0, lanes);
    for (const auto& c : paper_classes())
      this->check(paper_class_tree(c.id), 37, c.name + tag, 32, 0, lanes);
  }
}

// The block schedule with every team size, with u and l on chip or in memory, the plan on
// chip or in memory, and d and rhs in level-1 scratch (level 0 capped below what they
// need): unbranched chains (one piece), stars (one level of many pieces), deep binary
// trees, trees not numbered depth first, and more lanes than nodes.
TYPED_TEST(HinesBatchSolve, BlockShapes) {
  struct Keep {
    const char* name;
    bool coefficients, plan;
    std::size_t level0;
  };
  const Keep keeps[] = {{"dr+plan", false, true, 0},
                        {"all", true, true, 0},
                        {"dr", false, false, 0},
                        {"level1", false, true, 256}};
  const std::vector<std::pair<std::string, Tree>> trees = {
      {"random5", random_tree(5, 8)},
      {"chain300", chain_tree(300)},
      {"star1000", star_tree(1000)},
      {"binary4095", balanced_binary_tree(12)},
      {"random3000", random_tree(3000, 13)},
      {"bushy2000", random_tree(2000, 5, 0.9)},
      {"bighigh", paper_class_tree(PaperClass::BigHigh)}};
  using E = typename TestFixture::E;
  const std::vector<int> lane_counts =
      is_host_backend<E>() ? std::vector<int>{1} : std::vector<int>{32, 64, 128, 256, 512};
  for (int lanes : lane_counts)
    for (const Keep& k : keeps)
      for (const auto& [name, tree] : trees) {
        const int bs = this->block_size_for(tree.size());
        if (bs < 1) continue;
        impl::BlockShape shape;
        shape.lanes = lanes;
        shape.coefficients_on_chip = k.coefficients;
        shape.plan_on_chip = k.plan;
        const auto o = this->run_block(tree, 9, 31 + lanes, bs, shape, k.level0);
        this->expect_correct(
            tree, o, name + " lanes=" + std::to_string(lanes) + " keep=" + std::string(k.name));
      }
}

// The split schedule (K lanes per system, in place) with every lane count: single nodes,
// chains (nothing to split), stars, deep binary trees, trees not numbered depth first,
// bushy trees, the paper classes, every shared NeuroMorpho tree, and a batch whose last
// team is partly empty. On a GPU both kernels: rows loaded a row ahead (this batch alone)
// and in turn (the batch said to share the GPU with more systems than it holds threads).
TYPED_TEST(HinesBatchSolve, SplitLaneCounts) {
  using Batch = typename TestFixture::Batch;
  using E = typename TestFixture::E;
  std::vector<std::pair<std::string, Tree>> trees = {{"single", chain_tree(1)},
                                                     {"two", chain_tree(2)},
                                                     {"random5", random_tree(5, 8)},
                                                     {"chain300", chain_tree(300)},
                                                     {"star1000", star_tree(1000)},
                                                     {"binary4095", balanced_binary_tree(12)},
                                                     {"random3000", random_tree(3000, 13)},
                                                     {"bushy2000", random_tree(2000, 5, 0.9)}};
  for (const auto& c : paper_classes()) trees.push_back({c.name, paper_class_tree(c.id)});
  for (const auto& f : real_morphology_files()) trees.push_back({f, read_swc(f).tree()});
  // Host backends sweep in turn whatever the sharing: one run there.
  const std::vector<long long> sharings =
      is_host_backend<E>() ? std::vector<long long>{-1} : std::vector<long long>{-1, 1LL << 40};
  for (const long long sharing : sharings)
    for (int lanes : {1, 2, 3, 4, 8, 16, 32})
      for (const auto& [name, tree] : trees) {
        const int bs = this->block_size_for(tree.size());
        if (bs < 1) continue;
        const int systems = tree.size() > 5000 ? 5 : 45;
        const auto o =
            this->run_with(tree, systems, 91 + lanes, bs, {},
                           [&](const E& exec, const auto& dtree, const Batch& batch) {
                             impl::solve_split_per_system(exec, dtree, batch, lanes, sharing);
                           });
        this->expect_correct(
            tree, o,
            name + " split lanes=" + std::to_string(lanes) + " sharing=" + std::to_string(sharing));
      }
}

// A zero pivot met inside a lane, at a top and in the junction names its system and node
// (the node where it arises, not an ancestor it spoils).
TYPED_TEST(HinesBatchSolve, SplitZeroPivotNamesSystemAndNode) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using Batch = typename TestFixture::Batch;
  const Tree tree = balanced_binary_tree(7);  // 127 nodes
  const SplitTreePlan plan = SplitTreePlan::build(tree, 4);
  ASSERT_FALSE(plan.tops.empty());
  ASSERT_GT(plan.steps, 1);
  ASSERT_GE(plan.junction.size(), 2u);
  const int inner = plan.lane_node[1];         // a lane's second node: not a top
  const int junction = plan.junction.front();  // the junction's deepest node, not the root
  // Host backends sweep in turn whatever the sharing: one run there.
  const std::vector<long long> sharings =
      is_host_backend<E>() ? std::vector<long long>{-1} : std::vector<long long>{-1, 1LL << 40};
  for (const long long sharing : sharings)
    for (const int node : {inner, plan.tops.front(), junction, 0}) {
      E exec;
      const int systems = 40, s = 33, n = tree.size();
      auto in = random_systems<T>(tree, systems, 5);
      // The node's eliminated pivot is exactly 0: d = 0 and nothing taken from it.
      in.d[static_cast<std::size_t>(s) * n + node] = T(0);
      for (int c = 1; c < n; ++c)
        if (tree.parent(c) == node) in.u[static_cast<std::size_t>(s) * n + c] = T(0);
      const int bs = this->block_size_for(n);
      if (bs < 1) continue;
      Batch batch(systems, n, bs);
      batch.fill(exec, in.u, in.l, in.d, in.rhs);
      DeviceTree<typename E::memory_space> dtree(exec, tree);
      impl::solve_split_per_system(exec, dtree, batch, 4, sharing);
      try {
        batch.check(exec);
        ADD_FAILURE() << "no error for a zero pivot at node " << node << " sharing " << sharing;
      } catch (const SolverError& e) {
        EXPECT_EQ(e.system(), s) << e.what();
        EXPECT_EQ(e.node(), node) << e.what();
      }
    }
}

// Every shared NeuroMorpho tree (123-27,442 nodes) under the block schedule as solve()
// shapes it, and under Auto.
TYPED_TEST(HinesBatchSolve, BlockScheduleOnEveryRealMorphology) {
  const auto files = real_morphology_files();
  if (files.empty()) GTEST_SKIP() << "no morphologies in " << morphology_dir();
  for (const auto& f : files) {
    const Tree tree = read_swc(f).tree();
    const int bs = this->block_size_for(tree.size());
    if (bs < 1) continue;
    for (const auto schedule : {HinesSchedule::BlockPerSystem, HinesSchedule::Auto}) {
      const auto o = this->run(tree, 5, 77, bs, schedule);
      this->expect_correct(tree, o, f + " " + to_string(schedule));
    }
  }
}

// The on-chip schedule keeping only the first K nodes in scratch (the rest swept in place
// as cuHinesBatch does): every K from the root alone to the whole tree, on chains (every
// kept node's parent the one before), stars (every node's parent kept), trees not numbered
// depth first, and the paper classes; K past the tree's size keeps it all.
TYPED_TEST(HinesBatchSolve, OnChipNodeCounts) {
  for (int kept : {1, 2, 3, 7, 31, 76, 1000}) {
    const std::string tag = " kept=" + std::to_string(kept);
    for (int n : {1, 2, 5, 33}) {
      const Tree tree = random_tree(n, 3 + n);
      const int bs = this->block_size_for(n);
      if (bs < 1) continue;
      const auto o =
          this->run(tree, 37, 91 + n + kept, bs, HinesSchedule::PerSystemOnChip, 0, 0, kept);
      this->expect_correct(tree, o, "random" + std::to_string(n) + tag);
    }
    const std::vector<std::pair<std::string, Tree>> trees = {
        {"chain300", chain_tree(300)},
        {"star50", star_tree(50)},
        {"random400", random_tree(400, 11)},
        {"bushy400", random_tree(400, 5, 0.9)},
        {"smalllow", paper_class_tree(PaperClass::SmallLow)},
        {"bighigh", paper_class_tree(PaperClass::BigHigh)}};
    for (const auto& [name, tree] : trees) {
      const int bs = this->block_size_for(tree.size());
      if (bs < 1) continue;  // a Block-Shared tile too big for scratch (BlockSizes covers it)
      const auto o = this->run(tree, 45, 17 + kept, bs, HinesSchedule::PerSystemOnChip, 0, 0, kept);
      this->expect_correct(tree, o, name + tag);
    }
  }
}

// A zero pivot on a kept node and on a node swept in place are both named (a star's
// leaves: each pivot is the leaf's own diagonal).
TYPED_TEST(HinesBatchSolve, OnChipZeroPivotOnKeptAndSweptNodes) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const Tree tree = star_tree(50);
  const int n = tree.size(), kept = 10;
  for (const int leaf : {5, 40}) {
    auto in = random_systems<T>(tree, 40, 8);
    in.d[static_cast<std::size_t>(21) * n + leaf] = T(0);
    typename TestFixture::Batch batch(40, n, this->block_size_for(n));
    batch.fill(exec, in.u, in.l, in.d, in.rhs);
    solve(exec, DeviceTree<typename E::memory_space>(exec, tree, 0, 0, kept), batch,
          HinesSchedule::PerSystemOnChip);
    try {
      batch.check(exec);
      FAIL() << "zero pivot at node " << leaf << " not reported";
    } catch (const SolverError& e) {
      EXPECT_EQ(e.system(), 21) << e.what();
      EXPECT_EQ(e.node(), leaf) << e.what();
    }
  }
}

TYPED_TEST(HinesBatchSolve, BlockSizes) {
  if (!TestFixture::L::tiled) GTEST_SKIP() << "untiled layout";
  for (int bs : {1, 3, 32, 64, 128, 256, 512})
    this->check(paper_class_tree(PaperClass::SmallHigh), 700, "smallhigh", bs);
}

TYPED_TEST(HinesBatchSolve, HundredThousandSystems) {
  this->check(paper_class_tree(PaperClass::SmallLow), 100000, "smalllow");
}

TYPED_TEST(HinesBatchSolve, MatchesDenseLuOnSmallTrees) {
  using T = typename TestFixture::T;
  for (const auto schedule : this->schedules())
    for (int n : {1, 5, 17, 40}) {
      const Tree tree = random_tree(n, 100 + n);
      const auto o = this->run(tree, 9, 1000 + n, this->block_size_for(n), schedule);
      const auto& in = o.input;
      for (int s = 0; s < 9; ++s) {
        const std::size_t off = static_cast<std::size_t>(s) * n;
        std::vector<double> u(in.u.begin() + off, in.u.begin() + off + n),
            l(in.l.begin() + off, in.l.begin() + off + n),
            d(in.d.begin() + off, in.d.begin() + off + n),
            b(in.rhs.begin() + off, in.rhs.begin() + off + n);
        const auto x = dense_lu_solve(tree, u.data(), l.data(), d.data(), b.data());
        long double dd = 0, xx = 0;
        for (int i = 0; i < n; ++i) {
          dd += (o.x[off + i] - x[i]) * (o.x[off + i] - x[i]);
          xx += x[i] * x[i];
        }
        EXPECT_LE(std::sqrt(double(dd / xx)), 10 * this->tolerance())
            << "n=" << n << " system " << s
            << (std::is_same<T, float>::value ? " float" : " double");
      }
    }
}

TYPED_TEST(HinesBatchSolve, DeviceResidualAgrees) {
  // The residual of the whole batch computed on the device (Kokkos Kernels spmv when
  // enabled) agrees with the host check.
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  const Tree tree = paper_class_tree(PaperClass::MediumHigh);
  const auto o = this->run(tree, 257, 42, this->block_size_for(tree.size()));
  DeviceBatchResidual<E> residual(tree, o.input);
  EXPECT_LE(residual.max_relative_residual(E(), o.x), this->tolerance());
  std::vector<T> wrong = o.x;
  wrong[17] += T(1);
  EXPECT_GT(residual.max_relative_residual(E(), wrong), 1e-3);
}

TYPED_TEST(HinesBatchSolve, ZeroPivotNamesSystemAndNode) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const Tree tree = paper_class_tree(PaperClass::SmallHigh);
  const int n = tree.size(), leaf = n - 1;  // a leaf: its pivot is its own diagonal
  auto in = random_systems<T>(tree, 40, 3);
  in.d[static_cast<std::size_t>(13) * n + leaf] = T(0);
  for (const auto schedule : this->schedules()) {
    typename TestFixture::Batch batch(40, n, this->block_size_for(n));
    batch.fill(exec, in.u, in.l, in.d, in.rhs);
    DeviceTree<typename E::memory_space> dtree(exec, tree);
    solve(exec, dtree, batch, schedule);
    try {
      batch.check(exec);
      FAIL() << "zero pivot not reported " << to_string(schedule);
    } catch (const SolverError& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find("system 13"), std::string::npos) << msg;
      EXPECT_NE(msg.find("node " + std::to_string(leaf)), std::string::npos) << msg;
      EXPECT_NE(msg.find("pivot"), std::string::npos) << msg;
      EXPECT_EQ(e.system(), 13);  // as numbers too (the Python binding's SolveError)
      EXPECT_EQ(e.node(), leaf);
    }
    batch.check(exec);  // the record was cleared
  }
}

// One thread per system takes several systems in turn on GPUs (Flat storage, more systems
// than a fraction of the GPU's threads): every system of a large batch is solved, and a
// zero pivot in the last one is reported against that system.
TYPED_TEST(HinesBatchSolve, PerSystemThreadsTakingSeveralSystems) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const Tree tree = random_tree(7, 3);
  const int n = tree.size(), systems = 2 * E().concurrency() / 8 + 3;
  const auto o = this->run(tree, systems, 99, this->block_size_for(n), HinesSchedule::PerSystem);
  this->expect_correct(tree, o, "strided PerSystem");
  auto in = random_systems<T>(tree, systems, 6);
  in.d[static_cast<std::size_t>(systems - 1) * n + n - 1] = T(0);  // a leaf's own pivot
  typename TestFixture::Batch batch(systems, n, this->block_size_for(n));
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  solve(exec, DeviceTree<typename E::memory_space>(exec, tree), batch, HinesSchedule::PerSystem);
  try {
    batch.check(exec);
    FAIL() << "zero pivot in the last system not reported";
  } catch (const SolverError& e) {
    EXPECT_EQ(e.system(), systems - 1) << e.what();
  }
}

// The staged schedule, in every chunk shape Auto may name (16 rows; 32 copied
// asynchronously, where instantiated: the default shape elsewhere), on
// trees whose parents lie in a row's own chunk, in the next chunk (the row just below and
// further in) and further down (chains, stars, random and bushy trees, sizes around the
// chunks), in teams of 32 systems left partly empty: correct, and leaving PerSystem's
// eliminated diagonal in d.
TYPED_TEST(HinesBatchSolve, StagedAcrossChunks) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using Batch = typename TestFixture::Batch;
  std::vector<std::pair<std::string, Tree>> trees;
  for (int n : {1, 2, 15, 16, 17, 31, 32, 33, 50, 64, 65})
    trees.emplace_back("chain", chain_tree(n));
  for (int n : {16, 17, 40, 100, 257}) trees.emplace_back("random", random_tree(n, 5 + n));
  trees.emplace_back("star", star_tree(70));
  trees.emplace_back("bushy", random_tree(300, 9, 0.9));
  trees.emplace_back("biglow", paper_class_tree(PaperClass::BigLow));
  for (const auto& [name, tree] : trees)
    for (int systems : {1, 31, 33, 70}) {
      const int n = tree.size(), bs = this->block_size_for(n);
      const std::string what = name + std::to_string(n) + " N=" + std::to_string(systems);
      // d after PerSystem, then after the staged schedule in each shape.
      const impl::StagedShape shapes[] = {{16, false}, {32, true}, {16, false, true}};
      std::vector<T> d[1 + std::size(shapes)];
      for (std::size_t k = 0; k < std::size(d); ++k) {
        const auto o = this->run_with(
            tree, systems, 77 + n + systems, bs, {},
            [&](const E& exec, const auto& dtree, const Batch& batch) {
              if (k == 0)
                solve(exec, dtree, batch, HinesSchedule::PerSystem);
              else
                impl::solve_staged_shaped(exec, dtree.parents(), batch, shapes[k - 1]);
              const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), batch.d());
              d[k].assign(h.data(), h.data() + h.span());
            });
        this->expect_correct(tree, o,
                             what + (k == 0 ? std::string(" PerSystem")
                                            : " staged" + impl::suffix_of(shapes[k - 1])));
      }
      for (std::size_t k = 1; k < std::size(d); ++k) {
        ASSERT_EQ(d[0].size(), d[k].size());
        for (std::size_t e = 0; e < d[0].size(); ++e) {
          if (std::isnan(d[0][e]) && std::isnan(d[k][e])) continue;  // tile padding
          ASSERT_LE(std::abs(double(d[0][e]) - double(d[k][e])),
                    10 * this->tolerance() * std::max(1.0, std::abs(double(d[0][e]))))
              << what << ", shape " << k - 1 << ": d element " << e;
        }
      }
    }
}

// A zero pivot that only elimination creates (the input's diagonals are all non-zero):
// every schedule reports it, naming the system.
TYPED_TEST(HinesBatchSolve, ZeroPivotFromEliminationIsReported) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const Tree tree = chain_tree(40);
  const int n = tree.size();
  auto in = random_systems<T>(tree, 20, 5);
  // Rows 38 and 39 of system 9 singular: d38 d39 = u39 l39.
  const std::size_t o = static_cast<std::size_t>(9) * n;
  in.u[o + 39] = T(2);
  in.l[o + 39] = T(2);
  in.d[o + 39] = T(4);
  in.d[o + 38] = T(1);
  in.u[o + 38] = T(0);
  in.l[o + 38] = T(0);
  for (const auto schedule : this->schedules()) {
    typename TestFixture::Batch batch(20, n, this->block_size_for(n));
    batch.fill(exec, in.u, in.l, in.d, in.rhs);
    solve(exec, DeviceTree<typename E::memory_space>(exec, tree), batch, schedule);
    try {
      batch.check(exec);
      FAIL() << "singular system not reported " << to_string(schedule);
    } catch (const SolverError& e) {
      EXPECT_NE(std::string(e.what()).find("system 9"), std::string::npos) << e.what();
    }
  }
}

TYPED_TEST(HinesBatchSolve, NanInputIsReported) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  E exec;
  const Tree tree = paper_class_tree(PaperClass::SmallLow);
  const int n = tree.size();
  auto in = random_systems<T>(tree, 10, 4);
  in.rhs[static_cast<std::size_t>(6) * n + 20] = std::numeric_limits<T>::quiet_NaN();
  for (const auto schedule : this->schedules()) {
    typename TestFixture::Batch batch(10, n, this->block_size_for(n));
    batch.fill(exec, in.u, in.l, in.d, in.rhs);
    solve(exec, DeviceTree<typename E::memory_space>(exec, tree), batch, schedule);
    try {
      batch.check(exec);
      FAIL() << "NaN not reported " << to_string(schedule);
    } catch (const SolverError& e) {
      EXPECT_NE(std::string(e.what()).find("system 6"), std::string::npos) << e.what();
    }
  }
}

// A batch adopting a caller's Views (untiled layouts; the Python binding wraps numpy
// memory this way) solves them in place, against the sequential Hines algorithm.
template <class Layout>
void expect_adopted_views_solved_in_place() {
  using E = Kokkos::DefaultExecutionSpace;
  using Batch = HinesBatch<double, Layout, E::memory_space>;
  E exec;
  const Tree tree = paper_class_tree(PaperClass::SmallHigh);
  const int n = tree.size(), N = 37;
  const auto in = random_systems<double>(tree, N, 11);
  auto view = [&](const std::vector<double>& src, const char* label) {
    typename Batch::view_type v(std::string(label), N, n);
    auto h = Kokkos::create_mirror_view(v);
    for (int s = 0; s < N; ++s)
      for (int i = 0; i < n; ++i) h(s, i) = src[static_cast<std::size_t>(s) * n + i];
    Kokkos::deep_copy(v, h);
    return v;
  };
  const auto rhs = view(in.rhs, "rhs");
  Batch batch(view(in.u, "u"), view(in.l, "l"), view(in.d, "d"), rhs);
  EXPECT_EQ(batch.num_systems(), N);
  EXPECT_EQ(batch.rhs().data(), rhs.data());  // the caller's memory, not a copy
  solve(exec, DeviceTree<E::memory_space>(exec, tree), batch);
  batch.check(exec);
  auto d = in.d;
  auto want = in.rhs;
  hines_solve_serial_batch(tree, N, in.u.data(), in.l.data(), d.data(), want.data());
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), rhs);
  for (int s = 0; s < N; ++s)
    for (int i = 0; i < n; ++i)
      ASSERT_NEAR(h(s, i), want[static_cast<std::size_t>(s) * n + i], 1e-12) << s << " " << i;
  typename Batch::view_type other(std::string("other"), N, n + 1);
  EXPECT_THROW((void)Batch(other, other, other, rhs), InputError);
}

// Auto keeps each thread's last question and answer per kind of table: two tables of one
// kind asked in turn, the same question again, another size or height, and another thread
// all get the point of the table they ask.
TEST(AutoTreePoint, RepeatedQuestionsGetTheirOwnTablesPoint) {
  using P = impl::HinesAutoPoint;
  static constexpr P a[] = {{100, 2, 24, HinesSchedule::WarpPerSystem},
                            {100, 100, 24, HinesSchedule::BlockPerSystem}};
  static constexpr P b[] = {{100, 2, 24, HinesSchedule::PerSystemStaged},
                            {100, 100, 24, HinesSchedule::TeamPerSystem}};
  const long long systems = (1ll << 24) / 100;
  for (int round = 0; round < 3; ++round) {
    EXPECT_EQ(&impl::nearest_auto_point(a, 100, systems, 2), &a[0]);
    EXPECT_EQ(&impl::nearest_auto_point(a, 100, systems, 2), &a[0]);
    EXPECT_EQ(&impl::nearest_auto_point(b, 100, systems, 2), &b[0]);
    EXPECT_EQ(&impl::nearest_auto_point(b, 100, systems, 100), &b[1]);
    EXPECT_EQ(&impl::nearest_auto_point(b, 100, systems, 100), &b[1]);
    EXPECT_EQ(&impl::nearest_auto_point(a, 100, systems, 100), &a[1]);
    EXPECT_EQ(&impl::nearest_auto_point(a, 100, systems / 4, 100), &a[1]);
    EXPECT_EQ(&impl::nearest_auto_point(a, 100, systems / 4, 2), &a[0]);
    std::thread([&] { EXPECT_EQ(&impl::nearest_auto_point(b, 100, systems, 2), &b[0]); }).join();
    EXPECT_EQ(impl::nearest_auto_schedule(b, 100, systems / 4, 2), HinesSchedule::PerSystemStaged);
  }
  // More questions in turn than the search keeps: each still gets its own table's point.
  for (int round = 0; round < 2; ++round)
    for (int size = 60; size < 140; size += 4)
      for (int height : {2, 100}) {
        const std::size_t k = height == 2 ? 0 : 1;
        EXPECT_EQ(&impl::nearest_auto_point(a, size, systems, height), &a[k]) << size;
        EXPECT_EQ(&impl::nearest_auto_point(b, size, systems, height), &b[k]) << size;
      }
}

// Trees of one size part by height in Auto's table: a chain and a star of 100 nodes each
// take their own point; a height near one of them takes that one's; an unknown height
// (0) falls back to the nearest size and batch, the point listed first on a tie; and a
// tree's height, as the solve passes it, is what Tree::height() counts.
TEST(AutoTreePoint, TreesOfOneSizePartByHeight) {
  using P = impl::HinesAutoPoint;
  static constexpr P table[] = {{100, 2, 24, HinesSchedule::WarpPerSystem},
                                {100, 100, 24, HinesSchedule::PerSystemStaged, {32, true}},
                                {1000, 62, 24, HinesSchedule::BlockPerSystem}};
  const long long systems = (1ll << 24) / 100;
  EXPECT_EQ(impl::nearest_auto_schedule(table, 100, systems, 2), HinesSchedule::WarpPerSystem);
  EXPECT_EQ(impl::nearest_auto_schedule(table, 100, systems, 3), HinesSchedule::WarpPerSystem);
  EXPECT_EQ(impl::nearest_auto_schedule(table, 100, systems, 100), HinesSchedule::PerSystemStaged);
  EXPECT_EQ(impl::nearest_auto_schedule(table, 100, systems, 70), HinesSchedule::PerSystemStaged);
  EXPECT_EQ(impl::nearest_auto_point(table, 100, systems, 100).shape.rows, 32);
  EXPECT_EQ(impl::nearest_auto_schedule(table, 100, systems, 0), HinesSchedule::WarpPerSystem);
  EXPECT_EQ(impl::nearest_auto_schedule(table, 900, (1ll << 24) / 900, 50),
            HinesSchedule::BlockPerSystem);
  EXPECT_EQ(chain_tree(100).height(), 100);
  EXPECT_EQ(star_tree(100).height(), 2);
  const Tree tree = random_tree(300, 5);
  int deepest = 0;
  for (int i = 0; i < tree.size(); ++i) {
    int d = 1;
    for (int p = tree.parent(i); p >= 0; p = tree.parent(p)) ++d;
    deepest = std::max(deepest, d);
  }
  EXPECT_EQ(tree.height(), deepest);
  EXPECT_EQ(DeviceTree<>(Kokkos::DefaultExecutionSpace(), tree).height(), deepest);
}

// The warp plan against its definition, recomputed here the slow way: a node is kept when
// some node of its subtree lies past its lane range; every kept node is in exactly one
// piece, a chain of one range ending at a port; every cross node and every piece but the
// root's hangs from exactly one port; ports come in decreasing node order.
TEST(WarpTreePlan, MatchesItsDefinition) {
  std::vector<std::pair<std::string, Tree>> trees = {
      {"chain300", chain_tree(300)},          {"star50", star_tree(50)},
      {"binary255", balanced_binary_tree(8)}, {"random400", random_tree(400, 11)},
      {"bushy400", random_tree(400, 5, 0.9)}, {"one", chain_tree(1)}};
  for (const auto& c : paper_classes()) trees.emplace_back(c.name, paper_class_tree(c.id));
  for (const auto& [name, tree] : trees)
    for (int lanes : {1, 2, 4, 8, 16, 32}) {
      const WarpTreePlan plan = WarpTreePlan::build(tree, lanes);
      const int n = tree.size(), R = plan.nodes_per_lane;
      const std::string what = name + " lanes=" + std::to_string(lanes);
      ASSERT_EQ(plan.lane_stride % 2, 1) << what;
      ASSERT_GE(plan.lane_stride, R) << what;
      std::vector<int> node_of_slot(plan.num_slots(), -1);
      for (int i = 0; i < n; ++i) node_of_slot.at(plan.slot_of(i)) = i;
      std::vector<int> in_pieces(n, 0);
      for (int q = 0; q < plan.num_pieces(); ++q) {
        for (int k = plan.piece_begin[q]; k < plan.piece_begin[q + 1]; ++k) {
          const int i = node_of_slot.at(plan.piece_slots[k]);
          ASSERT_GE(i, 0) << what;
          ++in_pieces[i];
          if (k > plan.piece_begin[q])
            ASSERT_EQ(tree.parent(i), node_of_slot[plan.piece_slots[k - 1]]) << what;
          ASSERT_EQ(i / R, node_of_slot[plan.piece_slots[plan.piece_begin[q]]] / R) << what;
        }
        const int top = node_of_slot[plan.piece_slots[plan.piece_begin[q]]];
        ASSERT_EQ(plan.piece_parent[q], top == 0 ? -1 : plan.slot_of(tree.parent(top))) << what;
      }
      for (int i = 0; i < n; ++i) {
        bool leaves = i == 0;
        for (int j = i; j < n && !leaves; ++j) {
          int a = j;
          while (a > i) a = tree.parent(a);
          if (a == i && j / R != i / R) leaves = true;
        }
        const int want = leaves                          ? WarpTreePlan::kKept
                         : (tree.parent(i) / R == i / R) ? WarpTreePlan::kLocal
                                                         : WarpTreePlan::kCross;
        ASSERT_EQ(plan.kind[i], want) << what << " node " << i;
        ASSERT_EQ(in_pieces[i], leaves ? 1 : 0) << what << " node " << i;
      }
      ASSERT_EQ(plan.num_ports(), plan.num_pieces()) << what;
      std::vector<int> seen_piece(plan.num_pieces(), 0), seen_cross(n, 0);
      int last_bottom = n;
      for (int r = 0; r < plan.num_ports(); ++r) {
        const int q = plan.port_piece[r];
        const int b = node_of_slot[plan.piece_slots[plan.piece_begin[q + 1] - 1]];
        ASSERT_LT(b, last_bottom) << what;
        last_bottom = b;
        for (int c = plan.port_child_begin[r]; c < plan.port_child_begin[r + 1]; ++c) {
          ++seen_piece.at(plan.child_piece[c]);
          ASSERT_EQ(plan.piece_parent[plan.child_piece[c]], plan.slot_of(b)) << what;
        }
        for (int c = plan.port_cross_begin[r]; c < plan.port_cross_begin[r + 1]; ++c) {
          const int i = node_of_slot.at(plan.port_cross[c]);
          ++seen_cross.at(i);
          ASSERT_EQ(tree.parent(i), b) << what;
        }
      }
      for (int q = 0; q < plan.num_pieces(); ++q)
        ASSERT_EQ(seen_piece[q], plan.piece_parent[q] < 0 ? 0 : 1) << what << " piece " << q;
      for (int i = 0; i < n; ++i)
        ASSERT_EQ(seen_cross[i], plan.kind[i] == WarpTreePlan::kCross ? 1 : 0) << what;
    }
}

// The split plan: every node but the junction's in exactly one lane, children before their
// parents within a lane, a lane's nodes whole subtrees hanging from the junction, the
// junction holding the root and closed under parents; a tree of dendrites splits evenly and
// a chain does not split.
TEST(SplitTreePlan, MatchesItsDefinition) {
  std::vector<std::pair<std::string, Tree>> trees = {
      {"chain", chain_tree(500)},           {"star", star_tree(300)},
      {"binary", balanced_binary_tree(10)}, {"random", random_tree(2000, 3)},
      {"bushy", random_tree(1500, 5, 0.9)}, {"single", chain_tree(1)}};
  for (const auto& f : real_morphology_files()) trees.push_back({f, read_swc(f).tree()});
  for (const auto& [name, tree] : trees)
    for (int lanes : {1, 2, 4, 8, 16, 32}) {
      const SplitTreePlan plan = SplitTreePlan::build(tree, lanes);
      const int n = tree.size();
      const std::string what = name + " lanes=" + std::to_string(lanes);
      // More lanes search a junction as large as fewer do: never a longer path here.
      if (lanes > 1)
        EXPECT_LE(plan.modelled_steps(), SplitTreePlan::build(tree, lanes / 2).modelled_steps())
            << what;
      std::vector<int> lane_of(n, -1);
      std::vector<char> junction(n, 0);
      for (int i : plan.junction) junction[i] = 1;
      ASSERT_TRUE(junction[0]) << what;
      for (int i : plan.junction)
        if (i > 0) EXPECT_TRUE(junction[tree.parent(i)]) << what << " node " << i;
      ASSERT_EQ(plan.lane_node.size(), static_cast<std::size_t>(lanes) * plan.steps) << what;
      int placed = 0;
      for (int k = 0; k < lanes; ++k) {
        int previous = n;
        for (int j = 0; j < plan.steps; ++j) {
          const int i = plan.lane_node[k * plan.steps + j];
          if (i < 0) continue;
          ASSERT_LT(i, previous) << what;  // decreasing
          previous = i;
          ASSERT_EQ(lane_of[i], -1) << what << " node " << i << " twice";
          ASSERT_FALSE(junction[i]) << what;
          lane_of[i] = k;
          ++placed;
          const int p = tree.parent(i), code = plan.lane_parent[k * plan.steps + j];
          EXPECT_EQ(code, junction[p] ? -1 - p : p) << what << " node " << i;
        }
      }
      EXPECT_EQ(placed + static_cast<int>(plan.junction.size()), n) << what;
      for (int i = 1; i < n; ++i)
        if (!junction[i] && !junction[tree.parent(i)])
          EXPECT_EQ(lane_of[i], lane_of[tree.parent(i)]) << what << " node " << i;
      int tops = 0;
      for (int i = 1; i < n; ++i) tops += !junction[i] && junction[tree.parent(i)];
      EXPECT_EQ(static_cast<int>(plan.tops.size()), tops) << what;
      // Never worse than the junction of the root alone.
      int root_children = 0;
      for (int i = 1; i < n; ++i) root_children += tree.parent(i) == 0;
      EXPECT_LE(plan.modelled_steps(), n + root_children) << what;
    }
  // Eight dendrites of 100 nodes on a soma: eight lanes of one dendrite each.
  std::vector<int> parents{-1};
  for (int b = 0; b < 8; ++b)
    for (int j = 0; j < 100; ++j)
      parents.push_back(j == 0 ? 0 : static_cast<int>(parents.size()) - 1);
  EXPECT_EQ(SplitTreePlan::build(Tree(parents), 8).steps, 100);
  EXPECT_EQ(SplitTreePlan::build(Tree(parents), 4).steps, 200);
  // An unbranched chain gains nothing: one thread walks it, in a lane or in the junction.
  const int chain_steps = SplitTreePlan::build(chain_tree(500), 4).modelled_steps();
  EXPECT_GE(chain_steps, 500);
  EXPECT_LE(chain_steps, 501);
}

// The split schedule's lanes: a power of two up to split_schedule_most_lanes, 1 on host
// backends; a mono-morphology batch doubles them only while its threads fall short of an
// eighth of what the GPU holds, so never more than a grouped batch's rule (all the threads)
// takes for as many systems.
TEST(SplitLanes, MonoRuleStopsAtAnEighthOfTheThreads) {
  using E = Kokkos::DefaultExecutionSpace;
  E exec;
  std::vector<std::pair<std::string, Tree>> trees = {{"chain", chain_tree(500)},
                                                     {"random", random_tree(3000, 3)}};
  for (const auto& f : real_morphology_files()) trees.push_back({f, read_swc(f).tree()});
  const double threads = static_cast<double>(exec.concurrency());
  for (const auto& [name, tree] : trees) {
    DeviceTree<E::memory_space> dtree(exec, tree);
    for (long long systems : {1LL, 37LL, 1000LL, 5264LL, 20000LL, 100000LL, 1LL << 22}) {
      const int k = impl::mono_split_lanes(exec, dtree, systems);
      const std::string what = name + " systems=" + std::to_string(systems);
      EXPECT_GE(k, 1) << what;
      EXPECT_LE(k, impl::split_schedule_most_lanes) << what;
      EXPECT_EQ(k & (k - 1), 0) << what;
      if (is_host_backend<E>()) EXPECT_EQ(k, 1) << what;
      if (k > 1) EXPECT_LT(systems * k / 2, threads / 8) << what;
      EXPECT_LE(k, impl::choose_split_lanes(exec, dtree, systems, impl::split_schedule_most_lanes,
                                            threads))
          << what;
    }
  }
}

TEST(HinesBatchAdoptingViews, FlatAndFullInterleavedSolveInPlace) {
  expect_adopted_views_solved_in_place<layouts::Flat>();
  expect_adopted_views_solved_in_place<layouts::FullInterleaved>();
}

TYPED_TEST(HinesBatchSolve, TreeAndBatchSizesMustMatch) {
  using E = typename TestFixture::E;
  E exec;
  typename TestFixture::Batch batch(3, 10, this->block_size_for(10));
  EXPECT_THROW(solve(exec, DeviceTree<typename E::memory_space>(exec, chain_tree(11)), batch),
               InputError);
}

}  // namespace
