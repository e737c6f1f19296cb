#pragma once
// The run-time description (catalogue.hpp) of a compiled catalogue: the generated
// metadata copied into plain host structures, mechanisms and ions in the catalogue's own
// order, so that an index found by name at run time is the compile-time one. Host code.
#include <cmath>
#include <hinesbatch/core/counter_random.hpp>
#include <hinesbatch/simulation/catalogue.hpp>
#include <hinesbatch/simulation/nmodl/mechanism.hpp>

namespace hinesbatch::nmodl {

// An accessor that runs a leak's current at v = 0 from its variables' values (all of them,
// in `variables` order) and globals: the current and conductance it adds.
struct LeakProbe {
  double celsius_;
  const double* vars;
  const double* globals_;
  double i = 0, g = 0;
  KOKKOS_INLINE_FUNCTION double v() const { return 0.0; }
  KOKKOS_INLINE_FUNCTION double t() const { return 0.0; }
  KOKKOS_INLINE_FUNCTION double dt() const { return 0.0; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  KOKKOS_INLINE_FUNCTION double area() const { return 100.0; }
  KOKKOS_INLINE_FUNCTION double diam() const { return 1.0; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    return vars[I];
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double) const {}
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return globals_[I];
  }
  KOKKOS_INLINE_FUNCTION void add_current(double current, double conductance) {
    i += current;
    g += conductance;
  }
};

// An artificial cell's accessor on the host: one instance's values in an
// ArtificialCellCall, and what it asks for recorded there in order.
struct ArtificialCellAccessor {
  ArtificialCellCall* call;
  KOKKOS_INLINE_FUNCTION double v() const { return 0.0; }
  KOKKOS_INLINE_FUNCTION double t() const { return call->t; }
  KOKKOS_INLINE_FUNCTION double dt() const { return call->dt; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return call->celsius; }
  KOKKOS_INLINE_FUNCTION double area() const { return 100.0; }
  KOKKOS_INLINE_FUNCTION double diam() const { return 1.0; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    return call->variables[I];
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double x) const {
    call->variables[I] = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return call->globals[I];
  }
  KOKKOS_INLINE_FUNCTION void add_current(double, double) {}
  KOKKOS_INLINE_FUNCTION void act(ArtificialCellCall::Action::Kind kind, double time, double flag) {
    if (call->num_actions < ArtificialCellCall::kMaxActions)
      call->actions[call->num_actions] = {kind, time, flag};
    ++call->num_actions;
  }
  KOKKOS_INLINE_FUNCTION void net_send(double delay, double flag) {
    act(ArtificialCellCall::Action::Send, delay, flag);
  }
  KOKKOS_INLINE_FUNCTION void net_event(double time) {
    act(ArtificialCellCall::Action::Event, time, 0);
  }
  KOKKOS_INLINE_FUNCTION void net_move(double time) {
    act(ArtificialCellCall::Action::Move, time, 0);
  }
  // NEURON's random functions, from the cell's own stream.
  KOKKOS_INLINE_FUNCTION double scop_random() {
    return ::hinesbatch::counter_uniform01(call->seed, call->stream, (*call->draws)++);
  }
  KOKKOS_INLINE_FUNCTION double exprand(double mean) {
    return -mean * std::log1p(-scop_random());  // 1 - u in (0, 1]
  }
  // Box-Muller with two draws (the second value is not kept: each call takes two).
  KOKKOS_INLINE_FUNCTION double normrand(double mean, double sd) {
    const double r = std::sqrt(-2.0 * std::log1p(-scop_random()));
    return mean + sd * r * std::cos(6.283185307179586476925 * scop_random());
  }
};

template <class M>
CatalogueMechanism describe_mechanism() {
  CatalogueMechanism d;
  d.name = M::name;
  d.point_process = M::kind == MechanismKind::PointProcess;
  d.writes_concentration = M::writes_concentration;
  d.has_net_receive = M::has_net_receive;
  d.num_weights = M::num_weights;
  d.receive_keeps_weights = M::net_receive_keeps_weights;
  d.receive_reads_t = M::net_receive_reads_t;
  d.receive_sends = M::net_receive_sends;
  if constexpr (M::kind == MechanismKind::ArtificialCell) {
    d.artificial_cell = true;
    d.artificial_initial = [](ArtificialCellCall& c) {
      ArtificialCellAccessor a{&c};
      M::initial(a);
    };
    d.artificial_receive = [](ArtificialCellCall& c, double* w, double flag) {
      ArtificialCellAccessor a{&c};
      M::net_receive(a, w, flag);
    };
    d.artificial_receive_initial = [](ArtificialCellCall& c, double* w) {
      ArtificialCellAccessor a{&c};
      M::net_receive_initial(a, w);
    };
  }
  for (const VariableInfo& v : M::variables)
    d.variables.push_back({v.name,
                           v.kind == VariableKind::Parameter ? CatalogueVariable::Parameter
                           : v.kind == VariableKind::State   ? CatalogueVariable::State
                                                             : CatalogueVariable::Assigned,
                           v.default_value, v.range, v.written, v.output_only});
  for (const GlobalInfo& g : M::globals) d.globals.push_back({g.name, g.default_value});
  d.num_uniforms = M::num_uniforms;
  if constexpr (M::linear_leak)
    d.leak = [](double celsius, const double* vars, const double* globals, double* g, double* i0) {
      LeakProbe a{celsius, vars, globals};
      M::current(a);
      *g = a.g;
      *i0 = a.i;
    };
  d.uniforms = [](double celsius, const double* globals, double* out) {
    M::uniforms(UniformInputs{celsius, globals}, out);
  };
  for (const IonVariableInfo& i : M::ion_variables)
    d.ion_variables.push_back({i.ion, i.name, i.valence,
                               static_cast<CatalogueIonVariable::Role>(ion_slot_of(i.role)), i.read,
                               i.write});
  return d;
}

template <class Catalogue>
MechanismCatalogue describe_catalogue() {
  MechanismCatalogue c;
  c.name = Catalogue::catalogue_name;
  Catalogue::for_each([&](auto m) { c.mechanisms.push_back(describe_mechanism<decltype(m)>()); });
  using Ions = CatalogueIons<typename Catalogue::mechanisms>;
  for (int j = 0; j < Ions::count; ++j)
    c.ions.push_back({Ions::list.ions[j].name, Ions::list.ions[j].valence});
  return c;
}

// describe_catalogue<Catalogue>(), made once.
template <class Catalogue>
const MechanismCatalogue& description() {
  static const MechanismCatalogue d = describe_catalogue<Catalogue>();
  return d;
}

}  // namespace hinesbatch::nmodl
