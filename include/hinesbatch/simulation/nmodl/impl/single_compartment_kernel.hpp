#pragma once
// The kernel of SingleCompartment::run (single_compartment.hpp): one thread per copy of the
// compartment steps it through every step of the run, as NEURON's fixed-step method does
// (the order of its phases is described there), and records after each step.
#include <Kokkos_Core.hpp>
#include <hinesbatch/simulation/nmodl/mechanism.hpp>
#include <limits>

namespace hinesbatch::nmodl {

// The self-events (net_send) one compartment has pending: time, flag, instance and NetCon
// of each, in the order sent. More than kCapacity at once: every record after is NaN.
struct PendingSelfEvents {
  static constexpr int kCapacity = 64;
  double time[kCapacity], flag[kCapacity];
  int instance[kCapacity], netcon[kCapacity];
  int count = 0;
  bool overflow = false;
  KOKKOS_INLINE_FUNCTION void push(double t, double f, int i, int nc) {
    if (count == kCapacity) {
      overflow = true;
      return;
    }
    time[count] = t, flag[count] = f, instance[count] = i, netcon[count] = nc;
    ++count;
  }
  // The earliest with time <= until (the first sent among equal times), or -1.
  KOKKOS_INLINE_FUNCTION int earliest(double until) const {
    int best = -1;
    for (int q = 0; q < count; ++q)
      if (time[q] <= until && (best < 0 || time[q] < time[best])) best = q;
    return best;
  }
  KOKKOS_INLINE_FUNCTION void remove(int q) {
    for (int j = q + 1; j < count; ++j)
      time[j - 1] = time[j], flag[j - 1] = flag[j], instance[j - 1] = instance[j],
               netcon[j - 1] = netcon[j];
    --count;
  }
};

// The state of one compartment that the accessor reads and writes.
struct CompartmentState {
  double v, t, dt, celsius, area, diam;
  double rhs, d;  // -(membrane current), di/dv: mA/cm2, S/cm2
  double* ions;   // [ion * IonSlots + slot]
  PendingSelfEvents* pending = nullptr;
  int instance = -1, netcon = -1;  // the event NET_RECEIVE runs for (net_send's)
};

// Accessor of one instance of mechanism M (the interface in mechanism.hpp).
template <class M>
struct InstanceAccessor {
  CompartmentState& c;
  double* vars;
  const double* globals_;
  const int* ion_index;  // ion variable K -> c.ions index of its value
  const int* ion_base;   // ion variable K -> c.ions index of its ion's slot 0

