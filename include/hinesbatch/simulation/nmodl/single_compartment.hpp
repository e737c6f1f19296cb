#pragma once
// One isopotential compartment with any set of generated mechanisms, stepped as NEURON's
// fixed-step method with secondorder = 0 (nrn_fixed_step): deliver events, t += dt/2,
// ion reversal potentials (Nernst where a mechanism writes a concentration) and ion
// currents reset, currents and conductances of every mechanism, implicit Euler update of
// v, t += dt/2, states at the new v (SOLVE blocks, concentrations included). Mechanisms
// that write a concentration run first, as NEURON orders them. Used to validate generated
// mechanisms against NEURON; each of `num_cells` identical copies runs in one thread.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstring>
#include <hinesbatch/simulation/nmodl/impl/single_compartment_kernel.hpp>
#include <hinesbatch/simulation/nmodl/ions.hpp>
#include <hinesbatch/simulation/nmodl/mechanism.hpp>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace hinesbatch::nmodl {

// An event through a NetCon: events with the same netcon (>= 0) share one weight vector
// (NET_RECEIVE's arguments: weight, then per-NetCon state set by its INITIAL block); -1
// is a NetCon of its own.
struct Event {
  double time;
  int instance;  // index into the inserted instances
  double weight;
  int netcon = -1;
};

struct Record {
  enum Kind {
    Voltage = impl::kRecordVoltage,
    Variable = impl::kRecordVariable,
    IonValue = impl::kRecordIonValue
  } kind = Voltage;
  int instance = -1, index = 0;  // Variable: instance and variable; IonValue: c.ions index
  std::string label;
};

// Runs `num_cells` copies of one compartment; Catalogue is a generated catalogue.
template <class Catalogue, class ExecSpace = Kokkos::DefaultExecutionSpace>
class SingleCompartment {
 public:
  using Mechanisms = typename Catalogue::mechanisms;
  using Memory = typename ExecSpace::memory_space;

  double dt = 0.025, tstop = 10, celsius = 6.3, v_init = -65, cm = 1, area = 1000,
         diam = 17.841241161527712;
  // Voltage clamp: from each (time, value) on, v is set to value at the start of every
  // step (before its currents); an empty list is current clamp only.
  std::vector<std::pair<double, double>> vclamp;
  std::vector<Event> events;

  // Inserts an instance of mechanism `name`; returns its index.
  int insert(const std::string& name) {
    int k = -1;
    for (int i = 0; i < Catalogue::size; ++i)
      if (name == Catalogue::names[i]) k = i;
    if (k < 0) throw std::invalid_argument("unknown mechanism '" + name + "'");
    Instance inst;
    inst.mech = k;
    Catalogue::for_each([&](auto m) {
      using M = decltype(m);
      if (name != M::name) return;
      for (const auto& v : M::variables) inst.values.push_back(v.default_value);
      for (const auto& g : M::globals) inst.globals.push_back(g.default_value);
      for (const auto& iv : M::ion_variables) {
        const int ion = ion_of(iv.ion, iv.valence);
        inst.ion_base.push_back(ion * IonSlots);
        inst.ion_index.push_back(ion * IonSlots + slot_of(iv.role));
        inst.writes_conc =
            inst.writes_conc ||
            (iv.write && (iv.role == IonRole::Inside || iv.role == IonRole::Outside));
      }
      inst.names.clear();
      for (const auto& v : M::variables) inst.names.push_back(v.name);
      for (const auto& g : M::globals) inst.global_names.push_back(g.name);
      inst.point = M::kind == MechanismKind::PointProcess;
      static_assert(M::num_weights <= kMaxWeights, "NET_RECEIVE with more than 8 arguments");
    });
    instances_.push_back(inst);
    return static_cast<int>(instances_.size()) - 1;
  }

  void set(int instance, const std::string& var, double value) {
    auto& in = instances_.at(instance);
    for (std::size_t i = 0; i < in.names.size(); ++i)
      if (in.names[i] == var) {
        in.values[i] = value;
        return;
      }
    for (std::size_t i = 0; i < in.global_names.size(); ++i)
      if (in.global_names[i] == var) {
        in.globals[i] = value;
        return;
      }
    throw std::invalid_argument("mechanism " + std::string(Catalogue::names[in.mech]) +
                                " has no variable '" + var + "'");
  }

