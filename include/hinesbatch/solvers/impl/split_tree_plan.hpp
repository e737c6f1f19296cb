#pragma once
// How the split schedule (hines_split.hpp) cuts a tree among K lanes per system, planned
// once per tree and K on the host.
//
// A *junction* subtree holding the root is chosen; every other node belongs to a whole
// subtree hanging from it, and those subtrees are dealt to the K lanes, largest first, each
// to the lane with the fewest nodes so far. A lane eliminates its nodes with the plain Hines
// step (children first: decreasing index) except that a node hanging from the junction (a
// *top*) leaves its step on its parent to the junction's solve; one thread per system then
// applies the tops' steps, eliminates and solves the junction, and every lane substitutes
// its own nodes back. The junction grows from the root, the largest subtree's root at a
// time, while that shortens the modelled time: the longest lane's nodes plus the junction's
// nodes and tops, which one thread walks alone. An unbranched chain gains nothing (its
// plan keeps one lane busy), a neuron tree with a few dendrites splits evenly.
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

struct SplitTreePlan {
  int num_nodes = 0;
  int lanes = 0;  // K: lanes per system
  int steps = 0;  // the longest lane's node count
  // Lane k's nodes in decreasing order: lane_node[k * steps + j], -1 past its count.
  std::vector<int> lane_node;
  // Per entry of lane_node: the node's parent when the lane also owns it, -1 - parent when
  // the parent is in the junction (a top: its step waits for the junction's solve).
  std::vector<int> lane_parent;
  std::vector<int> junction;  // the junction's nodes in decreasing order (the root last)
  std::vector<int> tops;      // the tops, in any order

  // The modelled time in node steps: the longest lane plus the junction's serial part.
  int modelled_steps() const {
    return steps + static_cast<int>(junction.size()) + static_cast<int>(tops.size());
  }

  // lanes >= 1.
  static SplitTreePlan build(const Tree& tree, int lanes);
};

}  // namespace hinesbatch
