#include "hinesbatch/morphology/tree.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

Tree::Tree(std::vector<int> parent) : parent_(std::move(parent)) {
  if (parent_.empty()) return;
  if (parent_[0] != -1)
    throw InputError("tree root (node 0) must have parent -1", {}, 0, std::to_string(parent_[0]));
  for (int i = 1; i < size(); ++i)
    if (parent_[i] < 0 || parent_[i] >= i)
      throw InputError(
          "parent of node " + std::to_string(i) + " is not in Hines numbering (need 0 <= p[i] < i)",
          {}, 0, std::to_string(parent_[i]));
}

Tree Tree::renumbered(const std::vector<int>& parent, std::vector<int>* old_of_new) {
  const int n = static_cast<int>(parent.size());
  std::vector<int> first_child(n, -1), next_sibling(n, -1);
  int root = -1;
  for (int i = n - 1; i >= 0; --i) {  // reverse so children keep their input order
    const int p = parent[i];
    if (p == -1) {
      if (root != -1)
        throw InputError("tree has more than one root (nodes " + std::to_string(i) + " and " +
                             std::to_string(root) + ")",
                         {}, 0, std::to_string(i));
      root = i;
    } else if (p < 0 || p >= n) {
      throw InputError("parent of node " + std::to_string(i) + " does not exist", {}, 0,
                       std::to_string(p));
    } else {
      next_sibling[i] = first_child[p];
      first_child[p] = i;
    }
  }
  if (n > 0 && root == -1) throw InputError("tree has no root (every node has a parent: a cycle)");

  std::vector<int> order, new_of_old(n, -1), stack;
  order.reserve(n);
  if (n > 0) stack.push_back(root);
  while (!stack.empty()) {
    const int v = stack.back();
    stack.pop_back();
    new_of_old[v] = static_cast<int>(order.size());
    order.push_back(v);
    // Push children in reverse so the first child is visited next: each unbranched
    // section then occupies consecutive indices.
    std::vector<int> kids;
    for (int c = first_child[v]; c != -1; c = next_sibling[c]) kids.push_back(c);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back(*it);
  }
  if (static_cast<int>(order.size()) != n) {
    for (int i = 0; i < n; ++i)
      if (new_of_old[i] == -1)
        throw InputError("node " + std::to_string(i) + " is not connected to the root (a cycle)",
                         {}, 0, std::to_string(parent[i]));
  }
  std::vector<int> p(n);
  for (int k = 0; k < n; ++k) p[k] = parent[order[k]] == -1 ? -1 : new_of_old[parent[order[k]]];
  if (old_of_new) *old_of_new = order;
  return Tree(std::move(p));
}

std::vector<int> Tree::child_counts() const {
  std::vector<int> c(parent_.size(), 0);
  for (int i = 1; i < size(); ++i) ++c[parent_[i]];
  return c;
}

int Tree::branch_point_count() const {
  const auto c = child_counts();
  return static_cast<int>(std::count_if(c.begin(), c.end(), [](int k) { return k >= 2; }));
}

int Tree::leaf_count() const {
  const auto c = child_counts();
  return static_cast<int>(std::count(c.begin(), c.end(), 0));
}

std::vector<Tree::Branch> Tree::branches() const {
  std::vector<Branch> out;
  if (parent_.empty()) return out;
  const auto children = child_counts();
  std::vector<int> branch_of(parent_.size(), -1);
  for (int i = 0; i < size(); ++i) {
    const int p = parent_[i];
    // p < i was placed already; an only child continues its parent's branch.
    const bool starts = p == -1 || children[p] >= 2;
    if (starts) {
      Branch b;
      b.parent_node = p;
      b.parent_branch = p == -1 ? -1 : branch_of[p];
      b.level = p == -1 ? 0 : out[branch_of[p]].level + 1;
      out.push_back(std::move(b));
      branch_of[i] = static_cast<int>(out.size()) - 1;
    } else {
      branch_of[i] = branch_of[p];
    }
    out[branch_of[i]].nodes.push_back(i);
  }
  return out;
}

int Tree::branch_levels() const {
  int levels = 0;
  for (const auto& b : branches()) levels = std::max(levels, b.level + 1);
  return levels;
}

int Tree::height() const {
  std::vector<int> depth(parent_.size(), 1);
  int most = 0;
  for (std::size_t i = 0; i < parent_.size(); ++i) {
    if (parent_[i] >= 0) depth[i] = depth[parent_[i]] + 1;
    most = std::max(most, depth[i]);
  }
  return most;
}

}  // namespace hinesbatch
