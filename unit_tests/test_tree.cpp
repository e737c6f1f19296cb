// Tree: validation, renumbering into Hines order, branches and levels.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/morphology/synthetic.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hb = hinesbatch;

namespace {

// Edges as (parent, child) pairs in the original numbering, for structure comparisons.
std::set<std::pair<int, int>> edges(const std::vector<int>& parent) {
  std::set<std::pair<int, int>> e;
  for (int i = 0; i < static_cast<int>(parent.size()); ++i)
    if (parent[i] >= 0) e.emplace(parent[i], i);
  return e;
}

void expect_hines(const hb::Tree& t) {
  ASSERT_GT(t.size(), 0);
  EXPECT_EQ(t.parent(0), -1);
  for (int i = 1; i < t.size(); ++i) {
    EXPECT_GE(t.parent(i), 0);
    EXPECT_LT(t.parent(i), i);
  }
}

}  // namespace

TEST(Tree, AcceptsHinesNumbering) {
  hb::Tree t({-1, 0, 1, 1, 0});
  EXPECT_EQ(t.size(), 5);
  EXPECT_EQ(t.child_counts(), (std::vector<int>{2, 2, 0, 0, 0}));
  EXPECT_EQ(t.branch_point_count(), 2);
  EXPECT_EQ(t.leaf_count(), 3);
  EXPECT_EQ(t.height(), 3);
}

TEST(Tree, EmptyTreeIsAllowed) {
  hb::Tree t(std::vector<int>{});
  EXPECT_EQ(t.size(), 0);
  EXPECT_TRUE(t.branches().empty());
  EXPECT_EQ(t.branch_levels(), 0);
  EXPECT_EQ(t.height(), 0);
}

TEST(Tree, RejectsRootWithParent) {
  try {
    hb::Tree t({3, 0, 1});
    FAIL() << "no exception";
  } catch (const hb::InputError& e) {
    EXPECT_EQ(e.value(), "3");
  }
}

TEST(Tree, RejectsParentNotBeforeChild) {
  EXPECT_THROW(hb::Tree({-1, 0, 2}), hb::InputError);   // self
  EXPECT_THROW(hb::Tree({-1, 2, 0}), hb::InputError);   // later node
  EXPECT_THROW(hb::Tree({-1, 0, -1}), hb::InputError);  // second root
  EXPECT_THROW(hb::Tree({-1, 0, -5}), hb::InputError);
}

TEST(Tree, RenumberShuffledTree) {
  // A random tree in Hines order, then shuffled: renumbering must give a Hines tree with
  // the same edges under old_of_new.
  const hb::Tree base = hb::random_tree(300, 7, 0.2);
  std::mt19937_64 g(42);
  std::vector<int> perm(base.size());  // perm[old] = shuffled index
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), g);
  std::vector<int> shuffled(base.size());
  for (int i = 0; i < base.size(); ++i)
    shuffled[perm[i]] = base.parent(i) < 0 ? -1 : perm[base.parent(i)];

  std::vector<int> old_of_new;
  const hb::Tree t = hb::Tree::renumbered(shuffled, &old_of_new);
  expect_hines(t);
  ASSERT_EQ(static_cast<int>(old_of_new.size()), base.size());
  std::vector<int> sorted = old_of_new;
  std::sort(sorted.begin(), sorted.end());
  for (int i = 0; i < t.size(); ++i) EXPECT_EQ(sorted[i], i);  // a permutation
  std::vector<int> back(t.size());
  for (int k = 0; k < t.size(); ++k)
    back[old_of_new[k]] = t.parent(k) < 0 ? -1 : old_of_new[t.parent(k)];
  EXPECT_EQ(edges(back), edges(shuffled));
  EXPECT_EQ(t.branches().size(), base.branches().size());
  EXPECT_EQ(t.branch_levels(), base.branch_levels());
}

