#pragma once
// One template's generated (NMODL) mechanisms laid out for a step schedule (host code):
// the template's list of (mechanism, region, parameters) becomes one block per mechanism
// with its nodes; the variables the mechanism assigns live in rows per (slot, node), laid
// out here as one row vector per slot with its initial values (parameters a mechanism
// assigns included); the variables it never assigns and its globals are constants, once
// per template (distance-dependent densities resolved per node); ions get NEURON's
// ion_style per node and their initial values per template. Indices follow the catalogue
// (catalogue.hpp), whose order is the compiled one, so the device code can dispatch on
// them (generated_cells.hpp).
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"
#include "hinesbatch/morphology/cable_matrix.hpp"
#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/impl/cell_templates.hpp"
#include "hinesbatch/simulation/impl/mechanism_entry.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/nmodl/ions.hpp"
#include "hinesbatch/simulation/nmodl/mechanism.hpp"

namespace hinesbatch::impl {

// Path distance (um) from the middle of the root section (the soma) to (section, x).
class PathDistance {
 public:
  explicit PathDistance(const SectionedMorphology& m) : m_(m), start_(m.size(), -1.0) {}
  double at(int section, double x) {
    return start(section) + (m_.sections[section].parent < 0 ? std::fabs(x - 0.5) : x) *
                                m_.sections[section].length();
  }

