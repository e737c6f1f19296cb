#pragma once
// Membrane mechanisms with NEURON's semantics and default units (issue #5):
//   pas     i = g (v - e)                          g [S/cm2], e [mV]
//   hh      NEURON's hh.mod, exact rate functions (NEURON with usetable_hh = 0), gates
//           advanced by cnexp at the new voltage; ena, ek global (NEURON: 50, -77 mV)
//   IClamp  electrode current amp [nA] for del <= t < del + dur, t at mid-step
//   ExpSyn  i = g (v - e), g [uS] decays with tau [ms], an event adds its weight
// The simulation works in absolute units per node: conductances in uS, currents in nA,
// capacitances in nF (density x area: S/cm2 x um2 x 1e-2 = uS; uF/cm2 x um2 x 1e-5 = nF).
#include <Kokkos_Core.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "hinesbatch/simulation/mechanisms/hh.hpp"
#include "hinesbatch/morphology/neuron_compartments.hpp"

namespace hinesbatch {

struct PasParameters {
  double g = 0.001;  // S/cm2
  double e = -70;    // mV
};
struct HHParameters {
  double gnabar = 0.12, gkbar = 0.036, gl = 0.0003;  // S/cm2
  double el = -54.3;                                 // mV
};

// Which sections a density mechanism goes into, by SWC type of the section.
enum class Region { Soma, Axon, Dend, All };
Region parse_region(const std::string& name);  // "soma", "axon", "dend", "all"
bool in_region(Region r, int swc_type);

struct DensityMechanism {
  enum Kind { Pas, HH } kind = Pas;
  Region region = Region::All;
  PasParameters pas;
  HHParameters hh;
};
struct IClampSpec {
  Location where;
  double del = 0, dur = 0, amp = 0;  // ms, ms, nA
};
struct ExpSynSpec {
  Location where;
  double tau = 0.1, e = 0;  // ms, mV (NEURON's defaults)
};
struct DetectorSpec {
  bool present = false;
  Location where;
  double threshold = 10;  // mV (NetCon's default)
};

// Which density mechanisms a node carries (a byte per node in every step schedule).
enum MechanismBits : unsigned char { kPasBit = 1, kHHBit = 2 };

// Everything about one kind of cell that does not depend on the network.
struct CellTemplate {
  SectionedMorphology morphology;
  NeuronCompartments compartments;  // neuron_compartments(morphology, Ra)
  double Ra = 35.4, cm = 1.0;       // ohm cm, uF/cm2
  std::vector<DensityMechanism> density;
  std::vector<IClampSpec> iclamps;
  std::vector<ExpSynSpec> synapses;  // a connection targets one by index
  DetectorSpec detector;
  // Sections of each density mechanism (resolved from its region).
  std::vector<int> sections_of(const DensityMechanism& m) const;
};

// Builds compartments and checks every location (InputError naming the bad one).
CellTemplate make_cell_template(SectionedMorphology morphology, double Ra, double cm,
                                std::vector<DensityMechanism> density,
                                std::vector<IClampSpec> iclamps, std::vector<ExpSynSpec> synapses,
                                DetectorSpec detector);

struct SimulationParameters {
  double dt = 0.025;     // ms
  double tstop = 100;    // ms
  double v_init = -65;   // mV
  double celsius = 6.3;  // degC (NEURON's default)
  double ena = 50, ek = -77;
  long steps() const { return std::lround(tstop / dt); }
};

// The device functions of each mechanism live in mechanisms/ (pas.hpp, hh.hpp, expsyn.hpp,
// iclamp.hpp); the step schedules' kernels (impl/*_schedule.hpp) call them.

}  // namespace hinesbatch
