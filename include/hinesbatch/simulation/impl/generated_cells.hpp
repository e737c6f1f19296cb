#pragma once
// Generated (NMODL) mechanisms in the cells schedule: one thread steps a whole cell, so it
// runs its template's mechanisms in NEURON's order inside the step's one kernel, no launch
// per mechanism. A template's mechanisms are blocks (generated_layout.hpp) of one catalogue
// mechanism each; a block is dispatched once to its mechanism's static functions
// (Dispatch over the compiled catalogue: a switch, no virtual calls) and loops over its
// nodes. Storage, per the schedule's (slot, ...) layout:
//   rows(slot, r)     the variables the mechanisms assign and read back, a slot's row per
//                     template layout (output-only variables, such as hh's gna, are not kept)
//   ions(slot, q)     per node and catalogue ion: e, ci, co, i, di/dv (nmodl::IonSlot), for
//                     the ions whose values some mechanism writes or whose current one reads
//   constants(...)    the variables they never assign and their globals, per template
//   ion_fixed(...)    e, ci and co per template node and ion where no mechanism writes them
// Units: a density mechanism's mA/cm2 and S/cm2 become the schedule's nA and uS with the
// node's area (x area um2 x 1e-2); ion currents stay densities (mA/cm2), as concentration
// mechanisms read them.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/simulation/impl/catalogue_iclamp.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/generated_synapses.hpp"
#include "hinesbatch/simulation/impl/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/nmodl/impl/node_rows.hpp"
#include "hinesbatch/simulation/nmodl/mechanism.hpp"

