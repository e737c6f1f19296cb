#pragma once
// From an SWC morphology to compartments and to the Hines matrix of the cable equation
// (reference.md section 1). Units: um for geometry, mV, ms, nF, uS.
//
// Geometry rules:
//  - Soma: the soma points (type 1) connected to the root through soma points, when the
//    root is one, form ONE compartment, number 0. One point: a sphere of radius r (length
//    2r, radius r, area 4 pi r^2: the cylinder of equal area). Several points: the frusta of
//    the soma-soma edges (a 3-point NeuroMorpho soma gives 4 pi r^2, length 2r), with the
//    radius of the cylinder of that area and length; if they all coincide, a sphere of the
//    largest radius. A morphology of one point is a spherical soma whatever its type.
//    Other type-1 points (not joined to the root's soma) are ordinary cable points.
//  - Sections: every other edge (parent point -> point) is cable. Sections are the
//    unbranched runs of cable edges; one starts at each edge leaving the soma, the root
//    point or a point with two or more children. The edge from a soma point to the first
//    neurite point belongs to the neurite and takes the neurite point's radius at both ends
//    (soma radii do not leak into dendrites). The radius is linear along each edge.
//  - Compartments: a section of path length L is cut into nseg_per_section equal lengths, or
//    ceil(L / max_compartment_length_um) (at least 1). A section's first compartment hangs
//    from the last compartment of its parent section, or from the soma. With no soma, the
//    first section leaving the root starts at compartment 0 and the other sections leaving
//    the root hang from that compartment.
//  - area_um2 is the exact lateral area of the frusta inside the compartment (so it adds up
//    to the SWC's; a zero-length edge contributes its annulus). radius_um is the radius of
//    the uniform cylinder of the same length and axial resistance (1/r^2 averaged along it).
//  - Zero radii: a cable point with radius < kMinRadiusUm takes its parent's (already
//    fixed) radius, or, next to the soma or at the root, its first child's; else
//    kMinRadiusUm. Soma points below kMinRadiusUm take the largest soma radius, else the
//    largest radius of the neurite points attached to the soma, else kMinRadiusUm.
//
// cable_coefficients: C_i = cm * area_i * 1e-5 [nF], half-compartment axial resistance
// Ra * 1e4 * (L/2) / (pi r^2) [ohm], g_i [uS] = 1e6 / (R_half(i) + R_half(p(i))). Before
// use, radius and length are raised to kMinRadiusUm / kMinLengthUm and the area to at least
// 2 pi r L, so zero-length compartments give finite g and positive C (strict dominance).
#include <vector>

#include "hinesbatch/morphology/swc.hpp"
#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

constexpr double kMinRadiusUm = 0.01;
constexpr double kMinLengthUm = 0.01;

struct DiscretizationOptions {
  double max_compartment_length_um = 0;  // exactly one of these two must be > 0
  int nseg_per_section = 0;
};

struct CableParameters {
  double axial_resistivity_ohm_cm = 35.4;
  double membrane_capacitance_uF_per_cm2 = 1.0;
  double dt_ms = 0.025;
};

struct Compartments {
  Tree tree;  // Hines numbering; compartment 0 is the soma when the root point is a soma point
  std::vector<double> length_um, radius_um, area_um2;
  int size() const { return tree.size(); }
};

// Symmetric Hines matrix: u[i] = l[i] = -g_i (coupling of i and parent(i)),
// d[i] = C_i/dt + sum of g over the edges at i; u[0] = l[0] = 0.
struct HinesCoefficients {
  std::vector<double> u, l, d;
};

Compartments discretize(const SwcMorphology& m, const DiscretizationOptions& o);
HinesCoefficients cable_coefficients(const Compartments& c, const CableParameters& p);

}  // namespace hinesbatch
