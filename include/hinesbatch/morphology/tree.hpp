#pragma once
// A neuron tree in Hines numbering: node 0 is the root and every other node's parent
// has a smaller index (p[i] < i), which is what lets the Hines algorithm run as one
// backward and one forward sweep with no fill-in.
#include <vector>

namespace hinesbatch {

class Tree {
 public:
  // An unbranched run of nodes: first..last in index order, each the parent of the next.
  // parent_node is the node the branch hangs from (-1 for the root branch).
  struct Branch {
    std::vector<int> nodes;
    int parent_node = -1;
    int parent_branch = -1;
    int level = 0;  // root branch is level 0
  };

  Tree() = default;
  // Takes a parent array already in Hines numbering; throws InputError otherwise
  // (p[0] must be -1 and 0 <= p[i] < i for i > 0).
  explicit Tree(std::vector<int> parent);

  // Renumbers any rooted tree (parent[i] = -1 for exactly one node, no cycles) into
  // Hines numbering by a depth-first walk that keeps each unbranched section
  // contiguous. old_of_new[k] is the input index of new node k.
  static Tree renumbered(const std::vector<int>& parent, std::vector<int>* old_of_new = nullptr);

  int size() const { return static_cast<int>(parent_.size()); }
  int parent(int i) const { return parent_[i]; }
  const std::vector<int>& parents() const { return parent_; }

  std::vector<int> child_counts() const;
  int branch_point_count() const;  // nodes with two or more children
  int leaf_count() const;
  // Unbranched sections: a new branch starts at the root and at every child of a node
  // with two or more children.
  std::vector<Branch> branches() const;
  int branch_levels() const;  // 1 + deepest branch level (0 for an empty tree)
  int height() const;         // nodes on the longest root-to-leaf path (0 for an empty tree)

 private:
  std::vector<int> parent_;
};

}  // namespace hinesbatch
