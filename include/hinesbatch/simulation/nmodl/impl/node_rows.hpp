#pragma once
// Storage of generated mechanisms in the layout the cells schedule keeps its (slot, node)
// state in, the first of the accessors the step schedules will use (docs/MECHANISMS.md,
// "Next"): the variables a mechanism assigns (states, stored assigned) in rows per
// (slot, node); the parameters it never assigns once per (template, node), the same for
// every cell of a template. Which store a variable lives in is decided at compile time from
// the generated metadata, so get<I>() is one load from one View.
#include <Kokkos_Core.hpp>
#include <hinesbatch/simulation/nmodl/mechanism.hpp>
#include <string>

namespace hinesbatch::nmodl {

// Compile-time positions of mechanism M's variables in the two stores: the constants (the
// variables it never writes) and the rows (those it writes; without KeepOutputs, not the
// output-only ones, which are then stored nowhere).
template <class M, bool KeepOutputs = true>
struct RowPositions {
  static constexpr bool in_rows(int I) {
    return M::variables[I].written && (KeepOutputs || !M::variables[I].output_only);
  }
  // Position of variable I among the rows (or among the constants).
  static constexpr int in_store(int I) {
    int k = 0;
    for (int j = 0; j < I; ++j)
      if (M::variables[I].written ? in_rows(j) : !M::variables[j].written) ++k;
    return k;
  }
  static constexpr int count(bool rows) {
    int k = 0;
    for (int j = 0; j < M::num_variables; ++j)
      if (rows ? in_rows(j) : !M::variables[j].written) ++k;
    return k;
  }
  static constexpr int num_rows = count(true);
  static constexpr int num_constants = count(false);
  // The same as constants, which device code reads without calling host functions.
  template <int I>
  static constexpr bool kInRows = in_rows(I);
  template <int I>
  static constexpr int kStore = in_store(I);
};

template <class ExecutionSpace>
struct NodeRowViews {
  using layout = typename ExecutionSpace::array_layout;
  using memory = typename ExecutionSpace::memory_space;
  Kokkos::View<double***, layout, memory> rows;       // (slot, node, written variable)
  Kokkos::View<double***, layout, memory> constants;  // (template, node, constant variable)
  Kokkos::View<double*, memory> globals;              // (global)
};

// The accessor of one (slot, node) instance of M: v, t, dt, celsius and the ions' values
// come from the caller (the schedule's node state); currents accumulate into i and g.
template <class M, class ExecutionSpace,
          int NumIonVariables = (M::num_ion_variables > 0 ? M::num_ion_variables : 1)>
struct NodeRowAccessor {
  const NodeRowViews<ExecutionSpace>& s;
  int slot, node, templ;
  double v_, t_, dt_, celsius_, area_, diam_;
  double ion_value[NumIonVariables];
  double i = 0, g = 0;
  double ion_i[NumIonVariables] = {}, ion_didv[NumIonVariables] = {};

  KOKKOS_INLINE_FUNCTION double v() const { return v_; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return dt_; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return celsius_; }
  KOKKOS_INLINE_FUNCTION double area() const { return area_; }
  KOKKOS_INLINE_FUNCTION double diam() const { return diam_; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    constexpr int k = RowPositions<M>::template kStore<I>;
    if constexpr (variable_written<M, I>)
      return s.rows(slot, node, k);
    else
      return s.constants(templ, node, k);
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double x) const {
    static_assert(variable_written<M, I>, "the generated code sets only written variables");
    constexpr int k = RowPositions<M>::template kStore<I>;
    s.rows(slot, node, k) = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return s.globals(I);
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion() const {
    return ion_value[K];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(double x) {
    ion_value[K] = x;
  }
  KOKKOS_INLINE_FUNCTION void add_current(double di, double dg) {
    i += di;
    g += dg;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(double di, double didv) {
    ion_i[K] += di;
    ion_didv[K] += didv;
  }
};

// Views for `slots` cells of `nodes` nodes over `templates` templates, the constants at
// their defaults and the rows zero (host code).
template <class M, class ExecutionSpace>
NodeRowViews<ExecutionSpace> make_node_rows(int slots, int nodes, int templates) {
  NodeRowViews<ExecutionSpace> s;
  using P = RowPositions<M>;
  s.rows = decltype(s.rows)(std::string(M::name) + "_rows", slots, nodes,
                            P::num_rows > 0 ? P::num_rows : 1);
  s.constants = decltype(s.constants)(std::string(M::name) + "_constants", templates, nodes,
                                      P::num_constants > 0 ? P::num_constants : 1);
  s.globals = decltype(s.globals)(std::string(M::name) + "_globals",
                                  M::num_globals > 0 ? M::num_globals : 1);
  auto c = Kokkos::create_mirror_view(s.constants);
  for (int t = 0; t < templates; ++t)
    for (int n = 0; n < nodes; ++n)
      for (int j = 0; j < M::num_variables; ++j)
        if (!M::variables[j].written) c(t, n, P::in_store(j)) = M::variables[j].default_value;
  Kokkos::deep_copy(s.constants, c);
  auto g = Kokkos::create_mirror_view(s.globals);
  for (int j = 0; j < M::num_globals; ++j) g(j) = M::globals[j].default_value;
  Kokkos::deep_copy(s.globals, g);
  return s;
}

}  // namespace hinesbatch::nmodl