TEST(Tree, RenumberKeepsSectionsContiguous) {
  // Root 4 -> 2 -> {0 -> 3, 1}: sections must occupy consecutive indices.
  std::vector<int> old_of_new;
  const hb::Tree t = hb::Tree::renumbered({2, 2, 4, 0, -1}, &old_of_new);
  expect_hines(t);
  EXPECT_EQ(old_of_new, (std::vector<int>{4, 2, 0, 3, 1}));
  for (const auto& b : t.branches())
    for (std::size_t j = 1; j < b.nodes.size(); ++j) EXPECT_EQ(b.nodes[j], b.nodes[j - 1] + 1);
}

TEST(Tree, RenumberRejectsCycleAndSeveralRoots) {
  EXPECT_THROW(hb::Tree::renumbered({1, 2, 0}), hb::InputError);       // no root
  EXPECT_THROW(hb::Tree::renumbered({-1, 2, 1}), hb::InputError);      // cycle beside root
  EXPECT_THROW(hb::Tree::renumbered({-1, 0, 2}), hb::InputError);      // self loop
  EXPECT_THROW(hb::Tree::renumbered({-1, 0, -1, 2}), hb::InputError);  // two roots
  EXPECT_THROW(hb::Tree::renumbered({-1, 0, 7}), hb::InputError);      // missing parent
  try {
    hb::Tree::renumbered({-1, 0, -1});
    FAIL() << "no exception";
  } catch (const hb::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("more than one root"), std::string::npos);
  }
}

TEST(Tree, ChainHasOneBranch) {
  const hb::Tree t = hb::chain_tree(10);
  const auto b = t.branches();
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].nodes.size(), 10u);
  EXPECT_EQ(b[0].parent_node, -1);
  EXPECT_EQ(b[0].level, 0);
  EXPECT_EQ(t.branch_levels(), 1);
  EXPECT_EQ(t.branch_point_count(), 0);
  EXPECT_EQ(t.leaf_count(), 1);
  EXPECT_EQ(t.height(), 10);
}

TEST(Tree, StarBranches) {
  const hb::Tree t = hb::star_tree(6);
  const auto b = t.branches();
  ASSERT_EQ(b.size(), 6u);  // the root alone, then each leaf
  EXPECT_EQ(b[0].nodes, std::vector<int>{0});
  for (std::size_t k = 1; k < b.size(); ++k) {
    EXPECT_EQ(b[k].nodes.size(), 1u);
    EXPECT_EQ(b[k].parent_node, 0);
    EXPECT_EQ(b[k].parent_branch, 0);
    EXPECT_EQ(b[k].level, 1);
  }
  EXPECT_EQ(t.branch_levels(), 2);
  EXPECT_EQ(t.leaf_count(), 5);
  EXPECT_EQ(t.height(), 2);
}

TEST(Tree, BinaryTreeBranchesAndLevels) {
  const hb::Tree t = hb::leveled_binary_tree({4, 3, 2});  // 4 + 2*3 + 4*2 nodes
  ASSERT_EQ(t.size(), 18);
  const auto b = t.branches();
  ASSERT_EQ(b.size(), 7u);
  EXPECT_EQ(t.branch_levels(), 3);
  EXPECT_EQ(t.height(), 4 + 3 + 2);
  std::vector<int> per_level(3, 0);
  for (const auto& br : b) {
    ++per_level[br.level];
    EXPECT_EQ(static_cast<int>(br.nodes.size()), 4 - br.level);
    if (br.level > 0) {
      // Hangs from the last node of its parent branch.
      EXPECT_EQ(br.parent_node, b[br.parent_branch].nodes.back());
      EXPECT_EQ(b[br.parent_branch].level, br.level - 1);
      EXPECT_EQ(t.parent(br.nodes.front()), br.parent_node);
    }
  }
  EXPECT_EQ(per_level, (std::vector<int>{1, 2, 4}));
}

TEST(Tree, BranchesCoverEveryNodeOnce) {
  const hb::Tree t = hb::random_tree(500, 3, 0.15);
  std::vector<int> seen(t.size(), 0);
  for (const auto& b : t.branches()) {
    for (std::size_t j = 0; j < b.nodes.size(); ++j) {
      ++seen[b.nodes[j]];
      if (j > 0) {
        EXPECT_EQ(t.parent(b.nodes[j]), b.nodes[j - 1]);
      }
    }
  }
  for (int s : seen) EXPECT_EQ(s, 1);
}