  KOKKOS_INLINE_FUNCTION double v() const { return c.v; }
  KOKKOS_INLINE_FUNCTION double t() const { return c.t; }
  KOKKOS_INLINE_FUNCTION double dt() const { return c.dt; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return c.celsius; }
  KOKKOS_INLINE_FUNCTION double area() const { return c.area; }
  KOKKOS_INLINE_FUNCTION double diam() const { return c.diam; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    return vars[I];
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double x) const {
    vars[I] = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return globals_[I];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion() const {
    return c.ions[ion_index[K]];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(double x) const {
    c.ions[ion_index[K]] = x;
  }
  // Point processes give nA and uS: per unit area of the compartment (um2) as NEURON does.
  KOKKOS_INLINE_FUNCTION double scale() const {
    return M::kind == MechanismKind::PointProcess ? 100.0 / c.area : 1.0;
  }
  KOKKOS_INLINE_FUNCTION void add_current(double i, double g) const {
    c.rhs -= i * scale();
    c.d += g * scale();
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(double i, double didv) const {
    c.ions[ion_base[K] + IonI] += i * scale();
    c.ions[ion_base[K] + IonDidv] += didv * scale();
  }
  KOKKOS_INLINE_FUNCTION void net_send(double delay, double flag) const {
    c.pending->push(c.t + delay, flag, c.instance, c.netcon);
  }
};

// One phase of one instance: 0 initial, 1 current, 2 state, 3 net_receive, 4 the
// NET_RECEIVE INITIAL of a NetCon.
struct PhaseCall {
  CompartmentState& c;
  double* vars;
  const double* globals;
  const int* ion_index;
  const int* ion_base;
  int phase;
  double* w;
  double flag = 0;
  template <class M>
  KOKKOS_INLINE_FUNCTION void apply(int) const {
    // An artificial cell has no compartment: networks run it (ArtificialCells).
    if constexpr (M::kind != MechanismKind::ArtificialCell) {
      InstanceAccessor<M> a{c, vars, globals, ion_index, ion_base};
      if (phase == 0) M::initial(a);
      if (phase == 1) M::current(a);
      if (phase == 2) M::state(a);
      if constexpr (M::has_net_receive) {
        if (phase == 3) {
          if constexpr (M::net_receive_sends)
            M::net_receive(a, w, flag);
          else
            M::net_receive(a, w);
        }
        if (phase == 4) M::net_receive_initial(a, w);
      }
    }
  }
};

// The most NET_RECEIVE arguments (a NetCon's weight vector) a mechanism may take.
constexpr int kMaxWeights = 8;

namespace impl {

// What a record reads (Record::Kind).
enum RecordKindValue { kRecordVoltage = 0, kRecordVariable = 1, kRecordIonValue = 2 };

// Views of SingleCompartment::run's flattened tables (ion_setup: 8 values per ion; ev: time,
// instance, weight per event; vc: time, value per clamp step; rec: kind, instance, index per
// record) and out, [cell][step][record].
template <class Mechanisms, class Memory>
struct StepSingleCompartments {
  using doubles = Kokkos::View<double*, Memory>;
  using ints = Kokkos::View<int*, Memory>;
  using rows = Kokkos::View<double**, Kokkos::LayoutRight, Memory>;
  rows vars;
  doubles glob;
  ints iidx, ibase;
  doubles ion_setup;
  ints mech, ord, off, goff, ioff;
  rows nc_w;
  ints nc_inst, ev_nc;
  doubles ev, vc;
  ints rec;
  Kokkos::View<double***, Kokkos::LayoutRight, Memory> out;
  double dt_, cel, vinit, cm_, area_, diam_;
  int ni, nion, nev, nvc, nr, nnc, steps;

  KOKKOS_INLINE_FUNCTION void operator()(const int cell) const {
    double ionbuf[8 * IonSlots];
    PendingSelfEvents pending;
    CompartmentState c{vinit, 0.0, dt_, cel, area_, diam_, 0.0, 0.0, ionbuf, &pending};
    for (int k = 0; k < nion; ++k) {
      double* s = &ion_setup(k * 8);
      ionbuf[k * IonSlots + IonCi] = s[0];
      ionbuf[k * IonSlots + IonCo] = s[1];
      ionbuf[k * IonSlots + IonE] = s[2];
      ionbuf[k * IonSlots + IonI] = 0;
      ionbuf[k * IonSlots + IonDidv] = 0;
      if (s[5] != 0)
        ionbuf[k * IonSlots + IonE] = nernst(s[0], s[1], static_cast<int>(s[3]), c.celsius);
    }
    auto each = [&](auto&& fn) {
      for (int j = 0; j < ni; ++j) {
        const int i = ord(j);
        fn(i);
      }
    };
    auto call = [&](int i, int phase, double* w, double flag = 0) {
      PhaseCall p{
          c, &vars(cell, off(i)), &glob(goff(i)), &iidx(ioff(i)), &ibase(ioff(i)), phase, w, flag};
      Dispatch<Mechanisms>::call(mech(i), p);
    };
    auto currents = [&]() {
      for (int k = 0; k < nion; ++k) {
        ionbuf[k * IonSlots + IonI] = 0;
        ionbuf[k * IonSlots + IonDidv] = 0;
        if (ion_setup(k * 8 + 6) != 0)
          ionbuf[k * IonSlots + IonE] =
              nernst(ionbuf[k * IonSlots + IonCi], ionbuf[k * IonSlots + IonCo],
                     static_cast<int>(ion_setup(k * 8 + 3)), c.celsius);
      }
      c.rhs = 0;
      c.d = 0;
      each([&](int i) { call(i, 1, nullptr); });
    };
    auto record = [&](int step) {
      for (int r = 0; r < nr; ++r) {
        const int kind = rec(3 * r), inst = rec(3 * r + 1), idx = rec(3 * r + 2);
        out(cell, step, r) = pending.overflow          ? std::numeric_limits<double>::quiet_NaN()
                             : kind == kRecordVoltage  ? c.v
                             : kind == kRecordVariable ? vars(cell, off(inst) + idx)
                                                       : ionbuf[idx];
      }
    };
    int next_event = 0;
    // Events and self-events due by `until`, in time order (an event before a self-event
    // of the same time).
    auto deliver = [&](double until) {
      const double tsave = c.t;
      for (;;) {
        const int q = pending.earliest(until);
        const bool incoming = next_event < nev && ev(3 * next_event) <= until &&
                              (q < 0 || ev(3 * next_event) <= pending.time[q]);
        if (incoming) {
          c.t = ev(3 * next_event);
          c.instance = static_cast<int>(ev(3 * next_event + 1));
          c.netcon = ev_nc(next_event);
          call(c.instance, 3, &nc_w(cell, c.netcon * kMaxWeights));
          ++next_event;
        } else if (q >= 0) {
          c.t = pending.time[q];
          c.instance = pending.instance[q];
          c.netcon = pending.netcon[q];
          const double flag = pending.flag[q];
          pending.remove(q);
          call(c.instance, 3, &nc_w(cell, c.netcon * kMaxWeights), flag);
        } else {
          break;
        }
      }
      c.t = tsave;
    };
    // finitialize: INITIAL blocks in order, then the currents once (ion currents set).
    each([&](int i) { call(i, 0, nullptr); });
    for (int k = 0; k < nnc; ++k) call(nc_inst(k), 4, &nc_w(cell, k * kMaxWeights));
    currents();
    record(0);
    for (int step = 1; step <= steps; ++step) {
      deliver(c.t + 0.5 * c.dt);
      for (int k = 0; k < nvc; ++k)
        if (c.t >= vc(2 * k) - 1e-9) c.v = vc(2 * k + 1);
      c.t += 0.5 * c.dt;
      currents();
      // cm dv/dt = -i: NEURON's d = 1e-3 cm / dt + g, dv = rhs / d (mA/cm2, S/cm2).
      c.v += c.rhs / (1e-3 * cm_ / c.dt + c.d);
      c.t += 0.5 * c.dt;
      each([&](int i) { call(i, 2, nullptr); });
      // NEURON records before it delivers the events due by the next half step.
      record(step);
      deliver(c.t + 0.5 * c.dt);
    }
  }
};

}  // namespace impl
}  // namespace hinesbatch::nmodl
