#pragma once
// Generated trees, so that tests and benchmarks need no data files. Every generator
// returns a Tree in Hines numbering and is deterministic: random ones draw from
// std::mt19937_64 (whose sequence the standard fixes) through our own integer/real
// mappings, so a seed gives the same tree with every standard library.
// Invalid arguments throw InputError naming the value.
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

// The six morphology classes of cuHinesBatch (its paper's Fig. 5, docs/REFERENCE.md section 2).
enum class PaperClass { SmallLow, SmallHigh, MediumLow, MediumHigh, BigLow, BigHigh };

struct PaperClassInfo {
  PaperClass id;
  const char* name;  // "small-low", ...
  int compartments;
  int branches;
  const char* neuromorpho_name;  // the cell the paper used
};

// In enum order.
const std::vector<PaperClassInfo>& paper_classes();
const PaperClassInfo& paper_class_info(PaperClass c);

// A random tree with exactly info.compartments nodes and exactly info.branches branches as
// counted by Tree::branches().size(). Not the paper's cell, only its size and branching.
Tree paper_class_tree(PaperClass c, unsigned long seed = 1);

// A random tree with exactly `nodes` nodes and `branches` branches (Tree::branches()):
// random binary splits of leaf branches (one split into three when `branches` is even,
// since binary splits alone give odd counts), then the nodes spread randomly over the
// branches (at least one each). Needs 1 <= branches <= nodes and branches != 2.
Tree tree_with_branches(int nodes, int branches, unsigned long seed = 1);

// The ThomasBatch paper's section 4.2: level l holds 2^l branches of
// branch_length_per_level[l] nodes each (level 0 is the single root branch); every branch end
// but the last level's splits in two.
Tree leveled_binary_tree(const std::vector<int>& branch_length_per_level);
// The ThomasBatch paper's Fig. 14 trees: levels 2, 3, 4 are {256,128} (512 nodes),
// {256,64,32} (512) and {256,32,16,8} (448). Other level counts throw InputError.
Tree p2_binary_tree(int levels);
std::vector<int> p2_branch_lengths(int levels);

Tree chain_tree(int n);                // 0 - 1 - 2 - ... - n-1 (one branch)
Tree star_tree(int n);                 // root with n-1 leaf children
Tree balanced_binary_tree(int depth);  // 2^depth - 1 nodes, depth in [1, 30]
// Grows n nodes from the root: at each step a random growing tip either extends its
// section by one node or, with probability branch_probability, splits into two new tips.
// branch_probability = 0 gives a chain.
Tree random_tree(int n, unsigned long seed, double branch_probability = 0.1);

}  // namespace hinesbatch