 private:
  // Distance of the section's 0 end (the root: of its middle, so at() takes |x - 0.5|).
  double start(int s) {
    if (start_[s] >= 0) return start_[s];
    const Section& sec = m_.sections[s];
    start_[s] = sec.parent < 0 ? 0.0 : at(sec.parent, sec.parent_x);
    return start_[s];
  }
  const SectionedMorphology& m_;
  std::vector<double> start_;
};

// The mean 3-D diameter (um) of a section over [xa, xb] of its length, the pt3d diameters
// interpolated linearly in arc length.
inline double mean_diameter_um(const Section& sec, double xa, double xb) {
  const double L = sec.length();
  if (!(L > 0) || !(xb > xa)) return sec.pt3d.front().diam;
  const double a = xa * L, b = xb * L;
  double s0 = 0, integral = 0;
  for (std::size_t k = 0; k + 1 < sec.pt3d.size(); ++k) {
    const Pt3d &p = sec.pt3d[k], &q = sec.pt3d[k + 1];
    const double l = std::sqrt((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) +
                               (q.z - p.z) * (q.z - p.z));
    const double s1 = s0 + l;
    const double lo = std::max(a, s0), hi = std::min(b, s1);
    if (hi > lo && l > 0) {
      const auto d = [&](double s) { return p.diam + (q.diam - p.diam) * (s - s0) / l; };
      integral += 0.5 * (d(lo) + d(hi)) * (hi - lo);
    }
    s0 = s1;
  }
  return integral / (b - a);
}

// Per (node, catalogue ion): NEURON's ion_style in bits.
enum GeneratedIonStyle : unsigned char {
  kIonUsed = 1,       // a mechanism on the node declares the ion
  kIonEFromConc = 2,  // e by Nernst at initialisation (a concentration is in use)
  kIonEAdvance = 4,   // e by Nernst every step too (a concentration is written)
};
constexpr int kIonInitValues = 4;  // per ion: ci0, co0, e0, valence

struct GeneratedBlock {
  int mech = 0;                      // catalogue index
  int node_begin = 0, node_end = 0;  // into GeneratedTemplate::nodes
  int row_begin = 0;                 // node j's row variable k: row_begin + j * rows + k
  int const_begin = 0;               // node j's constant k: const_begin + j * constants + k
  int global_begin = 0;              // global g: global_begin + g (in constants), then
                                     // uniform u: global_begin + (number of globals) + u
};

struct GeneratedTemplate {
  std::vector<GeneratedBlock> blocks;  // concentration writers first (NEURON's order)
  std::vector<int> nodes;              // each block's nodes, increasing
  std::vector<double> row_init;        // a slot's rows at initialisation
  std::vector<double> constants;
  std::vector<unsigned char> ion_style;   // (node * ions + ion)
  std::vector<double> ion_init;           // (ion * kIonInitValues + value)
  std::vector<double> area_um2, diam_um;  // per node
  int num_nodes = 0, num_ions = 0;
  bool empty() const { return blocks.empty(); }
};

// Where a variable lives: in the rows when the mechanism writes it and reads it back, in
// the constants when it never writes it; an output-only variable is stored nowhere (as
// RowPositions<M, false> on the device).
inline bool in_rows(const CatalogueVariable& v) { return v.written && !v.output_only; }
// Position of variable k among the mechanism's rows (or its constants).
inline int position_in_store(const CatalogueMechanism& m, int k) {
  int p = 0;
  for (int j = 0; j < k; ++j)
    p += m.variables[k].written ? in_rows(m.variables[j]) : !m.variables[j].written;
  return p;
}
inline int count_in_store(const CatalogueMechanism& m, bool rows) {
  int n = 0;
  for (const CatalogueVariable& v : m.variables) n += rows ? in_rows(v) : !v.written;
  return n;
}

// Path distance from the soma of every node's centre, and each node's mean diameter.
struct NodeGeometry {
  std::vector<double> distance_um, diam_um;
};
inline NodeGeometry node_geometry(const CellTemplate& t) {
  const NeuronCompartments& comp = t.compartments;
  NodeGeometry g;
  g.distance_um.assign(comp.size(), 0.0);
  g.diam_um.assign(comp.size(), 0.0);
  PathDistance distance(t.morphology);
  for (int s = 0; s < t.morphology.size(); ++s) {
    const int nseg = comp.section_nseg[s];
    for (int j = 0; j < nseg; ++j) {
      const int i = comp.first_centre[s] + j;
      g.distance_um[i] = distance.at(s, (j + 0.5) / nseg);
      g.diam_um[i] =
          mean_diameter_um(t.morphology.sections[s], double(j) / nseg, double(j + 1) / nseg);
    }
  }
  return g;
}

// Mechanism m's values in template t: where it is inserted, every variable per node
// (defaults, then the config's entries in order; distance functions resolved) and its
// globals. The entries checked first (check_mechanism_entries); InputError for a normalised
// distance over a region without length.
struct MechanismValues {
  std::vector<char> inserted;  // per node
  std::vector<double> values;  // (node, variable)
  std::vector<double> globals;
};
inline MechanismValues mechanism_values(const CellTemplate& t, const CatalogueMechanism& m,
                                        const std::vector<double>& distance_um) {
  const NeuronCompartments& comp = t.compartments;
  const std::string& source = t.morphology.source;
  const int n = comp.size();
  const int nv = static_cast<int>(m.variables.size());
  PathDistance distance(t.morphology);
  MechanismValues r;
  r.inserted.assign(n, 0);
  r.values.resize(std::size_t(n) * nv);
  for (int i = 0; i < n; ++i)
    for (int v = 0; v < nv; ++v) r.values[std::size_t(i) * nv + v] = m.variables[v].default_value;
  for (const CatalogueGlobal& x : m.globals) r.globals.push_back(x.default_value);
  for (const GeneratedMechanism& e : t.generated) {
    if (e.name != m.name) continue;
    const std::vector<int> sections = t.sections_of(e);
    double longest = 0;
    for (int s : sections) longest = std::max(longest, distance.at(s, 1.0));
    for (const MechanismParameter& par : e.parameters) {
      const int v = m.variable_index(par.name);
      const int gl = m.global_index(par.name);
      if (gl >= 0 && v < 0) {
        r.globals[gl] = par.value.value;
        continue;
      }
      if (v < 0) throw std::logic_error("mechanism_values: an unchecked entry (" + par.name + ")");
      if (par.value.normalize && !(longest > 0))
        throw InputError("parameter " + par.name + " of " + m.name +
                             ": a normalised distance needs a region that extends from the "
                             "soma",
                         source, 0, format_value(longest));
      for (int s : sections)
        for (int i = comp.first_centre[s]; i < comp.first_centre[s] + comp.section_nseg[s]; ++i)
          r.values[std::size_t(i) * nv + v] =
              par.value.at(par.value.normalize ? distance_um[i] / longest : distance_um[i]);
    }
    for (int s : sections)
      for (int i = comp.first_centre[s]; i < comp.first_centre[s] + comp.section_nseg[s]; ++i)
        r.inserted[i] = 1;
  }
  return r;
}

// A leak of the catalogue (CatalogueMechanism::leak) with values mv (mechanism_values), per node:
// its conductance G (S/cm2, 0 where it is not inserted) and reversal E = -i(0)/G (mV). Empty where
// it does not fold into the cable's passive terms: not a leak, or G <= 0 somewhere.
struct LeakOfNodes {
  std::vector<double> g_S_cm2, e_mV;
  bool empty() const { return g_S_cm2.empty(); }
};
inline LeakOfNodes folded_leak(const CatalogueMechanism& m, const SimulationParameters& p,
                               const MechanismValues& mv) {
  if (!m.leak) return {};
  const int n = static_cast<int>(mv.inserted.size());
  const std::size_t nv = m.variables.size();
  LeakOfNodes r;
  r.g_S_cm2.assign(n, 0.0);
  r.e_mV.assign(n, 0.0);
  for (int i = 0; i < n; ++i) {
    if (!mv.inserted[i]) continue;
    double g = 0, i0 = 0;
    m.leak(p.celsius, mv.values.data() + i * nv, mv.globals.data(), &g, &i0);
    const double e = -i0 / g;
    if (!(g > 0) || !std::isfinite(e)) return {};
    r.g_S_cm2[i] = g;
    r.e_mV[i] = e;
  }
  return r;
}

// The leaks among template t's generated mechanisms, added to its passive terms k (the
// built-in pas of every schedule): at a node with pas already, G = G1 + G2 and
// E = (G1 E1 + G2 E2) / G; generated_template leaves them out.
inline void fold_generated_leaks(const CellTemplate& t, const MechanismCatalogue& cat,
                                 const SimulationParameters& p, TemplateNodes& k) {
  if (t.generated.empty()) return;
  check_mechanism_entries(t, cat);
  const NodeGeometry geo = node_geometry(t);
  std::vector<int> done;
  for (const GeneratedMechanism& e : t.generated) {
    const int m = cat.index_of(e.name);
    if (!cat.mechanisms[m].leak || std::find(done.begin(), done.end(), m) != done.end()) continue;
    done.push_back(m);
    const LeakOfNodes leak =
        folded_leak(cat.mechanisms[m], p, mechanism_values(t, cat.mechanisms[m], geo.distance_um));
    for (std::size_t i = 0; i < leak.g_S_cm2.size(); ++i) {
      if (!(leak.g_S_cm2[i] > 0)) continue;
      const double g = membrane_uS(t.compartments, static_cast<int>(i), leak.g_S_cm2[i]);
      const double g0 = (k.mechs[i] & kPasBit) ? k.pas_g[i] : 0.0;
      k.pas_e[i] = g0 > 0 ? (g0 * k.pas_e[i] + g * leak.e_mV[i]) / (g0 + g) : leak.e_mV[i];
      k.pas_g[i] = g0 + g;
      k.mechs[i] |= kPasBit;
    }
  }
}

// Template t's generated mechanisms laid out (empty when it has none), but for the leaks
// that fold_generated_leaks folds. InputError for an entry check_mechanism_entries refuses
// (a mechanism the catalogue lacks, a point process, a parameter it lacks), or one
// mechanism_values refuses.
inline GeneratedTemplate generated_template(const CellTemplate& t, const MechanismCatalogue& cat,
                                            const SimulationParameters& p) {
  GeneratedTemplate g;
  if (t.generated.empty()) return g;
  const NeuronCompartments& comp = t.compartments;
  const int n = comp.size();
  const int ni = static_cast<int>(cat.ions.size());
  g.num_nodes = n;
  g.num_ions = ni;
  const std::string& source = t.morphology.source;
  check_mechanism_entries(t, cat);
  const NodeGeometry geo = node_geometry(t);
  // Mechanisms in block order: concentration writers first, then as first listed.
  std::vector<int> order;
  for (const bool writers : {true, false})
    for (const GeneratedMechanism& e : t.generated) {
      const int k = cat.index_of(e.name);
      if (cat.mechanisms[k].writes_concentration == writers &&
          std::find(order.begin(), order.end(), k) == order.end())
        order.push_back(k);
    }
  g.area_um2.assign(comp.area_um2.begin(), comp.area_um2.end());
  g.diam_um = geo.diam_um;
  std::vector<int> conc_style(std::size_t(n) * ni, 0), e_style(std::size_t(n) * ni, 0);
  g.ion_style.assign(std::size_t(n) * ni, 0);
  for (const int k : order) {
    const CatalogueMechanism& m = cat.mechanisms[k];
    const int nv = static_cast<int>(m.variables.size());
    const MechanismValues mv = mechanism_values(t, m, geo.distance_um);
    if (!folded_leak(m, p, mv).empty()) continue;
    const std::vector<char>& inserted = mv.inserted;
    const std::vector<double>& values = mv.values;
    const std::vector<double>& globals = mv.globals;
    GeneratedBlock b;
    b.mech = k;
    b.node_begin = static_cast<int>(g.nodes.size());
    for (int i = 0; i < n; ++i)
      if (inserted[i]) g.nodes.push_back(i);
    b.node_end = static_cast<int>(g.nodes.size());
    b.row_begin = static_cast<int>(g.row_init.size());
    b.const_begin = static_cast<int>(g.constants.size());
    for (int j = b.node_begin; j < b.node_end; ++j) {
      const int i = g.nodes[j];
      for (int v = 0; v < nv; ++v) {
        if (in_rows(m.variables[v]))
          g.row_init.push_back(values[std::size_t(i) * nv + v]);
        else if (!m.variables[v].written)
          g.constants.push_back(values[std::size_t(i) * nv + v]);
      }
      for (const CatalogueIonVariable& iv : m.ion_variables) {
        const std::size_t at = std::size_t(i) * ni + cat.ion_index(iv.ion);
        const int style = iv.write ? 3 : 1;
        if (iv.role == CatalogueIonVariable::Inside || iv.role == CatalogueIonVariable::Outside)
          conc_style[at] = std::max(conc_style[at], style);
        if (iv.role == CatalogueIonVariable::Reversal) e_style[at] = std::max(e_style[at], style);
        g.ion_style[at] |= kIonUsed;
      }
    }
    b.global_begin = static_cast<int>(g.constants.size());
    g.constants.insert(g.constants.end(), globals.begin(), globals.end());
    // The uniforms after the globals, from this block's globals (GeneratedBlock).
    if (m.num_uniforms > 0) {
      std::vector<double> u(m.num_uniforms);
      m.uniforms(p.celsius, globals.data(), u.data());
      g.constants.insert(g.constants.end(), u.begin(), u.end());
    }
    g.blocks.push_back(b);
  }
  // NEURON's ion_style: a concentration in use makes e computed (at initialisation), and
  // every step too where the concentration is written.
  for (std::size_t at = 0; at < g.ion_style.size(); ++at) {
    if (!(g.ion_style[at] & kIonUsed)) continue;
    int es = e_style[at];
    if (conc_style[at] > 0 && es < 2) es = 2;
    if (conc_style[at] > 0 && es == 2) g.ion_style[at] |= kIonEFromConc;
    if (conc_style[at] == 3 && es == 2) g.ion_style[at] |= kIonEAdvance;
  }
  for (int k = 0; k < ni; ++k) {
    nmodl::IonSetup s = nmodl::default_ion(cat.ions[k].name, cat.ions[k].valence);
    if (s.name == "na") s.e0 = p.ena;
    if (s.name == "k") s.e0 = p.ek;
    for (const IonSpec& x : t.ions)
      if (x.name == s.name) {
        if (!std::isnan(x.ci0)) s.ci0 = x.ci0;
        if (!std::isnan(x.co0)) s.co0 = x.co0;
        if (!std::isnan(x.e)) s.e0 = x.e;
      }
    g.ion_init.insert(g.ion_init.end(), {s.ci0, s.co0, s.e0, double(cat.ions[k].valence)});
  }
  for (const IonSpec& x : t.ions)
    if (cat.ion_index(x.name) < 0)
      throw InputError(
          "ion '" + x.name + "' is used by no mechanism of the catalogue '" + cat.name + "'",
          source, 0, x.name);
  return g;
}

// A variable a record names (RecordSpec::variable), resolved against a template at a
// location: v, a mechanism's variable (catalogue indices), an ion value (catalogue ion
// and its nmodl::IonSlot: IonE, IonCi, IonCo or IonI), or a variable of the point process
// of the cell's synapse `synapse` (mech, variable).
struct RecordedVariable {
  enum Kind { Voltage, Mechanism, Ion, Synapse };
  Kind kind = Voltage;
  int mech = -1, variable = -1;
  int ion = -1, ion_slot = 0;
  int synapse = -1;
};

// Whether some mechanism of the catalogue writes ion k's values (e, ci, co) or reads its
// current: the host's view of nmodl::CatalogueIons::values_written and current_read.
inline bool catalogue_writes_ion_values(const MechanismCatalogue& cat, int k) {
  for (const CatalogueMechanism& m : cat.mechanisms)
    for (const CatalogueIonVariable& iv : m.ion_variables)
      if (iv.write && iv.role != CatalogueIonVariable::Current && iv.ion == cat.ions[k].name)
        return true;
  return false;
}
inline bool catalogue_reads_ion_current(const MechanismCatalogue& cat, int k) {
  for (const CatalogueMechanism& m : cat.mechanisms)
    for (const CatalogueIonVariable& iv : m.ion_variables)
      if (iv.read && iv.role == CatalogueIonVariable::Current && iv.ion == cat.ions[k].name)
        return true;
  return false;
}

// Resolves a record's variable name at `where` of template t: "v"; an ion value, e<ion>,
// <ion>i, <ion>o or i<ion> (eca, cai, cao, ica), where a generated mechanism at that
// section uses the ion; or <variable>_<mechanism> (NEURON's m_hh), a PARAMETER, STATE or
// ASSIGNED variable that the simulation stores, of a generated mechanism inserted at that
// section. False with `why` (for a message) for any other name.
inline bool resolve_recorded_variable(const CellTemplate& t, const MechanismCatalogue& cat,
                                      const Location& where, const std::string& name,
                                      RecordedVariable& out, std::string& why) {
  out = RecordedVariable{};
  if (name == "v") return true;
  // The generated mechanisms inserted at the location's section (catalogue indices).
  std::vector<int> here;
  for (const GeneratedMechanism& e : t.generated) {
    const std::vector<int> sections = t.sections_of(e);
    const int k = cat.index_of(e.name);
    if (k >= 0 && std::find(sections.begin(), sections.end(), where.section) != sections.end() &&
        std::find(here.begin(), here.end(), k) == here.end())
      here.push_back(k);
  }
  for (int k = 0; k < static_cast<int>(cat.ions.size()); ++k) {
    const std::string& n = cat.ions[k].name;
    int slot = -1;
    if (name == "e" + n) slot = nmodl::IonE;
    if (name == n + "i") slot = nmodl::IonCi;
    if (name == n + "o") slot = nmodl::IonCo;
    if (name == "i" + n) slot = nmodl::IonI;
    if (slot < 0) continue;
    bool used = false;
    for (const int m : here)
      for (const CatalogueIonVariable& iv : cat.mechanisms[m].ion_variables) used |= iv.ion == n;
    if (!used) {
      why = "no generated mechanism at section " + std::to_string(where.section) +
            " uses the ion " + n;
      return false;
    }
    if (slot == nmodl::IonI && !catalogue_reads_ion_current(cat, k)) {
      why = "no mechanism of the catalogue '" + cat.name + "' reads " + name +
            ", so the simulation does not sum that current";
      return false;
    }
    out.kind = RecordedVariable::Ion;
    out.ion = k;
    out.ion_slot = slot;
    return true;
  }
  // <variable>_<mechanism>: the longest mechanism name that ends the name.
  int mech = -1;
  for (int k = 0; k < static_cast<int>(cat.mechanisms.size()); ++k) {
    const std::string suffix = "_" + cat.mechanisms[k].name;
    if (name.size() > suffix.size() &&
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        (mech < 0 || cat.mechanisms[k].name.size() > cat.mechanisms[mech].name.size()))
      mech = k;
  }
  if (mech < 0) {
    std::string ions;
    for (const CatalogueIon& i : cat.ions) ions += (ions.empty() ? "" : ", ") + i.name + "i";
    why = "unknown variable: not v, an ion value (" + (ions.empty() ? std::string("none") : ions) +
          ", ...) or <variable>_<mechanism> of the catalogue '" + cat.name + "' (" +
          cat.mechanism_names() + ")";
    return false;
  }
  const CatalogueMechanism& m = cat.mechanisms[mech];
  if (std::find(here.begin(), here.end(), mech) == here.end()) {
    bool builtin = false;
    for (const DensityMechanism& d : t.density) {
      const std::vector<int> sections = t.sections_of(d);
      builtin |= (d.kind == DensityMechanism::HH ? m.name == "hh" : m.name == "pas") &&
                 std::find(sections.begin(), sections.end(), where.section) != sections.end();
    }
    why = "mechanism " + m.name + " is not inserted (as a generated mechanism) at section " +
          std::to_string(where.section) +
          (builtin ? ": the built-in " + m.name +
                         " records no variables, insert the catalogue's (give \"parameters\")"
                   : std::string());
    return false;
  }
  const std::string var = name.substr(0, name.size() - m.name.size() - 1);
  const int v = m.variable_index(var);
  if (v < 0) {
    std::string names;
    for (const CatalogueVariable& x : m.variables)
      if (!x.output_only) names += (names.empty() ? "" : ", ") + x.name + "_" + m.name;
    why = m.name + " has no RANGE variable '" + var + "'" +
          (m.global_index(var) >= 0 ? " (it is a GLOBAL, one value for the whole run)" : "") +
          " (recordable: " + names + ")";
    return false;
  }
  if (m.variables[v].output_only) {
    why = var + " of " + m.name +
          " is an ASSIGNED variable the mechanism only outputs (never reads back): the "
          "simulation does not store it";
    return false;
  }
  if (m.leak) {
    why = m.name +
          " is a leak (one current g (v - e), g and e constant over the run): the simulation "
          "folds it into the cable's passive terms and keeps none of its variables (they "
          "stay as the config sets them)";
    return false;
  }
  out.kind = RecordedVariable::Mechanism;
  out.mech = mech;
  out.variable = v;
  return true;
}

// Resolves a record of variable `name` of template t's synapse `synapse` (its index among
// the template's synapses): a PARAMETER, STATE or ASSIGNED variable of its point process
// that the simulation stores, by the point process's own name ("g" of ExpSyn). False with
// `why` for a synapse the template does not have, the built-in ExpSyn (it keeps only g,
// in the schedule's own arrays) and any other name.
inline bool resolve_synapse_variable(const CellTemplate& t, const MechanismCatalogue& cat,
                                     int synapse, const std::string& name, RecordedVariable& out,
                                     std::string& why) {
  out = RecordedVariable{};
  const int count = static_cast<int>(t.synapses.size());
  if (synapse < 0 || synapse >= count) {
    why = "the cell has " + std::to_string(count) + " synapse(s) (0 to " +
          std::to_string(count - 1) + "), not synapse " + std::to_string(synapse);
    return false;
  }
  const SynapseMechanism& spec = t.synapses[synapse].mechanism;
  if (spec.builtin()) {
    why = "synapse " + std::to_string(synapse) +
          " is the built-in ExpSyn (run.mechanisms \"builtin\"), which records no variables";
    return false;
  }
  const int mech = cat.index_of(spec.name);
  if (mech < 0) {
    why = "synapse " + std::to_string(synapse) + "'s point process '" + spec.name +
          "' is not in the catalogue '" + cat.name + "'";
    return false;
  }
  const CatalogueMechanism& m = cat.mechanisms[mech];
  // RANGE variables only, as NEURON's syn._ref_<name> (an ASSIGNED variable that is not
  // RANGE is a GLOBAL there; the compiler's own hb_* variables are not RANGE).
  const auto own = [](const CatalogueVariable& x) { return x.range; };
  const int v = m.variable_index(name);
  if (v < 0 || !own(m.variables[v]) || m.variables[v].output_only) {
    std::string names;
    for (const CatalogueVariable& x : m.variables)
      if (own(x) && !x.output_only) names += (names.empty() ? "" : ", ") + x.name;
    why = (v < 0 || !own(m.variables[v])
               ? m.name + " has no RANGE variable '" + name + "'"
               : name + " of " + m.name +
                     " is an ASSIGNED variable the point process only outputs (never reads "
                     "back): the simulation does not store it") +
          " (recordable at a synapse: " + names + ")";
    return false;
  }
  out.kind = RecordedVariable::Synapse;
  out.mech = mech;
  out.variable = v;
  out.synapse = synapse;
  return true;
}

// Where a record's value lives in the generated views (GeneratedViews) of `layouts` (one
// per template, as make_generated_views takes them), for a cell of template tmpl at its
// node `node`:
//   rows       rows(slot, index): row_begin of the mechanism's block + (position of the node
//              in the block) * the mechanism's rows + position_in_store(variable)
//   constants  constants(index): a variable the mechanism never writes (the template's)
//   ions       ions(slot, index): (node * num_ions + ion) * IonSlots + slot, for an ion
//              whose values some mechanism writes, and for a summed current
//   ion_fixed  ion_fixed(index): the template's value of an ion no mechanism writes
// Voltage: v itself (index unused). InputError where the variable is not at that node.
enum RecordStore {
  kRecordVoltage = 0,
  kRecordRows,
  kRecordConstants,
  kRecordIons,
  kRecordIonFixed,
  kRecordSynapseRows,      // GeneratedSynapses::rows(index)
  kRecordSynapseConstants  // GeneratedSynapses::constants(index)
};
struct RecordPlace {
  int store = kRecordVoltage;
  int index = 0;
};
inline RecordPlace generated_record_place(const std::vector<GeneratedTemplate>& layouts, int tmpl,
                                          const MechanismCatalogue& cat, const RecordedVariable& r,
                                          int node) {
  RecordPlace p;
  if (r.kind == RecordedVariable::Voltage) return p;
  const GeneratedTemplate& t = layouts.at(tmpl);
  const auto missing = [&](const std::string& what) {
    throw InputError("recorded " + what + " is not stored at node " + std::to_string(node), {}, 0,
                     what);
  };
  if (r.kind == RecordedVariable::Ion) {
    const std::string name = cat.ions[r.ion].name;
    if (t.empty() || !(t.ion_style[std::size_t(node) * t.num_ions + r.ion] & kIonUsed))
      missing("ion " + name);
    if (r.ion_slot == nmodl::IonI || catalogue_writes_ion_values(cat, r.ion)) {
      p.store = kRecordIons;
      p.index = (node * t.num_ions + r.ion) * nmodl::IonSlots + r.ion_slot;
    } else {
      int first_node = 0;  // the template's first node in ion_fixed
      for (int k = 0; k < tmpl; ++k) first_node += layouts[k].num_nodes;
      p.store = kRecordIonFixed;
      p.index = ((first_node + node) * t.num_ions + r.ion) * 3 + r.ion_slot;
    }
    return p;
  }
  const CatalogueMechanism& m = cat.mechanisms[r.mech];
  const CatalogueVariable& v = m.variables[r.variable];
  for (const GeneratedBlock& b : t.blocks) {
    if (b.mech != r.mech) continue;
    const auto first = t.nodes.begin() + b.node_begin, last = t.nodes.begin() + b.node_end;
    const auto it = std::lower_bound(first, last, node);
    if (it == last || *it != node) break;
    const int j = static_cast<int>(it - first);
    if (in_rows(v)) {
      p.store = kRecordRows;
      p.index = b.row_begin + j * count_in_store(m, true) + position_in_store(m, r.variable);
    } else if (!v.written) {
      int first_constant = 0;  // the template's first constant in constants
      for (int k = 0; k < tmpl; ++k)
        first_constant += static_cast<int>(layouts[k].constants.size());
      p.store = kRecordConstants;
      p.index = first_constant + b.const_begin + j * count_in_store(m, false) +
                position_in_store(m, r.variable);
    } else {
      break;  // output-only: stored nowhere
    }
    return p;
  }
  missing(v.name + "_" + m.name);
  return p;
}

// The rank's synapses as records of their variables find them (host copies of
// GeneratedSynapses' row and cst, and of the slots' syn_begin): slot s's synapse j is the
// rank's synapse syn_begin[s] + j. Empty where no record is of a synapse.
struct SynapseRecordPlaces {
  std::vector<int> syn_begin, row, cst;
};
inline bool records_a_synapse(const std::vector<RecordedVariable>& variables) {
  for (const RecordedVariable& v : variables)
    if (v.kind == RecordedVariable::Synapse) return true;
  return false;
}

// Where each record's value lives (RecordPlace) for a schedule that runs generated
// mechanisms laid out as `layouts` (one per template): store and index per record, both
// empty when every record is v. A synapse's variable is in its rows (a STATE or ASSIGNED
// one) or its constants (a PARAMETER), at the variable's position among them (the order
// make_generated_synapses keeps). InputError for a variable not stored at its node.
inline void record_places(const std::vector<GeneratedTemplate>& layouts,
                          const std::vector<int>& template_of_slot, const MechanismCatalogue& cat,
                          const std::vector<int>& slot, const std::vector<int>& node,
                          const std::vector<RecordedVariable>& variables, std::vector<int>& store,
                          std::vector<int>& index, const SynapseRecordPlaces& synapses = {}) {
  store.clear();
  index.clear();
  bool all_v = true;
  for (const RecordedVariable& v : variables) all_v &= v.kind == RecordedVariable::Voltage;
  if (all_v) return;
  for (std::size_t r = 0; r < variables.size(); ++r) {
    const RecordedVariable& x = variables[r];
    if (x.kind == RecordedVariable::Synapse) {
      const std::size_t k = std::size_t(synapses.syn_begin.at(slot[r])) + x.synapse;
      const CatalogueMechanism& m = cat.mechanisms[x.mech];
      const bool rows = in_rows(m.variables[x.variable]);
      store.push_back(rows ? kRecordSynapseRows : kRecordSynapseConstants);
      index.push_back((rows ? synapses.row.at(k) : synapses.cst.at(k)) +
                      position_in_store(m, x.variable));
      continue;
    }
    const RecordPlace p =
        generated_record_place(layouts, template_of_slot.at(slot[r]), cat, x, node[r]);
    store.push_back(p.store);
    index.push_back(p.index);
  }
}

// The value of a record at (store, index) of slot s (RecordPlace), device code: g a
// GeneratedViews, syn a GeneratedSynapses, v the voltage at the record's node (returned
// for kRecordVoltage).
template <class GenViews, class Synapses>
KOKKOS_INLINE_FUNCTION double record_value(const GenViews& g, const Synapses& syn, int store,
                                           int index, int s, double v) {
  switch (store) {
    case kRecordSynapseRows:
      return syn.rows(index);
    case kRecordSynapseConstants:
      return syn.constants(index);
    case kRecordRows:
      return g.rows(s, index);
    case kRecordConstants:
      return g.constants(index);
    case kRecordIons:
      return g.ions(s, index);
    case kRecordIonFixed:
      return g.ion_fixed(index);
    default:
      return v;
  }
}

}  // namespace hinesbatch::impl
