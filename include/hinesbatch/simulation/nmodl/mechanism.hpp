#pragma once
// What every mechanism generated from NMODL by tools/nmodl (hinesbatch-nmodl) provides,
// and the support its device functions call. A generated mechanism is a struct with
// compile-time metadata and static device functions over an accessor to one instance:
//
//   template <class Accessor> static void initial(Accessor&);     NEURON's nrn_init, then
//       invariants(Accessor&): the per-instance invariants, expressions of values that no
//       step changes (ExpSyn's exp(-dt/tau)), into variables of their own (hb_invariant<k>)
//   template <class Accessor> static void current(Accessor&);     nrn_cur (secondorder 0)
//   template <class Accessor> static void state(Accessor&);       nrn_state (SOLVE blocks)
//   template <class Accessor> static void net_receive(Accessor&, double* w);  point processes
//       and artificial cells (their accessor adds net_send(delay, flag), net_event(t) and
//       net_move(t))
//   template <int W, class Accessor> static void current_lanes(Accessor&);  where has_lanes:
//   template <int W, class Accessor> static void state_lanes(Accessor&);    W instances at once
//
// The accessor decides where an instance's values live (rows per (cell, node), constants
// kept once per template, ...). It provides, all KOKKOS_INLINE_FUNCTION:
//
//   double v() const, t() const, dt() const, celsius() const, diam() const, area() const;
//   template <int I> double get() const;       template <int I> void set(double);
//       variable I of `variables` (parameters, states, assigned, in that order); set<I> is
//       only called for variables whose `written` flag is true, get<I> never for those
//       whose `output_only` flag is
//   template <int I> double global() const;    global I of `globals` (read-only)
//   template <int K> double ion() const;       template <int K> void set_ion(double);
//       ion variable K of `ion_variables`; set_ion only for written concentrations and
//       reversal potentials
//   void add_current(double i, double g);      membrane current (outward positive) and
//       di/dv: mA/cm2 and S/cm2 for density mechanisms, nA and uS for point processes
//   template <int K> void add_ion_current(double i, double didv);   ion K's share of it
//   template <int K> double uniform() const;   optional: M::uniforms' value K (see uniform())
//
// The lanes variants' accessor takes the lane first where values differ between instances
// (v(l), get<I>(l), set<I>(l, x), ion<K>(l), set_ion<K>(l, x), add_current(l, i, g),
// add_ion_current<K>(l, i, g)) and adds exp_lanes<W>(double* x): x[l] = exp(x[l]).
#include <Kokkos_Core.hpp>
#include <array>
#include <cmath>
#include <tuple>
#include <type_traits>
#include <utility>

