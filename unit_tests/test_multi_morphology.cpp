// Multi-morphology batches (every cell its own tree): the naive interleaved path (unsorted
// and sorted), the ThomasBatch paper's one-launch-per-level path, the one-kernel team path
// and the packed team-per-cell paths (on-chip elimination: TeamPieces; CellLanes with the
// backend's scratch, and with 2 KB of level-0 scratch, so that cells of one batch take
// every way of keeping them: all on chip, d and rhs on chip, level-1 scratch with and
// without the plan on chip), and the batch grouped by tree (each group a mono-morphology
// batch under Auto, Full-Interleaved and Flat, with the default threshold and with groups
// of two cells and at most five groups, so that one batch has groups and a rest), against
// the sequential Hines algorithm per cell on fresh random systems, on every backend, with
// the read-back buffer poisoned.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "backends.hpp"
#include "cable_systems.hpp"
#include "hinesbatch/hinesbatch.hpp"
#include "random_systems.hpp"
#include "shared_data.hpp"

namespace {

using namespace hinesbatch;
using namespace hinesbatch::test;

enum class Path {
  Naive,
  NaiveSorted,
  LevelLaunches,
  TeamLevels,
  PackedTeam,
  PackedLanes,
  PackedLanesSmallScratch,
  Grouped,
  GroupedFlat,
  GroupedPairs
};

template <class S, class E, Path P>
struct MultiConfig {
  using scalar_type = S;
  using execution_space = E;
  static constexpr Path path = P;
};

template <class E>
using PathsFor = std::tuple<
    MultiConfig<double, E, Path::Naive>, MultiConfig<double, E, Path::NaiveSorted>,
    MultiConfig<double, E, Path::LevelLaunches>, MultiConfig<double, E, Path::TeamLevels>,
    MultiConfig<float, E, Path::LevelLaunches>, MultiConfig<float, E, Path::TeamLevels>,
    MultiConfig<double, E, Path::PackedTeam>, MultiConfig<float, E, Path::PackedTeam>,
    MultiConfig<double, E, Path::PackedLanes>, MultiConfig<float, E, Path::PackedLanes>,
    MultiConfig<double, E, Path::PackedLanesSmallScratch>,
    MultiConfig<float, E, Path::PackedLanesSmallScratch>, MultiConfig<double, E, Path::Grouped>,
    MultiConfig<float, E, Path::Grouped>, MultiConfig<double, E, Path::GroupedFlat>,
    MultiConfig<double, E, Path::GroupedPairs>>;
template <class Execs>
struct AllPaths;
template <class... E>
struct AllPaths<std::tuple<E...>> {
  using type = decltype(std::tuple_cat(PathsFor<E>{}...));
};

template <class C>
class MultiMorphology : public ::testing::Test {
 public:
  using T = typename C::scalar_type;
  using E = typename C::execution_space;
  using Mem = typename E::memory_space;
  static double tolerance() { return std::is_same<T, float>::value ? 1e-4 : 1e-12; }

  static HostSystems<T> random_forest(const std::vector<Tree>& cells, std::uint64_t seed) {
    HostSystems<T> all;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const auto one = random_systems<T>(cells[c], 1, seed * 1000003 + c);
      all.append(one);
    }
    return all;
  }

