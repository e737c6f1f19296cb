// Generated trees: exact sizes and branch counts, determinism, argument checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hb = hinesbatch;

namespace {

void expect_hines(const hb::Tree& t) {
  ASSERT_GT(t.size(), 0);
  EXPECT_EQ(t.parent(0), -1);
  for (int i = 1; i < t.size(); ++i) {
    ASSERT_GE(t.parent(i), 0);
    ASSERT_LT(t.parent(i), i);
  }
}

}  // namespace

TEST(Synthetic, PaperClassTable) {
  const auto& classes = hb::paper_classes();
  ASSERT_EQ(classes.size(), 6u);
  const int compartments[] = {76, 76, 305, 319, 695, 691};
  const int branches[] = {7, 29, 30, 157, 66, 341};
  for (int k = 0; k < 6; ++k) {
    EXPECT_EQ(static_cast<int>(classes[k].id), k);
    EXPECT_EQ(classes[k].compartments, compartments[k]);
    EXPECT_EQ(classes[k].branches, branches[k]);
  }
  EXPECT_EQ(std::string(classes[5].neuromorpho_name), "HSE-fluoro02");
  EXPECT_EQ(std::string(hb::paper_class_info(hb::PaperClass::MediumHigh).name), "medium-high");
}

TEST(Synthetic, PaperClassTreesHaveExactCounts) {
  for (const auto& info : hb::paper_classes()) {
    for (unsigned long seed : {1ul, 2ul, 3ul, 17ul, 12345ul, 0xdeadbeeful}) {
      SCOPED_TRACE(std::string(info.name) + " seed " + std::to_string(seed));
      const hb::Tree t = hb::paper_class_tree(info.id, seed);
      expect_hines(t);
      EXPECT_EQ(t.size(), info.compartments);
      EXPECT_EQ(static_cast<int>(t.branches().size()), info.branches);
    }
  }
}

TEST(Synthetic, PaperClassTreesAreDeterministicPerSeed) {
  for (const auto& info : hb::paper_classes()) {
    EXPECT_EQ(hb::paper_class_tree(info.id, 5).parents(),
              hb::paper_class_tree(info.id, 5).parents());
    EXPECT_NE(hb::paper_class_tree(info.id, 5).parents(),
              hb::paper_class_tree(info.id, 6).parents());
  }
  EXPECT_EQ(hb::paper_class_tree(hb::PaperClass::BigHigh).parents(),
            hb::paper_class_tree(hb::PaperClass::BigHigh, 1).parents());
}

TEST(Synthetic, TreeWithBranchesSmallAndEdgeCases) {
  for (int branches : {1, 3, 4, 5, 6, 10, 11}) {
    for (int nodes : {branches, branches + 1, 3 * branches + 7}) {
      const hb::Tree t = hb::tree_with_branches(nodes, branches, 9);
      expect_hines(t);
      EXPECT_EQ(t.size(), nodes);
      EXPECT_EQ(static_cast<int>(t.branches().size()), branches);
    }
  }
  EXPECT_THROW(hb::tree_with_branches(10, 2, 1), hb::InputError);
  EXPECT_THROW(hb::tree_with_branches(10, 0, 1), hb::InputError);
  EXPECT_THROW(hb::tree_with_branches(5, 7, 1), hb::InputError);
}

TEST(Synthetic, P2BinaryTrees) {
  const int nodes[] = {512, 512, 448};
  for (int levels = 2; levels <= 4; ++levels) {
    const hb::Tree t = hb::p2_binary_tree(levels);
    expect_hines(t);
    EXPECT_EQ(t.size(), nodes[levels - 2]);
    EXPECT_EQ(t.branch_levels(), levels);
    const auto b = t.branches();
    EXPECT_EQ(static_cast<int>(b.size()), (1 << levels) - 1);
    const auto lengths = hb::p2_branch_lengths(levels);
    EXPECT_EQ(lengths[0], 256);
    for (const auto& br : b) EXPECT_EQ(static_cast<int>(br.nodes.size()), lengths[br.level]);
  }
  for (int bad : {0, 1, 5, -2}) {
    try {
      hb::p2_binary_tree(bad);
      ADD_FAILURE() << "no exception for " << bad;
    } catch (const hb::InputError& e) {
      EXPECT_EQ(e.value(), std::to_string(bad));
    }
  }
}

