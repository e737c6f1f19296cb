#include "hinesbatch/morphology/synthetic.hpp"

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace {

// std::uniform_*_distribution are implementation-defined; these mappings are not, so a
// seed means the same tree everywhere.
class Rng {
 public:
  explicit Rng(unsigned long seed) : engine_(static_cast<std::uint64_t>(seed)) {}
  // Uniform in [0, n), n > 0, unbiased (rejects the few draws below 2^64 mod n).
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t threshold = (0 - n) % n;
    for (;;) {
      const std::uint64_t x = engine_();
      if (x >= threshold) return x % n;
    }
  }
  int below(int n) { return static_cast<int>(below(static_cast<std::uint64_t>(n))); }
  double unit() { return static_cast<double>(engine_() >> 11) * (1.0 / 9007199254740992.0); }

 private:
  std::mt19937_64 engine_;
};

// Lays out a tree of sections: section s has length[s] nodes in a chain and its children
// hang from its last node. Depth-first emission keeps every section contiguous and gives
// Hines numbering.
Tree emit_sections(const std::vector<std::vector<int>>& children, const std::vector<int>& length) {
  std::vector<int> parent;
  std::vector<std::pair<int, int>> stack{{0, -1}};  // (section, node it hangs from)
  while (!stack.empty()) {
    const auto top = stack.back();
    stack.pop_back();
    int prev = top.second;
    for (int k = 0; k < length[top.first]; ++k) {
      parent.push_back(prev);
      prev = static_cast<int>(parent.size()) - 1;
    }
    const auto& kids = children[top.first];
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.emplace_back(*it, prev);
  }
  return Tree(std::move(parent));
}

void require(bool ok, const std::string& message, const std::string& value) {
  if (!ok) throw InputError(message, {}, 0, value);
}

}  // namespace

const std::vector<PaperClassInfo>& paper_classes() {
  static const std::vector<PaperClassInfo> classes = {
      {PaperClass::SmallLow, "small-low", 76, 7, "299-DG-IN-Neuron2"},
      {PaperClass::SmallHigh, "small-high", 76, 29, "202-2-19nj"},
      {PaperClass::MediumLow, "medium-low", 305, 30, "59D-40X"},
      {PaperClass::MediumHigh, "medium-high", 319, 157, "Culture-9-5"},
      {PaperClass::BigLow, "big-low", 695, 66, "28-2-2"},
      {PaperClass::BigHigh, "big-high", 691, 341, "HSE-fluoro02"},
  };
  return classes;
}

const PaperClassInfo& paper_class_info(PaperClass c) {
  for (const auto& info : paper_classes())
    if (info.id == c) return info;
  throw InputError("unknown paper class", {}, 0, std::to_string(static_cast<int>(c)));
}

Tree paper_class_tree(PaperClass c, unsigned long seed) {
  const PaperClassInfo& info = paper_class_info(c);
  return tree_with_branches(info.compartments, info.branches, seed);
}

Tree tree_with_branches(int nodes, int branches, unsigned long seed) {
  require(branches >= 1, "a tree needs at least one branch", std::to_string(branches));
  require(branches != 2, "no tree has exactly 2 branches (a split makes at least 2 more)", "2");
  require(nodes >= branches,
          "need at least one node per branch: nodes < branches (" + std::to_string(branches) + ")",
          std::to_string(nodes));
  Rng rng(seed);
  // Every split of a leaf branch into k children adds k branches: binary splits give odd
  // totals, so an even total takes exactly one split into three.
  const bool ternary = branches % 2 == 0;
  const int splits = ternary ? (branches - 4) / 2 + 1 : (branches - 1) / 2;
  const int ternary_at = ternary ? rng.below(splits) : -1;
  std::vector<std::vector<int>> children(1);
  std::vector<int> leaves{0};
  for (int s = 0; s < splits; ++s) {
    const int li = rng.below(static_cast<int>(leaves.size()));
    const int split = leaves[li];
    leaves[li] = leaves.back();
    leaves.pop_back();
    const int k = s == ternary_at ? 3 : 2;
    for (int j = 0; j < k; ++j) {
      const int id = static_cast<int>(children.size());
      children.emplace_back();
      children[split].push_back(id);
      leaves.push_back(id);
    }
  }
  std::vector<int> length(children.size(), 1);
  for (int extra = nodes - branches; extra > 0; --extra)
    ++length[rng.below(static_cast<int>(length.size()))];
  return emit_sections(children, length);
}

