#pragma once
// Generated (NMODL) mechanisms in the tiles schedule (cell_tiles.hpp): a work item steps a
// tile of W cells of one tree, and runs their templates' mechanisms inside the same step.
// The generated code and its storage are the cells schedule's (generated_cells.hpp): rows
// and ions per slot, read and written through a CellsAccessor built for each lane's slot;
// only the loops differ. The tile's v, d and rhs are (node, lane): node i of lane k at
// i * W + k. The lanes kernel solves for dv as the cells one does (d = C/dt + sum g,
// rhs = sum of currents into the node), so a mechanism's conductance g and current i add
// g to d and -i to rhs, in nA and uS (x area um2 x 1e-2).
// The per-slot storage is LayoutLeft (GeneratedTiles::Cells): the W slots of a tile are
// consecutive, so the W lanes' copies of a row are W contiguous doubles (a block's inner
// loop over the lanes reads them in order; against LayoutRight no difference was measurable
// on the 2-core dev machine, within its noise).
// Each lane's cell gets StepCells' arithmetic in StepCells' order (cable terms and built-in
// mechanisms, ion currents reset, the blocks in order, then synapses and stimuli; states
// after v += dv), so the results are the cells schedule's.
#include <Kokkos_Core.hpp>
#include <cmath>
#include <type_traits>

#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/host_exp.hpp"
#include "hinesbatch/simulation/nmodl/mechanism.hpp"

namespace hinesbatch::impl {

// One lane of a tile seen as GeneratedCells' CellViews (size, v, d, rhs per (slot, node)):
// for its initialisation, and for a tile whose cells have different templates. d and rhs
// may be null where the phase does not touch them (Initial, InitialCurrent).
template <int W>
struct TileLaneViews {
  const double* v_;
  double* d_;
  double* rhs_;
  int lane, nodes;
  KOKKOS_INLINE_FUNCTION int size(int) const { return nodes; }
  KOKKOS_INLINE_FUNCTION double v(int, int node) const { return v_[node * W + lane]; }
  KOKKOS_INLINE_FUNCTION double& d(int, int node) const { return d_[node * W + lane]; }
  KOKKOS_INLINE_FUNCTION double& rhs(int, int node) const { return rhs_[node * W + lane]; }
};

// The accessor of a mechanism's lanes variants (M::current_lanes<W>, M::state_lanes<W>, where
// nmodl::HasLanes<M>) at one node of a tile: lane l is slot base.slot + l (rows and ions are
// LayoutLeft, so a tile's W slots are W consecutive values of each row), the rest is the
// template's and the same for every lane (CellsAccessor's, base: lane 0's). Partial: a tile of
// `cells` < W cells, whose padding lanes read lane 0's values and write nowhere (the slots
// after the tile's cells are other cells'), so that the cells' lanes compute as in a full one.
template <class Catalogue, class M, class Views, int W, bool Partial = false>
struct TileAccessor {
  using Base = CellsAccessor<Catalogue, M, Views>;
  using Ions = typename Base::Ions;
  using Positions = typename Base::Positions;
  static_assert(std::is_same<typename Views::layout, Kokkos::LayoutLeft>::value,
                "a tile's lanes read W consecutive slots of a row");
  Base base;
  const double* v_;  // the tile's voltages at this node: lane l at v_[l]
  int cells = W;     // Partial: the tile's cells
  double i[W] = {}, di[W] = {};

  // The lane whose values lane l reads, and whether it writes.
  KOKKOS_INLINE_FUNCTION int from(int l) const {
    if constexpr (Partial)
      return l < cells ? l : 0;
    else
      return l;
  }
  KOKKOS_INLINE_FUNCTION bool writes(int l) const { return !Partial || l < cells; }