TEST(Synthetic, LeveledBinaryTree) {
  const hb::Tree t = hb::leveled_binary_tree({3});
  EXPECT_EQ(t.size(), 3);
  EXPECT_EQ(t.branches().size(), 1u);
  EXPECT_THROW(hb::leveled_binary_tree({}), hb::InputError);
  EXPECT_THROW(hb::leveled_binary_tree({4, 0}), hb::InputError);
  EXPECT_THROW(hb::leveled_binary_tree(std::vector<int>(31, 1)), hb::InputError);
}

TEST(Synthetic, ChainAndStar) {
  const hb::Tree c = hb::chain_tree(7);
  expect_hines(c);
  for (int i = 1; i < 7; ++i) EXPECT_EQ(c.parent(i), i - 1);
  EXPECT_EQ(hb::chain_tree(1).size(), 1);

  const hb::Tree s = hb::star_tree(9);
  expect_hines(s);
  EXPECT_EQ(s.child_counts()[0], 8);
  EXPECT_EQ(s.leaf_count(), 8);
  EXPECT_EQ(s.branches().size(), 9u);
  EXPECT_EQ(hb::star_tree(1).size(), 1);

  for (int bad : {0, -1}) {
    EXPECT_THROW(hb::chain_tree(bad), hb::InputError);
    EXPECT_THROW(hb::star_tree(bad), hb::InputError);
    EXPECT_THROW(hb::random_tree(bad, 1), hb::InputError);
  }
}

TEST(Synthetic, BalancedBinaryTree) {
  for (int depth = 1; depth <= 8; ++depth) {
    const hb::Tree t = hb::balanced_binary_tree(depth);
    expect_hines(t);
    EXPECT_EQ(t.size(), (1 << depth) - 1);
    EXPECT_EQ(t.branch_levels(), depth);
    EXPECT_EQ(t.leaf_count(), 1 << (depth - 1));
    for (int k : t.child_counts()) EXPECT_TRUE(k == 0 || k == 2);
  }
  EXPECT_THROW(hb::balanced_binary_tree(0), hb::InputError);
  EXPECT_THROW(hb::balanced_binary_tree(31), hb::InputError);
}

TEST(Synthetic, RandomTree) {
  for (unsigned long seed : {1ul, 2ul, 99ul}) {
    const hb::Tree t = hb::random_tree(1000, seed, 0.1);
    expect_hines(t);
    EXPECT_EQ(t.size(), 1000);
    EXPECT_GT(t.branch_point_count(), 10);
    for (int k : t.child_counts()) EXPECT_LE(k, 2);
    EXPECT_EQ(t.parents(), hb::random_tree(1000, seed, 0.1).parents());
    // Sections are contiguous after renumbering.
    for (const auto& b : t.branches())
      for (std::size_t j = 1; j < b.nodes.size(); ++j) EXPECT_EQ(b.nodes[j], b.nodes[j - 1] + 1);
  }
  EXPECT_NE(hb::random_tree(200, 1).parents(), hb::random_tree(200, 2).parents());
  EXPECT_EQ(hb::random_tree(50, 3, 0.0).parents(), hb::chain_tree(50).parents());
  EXPECT_EQ(hb::random_tree(1, 3, 1.0).size(), 1);
  EXPECT_EQ(hb::random_tree(2, 3, 1.0).size(), 2);
  const hb::Tree bushy = hb::random_tree(301, 4, 1.0);
  EXPECT_EQ(bushy.size(), 301);
  EXPECT_EQ(bushy.branch_point_count(), 150);
  EXPECT_THROW(hb::random_tree(10, 1, -0.1), hb::InputError);
  EXPECT_THROW(hb::random_tree(10, 1, 1.5), hb::InputError);
}
