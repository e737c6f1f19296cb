#pragma once
// The config's IClamps (del, dur, amp per stimulus) through the catalogue's point process
// named IClamp, where the catalogue has one of that shape (the default catalogue's
// iclamp.mod): PARAMETERs del, dur and amp, a current, and nothing else the config could
// not give (no other parameter, no state, ion, global or NET_RECEIVE). A step without
// generated mechanisms, or a catalogue without such an IClamp, runs the hand-written one
// (mechanisms/iclamp.hpp); the two give the same numbers to the last bit (the electrode
// current is -amp with di/dv 0 at every v).
#include <tuple>
#include <type_traits>

#include "hinesbatch/simulation/impl/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/nmodl/mechanism.hpp"

namespace hinesbatch::impl {

// Index of variable `name` in M::variables, -1 if M has none.
template <class M>
constexpr int variable_index(const char* name) {
  for (int k = 0; k < M::num_variables; ++k)
    if (nmodl::same_name(M::variables[k].name, name)) return k;
  return -1;
}

template <class M>
constexpr bool is_stimulus_iclamp() {
  using nmodl::VariableKind;
  if (!nmodl::same_name(M::name, "IClamp") || M::kind != nmodl::MechanismKind::PointProcess ||
      !M::has_current || M::has_state || M::has_net_receive || M::writes_concentration ||
      M::num_globals != 0 || M::num_ion_variables != 0 || M::num_uniforms != 0 ||
      M::num_invariants != 0)
    return false;
  int given = 0;
  for (int k = 0; k < M::num_variables; ++k) {
    const nmodl::VariableInfo& v = M::variables[k];
    const bool config = nmodl::same_name(v.name, "del") || nmodl::same_name(v.name, "dur") ||
                        nmodl::same_name(v.name, "amp");
    if (config && v.kind == VariableKind::Parameter)
      ++given;
    else if (v.kind == VariableKind::Parameter || !v.output_only)
      return false;  // a value the config's iclamp entry cannot give, or one kept between steps
  }
  return given == 3;
}

// The first mechanism of Mechanisms (a std::tuple) that is_stimulus_iclamp, else void.
template <class Mechanisms>
struct StimulusIClampOf {
  using type = void;
};
template <class M, class... Ms>
struct StimulusIClampOf<std::tuple<M, Ms...>> {
  using type = std::conditional_t<is_stimulus_iclamp<M>(), M,
                                  typename StimulusIClampOf<std::tuple<Ms...>>::type>;
};
template <class Mechanisms>
using StimulusIClamp = typename StimulusIClampOf<Mechanisms>::type;

// The accessor the catalogue's IClamp sees: one stimulus at one node (its output i is not
// kept), the membrane current it adds (nA, outward positive) and di/dv (uS). No area() or
// diam(): an IClamp that read them would not compile here rather than read a node's
// geometry that templates without generated mechanisms do not keep.
template <class M>
struct StimulusAccessor {
  static constexpr int kDel = variable_index<M>("del");
  static constexpr int kDur = variable_index<M>("dur");
  double del, dur, amp, t_, v_, dt_, celsius_;
  double i = 0, g = 0;
  KOKKOS_INLINE_FUNCTION double v() const { return v_; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return dt_; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    if constexpr (I == kDel)
      return del;
    else if constexpr (I == kDur)
      return dur;
    else
      return amp;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double) const {}
  KOKKOS_INLINE_FUNCTION void add_current(double current, double didv) {
    i += current;
    g += didv;
  }
};

}  // namespace hinesbatch::impl
