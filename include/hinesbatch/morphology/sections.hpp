#pragma once
// Cells as NEURON builds them (docs/REFERENCE.md §5): a morphology is a tree of unbranched
// sections with 3-D points (pt3d); each section is cut into nseg segments.
// neuron_sections() reads an SWC reconstruction exactly as NEURON 8.2's Import3d does
// (Import3d_SWC_read + Import3d_GUI.instantiate, lib/hoc/import3d/read_swc.hoc and
// import3d_gui.hoc), so that the same file gives the same cell in both. In short:
//  - Points are taken in increasing id order. A section is a maximal run of consecutive
//    points in that order in which each point has exactly one child, the next point, of the
//    same type; a chain of soma points stays one section even where neurites leave it.
//  - Soma: one soma point (or NeuroMorpho's 3-point soma: the root and two points of its
//    radius at +/- r, all of one diameter, 2r apart in all) is a sphere, written as the
//    3-point cylinder (x - d/2, x, x + d/2) along x with L = diam = d. Other somas are their
//    points as given (several soma sections where the soma branches).
//  - Attachment: a neurite of a sphere soma attaches at soma(0.5); a section leaving the
//    root's first point attaches at 0; one leaving an interior point of a soma section at
//    0.5; all others at 1 of the section holding their parent point. A neurite leaving the
//    soma by a "wire" (Import3d's sec.first = 1: from a sphere soma, an interior soma point,
//    or a soma point with several soma children, when the neurite has >= 2 points) starts
//    at its own first point; otherwise its first pt3d is a copy of the parent point, with
//    the diameter of its second point when the parent section is soma and it is not.
//    Children of the first point of a neurite that leaves the soma attach at its 0 end.
//  - One-point sections and two-point sections of zero length are dropped, their children
//    moved to the dropped section's parent (Import3d's chk_valid).
//  - Numbering: Import3d's section list order (the order of each section's last point;
//    the root section first). NEURON names them <type>[k] (soma, axon, dend, apic,
//    dendritic_N) with k counting within a type in this same order.
//  Where Import3d's reading is wrong, the correct reading is kept: when ids are not
//  increasing along the tree, or when Import3d would join points that are not parent and
//  child into one section (a "zig-zag": a file in breadth-first order whose neurites leave
//  the soma, e.g. "1 1 ... -1 / 2 3 ... 1 / 3 3 ... 1 / 4 3 ... 2" makes points 2, 3, 4
//  one section although 3 hangs from the soma), the points are first renumbered depth
//  first (children in id order) and then read by the same rules. Diameters below
//  2 kMinRadiusUm are raised to it (NEURON keeps a zero-diameter soma, whose node then has
//  no area and takes no current).
// nseg: the same rule for every section, soma included: nseg_per_section; or the smallest
// odd integer >= L / max_segment_length_um; or NEURON's d_lambda rule (geom_nseg in
// stdlib.hoc: nseg = int((L / (d_lambda lambda_f(freq)) + 0.9) / 2) * 2 + 1, lambda_f
// computed from the pt3d points with Ra and cm).
#include <string>
#include <vector>

#include "hinesbatch/morphology/swc.hpp"

namespace hinesbatch {

// Thinner radii are raised to this (a zero diameter would give an infinite axial resistance).
constexpr double kMinRadiusUm = 0.01;

struct Pt3d {
  double x = 0, y = 0, z = 0, diam = 0;  // um
};

struct Section {
  int parent = -1;      // section index, -1 for the root section
  double parent_x = 0;  // where the 0-end attaches on the parent (0, 0.5 or 1 here)
  int name_index = 0;   // k of NEURON's <type>[k]
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
  int nseg_per_section = 0;  // exactly one of these three must be > 0
  double max_segment_length_um = 0;
  double d_lambda = 0;  // NEURON's d_lambda rule; needs Ra and cm below
  double d_lambda_freq_hz = 100;
  double Ra_ohm_cm = 0, cm_uF_cm2 = 0;
};

// nseg of one section by the rule of o (the section's pt3d must be set).
int nseg_for(const Section& s, const SectionOptions& o);

// Throws InputError (file, line, value) for a zero-length section or bad options.
// depth_first_reread, when not null, is set to whether the correct reading above was used.
SectionedMorphology neuron_sections(const SwcMorphology& m, const SectionOptions& o,
                                    bool* depth_first_reread = nullptr);

// Synthetic cells built directly as sections (no SWC):
//  - "ball-and-stick": soma (L = diam = 20 um) and one dendrite (200 um, diam 2 um);
//  - "p3": the MPI+OpenMP tasking paper's 450-compartment neuron (the cell of
//  examples/sim/p3_*.json):
//    soma (20 x 20 um) and four primary dendrites, each a binary tree of three levels (7
//    sections, 100/80/60 um long, diam 3/2/1 um), 28 dendritic sections of nseg 16 (one of
//    17): 1 + 28 x 16 + 1 = 450 segments.
// nseg options apply to the dendrites of "ball-and-stick" only.
SectionedMorphology synthetic_sections(const std::string& name, const SectionOptions& o = {});

}  // namespace hinesbatch