  IonSetup& ion(const std::string& name) {
    for (auto& i : ions_)
      if (i.name == name) return i;
    throw std::invalid_argument("no mechanism uses ion '" + name + "'");
  }

  Record record_variable(int instance, const std::string& var) const {
    const auto& in = instances_.at(instance);
    for (std::size_t i = 0; i < in.names.size(); ++i)
      if (in.names[i] == var)
        return {Record::Variable, instance, static_cast<int>(i),
                std::string(Catalogue::names[in.mech]) + "." + var};
    throw std::invalid_argument("mechanism " + std::string(Catalogue::names[in.mech]) +
                                " has no variable '" + var + "'");
  }
  // `var` is e<ion>, <ion>i, <ion>o or i<ion>.
  Record record_ion(const std::string& var) const {
    for (std::size_t k = 0; k < ions_.size(); ++k) {
      const std::string& n = ions_[k].name;
      int slot = -1;
      if (var == "e" + n) slot = IonE;
      if (var == n + "i") slot = IonCi;
      if (var == n + "o") slot = IonCo;
      if (var == "i" + n) slot = IonI;
      if (slot >= 0) return {Record::IonValue, -1, static_cast<int>(k) * IonSlots + slot, var};
    }
    throw std::invalid_argument("no inserted mechanism uses an ion with variable '" + var + "'");
  }

