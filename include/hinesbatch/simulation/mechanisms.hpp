#pragma once
// Membrane mechanisms with NEURON's semantics and default units:
//   pas     i = g (v - e)                          g [S/cm2], e [mV]
//   hh      NEURON's hh.mod, exact rate functions (NEURON with usetable_hh = 0), gates
//           advanced by cnexp at the new voltage; ena, ek global (NEURON: 50, -77 mV)
//   IClamp  electrode current amp [nA] for del <= t < del + dur, t at mid-step
//   ExpSyn  i = g (v - e), g [uS] decays with tau [ms], an event adds its weight (or any
//           point process of the catalogue: SynapseMechanism)
// The simulation works in absolute units per node: conductances in uS, currents in nA,
// capacitances in nF (density x area: S/cm2 x um2 x 1e-2 = uS; uF/cm2 x um2 x 1e-5 = nF).
// A Simulation runs pas, hh and ExpSyn given here as the catalogue's mechanisms of those
// names (impl::builtins_from_catalogue); the hand-written ones (impl/mechanisms/) only where
// RunOptions::builtin_mechanisms asks, as the references the generated code is tested against.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

// Which sections a density mechanism goes into, by SWC type of the section: soma (1),
// axon (2), dend (every other type: basal, apical, custom), apic (4, NEURON's Import3d
// `apic`), basal (3, Import3d's `dend`), all; or Listed: the sections a section list names
// (the entry's `listed`, section indices in Import3d's order, as locations give them).
enum class Region { Soma, Axon, Dend, All, Apic, Basal, Listed };
Region parse_region(const std::string& name);  // "soma", "axon", "dend", "apic", "basal", "all"
bool in_region(Region r, int swc_type);        // false for Listed (its sections are listed)

struct DensityMechanism {
  enum Kind { Pas, HH } kind = Pas;
  Region region = Region::All;
  PasParameters pas;
  HHParameters hh;
  std::vector<int> listed;  // Region::Listed: its sections
};
// A membrane property of the sections of a region (NEURON's sec.cm, sec.Ra). A cell's
// entries are applied in order: a later one replaces an earlier one where both apply.
struct RegionValue {
  Region region = Region::All;
  double value = 0;
  std::vector<int> listed;  // Region::Listed: its sections
};
// Per section of m: `base`, then each entry's value on the sections of its region, in order.
std::vector<double> values_by_region(const SectionedMorphology& m, double base,
                                     const std::vector<RegionValue>& entries);
// A parameter of a generated (NMODL) mechanism: a number, or a function of x, the path
// distance (um) of a segment's centre from the middle of the root section (the soma),
// or with `normalize` that distance over the largest path distance of the region's
// section ends (Hay et al. 2011's distributions):
//   linear   scale (a + b x)
//   exp      scale (a + c exp(b (x - x0)))
//   sigmoid  scale (a + c / (1 + exp((x - x0) / b)))
//   window   scale (inside if x0 < x < x1, else outside)
struct ParameterValue {
  enum Kind { Constant, Linear, Exp, Sigmoid, Window } kind = Constant;
  double value = 0;  // Constant
  double a = 0, b = 0, c = 0, x0 = 0, x1 = 0, inside = 1, outside = 0, scale = 1;
  bool normalize = false;
  double at(double x) const;  // x as above (normalised where asked)
};
struct MechanismParameter {
  std::string name;  // a PARAMETER or a GLOBAL of the mechanism
  ParameterValue value;
};
// A mechanism of the catalogue the simulation is compiled with (catalogue.hpp), inserted
// in a region. Entries are applied in order: a mechanism is inserted once per segment, and
// a later entry's parameters replace an earlier one's where both apply (NEURON's insert and
// assignment).
struct GeneratedMechanism {
  std::string name;
  Region region = Region::All;
  std::vector<MechanismParameter> parameters;
  std::vector<int> listed;  // Region::Listed: its sections
};
// An ion's initial concentrations (mM) and reversal potential (mV); NaN: the default
// (NEURON's, and for na and k the simulation's ena and ek). Where a mechanism reads or
// writes a concentration of the ion, e follows Nernst from them (NEURON's ion_style).
struct IonSpec {
  std::string name;
  double ci0 = std::nan(""), co0 = std::nan(""), e = std::nan("");
};
struct IClampSpec {
  Location where;
  double del = 0, dur = 0, amp = 0;  // ms, ms, nA
};
// The point process of the catalogue (catalogue.hpp) that a synapse runs instead of the
// built-in ExpSyn: its name (ExpSyn, Exp2Syn, ...) and parameters (PARAMETERs or GLOBALs of
// it, numbers); an empty name: the built-in ExpSyn.
struct SynapseMechanism {
  std::string name;
  std::vector<MechanismParameter> parameters;
  bool sends_self_events = false;  // its NET_RECEIVE calls net_send (slots per synapse)
  bool builtin() const { return name.empty(); }
};
// A synapse: the built-in ExpSyn (tau, e), or the point process `mechanism` names.
struct ExpSynSpec {
  Location where;
  double tau = 0.1, e = 0;  // ms, mV (NEURON's defaults)
  SynapseMechanism mechanism;
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
  NeuronCompartments compartments;  // neuron_compartments(morphology, section_Ra())
  double Ra = 35.4, cm = 1.0;       // ohm cm, uF/cm2: where no entry below applies
  std::vector<RegionValue> cm_by_region, Ra_by_region;  // set_membrane_by_region