  // Solves on the configured path; returns the solution in canonical order.
  static std::vector<T> run(const std::vector<Tree>& cells, const HostSystems<T>& in) {
    E exec;
    std::vector<T> x(in.rhs.size(), std::numeric_limits<T>::quiet_NaN());
    if (C::path == Path::Naive || C::path == Path::NaiveSorted) {
      InterleavedMultiBatch<T, Mem> batch(exec, cells, C::path == Path::NaiveSorted);
      batch.fill(exec, in.u, in.l, in.d, in.rhs);
      solve(exec, batch);
      batch.check(exec);
      batch.solution_to_host(exec, x);
    } else if (C::path == Path::Grouped || C::path == Path::GroupedFlat ||
               C::path == Path::GroupedPairs) {
      GroupedBatchOptions options;
      if (C::path == Path::GroupedPairs) {
        options.min_group_cells = 2;
        options.max_groups = 5;
      }
      auto go = [&](auto layout) {
        GroupedMultiBatch<T, decltype(layout), Mem> batch(exec, cells, options);
        batch.fill(exec, in.u, in.l, in.d, in.rhs);
        solve(exec, batch);
        batch.check(exec);
        batch.solution_to_host(exec, x);
      };
      if (C::path == Path::GroupedFlat)
        go(layouts::Flat{});
      else
        go(layouts::FullInterleaved{});
    } else if (C::path == Path::PackedTeam || C::path == Path::PackedLanes ||
               C::path == Path::PackedLanesSmallScratch) {
      const PackedSchedule schedule =
          C::path == Path::PackedTeam ? PackedSchedule::TeamPieces : PackedSchedule::CellLanes;
      PackedMultiBatch<T, Mem> batch(exec, cells, schedule, 3);  // short pieces: many levels
      batch.fill(exec, in.u, in.l, in.d, in.rhs);
      solve(exec, batch, schedule, C::path == Path::PackedLanesSmallScratch ? 2048 : 0);
      batch.check(exec);
      batch.solution_to_host(exec, x);
    } else {
      BranchPlanOptions options;
      options.cells_per_group = 3;  // small groups: many groups and group boundaries
      const BranchPlan plan(cells, options);
      BranchBatch<T, Mem> batch(exec, plan);
      const T nan = std::numeric_limits<T>::quiet_NaN();
      Kokkos::deep_copy(batch.rhs(), nan);  // padding and every node poisoned
      Kokkos::deep_copy(batch.d(), nan);
      batch.fill(exec, in.u, in.l, in.d, in.rhs);
      solve(exec, batch,
            C::path == Path::LevelLaunches ? BranchSchedule::LevelLaunches
                                           : BranchSchedule::TeamLevels);
      batch.check(exec);
      batch.solution_to_host(exec, x);
    }
    return x;
  }

  static void check(const std::vector<Tree>& cells, const std::string& what,
                    std::uint64_t seed = 1) {
    check_systems(cells, random_forest(cells, seed), what);
  }

  // Against the sequential Hines solve and the long-double residual, cell by cell.
  static void check_systems(const std::vector<Tree>& cells, const HostSystems<T>& in,
                            const std::string& what) {
    const auto x = run(cells, in);
    std::size_t off = 0;
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const Tree& t = cells[c];
      const int n = t.size();
      std::vector<T> d(in.d.begin() + off, in.d.begin() + off + n),
          ref(in.rhs.begin() + off, in.rhs.begin() + off + n);
      hines_solve_serial(t.parents().data(), n, in.u.data() + off, in.l.data() + off, d.data(),
                         ref.data());
      const double r = relative_residual(t, in.u.data() + off, in.l.data() + off, in.d.data() + off,
                                         in.rhs.data() + off, x.data() + off);
      ASSERT_TRUE(r <= tolerance())
          << what << ": cell " << c << " (" << n << " nodes) residual " << r;
      long double dd = 0, rr = 0;
      for (int i = 0; i < n; ++i) {
        dd += ((long double)x[off + i] - ref[i]) * ((long double)x[off + i] - ref[i]);
        rr += (long double)ref[i] * ref[i];
      }
      ASSERT_TRUE(std::sqrt(double(dd / rr)) <= 10 * tolerance()) << what << ": cell " << c;
      off += n;
    }
  }
};

using MultiConfigs = AsGtestTypes<typename AllPaths<EnabledExecutionSpaces>::type>::type;
TYPED_TEST_SUITE(MultiMorphology, MultiConfigs);

TYPED_TEST(MultiMorphology, SingleNodeCellsAndTinyTrees) {
  this->check({chain_tree(1)}, "one single-node cell");
  this->check({chain_tree(1), chain_tree(2), star_tree(3), chain_tree(1), balanced_binary_tree(2)},
              "tiny mix");
}