  // Runs round(tstop / dt) steps; returns [cell][step][record] (step 0: after initialisation).
  std::vector<double> run(const std::vector<Record>& records, int num_cells = 1) {
    const int steps = static_cast<int>(tstop / dt + 0.5);
    const int ni = static_cast<int>(instances_.size()), nr = static_cast<int>(records.size());
    // Order: concentration writers first (NEURON's nrn_writes_conc), then as inserted.
    std::vector<int> order;
    for (int i = 0; i < ni; ++i)
      if (instances_[i].writes_conc) order.push_back(i);
    for (int i = 0; i < ni; ++i)
      if (!instances_[i].writes_conc) order.push_back(i);
    // NEURON's ion_style: conc 3 if written, 1 if read; e 3 if written, 1 if read; a
    // concentration in use promotes e to 2 (computed): at init, and every step if written.
    std::vector<int> conc_style(ions_.size(), 0), e_style(ions_.size(), 0);
    Catalogue::for_each([&](auto m) {
      using M = decltype(m);
      for (int i = 0; i < ni; ++i) {
        if (std::string(Catalogue::names[instances_[i].mech]) != M::name) continue;
        for (std::size_t k = 0; k < M::ion_variables.size(); ++k) {
          const auto& iv = M::ion_variables[k];
          const int ion = instances_[i].ion_base[k] / IonSlots;
          if (iv.role == IonRole::Inside || iv.role == IonRole::Outside)
            conc_style[ion] = std::max(conc_style[ion], iv.write ? 3 : 1);
          if (iv.role == IonRole::Reversal) e_style[ion] = std::max(e_style[ion], iv.write ? 3 : 1);
        }
      }
    });
    std::vector<int> cinit(ions_.size()), einit(ions_.size()), eadvance(ions_.size());
    for (std::size_t k = 0; k < ions_.size(); ++k) {
      if (conc_style[k] > 0 && e_style[k] < 2) e_style[k] = 2;
      cinit[k] = conc_style[k] == 3;
      eadvance[k] = conc_style[k] == 3 && e_style[k] == 2;
      einit[k] = conc_style[k] > 0 && e_style[k] == 2;
    }

    // Flattened per-instance tables (host), then device copies.
    std::vector<int> offset(ni + 1, 0), goffset(ni + 1, 0), ioffset(ni + 1, 0);
    for (int i = 0; i < ni; ++i) {
      offset[i + 1] = offset[i] + static_cast<int>(instances_[i].values.size());
      goffset[i + 1] = goffset[i] + static_cast<int>(instances_[i].globals.size());
      ioffset[i + 1] = ioffset[i] + static_cast<int>(instances_[i].ion_index.size());
    }
    const int nv = offset[ni], nion = static_cast<int>(ions_.size());
    Kokkos::View<double**, Kokkos::LayoutRight, Memory> vars("vars", num_cells, nv > 0 ? nv : 1);
    Kokkos::View<double**, Kokkos::LayoutRight, Memory> ions("ions", num_cells,
                                                             nion > 0 ? nion * IonSlots : 1);
    auto h_vars = Kokkos::create_mirror_view(vars);
    for (int c = 0; c < num_cells; ++c)
      for (int i = 0; i < ni; ++i)
        for (std::size_t j = 0; j < instances_[i].values.size(); ++j)
          h_vars(c, offset[i] + j) = instances_[i].values[j];
    Kokkos::deep_copy(vars, h_vars);
    std::vector<double> h_glob_v(goffset[ni] + 1), h_ion_setup(nion * 8 + 1);
    std::vector<int> h_iidx(ioffset[ni] + 1), h_ibase(ioffset[ni] + 1), h_int(4 * ni + 1);
    for (int i = 0; i < ni; ++i) {
      for (std::size_t j = 0; j < instances_[i].globals.size(); ++j)
        h_glob_v[goffset[i] + j] = instances_[i].globals[j];
      for (std::size_t j = 0; j < instances_[i].ion_index.size(); ++j) {
        h_iidx[ioffset[i] + j] = instances_[i].ion_index[j];
        h_ibase[ioffset[i] + j] = instances_[i].ion_base[j];
      }
    }
    for (int k = 0; k < nion; ++k) {
      double* s = &h_ion_setup[k * 8];
      s[0] = ions_[k].ci0, s[1] = ions_[k].co0, s[2] = ions_[k].e0, s[3] = ions_[k].valence;
      s[4] = cinit[k], s[5] = einit[k], s[6] = eadvance[k];
    }
    auto glob = to_device<double>(h_glob_v, "globals");
    auto iidx = to_device<int>(h_iidx, "ion_index"), ibase = to_device<int>(h_ibase, "ion_base");
    auto ion_setup = to_device<double>(h_ion_setup, "ion_setup");
    std::vector<int> h_mech(ni + 1), h_order(ni + 1);
    for (int i = 0; i < ni; ++i) h_mech[i] = instances_[i].mech, h_order[i] = order[i];
    auto mech = to_device<int>(h_mech, "mech"), ord = to_device<int>(h_order, "order");
    auto off = to_device<int>(offset, "offset"), goff = to_device<int>(goffset, "goffset"),
         ioff = to_device<int>(ioffset, "ioffset");
    // NetCons: one weight vector each, weight[0] the NetCon's weight.
    std::vector<std::pair<int, int>> netcon_keys;  // (instance, netcon id)
    std::vector<int> h_ev_nc(events.size() + 1);
    std::vector<double> h_nc_w;
    std::vector<int> h_nc_inst;
    for (std::size_t e = 0; e < events.size(); ++e) {
      int k = -1;
      if (events[e].netcon >= 0)
        for (std::size_t j = 0; j < netcon_keys.size(); ++j)
          if (netcon_keys[j] == std::make_pair(events[e].instance, events[e].netcon))
            k = static_cast<int>(j);
      if (k >= 0 && h_nc_w[k * kMaxWeights] != events[e].weight)
        throw std::invalid_argument("events of one NetCon must have its one weight");
      if (k < 0) {
        k = static_cast<int>(netcon_keys.size());
        netcon_keys.emplace_back(events[e].instance,
                                 events[e].netcon >= 0 ? events[e].netcon : -1 - k);
        h_nc_w.resize((k + 1) * kMaxWeights, 0.0);
        h_nc_w[k * kMaxWeights] = events[e].weight;
        h_nc_inst.push_back(events[e].instance);
      }
      h_ev_nc[e] = k;
    }
    const int nnc = static_cast<int>(netcon_keys.size());
    h_nc_w.resize(nnc * kMaxWeights + 1);
    h_nc_inst.resize(nnc + 1);
    Kokkos::View<double**, Kokkos::LayoutRight, Memory> nc_w("netcon_weights", num_cells,
                                                             (nnc > 0 ? nnc : 1) * kMaxWeights);
    {
      auto m = Kokkos::create_mirror_view(nc_w);
      for (int c = 0; c < num_cells; ++c)
        for (int j = 0; j < nnc * kMaxWeights; ++j) m(c, j) = h_nc_w[j];
      Kokkos::deep_copy(nc_w, m);
    }
    auto nc_inst = to_device<int>(h_nc_inst, "netcon_instance");
    auto ev_nc = to_device<int>(h_ev_nc, "event_netcon");
    std::vector<double> h_ev(3 * events.size() + 1);
    for (std::size_t e = 0; e < events.size(); ++e)
      h_ev[3 * e] = events[e].time, h_ev[3 * e + 1] = events[e].instance,
               h_ev[3 * e + 2] = events[e].weight;
    auto ev = to_device<double>(h_ev, "events");
    const int nev = static_cast<int>(events.size());
    std::vector<double> h_vc(2 * vclamp.size() + 1);
    for (std::size_t e = 0; e < vclamp.size(); ++e)
      h_vc[2 * e] = vclamp[e].first, h_vc[2 * e + 1] = vclamp[e].second;
    auto vc = to_device<double>(h_vc, "vclamp");
    const int nvc = static_cast<int>(vclamp.size());
    std::vector<int> h_rec(3 * records.size() + 1);
    for (std::size_t r = 0; r < records.size(); ++r)
      h_rec[3 * r] = records[r].kind, h_rec[3 * r + 1] = records[r].instance,
                h_rec[3 * r + 2] = records[r].index;
    auto rec = to_device<int>(h_rec, "records");
    Kokkos::View<double***, Kokkos::LayoutRight, Memory> out("out", num_cells, steps + 1,
                                                             nr > 0 ? nr : 1);
    // Events are delivered in time order; ties in insertion order.
    const double dt_ = dt, cel = celsius, vinit = v_init, cm_ = cm, area_ = area, diam_ = diam;

    using Kernel = impl::StepSingleCompartments<Mechanisms, Memory>;
    Kokkos::parallel_for(
        "hinesbatch::nmodl::single_compartment", Kokkos::RangePolicy<ExecSpace>(0, num_cells),
        Kernel{vars, glob,    iidx,  ibase, ion_setup, mech, ord, off, goff, ioff,
               nc_w, nc_inst, ev_nc, ev,    vc,        rec,  out, dt_, cel,  vinit,
               cm_,  area_,   diam_, ni,    nion,      nev,  nvc, nr,  nnc,  steps});
    auto h_out = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    std::vector<double> result(h_out.data(), h_out.data() + h_out.size());
    if (nr == 0) result.clear();
    return result;
  }