  KOKKOS_INLINE_FUNCTION double v(int l) const { return v_[from(l)]; }
  KOKKOS_INLINE_FUNCTION double t() const { return base.t(); }
  KOKKOS_INLINE_FUNCTION double dt() const { return base.dt(); }
  KOKKOS_INLINE_FUNCTION double celsius() const { return base.celsius(); }
  KOKKOS_INLINE_FUNCTION double area() const { return base.area(); }
  KOKKOS_INLINE_FUNCTION double diam() const { return base.diam(); }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get(int l) const {
    constexpr int k = Positions::template kStore<I>;
    if constexpr (nmodl::variable_written<M, I>)
      return (&base.g.rows(base.slot, base.row + k))[from(l)];
    else
      return base.g.constants(base.cst + k);
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(int l, double x) const {
    if constexpr (Positions::template kInRows<I>)
      if (writes(l)) (&base.g.rows(base.slot, base.row + Positions::template kStore<I>))[l] = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return base.template global<I>();
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double uniform() const {
    return base.template uniform<K>();
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion(int l) const {
    using Of = typename Ions::template Of<M, K>;
    if constexpr (Of::slot != nmodl::IonI && !Ions::template kValuesWritten<Of::ion>)
      return base.template ion<K>();
    else
      return (
          &base.g.ions(base.slot, base.ion_base + Of::ion * nmodl::IonSlots + Of::slot))[from(l)];
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(int l, double x) const {
    using Of = typename Ions::template Of<M, K>;
    if (writes(l))
      (&base.g.ions(base.slot, base.ion_base + Of::ion * nmodl::IonSlots + Of::slot))[l] = x;
  }
  KOKKOS_INLINE_FUNCTION void add_current(int l, double current, double didv) {
    i[l] += current;
    di[l] += didv;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(int l, double current, double didv) const {
    using Of = typename Ions::template Of<M, K>;
    if constexpr (Ions::template kCurrentRead<Of::ion>) {
      if (!writes(l)) return;
      const int at = base.ion_base + Of::ion * nmodl::IonSlots;
      (&base.g.ions(base.slot, at + nmodl::IonI))[l] += current * base.ion_scale();
      (&base.g.ions(base.slot, at + nmodl::IonDidv))[l] += didv * base.ion_scale();
    } else {
      (void)l;
      (void)current;
      (void)didv;
    }
  }
  // x[l] = exp(x[l]) for the W lanes: glibc's exp to the bit, 4 lanes per instruction where
  // the CPU has AVX2 and FMA (host_exp.hpp).
  template <int N>
  KOKKOS_INLINE_FUNCTION void exp_lanes(double* x) const {
#if defined(HINESBATCH_HOST_VECTOR_EXP)
    if (host_vector_exp_usable()) {
      host_vector_exp(x, x, N);
      return;
    }
#endif
    for (int l = 0; l < N; ++l) x[l] = std::exp(x[l]);
  }
};

// The tiles schedule's hooks, for catalogue Catalogue. active: StepCellTiles and
// InitCellTiles compile them in only then (NoGenerated otherwise).
template <class ExecutionSpace, class Catalogue>
struct GeneratedTiles {
  static constexpr bool active = true;
  using Cells = GeneratedCells<ExecutionSpace, Catalogue, Kokkos::LayoutLeft>;
  using Views = typename Cells::Views;
  using Phase = typename Cells::Phase;
  static constexpr bool kStimuliFromCatalogue = Cells::kStimuliFromCatalogue;
  Cells gen;
  KOKKOS_INLINE_FUNCTION void stimulus_current(double del, double dur, double amp, double t,
                                               double v, double& i, double& gm) const {
    gen.stimulus_current(del, dur, amp, t, v, i, gm);
  }

  // One block's Current or State phase at the lanes 0..cells-1 of a tile whose cells share
  // a template: node by node of the block, the lanes inner.
  template <int W>
  struct TileBlockCall {
    const Cells& self;
    const double* v;
    double* d;
    double* rhs;
    int first_slot, cells, block, tnode;
    double t;
    Phase phase;
    template <class M, bool Partial>
    KOKKOS_INLINE_FUNCTION void lanes(int j, int node, int o) const {
      TileAccessor<Catalogue, M, Views, W, Partial> a{
          self.template accessor<M>(first_slot, block, j, node, tnode, v[o], t), v + o, cells};
      if (phase == Cells::Current) {
        M::template current_lanes<W>(a);
        const double to_absolute = a.base.area() * 1e-2;
        for (int k = 0; k < W; ++k) {
          if (!a.writes(k)) continue;
          d[o + k] += a.di[k] * to_absolute;
          rhs[o + k] -= a.i[k] * to_absolute;
        }
      } else if constexpr (M::has_state) {
        M::template state_lanes<W>(a);
      }
    }
    template <class M>
    KOKKOS_INLINE_FUNCTION void apply(int) const {
      if constexpr (M::kind == nmodl::MechanismKind::Density) {
        if (phase == Cells::Current && !M::has_current) return;
        if (phase == Cells::State && !M::has_state) return;
        const Views& g = self.g;
        for (int j = g.blk_node_begin(block); j < g.blk_node_end(block); ++j) {
          const int node = g.nodes(j);
          const int o = node * W;
          if constexpr (nmodl::HasLanes<M>::value) {
            // The W lanes at once: a full tile, or a partial one whose padding lanes
            // compute on lane 0's values and write nowhere.
            if (cells == W)
              lanes<M, false>(j, node, o);
            else
              lanes<M, true>(j, node, o);
          } else {
            for (int k = 0; k < cells; ++k) {
              auto a =
                  self.template accessor<M>(first_slot + k, block, j, node, tnode, v[o + k], t);
              if (phase == Cells::Current) {
                M::current(a);
                // mA/cm2 and S/cm2 on area um2: nA and uS.
                const double to_absolute = a.area() * 1e-2;
                d[o + k] += a.di * to_absolute;
                rhs[o + k] -= a.i * to_absolute;
              } else {
                M::state(a);
              }
            }
          }
        }
      }
    }
  };

  // The template of every real lane of the tile (cells from first_slot), or -1 where they
  // differ: cells of one tree may have different templates (other mechanisms).
  KOKKOS_INLINE_FUNCTION int tile_template(int first_slot, int cells) const {
    const int tmpl = gen.g.template_of_slot(first_slot);
    for (int k = 1; k < cells; ++k)
      if (gen.g.template_of_slot(first_slot + k) != tmpl) return -1;
    return tmpl;
  }

  // Every lane's blocks in the phase: block by block over the lanes where the tile has one
  // template, else lane by lane (each lane its template's blocks).
  template <int W>
  KOKKOS_INLINE_FUNCTION void run_tile(int first_slot, int cells, int nodes, const double* v,
                                       double* d, double* rhs, double t, Phase phase) const {
    const Views& g = gen.g;
    const int tmpl = tile_template(first_slot, cells);
    if (tmpl >= 0) {
      if (!gen.has_blocks(tmpl)) return;
      if (phase == Cells::Current)
        for (int k = 0; k < cells; ++k)
          for (int node = 0; node < nodes; ++node) gen.reset_node_ions(first_slot + k, tmpl, node);
      const int tnode = g.node_begin(tmpl);
      for (int b = g.block_begin(tmpl); b < g.block_begin(tmpl + 1); ++b)
        nmodl::Dispatch<typename Cells::Mechanisms>::call(
            g.blk_mech(b), TileBlockCall<W>{gen, v, d, rhs, first_slot, cells, b, tnode, t, phase});
      return;
    }
    for (int k = 0; k < cells; ++k) {
      const int s = first_slot + k, own = g.template_of_slot(s);
      if (!gen.has_blocks(own)) continue;
      const TileLaneViews<W> lane{v, d, rhs, k, nodes};
      if (phase == Cells::Current) gen.reset_ions(lane, s, own);
      gen.run_blocks(lane, s, own, t, phase);
    }
  }

  // NEURON's finitialize of the tile's cells after v = v_init (GeneratedCells::initialize,
  // lane by lane). v: the tile's voltages.
  template <int W>
  KOKKOS_INLINE_FUNCTION void initialize(int first_slot, int cells, int nodes,
                                         const double* v) const {
    for (int k = 0; k < cells; ++k)
      gen.initialize(TileLaneViews<W>{v, nullptr, nullptr, k, nodes}, first_slot + k);
  }

  // After the cable terms and built-in mechanisms of d and rhs: ion currents reset, every
  // block's currents at v.
  template <int W>
  KOKKOS_INLINE_FUNCTION void assemble(int first_slot, int cells, int nodes, const double* v,
                                       double* d, double* rhs, double t_mid) const {
    run_tile<W>(first_slot, cells, nodes, v, d, rhs, t_mid, Cells::Current);
  }

  // After v += dv (and the built-in states): every block's states at the new v.
  template <int W>
  KOKKOS_INLINE_FUNCTION void update(int first_slot, int cells, int nodes, const double* v,
                                     double t_end) const {
    run_tile<W>(first_slot, cells, nodes, v, nullptr, nullptr, t_end, Cells::State);
  }
};

}  // namespace hinesbatch::impl
