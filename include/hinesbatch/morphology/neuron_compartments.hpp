#pragma once
// NEURON's spatial discretisation of a SectionedMorphology (so the same cell gives the
// same matrix as in NEURON): every section has nseg nodes at its segment centres and a
// zero-area node at its 1-end; the root section also has a zero-area node at its 0-end; a
// child's first centre hangs from the parent's node at parent_x. Area and axial
// resistance come from the pt3d frusta exactly as NEURON computes them (nrn_area_ri with
// 3-D points): each segment is split into halves; a half contributes
//   area  += pi (d0 + d1) / 2 * sqrt(l^2 + (d0 - d1)^2 / 4)   (slanted frustum)
//   r     += 4 Ra l / (pi d0 d1) * 1e-2                        (MOhm)
// with the diameter interpolated linearly in arc length. The conductance from a centre to
// its parent node is 1 / (r_left(this) + r_right(previous centre)); for the first centre
// only its left half counts; the 1-end node gets 1 / r_right(last centre).
#include <vector>

#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

struct Location {
  int section = 0;
  double x = 0.5;
};

struct NeuronCompartments {
  Tree tree;                       // Hines numbering (parents before children)
  std::vector<double> area_um2;    // 0 for section-end nodes
  std::vector<double> g_axial_uS;  // conductance to the parent node (0 at the root)
  std::vector<int> section_of_node;
  std::vector<int> swc_type_of_node;
  std::vector<int> first_centre;  // per section: node of its first segment centre
  std::vector<int> end_node;      // per section: its 1-end node
  int root_end0 = 0;              // the root section's 0-end node
  int size() const { return tree.size(); }
  // NEURON's node for (section, x): 0 -> the node the section hangs from (the root's 0-end
  // node for the root), 1 -> the 1-end node, else the centre of segment floor(x nseg).
  // Throws InputError for a section or x out of range.
  int node_at(const Location& where) const;
  std::vector<int> section_parent;
  std::vector<double> section_parent_x;
  std::vector<int> section_nseg;
};

NeuronCompartments neuron_compartments(const SectionedMorphology& m, double Ra_ohm_cm);
// The same with each section's own Ra (NEURON's sec.Ra): a half segment's resistance is its
// section's, so an edge between two sections sums the two sections' halves.
NeuronCompartments neuron_compartments(const SectionedMorphology& m,
                                       const std::vector<double>& Ra_of_section);

}  // namespace hinesbatch