Tree leveled_binary_tree(const std::vector<int>& branch_length_per_level) {
  const int levels = static_cast<int>(branch_length_per_level.size());
  require(levels >= 1, "a leveled tree needs at least one level", "0");
  require(levels <= 30, "too many levels (2^levels branches)", std::to_string(levels));
  long long total = 0;
  for (int l = 0; l < levels; ++l) {
    const int len = branch_length_per_level[l];
    require(len >= 1, "branch length of level " + std::to_string(l) + " must be >= 1",
            std::to_string(len));
    total += (1LL << l) * len;
  }
  require(total <= 1000000000LL, "leveled tree too large (nodes)", std::to_string(total));
  // Sections in heap order: section s has children 2s+1 and 2s+2 and level floor(log2(s+1)).
  const int sections = (1 << levels) - 1;
  std::vector<std::vector<int>> children(sections);
  std::vector<int> length(sections);
  for (int s = 0; s < sections; ++s) {
    int level = 0;
    while ((2 << level) - 1 <= s) ++level;
    length[s] = branch_length_per_level[level];
    if (2 * s + 2 < sections) children[s] = {2 * s + 1, 2 * s + 2};
  }
  return emit_sections(children, length);
}

std::vector<int> p2_branch_lengths(int levels) {
  switch (levels) {
    case 2:
      return {256, 128};
    case 3:
      return {256, 64, 32};
    case 4:
      return {256, 32, 16, 8};
    default:
      throw InputError("the ThomasBatch paper's Fig. 14 binary trees have 2, 3 or 4 levels", {}, 0,
                       std::to_string(levels));
  }
}

Tree p2_binary_tree(int levels) { return leveled_binary_tree(p2_branch_lengths(levels)); }

Tree chain_tree(int n) {
  require(n >= 1, "a chain needs at least one node", std::to_string(n));
  std::vector<int> parent(n);
  for (int i = 0; i < n; ++i) parent[i] = i - 1;
  return Tree(std::move(parent));
}

Tree star_tree(int n) {
  require(n >= 1, "a star needs at least one node", std::to_string(n));
  std::vector<int> parent(n, 0);
  parent[0] = -1;
  return Tree(std::move(parent));
}

Tree balanced_binary_tree(int depth) {
  require(depth >= 1 && depth <= 30, "balanced binary tree depth must be in [1, 30]",
          std::to_string(depth));
  return leveled_binary_tree(std::vector<int>(depth, 1));
}

Tree random_tree(int n, unsigned long seed, double branch_probability) {
  require(n >= 1, "a random tree needs at least one node", std::to_string(n));
  require(std::isfinite(branch_probability) && branch_probability >= 0 && branch_probability <= 1,
          "branch_probability must be in [0, 1]", std::to_string(branch_probability));
  Rng rng(seed);
  std::vector<int> parent{-1};
  std::vector<int> tips{0};
  while (static_cast<int>(parent.size()) < n) {
    const int ti = rng.below(static_cast<int>(tips.size()));
    const int tip = tips[ti];
    const bool split = rng.unit() < branch_probability && n - static_cast<int>(parent.size()) >= 2;
    parent.push_back(tip);
    tips[ti] = static_cast<int>(parent.size()) - 1;
    if (split) {
      parent.push_back(tip);
      tips.push_back(static_cast<int>(parent.size()) - 1);
    }
  }
  // Nodes are already created after their parents, but renumbering keeps each section
  // contiguous, as a reconstructed neuron would be.
  return Tree::renumbered(parent);
}

}  // namespace hinesbatch
