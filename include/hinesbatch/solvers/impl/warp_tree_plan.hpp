#pragma once
// How a warp eliminates Hines trees on chip (hines_warp.hpp), planned once per tree on the
// host in O(n).
//
// The nodes are cut by index into G *lane ranges* of R = ceil(n / G) consecutive nodes; a
// system is solved by G lanes (G = 32 / systems per warp), lane k owning range k.
//  - A node whose whole subtree lies in its own range is *local* when its parent is in
//    that range too, *cross* when the parent is in an earlier range. Its lane eliminates it
//    with the plain Hines step (no fill, children first since a child's index is larger);
//    a cross node's step on its parent is left to the reduced solve, which owns the parent.
//  - The other nodes (*kept*: their subtree leaves their range) form a subtree holding the
//    root. The root, kept nodes with a child in another range and kept nodes with two or
//    more kept children are *ports*. Every other kept node has exactly one kept child, in
//    its own range, so the kept nodes of a range are chains that end at a port: *pieces*,
//    eliminated by their lane as in hines_team.hpp, in terms of x of the port the piece
//    hangs from and of its bottom port.
//  - The ports form the *reduced tree* (a port's children: the pieces hanging from it and
//    the cross nodes of other ranges), about one to three per range on neuron trees. One
//    thread per system eliminates and solves it in node order; then every lane substitutes
//    back its pieces and local nodes.
// A chain splits into G pieces, one per lane, like the partitioned Thomas of thomas_warp.hpp.
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

struct WarpTreePlan {
  enum NodeKind : int { kLocal = 0, kCross = 1, kKept = 2 };

  int num_nodes = 0;
  int lanes = 0;           // G: lanes per system
  int nodes_per_lane = 0;  // R: nodes of a lane range
  // Scratch slot of node i: its range's slots are padded to an odd count (lane_stride), so
  // that lanes walking their ranges in step touch different shared-memory banks.
  int lane_stride = 0;
  std::vector<int> kind;         // per node, a NodeKind
  std::vector<int> parent_slot;  // per node, the slot of its parent (-1 for the root)
  // Pieces, grouped by lane (lane k: [lane_piece_begin[k], lane_piece_begin[k+1])); piece
  // q: slots piece_slots[piece_begin[q] .. piece_begin[q+1]) from top to bottom, hanging
  // from the slot piece_parent[q] (-1 for the root's piece).
  std::vector<int> lane_piece_begin, piece_begin, piece_slots, piece_parent;
  // Ports in decreasing node order: port r is the bottom of piece port_piece[r]; pieces
  // hanging from it: port_children[port_child_begin[r] ..), given by their bottom slot in
  // child_bottom and their index in child_piece; cross nodes hanging from it (their slots):
  // port_cross[port_cross_begin[r] ..).
  std::vector<int> port_piece, port_child_begin, child_piece, child_bottom, port_cross_begin,
      port_cross;

  int num_pieces() const { return static_cast<int>(piece_parent.size()); }
  int num_ports() const { return static_cast<int>(port_piece.size()); }
  int num_slots() const { return lanes * lane_stride; }
  int slot_of(int node) const {
    return (node / nodes_per_lane) * lane_stride + node % nodes_per_lane;
  }

  // lanes: 1, 2, 4, 8, 16 or 32; 0 picks it with choose_lanes.
  static WarpTreePlan build(const Tree& tree, int lanes = 0);
  // The lane count with the least modelled time per node: a lane's own nodes against the
  // ports the one reduced-solve thread walks, and systems per warp against shared memory.
  static int choose_lanes(const Tree& tree);
};

}  // namespace hinesbatch
