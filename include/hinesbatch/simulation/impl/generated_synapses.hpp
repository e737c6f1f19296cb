#pragma once
// Synapses that run a point process of the catalogue (ExpSyn, Exp2Syn, ...: a template
// synapse's ExpSynSpec::mechanism) instead of the built-in ExpSyn, in every step schedule.
// Per synapse (the rank's numbering, CellGroup's syn_begin):
//   mech(k)       its catalogue index, -1 where it is the built-in ExpSyn
//   node(k)       its node in its cell
//   row(k)        its first value in rows: the variables the point process assigns and
//                 reads back (states, Exp2Syn's factor), in RowPositions order
//   cst(k)        its first value in constants: the variables it never assigns, then its
//                 globals, its uniforms, and the node's area (um2) and diameter (um); one
//                 entry per synapse of a template, shared by the template's cells
// Point processes work in nA and uS, the schedules' units: a current i and its di/dv = g
// add g to d and -i to rhs at the node as they are (NEURON divides them by the area for its
// mA/cm2; the schedules multiply the density mechanisms' by it). The schedules call:
//   initialize   after v = v_init: rows from their initial values, then INITIAL
//   current      after the density mechanisms, where the built-in ExpSyn adds its current
//   state        after the voltage update, where the built-in ExpSyn decays
//   receive_run  each event of a step, in the order events are applied (sorted by synapse,
//                then spike order): NET_RECEIVE with the connection's weight
//   initialize_vector  NET_RECEIVE's INITIAL, once per connection (EventDetails)
// A point process whose NET_RECEIVE keeps state per connection (NEURON's NetCon weight
// vector: it assigns an argument, or has an INITIAL block) or reads t gets its events'
// details: each event names its connection's vector and carries its own time (NEURON
// delivers an event at its time, not the step's).
// A point process whose NET_RECEIVE sends self-events (net_send(delay, flag)) keeps them per
// synapse, self_capacity at most pending: each is due delay ms after its event's time, with
// that event's weight vector and the flag. receive_run delivers those due before each
// incoming event, deliver_self_events the rest due by the step (NEURON's rule: te <= t +
// dt/2), earliest first (ties in the order they were sent).
#include <Kokkos_Core.hpp>
#include <climits>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/impl/delivery_step.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/nmodl/impl/node_rows.hpp"
#include "hinesbatch/simulation/nmodl/mechanism.hpp"

namespace hinesbatch::impl {

// Per event (the event queue's order): the first value of its connection's weight vector in
// vectors (-1: none, the vector is the event's weight and zeros) and its time; empty views
// where no synapse needs them (then t is the step's).
template <class MemorySpace>
struct EventDetails {
  Kokkos::View<const int*, MemorySpace> vector;
  Kokkos::View<const double*, MemorySpace> time;
  Kokkos::View<double*, MemorySpace> vectors;
};

// The accessor (nmodl/mechanism.hpp) of point process M at one synapse. Ions are refused
// on the host (read_synapse_mechanism, synapse_template), so their functions do nothing.
template <class M, class Synapses>
struct SynapseAccessor {
  using Positions = nmodl::RowPositions<M, false>;
  static constexpr int kArea = Positions::num_constants + M::num_globals + M::num_uniforms;
  const Synapses& s;
  int row, cst;
  double v_, t_;
  double i = 0, di = 0;
  // NET_RECEIVE's event (net_send's self-event carries them): its synapse, weight and
  // connection's vector (-1: none).
  int k = -1;
  double event_w = 0;
  int event_vector = -1;