TYPED_TEST(MultiMorphology, HardShapesMixed) {
  std::vector<Tree> cells{chain_tree(2000),      star_tree(1000), balanced_binary_tree(10),
                          random_tree(10000, 3), chain_tree(1),   p2_binary_tree(4)};
  for (const auto& c : paper_classes()) cells.push_back(paper_class_tree(c.id, 5));
  this->check(cells, "hard shapes");
}

TYPED_TEST(MultiMorphology, RandomCellsOfAllSizes) {
  std::vector<Tree> cells;
  std::uint64_t s = 11;
  for (int c = 0; c < 300; ++c) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    const int n = 1 + static_cast<int>((s >> 33) % 700);
    cells.push_back(random_tree(n, s, 0.05 + 0.3 * double((s >> 20) % 100) / 100.0));
  }
  this->check(cells, "300 random cells", 2);
}

TYPED_TEST(MultiMorphology, HundredThousandCells) {
  std::vector<Tree> cells;
  const std::vector<Tree> kinds{paper_class_tree(PaperClass::SmallLow, 1),
                                paper_class_tree(PaperClass::SmallHigh, 2), chain_tree(3),
                                random_tree(40, 4, 0.3), chain_tree(1)};
  for (int c = 0; c < 100000; ++c) cells.push_back(kinds[(c * 7) % kinds.size()]);
  this->check(cells, "100000 cells", 3);
}

TYPED_TEST(MultiMorphology, RealMorphologiesMixedWithSynthetic) {
  std::vector<Tree> cells = real_morphology_trees();
  if (cells.empty())
    GTEST_SKIP() << "no SWC files in " << morphology_dir() << " (../shared absent)";
  const std::size_t real = cells.size();
  for (std::size_t k = 0; k < real; ++k) cells.push_back(random_tree(cells[k].size(), k, 0.1));
  cells.push_back(star_tree(1000));
  std::vector<Tree> batch;
  for (int r = 0; r < 40; ++r) batch.insert(batch.end(), cells.begin(), cells.end());
  this->check(batch, "real + synthetic", 4);
}

// The simulation's own matrices (cable_matrix: C/dt and axial conductances, zero-area
// section ends without any diagonal margin) on the real cells as NEURON discretises them.
TYPED_TEST(MultiMorphology, RealCellsWithTheCableMatrix) {
  using T = typename TestFixture::T;
  const std::vector<NeuronCompartments> neuron = real_neuron_cells();
  if (neuron.empty())
    GTEST_SKIP() << "no SWC files in " << morphology_dir() << " (../shared absent)";
  std::vector<Tree> cells;
  HostSystems<T> in;
  for (int r = 0; r < 8; ++r)
    for (std::size_t k = 0; k < neuron.size(); ++k) {
      cells.push_back(neuron[k].tree);
      const auto one = cable_systems<T>(neuron[k], 1, 97 * r + k);
      in.append(one);
    }
  this->check_systems(cells, in, "real cells, cable matrix");
}

// Repeated trees (groups of every size around the thresholds) beside unique ones.
TYPED_TEST(MultiMorphology, RepeatedAndUniqueTrees) {
  std::vector<Tree> cells;
  const std::vector<Tree> kinds{paper_class_tree(PaperClass::MediumHigh, 1), chain_tree(700),
                                random_tree(2500, 5, 0.2), star_tree(40), chain_tree(1)};
  for (int c = 0; c < 200; ++c) {
    const int k = c % 11;  // kinds 0-4 repeated, 5-10 a new random tree each time
    cells.push_back(k < 5 ? kinds[k] : random_tree(1 + (c * 53) % 800, c, 0.15));
  }
  for (int c = 0; c < 40; ++c) cells.push_back(kinds[0]);  // the largest group
  cells.push_back(kinds[2]);
  this->check(cells, "repeated and unique trees", 6);
}