 private:
  struct Instance {
    int mech = -1;
    bool point = false, writes_conc = false;
    std::vector<double> values, globals;
    std::vector<std::string> names, global_names;
    std::vector<int> ion_index, ion_base;
  };

  int ion_of(const char* name, int valence) {
    for (std::size_t k = 0; k < ions_.size(); ++k)
      if (ions_[k].name == name) return static_cast<int>(k);
    if (ions_.size() == 8) throw std::invalid_argument("more than 8 ions");
    ions_.push_back(default_ion(name, valence));
    return static_cast<int>(ions_.size()) - 1;
  }
  static int slot_of(IonRole r) {
    return r == IonRole::Reversal  ? IonE
           : r == IonRole::Inside  ? IonCi
           : r == IonRole::Outside ? IonCo
                                   : IonI;
  }
  template <class T>
  static Kokkos::View<T*, Memory> to_device(const std::vector<T>& h, const char* label) {
    Kokkos::View<T*, Memory> d(std::string(label), h.size());
    auto m = Kokkos::create_mirror_view(d);
    for (std::size_t i = 0; i < h.size(); ++i) m(i) = h[i];
    Kokkos::deep_copy(d, m);
    return d;
  }

  std::vector<Instance> instances_;
  std::vector<IonSetup> ions_;
};

}  // namespace hinesbatch::nmodl