  std::vector<DensityMechanism> density;      // pas and hh given as built-ins
  std::vector<GeneratedMechanism> generated;  // NMODL mechanisms (the cells schedule runs them)
  std::vector<IonSpec> ions;
  std::vector<IClampSpec> iclamps;
  std::vector<ExpSynSpec> synapses;  // a connection targets one by index
  // The last `point_processes` synapses are point processes placed on the cell
  // (cell.point_processes: a clamp, a tonic conductance), which no connection reaches.
  int point_processes = 0;
  int connectable_synapses() const { return static_cast<int>(synapses.size()) - point_processes; }
  DetectorSpec detector;
  // Sections of each mechanism (resolved from its region).
  std::vector<int> sections_of(const DensityMechanism& m) const;
  std::vector<int> sections_of(const GeneratedMechanism& m) const;
  std::vector<int> sections_in(Region r, const std::vector<int>& listed = {}) const;
  // cm (uF/cm2) and Ra (ohm cm) of every section: cm and Ra, then the entries by region.
  std::vector<double> section_cm() const;
  std::vector<double> section_Ra() const;
};

// Builds compartments and checks every location (InputError naming the bad one).
CellTemplate make_cell_template(SectionedMorphology morphology, double Ra, double cm,
                                std::vector<DensityMechanism> density,
                                std::vector<IClampSpec> iclamps, std::vector<ExpSynSpec> synapses,
                                DetectorSpec detector);

// Sets cm and Ra by region (RegionValue) and recomputes the compartments with each
// section's Ra. Throws InputError naming the morphology for a value that is not positive
// or a listed section that it does not have. Call it before the template is used.
void set_membrane_by_region(CellTemplate& t, std::vector<RegionValue> cm,
                            std::vector<RegionValue> Ra);

struct SimulationParameters {
  double dt = 0.025;     // ms
  double tstop = 100;    // ms
  double v_init = -65;   // mV
  double celsius = 6.3;  // degC (NEURON's default)
  double ena = 50, ek = -77;
  double record_dt = 0;  // ms between trace rows (NEURON's Vector.record Dt); 0: every step
  // Self-events (NMODL's net_send) a synapse may have pending at once
  // (run.self_events_per_synapse).
  int self_events_per_synapse = 8;
  long steps() const { return std::lround(tstop / dt); }
  // Steps between trace rows: record_dt is a whole number of steps (the config checks it).
  long record_every() const {
    return record_dt > 0 ? std::max(1L, std::lround(record_dt / dt)) : 1;
  }
  double record_interval() const { return static_cast<double>(record_every()) * dt; }
};

// The device functions of each mechanism live in mechanisms/ (pas.hpp, hh.hpp, expsyn.hpp,
// iclamp.hpp); the step schedules' kernels (impl/*_schedule.hpp) call them.

}  // namespace hinesbatch