  KOKKOS_INLINE_FUNCTION double v() const { return v_; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return s.dt; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return s.celsius; }
  KOKKOS_INLINE_FUNCTION double area() const { return s.constants(cst + kArea); }
  KOKKOS_INLINE_FUNCTION double diam() const { return s.constants(cst + kArea + 1); }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    static_assert(!nmodl::variable_output_only<M, I>, "the generated code never reads outputs");
    constexpr int k = Positions::template kStore<I>;
    if constexpr (nmodl::variable_written<M, I>)
      return s.rows(row + k);
    else
      return s.constants(cst + k);
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double x) const {
    static_assert(nmodl::variable_written<M, I>, "the generated code sets only written variables");
    if constexpr (Positions::template kInRows<I>) s.rows(row + Positions::template kStore<I>) = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return s.constants(cst + Positions::num_constants + I);
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double uniform() const {
    return s.constants(cst + Positions::num_constants + M::num_globals + K);
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion() const {
    return 0.0;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(double) const {}
  KOKKOS_INLINE_FUNCTION void add_current(double current, double didv) {
    i += current;
    di += didv;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(double, double) const {}
  KOKKOS_INLINE_FUNCTION void net_send(double delay, double flag) const {
    s.send_self_event(k, t_ + delay, flag, event_w, event_vector);
  }
};

// Whether some point process of the mechanisms (a std::tuple) sends self-events.
template <class Mechanisms>
struct PointReceiveSends;
template <class... M>
struct PointReceiveSends<std::tuple<M...>> {
  static constexpr bool value =
      ((M::kind == nmodl::MechanismKind::PointProcess && M::net_receive_sends) || ... || false);
};

// Whether some point process of the mechanisms (a std::tuple) reads v in its state().
template <class Mechanisms>
struct PointStateReadsV;
template <class... M>
struct PointStateReadsV<std::tuple<M...>> {
  static constexpr bool value = ((M::kind == nmodl::MechanismKind::PointProcess && M::has_state &&
                                  nmodl::StateReadsV<M>::value) ||
                                 ... || false);
};

// The synapses' point processes on the device (empty views: every synapse is the built-in
// ExpSyn, and no function here is called).
template <class MemorySpace, class Catalogue>
struct GeneratedSynapses {
  using Mechanisms = typename Catalogue::mechanisms;
  // Whether a synapse's state needs the new v of its node (ExpSyn's and Exp2Syn's do not).
  static constexpr bool kStateReadsV = PointStateReadsV<Mechanisms>::value;
  Kokkos::View<int*, MemorySpace> mech, node, row, cst;
  Kokkos::View<double*, MemorySpace> rows, row_init, constants;
  double celsius = 6.3, dt = 0.025;
  // Where every synapse runs one point process (the usual network): that mechanism, and
  // synapse k's rows start at k * single_rows, so that a step reads neither mech(k) nor
  // row(k) before the rows themselves (-1: look them up).
  int single_mech = -1, single_rows = 0;
  // There too, a template's synapses' constants follow each other, single_cst apart.
  int single_cst = 0;
  // Self-events (net_send), where a synapse's point process sends them: synapse k's pending
  // ones in slots k * self_capacity .., self_count(k) of them in the order sent, each its
  // time, flag, and event's weight and connection's vector (-1: none). self_overflow: the
  // smallest synapse that had more pending than self_capacity, or delivered more than
  // kMaxSelfEventsPerStep in one step (a net_send(0) loop); INT_MAX: none.
  static constexpr bool kSelfEvents = PointReceiveSends<Mechanisms>::value;
  static constexpr int kMaxSelfEventsPerStep = 1000;
  Kokkos::View<double*, MemorySpace> self_time, self_flag, self_weight;
  Kokkos::View<int*, MemorySpace> self_vector, self_count;
  Kokkos::View<int, MemorySpace> self_overflow;
  int self_capacity = 0;

  // Whether synapse k runs a point process (false: the built-in ExpSyn).
  KOKKOS_INLINE_FUNCTION bool is_generated(int k) const {
    return single_mech >= 0 || (mech.extent(0) > 0 && mech(k) >= 0);
  }
  KOKKOS_INLINE_FUNCTION int row_of(int k) const {
    return single_mech >= 0 ? k * single_rows : row(k);
  }
  // Synapse k's constants, for a caller that has read cst(first) of its cell's first
  // synapse `first` (once per cell): no lookup per synapse where one point process runs.
  KOKKOS_INLINE_FUNCTION int cst_from(int k, int first, int cst_first) const {
    return single_mech >= 0 ? cst_first + (k - first) * single_cst : cst(k);
  }

  enum Phase { Initial, Current, State, Receive, ReceiveInitial };
  // One phase of synapse k's point process: v at its node, t, the event's weight w (or its
  // connection's weight vector, where vector is not null); the current's g and -i added to
  // g_sum and rhs.
  struct Call {
    const GeneratedSynapses& self;
    int k, cst;
    double v, t, w;
    Phase phase;
    double& g_sum;
    double& rhs;
    double* vector = nullptr;
    int vector_index = -1;  // vector's index in the weight vectors (net_send keeps it)
    double flag = 0;        // NET_RECEIVE's flag: 0 for a connection's event
    template <class M>
    KOKKOS_INLINE_FUNCTION void apply(int) const {
      if constexpr (M::kind == nmodl::MechanismKind::PointProcess) {
        using A = SynapseAccessor<M, GeneratedSynapses>;
        A a{self, self.row_of(k), cst, v, t};
        if (phase == Initial) {
          for (int r = 0; r < A::Positions::num_rows; ++r)
            self.rows(a.row + r) = self.row_init(a.row + r);
          M::initial(a);
        } else if (phase == Current) {
          self.template current_as<M>(k, cst, v, t, g_sum, rhs);
        } else if (phase == State) {
          self.template state_as<M>(k, cst, v, t);
        } else if constexpr (M::has_net_receive) {
          // NEURON's NetCon weight vector: the connection's own where it keeps one, else the
          // event's weight, then zeros.
          constexpr int n = M::num_weights > 0 ? M::num_weights : 1;
          double weights[n] = {};
          weights[0] = w;
          if constexpr (M::net_receive_keeps_weights)
            if (vector)
              for (int j = 0; j < n; ++j) weights[j] = vector[j];
          if (phase == Receive) {
            if constexpr (M::net_receive_sends) {
              a.k = k;
              a.event_w = w;
              a.event_vector = vector ? vector_index : -1;
              M::net_receive(a, weights, flag);
            } else {
              M::net_receive(a, weights);
            }
          } else
            M::net_receive_initial(a, weights);
          if constexpr (M::net_receive_keeps_weights)
            if (vector)
              for (int j = 0; j < n; ++j) vector[j] = weights[j];
        }
      }
    }
  };
  KOKKOS_INLINE_FUNCTION void run(int k, int cst_k, double v, double t, double w, Phase phase,
                                  double& g_sum, double& rhs) const {
    dispatch(k, Call{*this, k, cst_k, v, t, w, phase, g_sum, rhs});
  }
  KOKKOS_INLINE_FUNCTION void dispatch(int k, const Call& call) const {
    nmodl::Dispatch<Mechanisms>::call(single_mech >= 0 ? single_mech : mech(k), call);
  }

  // Where every synapse runs one point process (single_mech >= 0): f(Of<M>{}) with that
  // mechanism M, dispatched once for a whole pass over synapses rather than per synapse.
  template <class M>
  struct Of {
    using type = M;
  };
  template <class F>
  struct SingleCall {
    const F& f;
    template <class M>
    KOKKOS_INLINE_FUNCTION void apply(int) const {
      if constexpr (M::kind == nmodl::MechanismKind::PointProcess) f(Of<M>{});
    }
  };
  template <class F>
  KOKKOS_INLINE_FUNCTION void with_single(const F& f) const {
    nmodl::Dispatch<Mechanisms>::call(single_mech, SingleCall<F>{f});
  }
  // Synapse k's current (point process M, its constants at cst_k) at v: g added to g_sum,
  // -i to rhs.
  template <class M>
  KOKKOS_INLINE_FUNCTION void current_as(int k, int cst_k, double v, double t, double& g_sum,
                                         double& rhs) const {
    if constexpr (M::has_current) {
      SynapseAccessor<M, GeneratedSynapses> a{*this, row_of(k), cst_k, v, t};
      M::current(a);
      g_sum += a.di;
      rhs -= a.i;
    }
  }
  // Synapse k's states (point process M, its constants at cst_k) over a step at v.
  template <class M>
  KOKKOS_INLINE_FUNCTION void state_as(int k, int cst_k, double v, double t) const {
    if constexpr (M::has_state) {
      SynapseAccessor<M, GeneratedSynapses> a{*this, row_of(k), cst_k, v, t};
      M::state(a);
    }
  }

  // INITIAL of synapse k at v (its node's v_init).
  KOKKOS_INLINE_FUNCTION void initialize(int k, double v) const {
    double unused = 0;
    if constexpr (kSelfEvents)
      if (self_capacity > 0) self_count(k) = 0;
    run(k, cst(k), v, 0.0, 0.0, Initial, unused, unused);
  }
  // Synapse k's current at v: g (uS) added to g_sum, -i (nA) to rhs.
  KOKKOS_INLINE_FUNCTION void current(int k, double v, double t, double& g_sum, double& rhs) const {
    run(k, cst(k), v, t, 0.0, Current, g_sum, rhs);
  }
  // The same with its constants at cst_k (cst_from).
  KOKKOS_INLINE_FUNCTION void current_at(int k, int cst_k, double v, double t, double& g_sum,
                                         double& rhs) const {
    run(k, cst_k, v, t, 0.0, Current, g_sum, rhs);
  }
  // Synapse k's states over a step, at the new v.
  KOKKOS_INLINE_FUNCTION void state(int k, double v, double t) const {
    double unused = 0;
    run(k, cst(k), v, t, 0.0, State, unused, unused);
  }
  // Events [begin, end) of (synapse, weight), sorted by synapse, as work item i of them
  // (ApplySynapticEvents' rule: the first event of each run of equal synapses applies the
  // whole run in order): NET_RECEIVE per event at time t (each event's own where details
  // has times) with its connection's vector where it has one, or the built-in ExpSyn's
  // g += w.
  template <class Synapse, class Weight, class Conductance, class Details>
  KOKKOS_INLINE_FUNCTION void receive_run(const Synapse& synapse, const Weight& weight,
                                          const Conductance& g, const int i, const int begin,
                                          const int end, const double t,
                                          const Details& details) const {
    const int syn = synapse(i);
    if (!is_generated(syn)) {
      mechanisms::expsyn_receive(synapse, weight, g, i, begin, end);
      return;
    }
    if (i > begin && syn == synapse(i - 1)) return;
    double unused = 0;
    const bool detailed = details.time.extent(0) > 0;
    for (int e = i; e < end && synapse(e) == syn; ++e) {
      const double te = detailed ? details.time(e) : t;
      if constexpr (kSelfEvents)  // self-events before this event come first
        if (self_capacity > 0) deliver_self_events(syn, te, -1, details.vectors);
      Call call{*this, syn, cst(syn), 0.0, te, weight(e), Receive, unused, unused};
      if (detailed && details.vector(e) >= 0) {
        call.vector_index = details.vector(e);
        call.vector = &details.vectors(call.vector_index);
      }
      dispatch(syn, call);
    }
  }
  // Synapse k's self-events due by `step` that receive_run left, before its current (a
  // no-op where it has none, or its point process sends none).
  template <class Vectors>
  KOKKOS_INLINE_FUNCTION void deliver_due_self_events(int k, std::int64_t step,
                                                      const Vectors& vectors) const {
    if constexpr (kSelfEvents)
      if (self_capacity > 0 && is_generated(k) && self_count(k) > 0)
        deliver_self_events(k, 0.0, step, vectors);
  }
  // A self-event of synapse k (net_send from its NET_RECEIVE): due at `time`, with `flag`
  // and its event's weight and connection's vector.
  KOKKOS_INLINE_FUNCTION void send_self_event(int k, double time, double flag, double w,
                                              int vector) const {
    const int n = self_count(k);
    if (n >= self_capacity) {
      Kokkos::atomic_fetch_min(&self_overflow(), k);
      return;
    }
    const int q = k * self_capacity + n;
    self_time(q) = time;
    self_flag(q) = flag;
    self_weight(q) = w;
    self_vector(q) = vector;
    self_count(k) = n + 1;
  }
  // NET_RECEIVE for synapse k's pending self-events, earliest first (ties in the order
  // sent): those before `before` where step < 0 (receive_run, ahead of an event of that
  // time), else those due by `step`, including any they send that are due too. vectors:
  // the connections' weight vectors (EventDetails::vectors).
  template <class Vectors>
  KOKKOS_INLINE_FUNCTION void deliver_self_events(int k, double before, std::int64_t step,
                                                  const Vectors& vectors) const {
    const int base = k * self_capacity;
    for (int delivered = 0;; ++delivered) {
      const int n = self_count(k);
      int best = -1;
      for (int q = 0; q < n; ++q) {
        const double tq = self_time(base + q);
        const bool due = step < 0 ? tq < before : delivery_step_of(tq, dt) <= step;
        if (due && (best < 0 || tq < self_time(base + best))) best = q;
      }
      if (best < 0) return;
      if (delivered == kMaxSelfEventsPerStep) {
        Kokkos::atomic_fetch_min(&self_overflow(), k);
        self_count(k) = 0;
        return;
      }
      const double te = self_time(base + best), flag = self_flag(base + best),
                   w = self_weight(base + best);
      const int vector = self_vector(base + best);
      for (int q = best + 1; q < n; ++q) {
        self_time(base + q - 1) = self_time(base + q);
        self_flag(base + q - 1) = self_flag(base + q);
        self_weight(base + q - 1) = self_weight(base + q);
        self_vector(base + q - 1) = self_vector(base + q);
      }
      self_count(k) = n - 1;
      double unused = 0;
      Call call{*this, k, cst(k), 0.0, te, w, Receive, unused, unused};
      call.flag = flag;
      if (vector >= 0) {
        call.vector_index = vector;
        call.vector = &vectors(vector);
      }
      dispatch(k, call);
    }
  }
  // NET_RECEIVE's INITIAL of one connection into synapse k at t = 0, on its weight vector
  // (its weight, then zeros, before).
  KOKKOS_INLINE_FUNCTION void initialize_vector(int k, double* vector) const {
    double unused = 0;
    Call call{*this, k, cst(k), 0.0, 0.0, vector[0], ReceiveInitial, unused, unused};
    call.vector = vector;
    dispatch(k, call);
  }
};

// NET_RECEIVE's INITIAL of every connection that keeps a weight vector: work item j runs
// those into synapse(j), vectors first(begin(j)) .. first(begin(j + 1) - 1) of `vectors`,
// in order (each holds its weight, then zeros, before).
template <class MemorySpace, class Synapses>
struct InitializeWeightVectors {
  Synapses syn;
  Kokkos::View<const int*, MemorySpace> synapse, begin, first;
  Kokkos::View<double*, MemorySpace> vectors;
  KOKKOS_INLINE_FUNCTION void operator()(const int j) const {
    for (int e = begin(j); e < begin(j + 1); ++e)
      syn.initialize_vector(synapse(j), &vectors(first(e)));
  }
};

// Host copies of what records of synapse variables need (SynapseRecordPlaces), from the
// synapses' views and the slots' syn_begin (empty where no record is of a synapse).
template <class Synapses, class SynBegin>
SynapseRecordPlaces synapse_record_places(const Synapses& syn, const SynBegin& syn_begin,
                                          const std::vector<RecordedVariable>& variables) {
  SynapseRecordPlaces p;
  if (!records_a_synapse(variables)) return p;
  const auto copy = [](const auto& view) {
    const auto on_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), view);
    return std::vector<int>(on_host.data(), on_host.data() + on_host.extent(0));
  };
  p.syn_begin = copy(syn_begin);
  p.row = copy(syn.row);
  p.cst = copy(syn.cst);
  return p;
}

// Point process m of catalogue cat with a synapse's parameters: every variable's value
// (defaults, then the parameters) and the globals. InputError (naming `where`) for what
// read_synapse_mechanism refuses, for programs that build templates themselves.
struct SynapseValues {
  std::vector<double> values, globals;
};
inline SynapseValues synapse_values(const MechanismCatalogue& cat, const SynapseMechanism& spec,
                                    const std::string& where) {
  const int k = cat.index_of(spec.name);
  if (k < 0)
    throw InputError("synapse point process '" + spec.name + "' is not in the catalogue '" +
                         cat.name + "' (" + cat.mechanism_names() + ")",
                     where, 0, spec.name);
  const CatalogueMechanism& m = cat.mechanisms[k];
  if (!m.point_process || m.artificial_cell || !m.ion_variables.empty())
    throw InputError("mechanism '" + spec.name +
                         "' cannot be a synapse or be placed on a cell: that takes a point "
                         "process without ions",
                     where, 0, spec.name);
  SynapseValues r;
  for (const CatalogueVariable& v : m.variables) r.values.push_back(v.default_value);
  for (const CatalogueGlobal& g : m.globals) r.globals.push_back(g.default_value);
  for (const MechanismParameter& p : spec.parameters) {
    const int v = m.variable_index(p.name);
    const int g = m.global_index(p.name);
    if (v < 0 && g >= 0) {
      r.globals[g] = p.value.value;
    } else if (v >= 0 && m.variables[v].kind == CatalogueVariable::Parameter &&
               p.value.kind == ParameterValue::Constant) {
      r.values[v] = p.value.value;
    } else {
      throw InputError("'" + p.name + "' is not a parameter of " + m.name + " (" +
                           m.settable_names() + ") given as a number",
                       where, 0, p.name);
    }
  }
  return r;
}

// How many constants one synapse of point process m has (make_generated_synapses' order:
// the variables it never writes and does not keep in rows, its globals, its uniforms, the
// node's area and diameter).
inline int synapse_constants(const CatalogueMechanism& m) {
  return count_in_store(m, false) + static_cast<int>(m.globals.size()) + m.num_uniforms + 2;
}

// Whether some synapse of some template runs a point process.
inline bool any_generated_synapse(const std::vector<CellTemplate>& templates) {
  for (const CellTemplate& t : templates)
    for (const ExpSynSpec& s : t.synapses)
      if (!s.mechanism.builtin()) return true;
  return false;
}

// The views for the rank's synapses (slot s has synapses syn_begin_of_slot[s] ..
// [s + 1] - 1, its template's in order). Host code; empty views where every synapse is
// the built-in ExpSyn.
template <class Catalogue, class ExecutionSpace>
GeneratedSynapses<typename ExecutionSpace::memory_space, Catalogue> make_generated_synapses(
    const ExecutionSpace& exec, const std::vector<CellTemplate>& templates,
    const std::vector<int>& template_of_slot, const std::vector<int>& syn_begin_of_slot,
    const MechanismCatalogue& cat, const SimulationParameters& p) {
  GeneratedSynapses<typename ExecutionSpace::memory_space, Catalogue> out;
  out.celsius = p.celsius;
  out.dt = p.dt;
  if (!any_generated_synapse(templates)) return out;
  // Per template: each synapse's mechanism, node, rows (offset, initial values) and
  // constants (offset into the flattened constants).
  struct Of {
    std::vector<int> mech, node, row, cst;
    std::vector<double> row_init;
  };
  std::vector<Of> of(templates.size());
  std::vector<double> constants;
  for (std::size_t ti = 0; ti < templates.size(); ++ti) {
    const CellTemplate& t = templates[ti];
    Of& o = of[ti];
    std::vector<double> diam;
    for (std::size_t q = 0; q < t.synapses.size(); ++q) {
      const ExpSynSpec& s = t.synapses[q];
      const int node = t.compartments.node_at(s.where);
      o.node.push_back(node);
      if (s.mechanism.builtin()) {
        o.mech.push_back(-1);
        o.row.push_back(0);
        o.cst.push_back(0);
        continue;
      }
      if (diam.empty()) diam = node_geometry(t).diam_um;
      const SynapseValues sv = synapse_values(cat, s.mechanism, t.morphology.source);
      const int k = cat.index_of(s.mechanism.name);
      const CatalogueMechanism& m = cat.mechanisms[k];
      if (!m.has_net_receive && static_cast<int>(q) < t.connectable_synapses())
        throw InputError("synapse " + std::to_string(q) + " runs point process '" + m.name +
                             "', which has no NET_RECEIVE: a connection's events to it would "
                             "be lost (place it on the cell as a point process instead)",
                         t.morphology.source, 0, m.name);
      o.mech.push_back(k);
      o.row.push_back(static_cast<int>(o.row_init.size()));
      o.cst.push_back(static_cast<int>(constants.size()));
      for (std::size_t v = 0; v < m.variables.size(); ++v) {
        if (in_rows(m.variables[v]))
          o.row_init.push_back(sv.values[v]);
        else if (!m.variables[v].written)
          constants.push_back(sv.values[v]);
      }
      constants.insert(constants.end(), sv.globals.begin(), sv.globals.end());
      if (m.num_uniforms > 0) {
        std::vector<double> u(m.num_uniforms);
        m.uniforms(p.celsius, sv.globals.data(), u.data());
        constants.insert(constants.end(), u.begin(), u.end());
      }
      constants.push_back(t.compartments.area_um2[node]);
      constants.push_back(diam[node]);
    }
  }
  std::vector<int> mech, node, row, cst;
  std::vector<double> row_init;
  for (std::size_t s = 0; s + 1 < syn_begin_of_slot.size(); ++s) {
    const Of& o = of[template_of_slot[s]];
    const int base = static_cast<int>(row_init.size());
    for (std::size_t q = 0; q < o.mech.size(); ++q) {
      mech.push_back(o.mech[q]);
      node.push_back(o.node[q]);
      row.push_back(base + o.row[q]);
      cst.push_back(o.cst[q]);
    }
    row_init.insert(row_init.end(), o.row_init.begin(), o.row_init.end());
  }
  const int first_rows = row.size() > 1 ? row[1] - row[0] : 0;
  // The constants' stride: those of one synapse (every synapse has as many).
  const int first_cst =
      mech.empty() || mech[0] < 0 ? 0 : synapse_constants(cat.mechanisms[mech[0]]);
  bool single = !mech.empty() && mech[0] >= 0;
  for (std::size_t s = 0; single && s + 1 < syn_begin_of_slot.size(); ++s)
    for (int k = syn_begin_of_slot[s]; single && k < syn_begin_of_slot[s + 1]; ++k)
      single = mech[k] == mech[0] && row[k] == k * first_rows &&
               cst[k] == cst[syn_begin_of_slot[s]] + (k - syn_begin_of_slot[s]) * first_cst;
  if (single && mech.size() > 1) {
    out.single_mech = mech[0];
    out.single_rows = first_rows;
    out.single_cst = first_cst;
  }
  if (row_init.empty()) row_init.push_back(0.0);
  if (constants.empty()) constants.push_back(0.0);
  out.mech = to_device(exec, mech, "hb::psyn_mech");
  out.node = to_device(exec, node, "hb::psyn_node");
  out.row = to_device(exec, row, "hb::psyn_row");
  out.cst = to_device(exec, cst, "hb::psyn_cst");
  out.row_init = to_device(exec, row_init, "hb::psyn_row_init");
  out.constants = to_device(exec, constants, "hb::psyn_constants");
  out.rows = Kokkos::View<double*, typename ExecutionSpace::memory_space>(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::psyn_rows")),
      row_init.size());
  bool sends = false;
  for (const int k : mech) sends = sends || (k >= 0 && cat.mechanisms[k].receive_sends);
  if (sends) {
    using Space = typename ExecutionSpace::memory_space;
    const std::size_t n = mech.size(),
                      slots = n * static_cast<std::size_t>(p.self_events_per_synapse);
    out.self_capacity = p.self_events_per_synapse;
    out.self_time = Kokkos::View<double*, Space>("hb::psyn_self_time", slots);
    out.self_flag = Kokkos::View<double*, Space>("hb::psyn_self_flag", slots);
    out.self_weight = Kokkos::View<double*, Space>("hb::psyn_self_weight", slots);
    out.self_vector = Kokkos::View<int*, Space>("hb::psyn_self_vector", slots);
    out.self_count = Kokkos::View<int*, Space>("hb::psyn_self_count", n);
    out.self_overflow = Kokkos::View<int, Space>("hb::psyn_self_overflow");
    Kokkos::deep_copy(exec, out.self_overflow, INT_MAX);
  }
  return out;
}

}  // namespace hinesbatch::impl