TYPED_TEST(MultiMorphology, ZeroPivotNamesCellAndNode) {
  using T = typename TestFixture::T;
  const std::vector<Tree> cells{paper_class_tree(PaperClass::SmallHigh), chain_tree(5),
                                paper_class_tree(PaperClass::MediumHigh)};
  auto in = this->random_forest(cells, 9);
  const int leaf = cells[2].size() - 1;  // a leaf of cell 2: its pivot is its own diagonal
  in.d[cells[0].size() + cells[1].size() + leaf] = T(0);
  try {
    this->run(cells, in);
    FAIL() << "zero pivot not reported";
  } catch (const SolverError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("cell 2"), std::string::npos) << msg;
    EXPECT_NE(msg.find("node " + std::to_string(leaf)), std::string::npos) << msg;
    EXPECT_EQ(e.system(), 2);
    EXPECT_EQ(e.node(), leaf);
  }
}

// The CellLanes schedule's launches cover the cells sorted by size once, in order; each
// launch's level-0 scratch holds its largest cell and its largest plan; a cell is kept
// whole on chip while it fits (u, l, d, rhs and its plan), else with d and rhs on chip,
// else in level 1 with its plan on chip while that fits; level-0 launches hold one size
// bucket.
TEST(PackedLanes, LaunchesCoverTheCellsAndEachWayOfKeepingThem) {
  const std::vector<int> sizes{1, 1, 3, 40, 50, 51, 70, 80, 100, 200, 500, 5000};
  const std::vector<int> entries{1, 1, 4, 45, 50, 60, 70, 90, 100, 230, 520, 5100};
  const std::size_t bytes = 8, level0 = 2048;
  const auto launches = impl::lane_launches(sizes, entries, bytes, level0);
  int next = 0;
  bool whole = false, split = false, level1_plan = false, level1 = false;
  for (const auto& l : launches) {
    SCOPED_TRACE("launch from cell " + std::to_string(l.first));
    EXPECT_EQ(l.first, next);
    ASSERT_GT(l.count, 0);
    next += l.count;
    int most = 0, most_entries = 0;
    for (int k = l.first; k < l.first + l.count; ++k) {
      most = std::max(most, sizes[k]);
      most_entries = std::max(most_entries, entries[k]);
    }
    EXPECT_EQ(l.capacity, most);
    EXPECT_EQ(l.entry_capacity, most_entries);
    EXPECT_LE(l.level0_bytes(bytes), level0);
    const std::size_t plan =
        impl::LaneLaunch::rounded(4 * static_cast<std::size_t>(sizes[l.first] + entries[l.first]));
    if (l.level == 0) {
      EXPECT_TRUE(l.plan_on_chip);
      EXPECT_LE(most, 2 * sizes[l.first]) << "one power-of-two bucket per launch";
      whole |= l.coefficients_on_chip;
      split |= !l.coefficients_on_chip;
    } else {
      EXPECT_GT(impl::LaneLaunch::rounded(2 * bytes * sizes[l.first]) + plan, level0);
      EXPECT_FALSE(l.coefficients_on_chip);
      level1_plan |= l.plan_on_chip;
      level1 |= !l.plan_on_chip;
    }
  }
  EXPECT_EQ(next, static_cast<int>(sizes.size()));
  EXPECT_TRUE(whole && split && level1_plan && level1);
}

// A packed batch holds the plans of the schedule it was built for: another one is refused
// with its name, not run on plans it does not have.
TEST(PackedLanes, ASolveOfAnotherScheduleIsRefused) {
  Kokkos::DefaultHostExecutionSpace exec;
  using Mem = Kokkos::DefaultHostExecutionSpace::memory_space;
  const std::vector<Tree> cells{chain_tree(5), star_tree(4)};
  PackedMultiBatch<double, Mem> lanes(exec, cells);
  EXPECT_EQ(lanes.planned_for(), PackedSchedule::CellLanes);
  PackedMultiBatch<double, Mem> pieces(exec, cells, PackedSchedule::TeamPieces);
  for (auto* batch : {&lanes, &pieces}) {
    const auto other = batch == &lanes ? PackedSchedule::TeamPieces : PackedSchedule::CellLanes;
    try {
      solve(exec, *batch, other);
      FAIL() << "solved with " << to_string(other);
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(to_string(other)), std::string::npos) << e.what();
    }
  }
}

