#pragma once
// How a team eliminates one Hines tree on chip (hines_team.hpp), planned once per tree on
// the host in O(n).
//
// The tree is cut into *pieces*: runs of at most max_piece_length nodes of one unbranched
// section (a chain), top (nearest the root) to bottom. A piece's interior nodes have one
// child each, inside the piece, so a lane can eliminate them on its own, expressing each in
// terms of two unknowns: x of the node the piece hangs from (its *parent node*, the bottom
// of another piece) and x of its own bottom. What is left is a *reduced tree* of piece
// bottoms, one node per piece, which the team eliminates level by level (leaf pieces first,
// every piece of a level in parallel, each pulling from its child pieces: no atomics), then
// solves back down. Pieces are numbered by level, so a level is a contiguous range.
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

struct TeamTreePlan {
  int num_nodes = 0;
  int max_piece_length = 0;
  // Piece q: nodes piece_nodes[piece_begin[q] .. piece_begin[q+1]) from top to bottom;
  // parent_node[q]: the node its top hangs from (-1 for the root piece).
  std::vector<int> piece_begin, piece_nodes, parent_node;
  // Child pieces of q: children[child_begin[q] .. child_begin[q+1]).
  std::vector<int> child_begin, children;
  // Pieces of level l: [level_begin[l], level_begin[l+1]); level 0 has no child pieces.
  std::vector<int> level_begin;

  int num_pieces() const { return static_cast<int>(parent_node.size()); }
  int num_levels() const { return static_cast<int>(level_begin.size()) - 1; }

  // Cutting sections shorter adds levels (a team barrier and a chain of dependent loads
  // each) and saves little work per lane: sections are cut only when very long (measured
  // by the MonoPieces benchmarks, docs/PERFORMANCE.md).
  static constexpr int kDefaultMaxPieceLength = 32;
  // max_piece_length 0: kDefaultMaxPieceLength.
  static TeamTreePlan build(const Tree& tree, int max_piece_length = 0);
};

}  // namespace hinesbatch