namespace hinesbatch::impl {

// The schedules' hooks when no template has generated mechanisms: nothing to do, and
// nothing compiled into the kernels.
struct NoGenerated {
  static constexpr bool active = false;
  static constexpr bool kStimuliFromCatalogue = false;  // the hand-written IClamp runs
  // A stimulus (del, dur, amp) at time t: its current i (nA) and di/dv gm (uS).
  KOKKOS_INLINE_FUNCTION void stimulus_current(double del, double dur, double amp, double t, double,
                                               double& i, double& gm) const {
    mechanisms::iclamp_current(t, del, dur, amp, i, gm);
  }
  template <class Views>
  KOKKOS_INLINE_FUNCTION void initialize(const Views&, int) const {}
  template <class Views>
  KOKKOS_INLINE_FUNCTION void assemble(const Views&, int, double) const {}
  template <class Views>
  KOKKOS_INLINE_FUNCTION void update(const Views&, int, double) const {}
};

// The device tables of every template's layout (flattened; per-template offsets) and the
// per-slot storage, (slot, ...) in Layout: the execution space's for the cells schedule (a
// thread per slot), LayoutRight for the on-chip one (a team per slot, lanes over nodes).
template <class ExecutionSpace, class Layout = typename ExecutionSpace::array_layout>
struct GeneratedViews {
  using memory_space = typename ExecutionSpace::memory_space;
  using layout = Layout;
  using vec_i = Kokkos::View<int*, memory_space>;
  using vec_d = Kokkos::View<double*, memory_space>;
  using slots_d = Kokkos::View<double**, layout, memory_space>;
  vec_i template_of_slot;
  vec_i block_begin;  // per template + 1
  vec_i blk_mech, blk_node_begin, blk_node_end, blk_row, blk_const, blk_global;
  // 1 where the lanes of a team must wait before the block: it shares a node with a block
  // since the last wait whose lane for that node may differ (another position in the block
  // or another block length), so two lanes could add into the same node's sums.
  vec_i blk_sync;
  vec_i nodes;
  vec_i row_begin;    // per template + 1: its row_init in row_init
  vec_i const_begin;  // per template: its constants in constants
  vec_i node_begin;   // per template: its nodes in area, diam and (x ions) ion_style
  vec_d row_init, constants, area, diam, ion_init;  // ion_init: (template, ion, value)
  // ((template node) * ions + ion) * 3 + (IonE, IonCi, IonCo): the values at initialisation,
  // read instead of the slot's where no mechanism of the catalogue writes them.
  vec_d ion_fixed;
  Kokkos::View<unsigned char*, memory_space> ion_style;
  slots_d rows;  // (slot, row)
  slots_d ions;  // (slot, (node * ions + ion) * IonSlots + value)
  int num_ions = 0;
  double celsius = 6.3, dt = 0.025;
};

// Whether each block of t needs a team's lanes to wait before it (GeneratedViews::blk_sync):
// a node's lane is fixed by its position in the block and the block's length, under any
// partition of a team range over lanes; by its position alone where the team range hands
// position p to lane p % team size (lane_by_position: team_range_by_position). Before the
// first block the lanes have passed over all nodes in order (the cable terms, or v = x),
// node i at position i of num_nodes: a block of every node in order (region all), or with
// lane_by_position any block whose nodes stand at their own index (the soma's first), follows
// that pass without a wait.
inline std::vector<int> generated_block_syncs(const GeneratedTemplate& t,
                                              bool lane_by_position = false) {
  std::vector<int> sync;
  std::vector<std::pair<int, int>> at(t.num_nodes);  // (position, length or 0)
  std::vector<int> touched(t.num_nodes);
  for (int i = 0; i < t.num_nodes; ++i) {
    at[i] = {i, lane_by_position ? 0 : t.num_nodes};
    touched[i] = i;
  }
  for (const GeneratedBlock& b : t.blocks) {
    const int len = lane_by_position ? 0 : b.node_end - b.node_begin;
    bool wait = false;
    for (int j = b.node_begin; j < b.node_end && !wait; ++j) {
      const std::pair<int, int> seen = at[t.nodes[j]];
      wait = seen.first >= 0 && seen != std::make_pair(j - b.node_begin, len);
    }
    if (wait) {
      for (int node : touched) at[node] = {-1, -1};
      touched.clear();
    }
    for (int j = b.node_begin; j < b.node_end; ++j) {
      at[t.nodes[j]] = {j - b.node_begin, len};
      touched.push_back(t.nodes[j]);
    }
    sync.push_back(wait ? 1 : 0);
  }
  return sync;
}

// Whether a team range of `exec` hands index i to lane i % team size, for teams of 32 and 64
// lanes, as Kokkos' CUDA backend does (a host backend cuts a range into chunks: false
// there, without asking). Host code; one small launch per team size.
template <class ExecutionSpace>
bool team_range_by_position(const ExecutionSpace& exec) {
  if constexpr (is_host_backend<ExecutionSpace>()) {
    return false;
  } else {
    constexpr int kIndices = 300;
    Kokkos::View<int*, typename ExecutionSpace::memory_space> lane("hb::team_range_lanes",
                                                                   kIndices);
    for (const int size : {32, 64}) {
      using Policy = Kokkos::TeamPolicy<ExecutionSpace>;
      Kokkos::parallel_for(
          "hinesbatch::team_range_by_position", Policy(exec, 1, size),
          KOKKOS_LAMBDA(const typename Policy::member_type& t) {
            Kokkos::parallel_for(Kokkos::TeamThreadRange(t, kIndices),
                                 [&](const int i) { lane(i) = t.team_rank(); });
          });
      const auto on_host = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), lane);
      for (int i = 0; i < kIndices; ++i)
        if (on_host(i) != i % size) return false;
    }
    return true;
  }
}

