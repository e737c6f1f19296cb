#pragma once
// Cells as NEURON builds them (issue #5, reference §5): a morphology is a tree of
// unbranched sections with 3-D points (pt3d); each section is cut into nseg segments.
// neuron_sections() turns an SWC reconstruction into sections by the rules below, which
// scripts/validation/swc_sections.py reimplements independently so that NEURON and
// HinesBatch build the same cell from the same file.
//
// Rules (diam = 2 radius, at least 2 kMinRadiusUm):
//  1. Soma = the type-1 points joined to the root through type-1 points, when the root is
//     type 1. Soma section: id 0, nseg 1, pt3d: one point -> (x, y -/+ r, z) with diam 2r;
//     a path of soma points -> the path from end to end, starting at the end reached
//     through the root's first soma child (smallest SWC id), or at the root if it is an
//     end (the NeuroMorpho 3-point soma gives [child1, root, child2]); a branched soma ->
//     the cylinder of length = diam = D centred at the root along y, D = sqrt(A / pi),
//     A = lateral area of the soma-soma frusta. Neurites leaving any soma point attach
//     at soma(0.5).
//  2. A neurite section starts at every edge soma point -> non-soma point, at every child
//     of a non-soma root, and at every child of a non-soma point with two or more
//     children; it follows single-child points and ends at a branch point or a leaf.
//     pt3d = [start, ..., end]; a section leaving the soma takes, at its first point, the
//     diameter of its second point (soma radii do not leak into dendrites). It attaches
//     at parent_x 1 of the section ending at its start point. Without a soma, the section
//     of the root's first child is the root section and the root's other sections attach
//     to it at parent_x 0.
//  3. Numbering: soma 0, then neurite sections by increasing SWC id of their second point.
//     A neurite section's swc_type is its second point's type.
//  4. nseg: soma 1; neurites nseg_per_section, or the smallest odd integer >=
//     length / max_segment_length_um (NEURON's habit of odd nseg: a node at x = 0.5).
#include <string>
#include <vector>

#include "hinesbatch/morphology/swc.hpp"

namespace hinesbatch {

struct Pt3d {
  double x = 0, y = 0, z = 0, diam = 0;  // um
};

struct Section {
  int parent = -1;      // section index, -1 for the root section
  double parent_x = 0;  // where the 0-end attaches on the parent (0, 0.5 or 1 here)
  int swc_type = 0;     // 1 soma, 2 axon, 3 basal, 4 apical, ...
  int nseg = 1;
  std::vector<Pt3d> pt3d;   // at least two points
  long first_swc_line = 0;  // for error messages (0 for synthetic sections)
  double length() const;    // sum of the 3-D distances between consecutive points
};

struct SectionedMorphology {
  std::string source;             // SWC file or "synthetic:<name>"
  std::vector<Section> sections;  // sections[0] is the root section; parent < own index
                                  // is NOT required (numbering is rule 3)
  int size() const { return static_cast<int>(sections.size()); }
};

struct SectionOptions {
  int nseg_per_section = 0;  // exactly one of these two must be > 0
  double max_segment_length_um = 0;
};

// Throws InputError (file, line, value) for a zero-length section or bad options.
SectionedMorphology neuron_sections(const SwcMorphology& m, const SectionOptions& o);

// Synthetic cells built directly as sections (no SWC):
//  - "ball-and-stick": soma (L = diam = 20 um) and one dendrite (200 um, diam 2 um);
//  - "p3": P3's 450-compartment neuron: soma (20 x 20 um) and four primary dendrites, each
//    a binary tree of three levels (7 sections, 100/80/60 um long, diam 3/2/1 um), 28
//    dendritic sections of nseg 16 (one of 17): 1 + 28 x 16 + 1 = 450 segments.
// nseg options apply to the dendrites of "ball-and-stick" only.
SectionedMorphology synthetic_sections(const std::string& name, const SectionOptions& o = {});

}  // namespace hinesbatch