TEST(BranchPlan, GroupsLevelsAndStorage) {
  const std::vector<Tree> cells{p2_binary_tree(4), p2_binary_tree(2), chain_tree(3),
                                p2_binary_tree(4)};
  BranchPlanOptions o;
  o.cells_per_group = 3;
  const BranchPlan plan(cells, o);
  EXPECT_EQ(plan.num_cells(), 4);
  EXPECT_EQ(plan.num_nodes(), 448 + 512 + 3 + 448);
  EXPECT_EQ(plan.num_levels(), 4);
  // Every node has a distinct storage slot inside the storage.
  std::vector<int> seen(plan.storage_size(), 0);
  for (auto s : plan.storage_of) {
    ASSERT_GE(s, 0);
    ASSERT_LT(s, plan.storage_size());
    ++seen[s];
  }
  for (std::int64_t k = 0; k < plan.num_nodes(); ++k) EXPECT_EQ(seen[plan.storage_of[k]], 1);
  EXPECT_EQ(plan.num_groups(), 2);  // 4 cells, 3 per group
  // Sorted by depth then size: the two 4-level cells lead, so group 0's level-3 block
  // holds their 16 branches (8 each) side by side.
  const int l3 = plan.group_level_begin[3];
  EXPECT_EQ(plan.group_level_begin[4] - l3, 16);
  EXPECT_EQ(plan.branch_stride[l3], 16);
  EXPECT_EQ(plan.level_begin.back(), plan.num_branches());
  EXPECT_GE(plan.planning_seconds(), 0.0);
}

// Cells of one tree are split once (found by content, not by object), trees of one size
// but another shape are not mistaken for them, and the storage -> (cell, node) lookup of
// the error messages inverts storage_of exactly, padding included.
TEST(BranchPlan, RepeatedTreesAreSharedAndEveryNodeIsFound) {
  const Tree a = random_tree(60, 1), b = random_tree(60, 2), c = chain_tree(60);
  const std::vector<Tree> cells{a, b, a, Tree(a.parents()), c, b, p2_binary_tree(3)};
  BranchPlanOptions o;
  o.cells_per_group = 2;
  const BranchPlan plan(cells, o);
  int branches = 0;
  for (const Tree& t : cells) branches += static_cast<int>(t.branches().size());
  EXPECT_EQ(plan.num_branches(), branches);
  std::vector<int> seen(plan.storage_size(), 0);
  for (int cell = 0; cell < plan.num_cells(); ++cell)
    for (int node = 0; node < cells[cell].size(); ++node) {
      const std::int64_t s = plan.storage_of[plan.cell_offset[cell] + node];
      ASSERT_EQ(seen.at(s)++, 0);
      EXPECT_EQ(plan.cell_node_of_storage(s), std::make_pair(cell, node));
    }
  for (std::int64_t s = 0; s < plan.storage_size(); ++s)
    if (!seen[s]) EXPECT_EQ(plan.cell_node_of_storage(s), std::make_pair(-1, -1));
  EXPECT_EQ(plan.cell_node_of_storage(-1), std::make_pair(-1, -1));
  EXPECT_EQ(plan.cell_node_of_storage(plan.storage_size()), std::make_pair(-1, -1));
}

TEST(BranchPlan, RejectsEmptyCells) {
  EXPECT_THROW(BranchPlan({Tree()}), InputError);
  BranchPlanOptions o;
  o.cells_per_group = 0;
  EXPECT_THROW(BranchPlan({chain_tree(3)}, o), InputError);
}

}  // namespace