// Views for `layouts` (one per template) and `template_of_slot`; rows and ions sized for
// the largest template. Host code.
template <class ExecutionSpace, class Layout = typename ExecutionSpace::array_layout>
GeneratedViews<ExecutionSpace, Layout> make_generated_views(
    const ExecutionSpace& exec, const std::vector<GeneratedTemplate>& layouts,
    const std::vector<int>& template_of_slot, int num_ions, double celsius, double dt,
    bool lane_by_position = false) {
  GeneratedViews<ExecutionSpace, Layout> g;
  g.num_ions = num_ions;
  g.celsius = celsius;
  g.dt = dt;
  std::vector<int> block_begin{0}, mech, nb, ne, row, cst, glb, sync, nodes, row_begin{0},
      const_begin, node_begin;
  std::vector<double> row_init, constants, area, diam, ion_init, ion_fixed;
  std::vector<unsigned char> ion_style;
  int max_rows = 1, max_ion_values = 1;
  for (const GeneratedTemplate& t : layouts) {
    const int nodes0 = static_cast<int>(nodes.size());
    const int const0 = static_cast<int>(constants.size());
    const_begin.push_back(const0);
    node_begin.push_back(static_cast<int>(area.size()));
    for (const GeneratedBlock& b : t.blocks) {
      mech.push_back(b.mech);
      nb.push_back(nodes0 + b.node_begin);
      ne.push_back(nodes0 + b.node_end);
      row.push_back(b.row_begin);
      cst.push_back(const0 + b.const_begin);
      glb.push_back(const0 + b.global_begin);
    }
    const std::vector<int> waits = generated_block_syncs(t, lane_by_position);
    sync.insert(sync.end(), waits.begin(), waits.end());
    block_begin.push_back(static_cast<int>(mech.size()));
    nodes.insert(nodes.end(), t.nodes.begin(), t.nodes.end());
    row_init.insert(row_init.end(), t.row_init.begin(), t.row_init.end());
    row_begin.push_back(static_cast<int>(row_init.size()));
    constants.insert(constants.end(), t.constants.begin(), t.constants.end());
    area.insert(area.end(), t.area_um2.begin(), t.area_um2.end());
    diam.insert(diam.end(), t.diam_um.begin(), t.diam_um.end());
    ion_style.insert(ion_style.end(), t.ion_style.begin(), t.ion_style.end());
    std::vector<double> init = t.ion_init;
    init.resize(std::size_t(num_ions) * kIonInitValues, 0.0);  // templates without mechanisms
    ion_init.insert(ion_init.end(), init.begin(), init.end());
    for (int node = 0; node < t.num_nodes; ++node)
      for (int k = 0; k < num_ions; ++k) {
        const double* in = &init[std::size_t(k) * kIonInitValues];
        const bool from_conc =
            !t.empty() && (t.ion_style[std::size_t(node) * num_ions + k] & kIonEFromConc);
        ion_fixed.insert(
            ion_fixed.end(),
            {from_conc ? nmodl::nernst(in[0], in[1], static_cast<int>(in[3]), celsius) : in[2],
             in[0], in[1]});
      }
    max_rows = std::max(max_rows, static_cast<int>(t.row_init.size()));
    if (!t.empty())
      max_ion_values = std::max(max_ion_values, t.num_nodes * num_ions * nmodl::IonSlots);
    // Every template takes num_nodes entries of the per-node tables, so that the next
    // one's offsets hold: one without blocks (no mechanisms, or only leaks, which fold)
    // may come with its geometry filled or not.
    const std::size_t end_nodes = std::size_t(node_begin.back()) + t.num_nodes;
    area.resize(end_nodes, 0.0);
    diam.resize(end_nodes, 0.0);
    ion_style.resize(end_nodes * num_ions, 0);
  }
  const auto up = [&](const auto& v, const char* label) { return to_device(exec, v, label); };
  g.template_of_slot = up(template_of_slot, "hb::gen_template_of_slot");
  g.block_begin = up(block_begin, "hb::gen_block_begin");
  g.blk_mech = up(mech, "hb::gen_blk_mech");
  g.blk_node_begin = up(nb, "hb::gen_blk_node_begin");
  g.blk_node_end = up(ne, "hb::gen_blk_node_end");
  g.blk_row = up(row, "hb::gen_blk_row");
  g.blk_const = up(cst, "hb::gen_blk_const");
  g.blk_global = up(glb, "hb::gen_blk_global");
  g.blk_sync = up(sync, "hb::gen_blk_sync");
  g.nodes = up(nodes, "hb::gen_nodes");
  g.row_begin = up(row_begin, "hb::gen_row_begin");
  g.const_begin = up(const_begin, "hb::gen_const_begin");
  g.node_begin = up(node_begin, "hb::gen_node_begin");
  g.row_init = up(row_init, "hb::gen_row_init");
  g.constants = up(constants, "hb::gen_constants");
  g.area = up(area, "hb::gen_area");
  g.diam = up(diam, "hb::gen_diam");
  g.ion_init = up(ion_init, "hb::gen_ion_init");
  g.ion_style = up(ion_style, "hb::gen_ion_style");
  g.ion_fixed = up(ion_fixed, "hb::gen_ion_fixed");
  const int slots = static_cast<int>(template_of_slot.size());
  g.rows = typename GeneratedViews<ExecutionSpace, Layout>::slots_d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::gen_rows")), slots,
      max_rows);
  g.ions = typename GeneratedViews<ExecutionSpace, Layout>::slots_d(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::gen_ions")), slots,
      max_ion_values);
  return g;
}