namespace hinesbatch::nmodl {

// The math functions NMODL names. A generated function's `using namespace
// ::hinesbatch::nmodl::math;` makes its unqualified calls (exp(x) on a double) resolve to
// these std:: overloads, on CUDA the device ones, as a using-declaration of each would.
namespace math {
using std::acos;
using std::asin;
using std::atan;
using std::atan2;
using std::ceil;
using std::cos;
using std::cosh;
using std::exp;
using std::fabs;
using std::floor;
using std::fmax;
using std::fmin;
using std::fmod;
using std::log;
using std::log10;
using std::pow;
using std::sin;
using std::sinh;
using std::sqrt;
using std::tan;
using std::tanh;
}  // namespace math

enum class MechanismKind { Density, PointProcess, ArtificialCell };
enum class VariableKind { Parameter, State, Assigned };
enum class IonRole { Reversal, Inside, Outside, Current };

struct VariableInfo {
  const char* name;
  VariableKind kind;
  double default_value;
  bool range;    // declared RANGE (or a STATE): set and recorded by users
  bool written;  // assigned by the mechanism (false: constant over a run)
  // An ASSIGNED variable that no function reads before assigning it (hh's gna, pas's i):
  // the mechanism never needs its value again, so a schedule may skip storing it.
  bool output_only = false;
};

struct GlobalInfo {
  const char* name;
  double default_value;
};

struct IonVariableInfo {
  const char* ion;
  const char* name;
  int valence;
  IonRole role;
  bool read;
  bool write;
};

// The values of one ion in a compartment, in this order wherever they are stored together.
enum IonSlot { IonE = 0, IonCi = 1, IonCo = 2, IonI = 3, IonDidv = 4, IonSlots = 5 };

// Where ion variable role r of a mechanism lives among its ion's IonSlots.
constexpr int ion_slot_of(IonRole r) {
  return r == IonRole::Reversal  ? IonE
         : r == IonRole::Inside  ? IonCi
         : r == IonRole::Outside ? IonCo
                                 : IonI;
}

// Uniform K of mechanism M: an expression of celsius and M's GLOBALs alone (M::uniforms
// computes them all). An accessor that keeps them per run provides uniform<K>(); for any
// other it is computed where it is used, as the .mod file says.
template <class A, int K, class = void>
struct HasUniform : std::false_type {};
template <class A, int K>
struct HasUniform<A, K, std::void_t<decltype(std::declval<const A&>().template uniform<K>())>>
    : std::true_type {};
template <class M, int K, class Accessor>
KOKKOS_INLINE_FUNCTION double uniform(const Accessor& a) {
  if constexpr (HasUniform<Accessor, K>::value) {
    return a.template uniform<K>();
  } else {
    double u[M::num_uniforms];
    M::uniforms(a, u);
    return u[K];
  }
}
// Variable I's flags as constants: device code reads them where it may not call std::array's
// host-only operator[] (nvcc without --expt-relaxed-constexpr warns at every call).
template <class M, int I>
inline constexpr bool variable_written = M::variables[I].written;
template <class M, int I>
inline constexpr bool variable_output_only = M::variables[I].output_only;

// Whether M has lanes variants of current and state (current_lanes<W>, state_lanes<W>: the
// W cells of a host tile at once), as the compiler emits for most density mechanisms.
template <class M, class = void>
struct HasLanes : std::false_type {};
template <class M>
struct HasLanes<M, std::void_t<decltype(M::has_lanes)>> : std::bool_constant<M::has_lanes> {};

// Whether M's state() reads v (true where M does not say so: a mechanism not made by
// tools/nmodl).
template <class M, class = void>
struct StateReadsV : std::true_type {};
template <class M>
struct StateReadsV<M, std::void_t<decltype(M::state_reads_v)>>
    : std::bool_constant<M::state_reads_v> {};

// What M::uniforms reads, on the host: celsius and the GLOBALs' values.
struct UniformInputs {
  double celsius_;
  const double* globals_;
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return globals_[I];
  }
};