namespace {

// Cells are grouped by equal parent arrays, the largest groups (by nodes) first, trees shared
// by fewer than min_group_cells cells and those past max_groups in the rest; every cell once.
TEST(GroupedMultiBatch, GroupsByTreeLargestFirst) {
  using E = Kokkos::DefaultExecutionSpace;
  E exec;
  const Tree a = chain_tree(10), b = star_tree(100), c = random_tree(30, 3, 0.3);
  const Tree a_copy = chain_tree(10), d = chain_tree(11);
  // a x 5 (50 nodes), b x 3 (300), c x 2 (60), d x 1.
  const std::vector<Tree> cells{a, b, c, a_copy, b, a, d, c, a, b, a};
  GroupedBatchOptions options;
  options.min_group_cells = 2;
  options.max_groups = 2;
  GroupedMultiBatch<double, layouts::FullInterleaved> batch(exec, cells, options);
  EXPECT_EQ(batch.num_cells(), 11);
  EXPECT_EQ(batch.num_nodes(), 5 * 10 + 3 * 100 + 2 * 30 + 11);
  ASSERT_EQ(batch.num_groups(), 2);
  EXPECT_EQ(batch.groups()[0].cells, (std::vector<int>{1, 4, 9}));
  EXPECT_EQ(batch.groups()[0].tree.size(), 100);
  EXPECT_EQ(batch.groups()[0].batch.num_systems(), 3);
  EXPECT_EQ(batch.groups()[1].cells, (std::vector<int>{2, 7}));  // c: 60 nodes > a's 50
  ASSERT_TRUE(batch.has_rest());
  EXPECT_EQ(batch.rest_cells(), (std::vector<int>{0, 3, 5, 6, 8, 10}));
  EXPECT_EQ(batch.rest().num_cells(), 6);

  options.max_groups = 64;
  GroupedMultiBatch<double, layouts::Flat> all(exec, cells, options);
  EXPECT_EQ(all.num_groups(), 3);
  EXPECT_EQ(all.rest_cells(), std::vector<int>{6});
  options.min_group_cells = 100;
  GroupedMultiBatch<double, layouts::Flat> none(exec, cells, options);
  EXPECT_EQ(none.num_groups(), 0);
  EXPECT_EQ(none.rest_cells().size(), cells.size());
  EXPECT_THROW((GroupedMultiBatch<double, layouts::Flat>(exec, {a, Tree()})), InputError);
  std::vector<double> short_array(5);
  EXPECT_THROW(all.fill(exec, short_array, short_array, short_array, short_array), InputError);
}

// Every schedule asked for by name runs every group (the rest stays naive), against the
// sequential Hines algorithm.
// x (the cells' solutions back to back) against the sequential algorithm on each cell of
// `in`, to 1e-11 of the cell's largest value.
void expect_cells_match_serial(const std::vector<Tree>& cells, const HostSystems<double>& in,
                               const std::vector<double>& x, const std::string& what) {
  std::size_t off = 0;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const int n = cells[c].size();
    std::vector<double> d(in.d.begin() + off, in.d.begin() + off + n),
        ref(in.rhs.begin() + off, in.rhs.begin() + off + n);
    hines_solve_serial(cells[c].parents().data(), n, in.u.data() + off, in.l.data() + off, d.data(),
                       ref.data());
    double diff = 0, size = 0;
    for (int i = 0; i < n; ++i) {
      diff = std::max(diff, std::abs(x[off + i] - ref[i]));
      size = std::max(size, std::abs(ref[i]));
    }
    ASSERT_LE(diff, 1e-11 * size) << what << ": cell " << c;
    off += n;
  }
}

TEST(GroupedMultiBatch, EverySchedule) {
  using E = Kokkos::DefaultExecutionSpace;
  E exec;
  std::vector<Tree> cells;
  const std::vector<Tree> kinds{paper_class_tree(PaperClass::BigLow, 1), chain_tree(300),
                                random_tree(1200, 8, 0.2), star_tree(5)};
  for (int c = 0; c < 150; ++c)
    cells.push_back(c % 5 < 4 ? kinds[c % 5] : random_tree(1 + c * 7, c, 0.3));
  HostSystems<double> in;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto one = random_systems<double>(cells[c], 1, 4242 + c);
    in.append(one);
  }
  GroupedBatchOptions options;
  options.min_group_cells = 20;
  GroupedMultiBatch<double, layouts::FullInterleaved> batch(exec, cells, options);
  ASSERT_EQ(batch.num_groups(), 4);
  ASSERT_TRUE(batch.has_rest());
  for (HinesSchedule schedule :
       {HinesSchedule::Auto, HinesSchedule::PerSystem, HinesSchedule::PerSystemOnChip,
        HinesSchedule::PerSystemStaged, HinesSchedule::TeamPerSystem, HinesSchedule::WarpPerSystem,
        HinesSchedule::BlockPerSystem, HinesSchedule::Split, HinesSchedule::SimdTiles}) {
    if (schedule == HinesSchedule::SimdTiles && !is_host_backend<E>()) continue;
    batch.fill(exec, in.u, in.l, in.d, in.rhs);
    std::vector<double> x(in.rhs.size(), std::numeric_limits<double>::quiet_NaN());
    solve(exec, batch, schedule);
    batch.check(exec);
    batch.solution_to_host(exec, x);
    expect_cells_match_serial(cells, in, x, to_string(schedule));
  }
}