// A schedule's generated mechanisms set up (host code): every template's layout into
// `layouts` (where records find their values), and, where some template has any, the device
// views `g` in Layout and `detail` saying how many run and `where`. Returns whether any do.
template <class ExecutionSpace, class Layout>
bool setup_generated_views(const ExecutionSpace& exec, const std::vector<CellTemplate>& templates,
                           const std::vector<int>& template_of_slot, const MechanismCatalogue& cat,
                           const SimulationParameters& p, const char* where,
                           std::vector<GeneratedTemplate>& layouts,
                           GeneratedViews<ExecutionSpace, Layout>& g, std::string& detail,
                           bool lane_by_position = false) {
  layouts.clear();
  int mechanisms = 0;
  for (const CellTemplate& t : templates) {
    layouts.push_back(generated_template(t, cat, p));
    mechanisms += static_cast<int>(layouts.back().blocks.size());
  }
  // Synapses that run point processes need the hooks too (generated_synapses.hpp).
  const bool synapses = any_generated_synapse(templates);
  if (mechanisms == 0 && !synapses) return false;
  g = make_generated_views<ExecutionSpace, Layout>(exec, layouts, template_of_slot,
                                                   static_cast<int>(cat.ions.size()), p.celsius,
                                                   p.dt, lane_by_position);
  detail = "generated mechanisms of the catalogue '" + cat.name +
           "': " + std::to_string(mechanisms) + " over " + std::to_string(layouts.size()) +
           " template(s)" + (synapses ? " and synapses' point processes" : "") + ", " + where;
  return true;
}

// The accessor (nmodl/mechanism.hpp) of mechanism M at one node of one slot, for catalogue
// Catalogue: the variables it writes and reads back in the slot's row (output-only ones
// nowhere), the others and the globals in the template's constants, ion values in the
// slot's ion row (the template's where no mechanism writes them), currents accumulated
// here (an ion's only where some mechanism reads it). Views: a GeneratedViews.
template <class Catalogue, class M, class Views>
struct CellsAccessor {
  using Ions = nmodl::CatalogueIons<typename Catalogue::mechanisms>;
  using Positions = nmodl::RowPositions<M, false>;
  const Views& g;
  int slot, row, cst, glb, ion_base, ion_fixed_base;
  double v_, t_, area_, diam_;
  double i = 0, di = 0;