// Compile-time string equality (mechanism and ion names are string literals).
constexpr bool same_name(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// The ions of a catalogue (a std::tuple of mechanisms): every ion some mechanism declares,
// once, in the order of first declaration (mechanisms in catalogue order). Schedules store
// an instance's ion values by this index, so that ion<K>() is one load.
struct IonName {
  const char* name = "";
  int valence = 0;
};
template <int N>
struct IonList {
  std::array<IonName, N> ions{};
  int count = 0;
};
namespace detail {
template <class M, int N>
constexpr void add_ions(IonList<N>& l) {
  for (int k = 0; k < M::num_ion_variables; ++k) {
    bool known = false;
    for (int j = 0; j < l.count; ++j)
      known = known || same_name(l.ions[j].name, M::ion_variables[k].ion);
    if (!known) l.ions[l.count++] = IonName{M::ion_variables[k].ion, M::ion_variables[k].valence};
  }
}
template <int N, class... Ms>
constexpr IonList<N> ion_list() {
  IonList<N> l{};
  (add_ions<Ms>(l), ...);
  return l;
}
}  // namespace detail
template <class Tuple>
struct CatalogueIons;
template <class... Ms>
struct CatalogueIons<std::tuple<Ms...>> {
  static constexpr int capacity = (0 + ... + Ms::num_ion_variables) + 1;
  static constexpr IonList<capacity> list = detail::ion_list<capacity, Ms...>();
  static constexpr int count = list.count;
  template <class M>
  static constexpr bool writes_values(int j) {
    for (int k = 0; k < M::num_ion_variables; ++k)
      if (M::ion_variables[k].write && M::ion_variables[k].role != IonRole::Current &&
          same_name(M::ion_variables[k].ion, list.ions[j].name))
        return true;
    return false;
  }
  template <class M>
  static constexpr bool reads_current(int j) {
    for (int k = 0; k < M::num_ion_variables; ++k)
      if (M::ion_variables[k].read && M::ion_variables[k].role == IonRole::Current &&
          same_name(M::ion_variables[k].ion, list.ions[j].name))
        return true;
    return false;
  }
  static constexpr int index_of(const char* ion) {
    for (int j = 0; j < list.count; ++j)
      if (same_name(list.ions[j].name, ion)) return j;
    return -1;
  }
  // Whether some mechanism writes ion j's concentrations or reversal potential: if none
  // does, they keep their initial values (per template and node) over the whole run.
  static constexpr bool values_written(int j) {
    bool w = false;
    ((w = w || writes_values<Ms>(j)), ...);
    return w;
  }
  // Whether some mechanism reads ion j's current: if none does, nothing sums it.
  static constexpr bool current_read(int j) {
    bool r = false;
    ((r = r || reads_current<Ms>(j)), ...);
    return r;
  }
  // The same as constants, which device code reads without calling host functions.
  template <int J>
  static constexpr bool kValuesWritten = values_written(J);
  template <int J>
  static constexpr bool kCurrentRead = current_read(J);
  // Ion variable K of mechanism M: its ion's index, and its value's among the IonSlots.
  template <class M, int K>
  struct Of {
    static constexpr int ion = index_of(M::ion_variables[K].ion);
    static constexpr int slot = ion_slot_of(M::ion_variables[K].role);
  };
};

// Runs f.template apply<M>(k) for catalogue index k of a std::tuple of mechanisms
// (device code, no virtual dispatch).
template <class Tuple, std::size_t I = 0>
struct Dispatch {
  template <class F>
  KOKKOS_INLINE_FUNCTION static void call(int k, const F& f) {
    if constexpr (I < std::tuple_size<Tuple>::value) {
      if (k == static_cast<int>(I))
        f.template apply<typename std::tuple_element<I, Tuple>::type>(k);
      else
        Dispatch<Tuple, I + 1>::call(k, f);
    }
  }
};

// Euclidean norm of an N-vector (NMODL's Newton solver stops when |F| < 1e-12).
template <int N>
KOKKOS_INLINE_FUNCTION double norm2(const double* f) {
  double s = 0;
  for (int i = 0; i < N; ++i) s += f[i] * f[i];
  return std::sqrt(s);
}

// Sum of magnitudes (a steady state's Newton iteration stops, as NEURON's sparse, when the
// update's is at most 1e-6).
template <int N>
KOKKOS_INLINE_FUNCTION double norm1(const double* f) {
  double s = 0;
  for (int i = 0; i < N; ++i) s += std::fabs(f[i]);
  return s;
}

// Solves J x = f in place (f <- x) for a small dense column-major J (J[row + N * col], the
// order NMODL's SymPy solver writes nmodl_eigen_j in), Gaussian elimination with partial
// pivoting. J is overwritten.
template <int N>
KOKKOS_INLINE_FUNCTION void solve_dense(double* J, double* f) {
  for (int c = 0; c < N; ++c) {
    int p = c;
    double best = std::fabs(J[c + N * c]);
    for (int r = c + 1; r < N; ++r) {
      const double a = std::fabs(J[r + N * c]);
      if (a > best) {
        best = a;
        p = r;
      }
    }
    if (p != c) {
      for (int k = 0; k < N; ++k) {
        const double tmp = J[c + N * k];
        J[c + N * k] = J[p + N * k];
        J[p + N * k] = tmp;
      }
      const double tmp = f[c];
      f[c] = f[p];
      f[p] = tmp;
    }
    const double inv = 1.0 / J[c + N * c];
    for (int r = c + 1; r < N; ++r) {
      const double l = J[r + N * c] * inv;
      if (l == 0.0) continue;
      for (int k = c + 1; k < N; ++k) J[r + N * k] -= l * J[c + N * k];
      f[r] -= l * f[c];
    }
  }
  for (int c = N - 1; c >= 0; --c) {
    double s = f[c];
    for (int k = c + 1; k < N; ++k) s -= J[c + N * k] * f[k];
    f[c] = s / J[c + N * c];
  }
}

// NEURON's Nernst potential (mV) at celsius for concentrations ci, co and valence z, with
// its CODATA 2018 constants and its guards for empty compartments.
KOKKOS_INLINE_FUNCTION double nernst(double ci, double co, int z, double celsius) {
  if (z == 0) return 0.0;
  if (ci <= 0.0) return 1e6;
  if (co <= 0.0) return -1e6;
  const double R = 8.314462618, F = 96485.33212;
  return 1000.0 * R * (celsius + 273.15) / F / z * std::log(co / ci);
}

}  // namespace hinesbatch::nmodl