// Every group on the split schedule with 1-16 lanes per cell (and by the rule), both of the
// grouped batch's layouts, against the sequential algorithm per cell.
TEST(GroupedMultiBatch, SplitLanes) {
  using E = Kokkos::DefaultExecutionSpace;
  E exec;
  std::vector<Tree> cells;
  std::vector<Tree> kinds{paper_class_tree(PaperClass::BigLow, 1), chain_tree(300),
                          random_tree(1200, 8, 0.2), star_tree(5)};
  for (const auto& t : real_morphology_trees()) kinds.push_back(t);
  for (int c = 0; c < 40 * static_cast<int>(kinds.size()) + 7; ++c)
    cells.push_back(c < 40 * static_cast<int>(kinds.size()) ? kinds[c % kinds.size()]
                                                            : random_tree(1 + c * 7, c, 0.3));
  HostSystems<double> in;
  for (std::size_t c = 0; c < cells.size(); ++c)
    in.append(random_systems<double>(cells[c], 1, 99 + c));
  GroupedBatchOptions options;
  options.min_group_cells = 20;
  auto go = [&](auto layout) {
    GroupedMultiBatch<double, decltype(layout)> batch(exec, cells, options);
    ASSERT_EQ(batch.num_groups(), static_cast<int>(kinds.size()));
    for (int lanes : {-1, 1, 2, 3, 4, 8, 16}) {
      const std::string what =
          std::string(decltype(layout)::name) + " lanes=" + std::to_string(lanes);
      batch.fill(exec, in.u, in.l, in.d, in.rhs);
      impl::GroupedLaunch launch;
      launch.split_lanes = lanes;
      impl::solve_grouped(exec, batch, HinesSchedule::Auto, launch);
      batch.check(exec);
      std::vector<double> x(in.rhs.size(), std::numeric_limits<double>::quiet_NaN());
      batch.solution_to_host(exec, x);
      expect_cells_match_serial(cells, in, x, what);
    }
  };
  go(layouts::FullInterleaved{});
  go(layouts::Flat{});
}

// A zero pivot in a group and one in the rest: the smaller canonical cell is named, with
// the node; every record is cleared, so the next check passes.
TEST(GroupedMultiBatch, FailureNamesTheCanonicalCell) {
  using E = Kokkos::DefaultExecutionSpace;
  E exec;
  const Tree a = paper_class_tree(PaperClass::SmallHigh), b = chain_tree(7);
  const std::vector<Tree> cells{a, b, a, a, random_tree(50, 2, 0.2), a};
  HostSystems<double> in;
  std::vector<std::int64_t> offset{0};
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto one = random_systems<double>(cells[c], 1, 11 + c);
    in.append(one);
    offset.push_back(offset.back() + cells[c].size());
  }
  const int leaf = a.size() - 1;
  in.d[offset[3] + leaf] = 0;  // cell 3: the group of a (its third system)
  in.d[offset[4] + 49] = 0;    // cell 4: the rest
  GroupedBatchOptions options;
  options.min_group_cells = 3;
  GroupedMultiBatch<double, layouts::FullInterleaved> batch(exec, cells, options);
  ASSERT_EQ(batch.num_groups(), 1);
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  solve(exec, batch);
  try {
    batch.check(exec);
    FAIL() << "zero pivot not reported";
  } catch (const SolverError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("cell 3, node " + std::to_string(leaf)), std::string::npos) << msg;
    EXPECT_NE(msg.find("pivot"), std::string::npos) << msg;
    EXPECT_EQ(e.system(), 3);
    EXPECT_EQ(e.node(), leaf);
  }
  EXPECT_NO_THROW(batch.check(exec));
  in.d[offset[3] + leaf] = 1;  // only the rest's cell 4 left
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  solve(exec, batch);
  try {
    batch.check(exec);
    FAIL() << "zero pivot in the rest not reported";
  } catch (const SolverError& e) {
    EXPECT_EQ(e.system(), 4) << e.what();
    EXPECT_EQ(e.node(), 49) << e.what();
    EXPECT_NE(std::string(e.what()).find("cell 4, node 49"), std::string::npos) << e.what();
  }
}