  KOKKOS_INLINE_FUNCTION double v() const { return v_; }
  KOKKOS_INLINE_FUNCTION double t() const { return t_; }
  KOKKOS_INLINE_FUNCTION double dt() const { return g.dt; }
  KOKKOS_INLINE_FUNCTION double celsius() const { return g.celsius; }
  KOKKOS_INLINE_FUNCTION double area() const { return area_; }
  KOKKOS_INLINE_FUNCTION double diam() const { return diam_; }
  template <int I>
  KOKKOS_INLINE_FUNCTION double get() const {
    static_assert(!nmodl::variable_output_only<M, I>, "the generated code never reads outputs");
    constexpr int k = Positions::template kStore<I>;
    if constexpr (nmodl::variable_written<M, I>)
      return g.rows(slot, row + k);
    else
      return g.constants(cst + k);
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION void set(double x) const {
    static_assert(nmodl::variable_written<M, I>, "the generated code sets only written variables");
    if constexpr (Positions::template kInRows<I>)
      g.rows(slot, row + Positions::template kStore<I>) = x;
  }
  template <int I>
  KOKKOS_INLINE_FUNCTION double global() const {
    return g.constants(glb + I);
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double uniform() const {
    return g.constants(glb + M::num_globals + K);
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION double ion() const {
    using Of = typename Ions::template Of<M, K>;
    if constexpr (Of::slot != nmodl::IonI && !Ions::template kValuesWritten<Of::ion>)
      return g.ion_fixed(ion_fixed_base + Of::ion * 3 + Of::slot);
    else
      return g.ions(slot, ion_base + Of::ion * nmodl::IonSlots + Of::slot);
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void set_ion(double x) const {
    using Of = typename Ions::template Of<M, K>;
    g.ions(slot, ion_base + Of::ion * nmodl::IonSlots + Of::slot) = x;
  }
  // Point processes give nA and uS; per unit area of the node for the ion's density.
  KOKKOS_INLINE_FUNCTION double ion_scale() const {
    return M::kind == nmodl::MechanismKind::PointProcess ? 100.0 / area_ : 1.0;
  }
  KOKKOS_INLINE_FUNCTION void add_current(double current, double didv) {
    i += current;
    di += didv;
  }
  template <int K>
  KOKKOS_INLINE_FUNCTION void add_ion_current(double current, double didv) const {
    using Of = typename Ions::template Of<M, K>;
    if constexpr (Ions::template kCurrentRead<Of::ion>) {
      const int at = ion_base + Of::ion * nmodl::IonSlots;
      g.ions(slot, at + nmodl::IonI) += current * ion_scale();
      g.ions(slot, at + nmodl::IonDidv) += didv * ion_scale();
    } else {
      (void)current;
      (void)didv;
    }
  }
};

// The generated mechanisms of a step, for catalogue Catalogue: the cells schedule's (a
// thread per cell: initialize, assemble, update) and the on-chip schedule's (a team per
// cell: initialize, then assemble_lanes and update_lanes inside its epoch kernel).
template <class ExecutionSpace, class Catalogue,
          class Layout = typename ExecutionSpace::array_layout>
struct GeneratedCells {
  static constexpr bool active = true;
  using Mechanisms = typename Catalogue::mechanisms;
  using Views = GeneratedViews<ExecutionSpace, Layout>;
  Views g;
  // The synapses that run point processes (empty: every synapse is the built-in ExpSyn).
  GeneratedSynapses<typename ExecutionSpace::memory_space, Catalogue> syn;

  // INITIAL of slot s's point-process synapses [syn_begin, syn_end) at v (after v_init).
  template <class CellViews>
  KOKKOS_INLINE_FUNCTION void initialize_synapses(const CellViews& c, int s, int syn_begin,
                                                  int syn_end) const {
    for (int k = syn_begin; k < syn_end; ++k)
      if (syn.is_generated(k)) syn.initialize(k, c.v(s, syn.node(k)));
  }

  // The ions a step updates in the slots' rows (bit k: catalogue ion k): those whose
  // current some mechanism reads (summed anew each step) or whose values some mechanism
  // writes (e by Nernst each step where a concentration is written).
  using Ions = nmodl::CatalogueIons<Mechanisms>;
  static_assert(Ions::count <= 64, "a catalogue declares at most 64 ions");
  static constexpr unsigned long long step_ions() {
    unsigned long long mask = 0;
    for (int k = 0; k < Ions::count; ++k)
      if (Ions::current_read(k) || Ions::values_written(k)) mask |= 1ull << k;
    return mask;
  }
  static constexpr unsigned long long kStepIons = step_ions();

  // The catalogue's IClamp for the config's stimuli (catalogue_iclamp.hpp; void where the
  // catalogue has none of that shape, and the hand-written one runs).
  using StimulusMechanism = StimulusIClamp<Mechanisms>;
  static constexpr bool kStimuliFromCatalogue = !std::is_void_v<StimulusMechanism>;
  // A stimulus (del, dur, amp) at time t and voltage v: its membrane current i (nA,
  // outward positive) and di/dv gm (uS), by the catalogue's IClamp (else the hand-written).
  KOKKOS_INLINE_FUNCTION void stimulus_current(double del, double dur, double amp, double t,
                                               double v, double& i, double& gm) const {
    if constexpr (kStimuliFromCatalogue) {
      StimulusAccessor<StimulusMechanism> a{del, dur, amp, t, v, g.dt, g.celsius};
      StimulusMechanism::current(a);
      i = a.i;
      gm = a.g;
    } else {
      mechanisms::iclamp_current(t, del, dur, amp, i, gm);
    }
  }

  // InitialCurrent: the currents of finitialize, for the ion currents and assigned
  // variables they set; d and rhs are not touched.
  enum Phase { Initial, InitialCurrent, Current, State };

  // The accessor of mechanism M (the mechanism of `block`) at the block's j-th node, `node`
  // of slot `slot` (tnode: its template's first node), at voltage v and time t.
  template <class M>
  KOKKOS_INLINE_FUNCTION CellsAccessor<Catalogue, M, Views> accessor(int slot, int block, int j,
                                                                     int node, int tnode, double v,
                                                                     double t) const {
    using P = nmodl::RowPositions<M, false>;
    const int k = j - g.blk_node_begin(block);
    return {g,
            slot,
            g.blk_row(block) + k * P::num_rows,
            g.blk_const(block) + k * P::num_constants,
            g.blk_global(block),
            node * g.num_ions * nmodl::IonSlots,
            (tnode + node) * g.num_ions * 3,
            v,
            t,
            g.area(tnode + node),
            g.diam(tnode + node)};
  }

  // One block's phase over its nodes (c: the schedule's CellGroupViews).
  template <class CellViews>
  struct BlockCall {
    const GeneratedCells& self;
    const CellViews& c;
    int slot, block, tnode;
    double t;
    Phase phase;
    template <class M>
    KOKKOS_INLINE_FUNCTION void apply(int) const {
      if constexpr (M::kind == nmodl::MechanismKind::Density) {
        const auto& g = self.g;
        if ((phase == Current || phase == InitialCurrent) && !M::has_current) return;
        if (phase == State && !M::has_state) return;
        for (int j = g.blk_node_begin(block); j < g.blk_node_end(block); ++j) {
          const int node = g.nodes(j);
          auto a = self.template accessor<M>(slot, block, j, node, tnode, c.v(slot, node), t);
          if (phase == Initial) {
            M::initial(a);
          } else if (phase == InitialCurrent) {
            M::current(a);
          } else if (phase == Current) {
            M::current(a);
            // mA/cm2 and S/cm2 on area um2: nA and uS.
            const double to_absolute = a.area() * 1e-2;
            c.d(slot, node) += a.di * to_absolute;
            c.rhs(slot, node) -= a.i * to_absolute;
          } else {
            M::state(a);
          }
        }
      }
    }
  };

  template <class CellViews>
  KOKKOS_INLINE_FUNCTION void run_blocks(const CellViews& c, int s, int tmpl, double t,
                                         Phase phase) const {
    const int tnode = g.node_begin(tmpl);
    for (int b = g.block_begin(tmpl); b < g.block_begin(tmpl + 1); ++b)
      nmodl::Dispatch<Mechanisms>::call(g.blk_mech(b),
                                        BlockCall<CellViews>{*this, c, s, b, tnode, t, phase});
  }

  // Ion currents zeroed, and e by Nernst where a concentration is written (NEURON's
  // ion_style), at every node of slot s that uses the ion.
  template <class CellViews>
  KOKKOS_INLINE_FUNCTION void reset_ions(const CellViews& c, int s, int tmpl) const {
    for (int node = 0; node < c.size(s); ++node) reset_node_ions(s, tmpl, node);
  }
  KOKKOS_INLINE_FUNCTION void reset_node_ions(int s, int tmpl, int node) const {
    if constexpr (kStepIons == 0) return;
    const int ni = g.num_ions, tnode = g.node_begin(tmpl);
    for (int k = 0; k < ni; ++k) {
      if (!((kStepIons >> k) & 1ull)) continue;
      const unsigned char style = g.ion_style((tnode + node) * ni + k);
      if (!(style & kIonUsed)) continue;
      const int at = (node * ni + k) * nmodl::IonSlots;
      g.ions(s, at + nmodl::IonI) = 0;
      g.ions(s, at + nmodl::IonDidv) = 0;
      if (style & kIonEAdvance)
        g.ions(s, at + nmodl::IonE) = nmodl::nernst(
            g.ions(s, at + nmodl::IonCi), g.ions(s, at + nmodl::IonCo),
            static_cast<int>(g.ion_init((tmpl * ni + k) * kIonInitValues + 3)), g.celsius);
    }
  }

  // Whether template tmpl has generated mechanisms (cells of others skip every hook).
  KOKKOS_INLINE_FUNCTION bool has_blocks(int tmpl) const {
    return g.block_begin(tmpl + 1) > g.block_begin(tmpl);
  }

  // NEURON's finitialize after v = v_init: the rows at their initial values, the ions at
  // theirs (e by Nernst where a concentration is in use), INITIAL blocks (concentration
  // writers first), then the currents once, which sets the ion currents that a
  // concentration's first state update reads.
  template <class CellViews>
  KOKKOS_INLINE_FUNCTION void initialize(const CellViews& c, int s) const {
    const int tmpl = g.template_of_slot(s);
    if (!has_blocks(tmpl)) return;
    const int r0 = g.row_begin(tmpl), nr = g.row_begin(tmpl + 1) - r0;
    for (int r = 0; r < nr; ++r) g.rows(s, r) = g.row_init(r0 + r);
    const int ni = g.num_ions, tnode = g.node_begin(tmpl);
    for (int node = 0; node < c.size(s); ++node)
      for (int k = 0; k < ni; ++k) {
        const unsigned char style = g.ion_style((tnode + node) * ni + k);
        if (!(style & kIonUsed)) continue;
        const double* init = &g.ion_init((tmpl * ni + k) * kIonInitValues);
        const int at = (node * ni + k) * nmodl::IonSlots;
        g.ions(s, at + nmodl::IonCi) = init[0];
        g.ions(s, at + nmodl::IonCo) = init[1];
        g.ions(s, at + nmodl::IonE) =
            (style & kIonEFromConc)
                ? nmodl::nernst(init[0], init[1], static_cast<int>(init[3]), g.celsius)
                : init[2];
        g.ions(s, at + nmodl::IonI) = 0;
        g.ions(s, at + nmodl::IonDidv) = 0;
      }
    run_blocks(c, s, tmpl, 0.0, Initial);
    reset_ions(c, s, tmpl);
    run_blocks(c, s, tmpl, 0.0, InitialCurrent);
  }

  // After the cable terms of d and rhs: ion currents reset, every block's currents at v.
  template <class CellViews>
  KOKKOS_INLINE_FUNCTION void assemble(const CellViews& c, int s, double t_mid) const {
    const int tmpl = g.template_of_slot(s);
    if (!has_blocks(tmpl)) return;
    reset_ions(c, s, tmpl);
    run_blocks(c, s, tmpl, t_mid, Current);
  }

  // After v += dv: every block's states at the new v.
  template <class CellViews>
  KOKKOS_INLINE_FUNCTION void update(const CellViews& c, int s, double t_end) const {
    run_blocks(c, s, g.template_of_slot(s), t_end, State);
  }

  // One block's phase (Current or State, known at compile time: each call site inlines
  // one phase of each mechanism) over its nodes, shared by the lanes of a team (the
  // on-chip schedule): v per node, d and rhs of the system for the new voltage, where a
  // mechanism's conductance g and current i at v add g to d and g v - i to rhs.
  template <class Member, Phase phase>
  struct LaneBlockCall {
    const GeneratedCells& self;
    const Member& team;
    const double* v;
    double* d;
    double* rhs;
    int slot, block, tnode;
    double t;
    template <class M>
    KOKKOS_INLINE_FUNCTION void apply(int) const {
      if constexpr (M::kind == nmodl::MechanismKind::Density &&
                    (phase == Current ? M::has_current : M::has_state)) {
        const Views& g = self.g;
        const int first = g.blk_node_begin(block), last = g.blk_node_end(block);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, first, last), [&](const int j) {
          const int node = g.nodes(j);
          auto a = self.template accessor<M>(slot, block, j, node, tnode, v[node], t);
          if constexpr (phase == Current) {
            M::current(a);
            const double to_absolute = a.area() * 1e-2;  // mA/cm2 and S/cm2 on um2: nA and uS
            const double gm = a.di * to_absolute;
            d[node] += gm;
            rhs[node] += gm * v[node] - a.i * to_absolute;
          } else {
            M::state(a);
          }
        });
      }
    }
  };

  // The blocks of slot s in order over the team's lanes; a block waits for the team where
  // blk_sync says two lanes could otherwise touch one node.
  template <Phase phase, class Member>
  KOKKOS_INLINE_FUNCTION void run_blocks_lanes(const Member& team, int s, int tmpl, const double* v,
                                               double* d, double* rhs, double t) const {
    const int tnode = g.node_begin(tmpl);
    for (int b = g.block_begin(tmpl); b < g.block_begin(tmpl + 1); ++b) {
      if (g.blk_sync(b)) team.team_barrier();
      nmodl::Dispatch<Mechanisms>::call(
          g.blk_mech(b), LaneBlockCall<Member, phase>{*this, team, v, d, rhs, s, b, tnode, t});
    }
  }

  // The team's assemble, right after the lanes' pass over the cable terms of d and rhs (no
  // wait: blk_sync counts that pass): ion currents reset over the lanes, then every block's
  // currents at v. The caller waits after it.
  // tmpl: the slot's template (template_of_slot(s), read once per epoch by the caller).
  template <class Member>
  KOKKOS_INLINE_FUNCTION void assemble_lanes(const Member& team, int s, int tmpl, int n,
                                             const double* v, double* d, double* rhs,
                                             double t_mid) const {
    if (!has_blocks(tmpl)) return;
    if constexpr (kStepIons != 0) {
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n),
                           [&](const int node) { reset_node_ions(s, tmpl, node); });
      team.team_barrier();
    }
    run_blocks_lanes<Current>(team, s, tmpl, v, d, rhs, t_mid);
  }

  // The team's update, right after the lanes' pass of v = x (no wait: blk_sync counts that
  // pass): every block's states at the new v. The caller waits before anything reads them.
  template <class Member>
  KOKKOS_INLINE_FUNCTION void update_lanes(const Member& team, int s, int tmpl, const double* v,
                                           double t_end) const {
    if (!has_blocks(tmpl)) return;
    run_blocks_lanes<State>(team, s, tmpl, v, nullptr, nullptr, t_end);
  }
};

}  // namespace hinesbatch::impl