// The same batch solved on every enabled backend agrees to rounding: device code may
// fuse multiply-adds where host code does not, so agreement is asserted to 1e-13, not
// bitwise.
template <class E>
std::vector<double> solve_on(const std::vector<hinesbatch::Tree>& cells,
                             const hinesbatch::test::HostSystems<double>& in,
                             hinesbatch::BranchSchedule schedule) {
  using namespace hinesbatch;
  E exec;
  const BranchPlan plan(cells);
  BranchBatch<double, typename E::memory_space> batch(exec, plan);
  batch.fill(exec, in.u, in.l, in.d, in.rhs);
  solve(exec, batch, schedule);
  batch.check(exec);
  std::vector<double> x;
  batch.solution_to_host(exec, x);
  return x;
}

template <class... E>
std::vector<std::vector<double>> solve_on_all(std::tuple<E...>,
                                              const std::vector<hinesbatch::Tree>& cells,
                                              const hinesbatch::test::HostSystems<double>& in,
                                              hinesbatch::BranchSchedule schedule) {
  return {solve_on<E>(cells, in, schedule)...};
}

TEST(MultiMorphologyBackends, AgreeToRounding) {
  using namespace hinesbatch;
  std::vector<Tree> cells;
  for (int c = 0; c < 500; ++c) cells.push_back(random_tree(1 + (c * 37) % 900, c, 0.2));
  test::HostSystems<double> in;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const auto one = test::random_systems<double>(cells[c], 1, 77 + c);
    in.append(one);
  }
  // Host reference independent of every backend: the sequential Hines algorithm, cell by
  // cell. Every backend is compared with it, the first (or only) one included.
  std::vector<double> reference;
  std::size_t offset = 0;
  for (const Tree& t : cells) {
    const int n = t.size();
    std::vector<double> d(in.d.begin() + offset, in.d.begin() + offset + n);
    std::vector<double> x(in.rhs.begin() + offset, in.rhs.begin() + offset + n);
    hines_solve_serial(t.parents().data(), n, in.u.data() + offset, in.l.data() + offset, d.data(),
                       x.data());
    reference.insert(reference.end(), x.begin(), x.end());
    offset += n;
  }
  for (auto schedule : {BranchSchedule::LevelLaunches, BranchSchedule::TeamLevels}) {
    const auto all = solve_on_all(test::EnabledExecutionSpaces{}, cells, in, schedule);
    ASSERT_FALSE(all.empty());
    for (std::size_t b = 0; b < all.size(); ++b) {
      ASSERT_EQ(all[b].size(), reference.size());
      double diff = 0, size = 0;  // max-norm, relative
      for (std::size_t k = 0; k < reference.size(); ++k) {
        ASSERT_TRUE(std::isfinite(all[b][k])) << "backend " << b << ", entry " << k;
        diff = std::max(diff, std::abs(all[b][k] - reference[k]));
        size = std::max(size, std::abs(reference[k]));
      }
      EXPECT_LE(diff / size, 1e-12)
          << "backend " << b << " vs sequential Hines, " << to_string(schedule);
    }
  }
}

}  // namespace
