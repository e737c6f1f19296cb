#pragma once
// The interface of the simulation's step schedules, the backends CellGroup delegates its
// steps to (as Arbor's backends/multicore beside backends/gpu). CellGroup keeps what every
// schedule shares: the slots (cells sorted by size), their gids, the synapses' numbering and
// common arrays (syn_begin, decay, e, g), stimuli, detectors, the spike buffer and the solve
// status, in the shared members of CellGroupViews. It chooses one schedule, and each
// schedule owns its setup, its capacity test and its kernel launches:
//
//   schedule  file                  kernels                              where
//   cells     cells_schedule.hpp    StepCells: a work item per cell per  any backend
//                                   step, (slot, node) storage
//   tiles     tiles_schedule.hpp    StepCellTiles (cell_tiles.hpp): a    host backends
//                                   tile of W cells of one tree per item
//   on_chip   on_chip_schedule.hpp  StepCellEpochOnChip                  any backend (GPU
//                                   (cell_epoch_on_chip.hpp): a team     default); launches
//                                   per cell per epoch                   planned by
//                                                                        on_chip_launch_plan.hpp
//
// Each schedule S<ExecutionSpace> is default-constructible and provides:
//   void construct(const ScheduleSetup<ExecutionSpace>&)  its storage from the shared slot
//       data: the shared Views plus its own (per-node state, constants, lists); throws
//       InputError where a cell does not fit it (its capacity test)
//   void set_records(exec, const Recordings&, slot, node, variables)  the recordings (trace
//       column r is variables[r], v unless it says otherwise, at node[r] of slot[r]), on the
//       device and on the host; once, before run_steps (ScheduleVoltages' for cells and
//       tiles; on_chip lists them per slot for its epoch kernel)
//   void initialize(exec)                       v = v_init, gates at rest, g = 0, detectors
//   void run_steps(exec, first, count, const StepEvents&, trace)  steps [first, first +
//       count): before step first + j its events reach their synapses; after it, row j + 1
//       of trace gets the recordings. Asynchronous
//   void record(exec, trace, row) const         row `row` of trace from the recordings
//   void record_voltages(exec, slot, node, trace, row) const  any (slot, node) list
//   void check_voltages(exec, time_ms, gid_of_slot) const  throws SolverError on a
//       non-finite or non-physical voltage (voltage_check.hpp)
//   static const char* schedule_name()          "cells", "tiles", "on_chip"
//   int team_lanes() const                      threads that step one cell together
//   int tile_cells() const                      cells one work item steps at once
//   std::string detail() const                  what the setup chose (metrics)
//   const CellGroupViews<ExecutionSpace>& data() const  the shared Views and its own
//
// Where each schedule runs the mechanisms (the hooks a mechanism's generated kernels fuse
// into; the mechanisms' device functions are in mechanisms/). Their per-node parameters are
// computed once per template (template_nodes, cell_templates.hpp) and stored by each
// schedule's construct: the cells schedule in (slot, node) rows (fill_slot_constants), the
// tiles schedule in its tiles (build_tiles), the on-chip schedule in one block per template
// (upload_template_blocks). The detector (mechanisms/detector.hpp) follows update in all.
//   cells    initialize InitCells; events ApplySynapticEvents; assemble StepCells::assemble;
//            update StepCells::update
//   tiles    initialize InitCellTiles; events ApplySynapticEvents; assemble
//            StepCellTiles::assemble; update StepCellTiles::update
//   on_chip  initialize InitCells (v, g) and InitOnChipGates; events, assemble and update in
//            StepCellEpochOnChip: apply_events, assemble_nodes and assemble_synapses, update
// Generated (NMODL) mechanisms (generated_cells.hpp) run in cells (InitCells, StepCells'
// assemble and update), tiles (InitCellTiles, StepCellTiles' assemble and update, through
// generated_tiles.hpp) and on_chip (InitCells, then assemble_lanes and update_lanes in the
// epoch kernel). Synapses that run a point process of the catalogue (generated_synapses.hpp)
// take the built-in ExpSyn's place in the same hooks: events (ApplyGeneratedSynapticEvents,
// on chip apply_events), assemble and update, INITIAL in InitCells / InitCellTiles.
// Kernels are functors (no virtual dispatch on the device): CellGroup holds the chosen
// schedule in a std::variant and visits it on the host.
#include <Kokkos_Core.hpp>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/simulation/impl/cell_templates.hpp"
#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/on_chip_launch_plan.hpp"
#include "hinesbatch/simulation/impl/voltage_check.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"

namespace hinesbatch {

// The Views the step kernels read. CellGroup fills the shared members (per slot, per
// synapse, the spike buffer, the status); a schedule adds its own: the cells schedule every
// (slot, node) member, the on-chip schedule v (loaded and stored once per epoch), the tiles
// schedule none (its tiles hold that state).
template <class ExecutionSpace>
struct CellGroupViews {
  using memory_space = typename ExecutionSpace::memory_space;
  using layout = typename ExecutionSpace::array_layout;
  using nodes_d = Kokkos::View<double**, layout, memory_space>;
  using nodes_i = Kokkos::View<int**, layout, memory_space>;
  using nodes_u8 = Kokkos::View<unsigned char**, layout, memory_space>;
  using vec_d = Kokkos::View<double*, memory_space>;
  using vec_i = Kokkos::View<int*, memory_space>;

  vec_i size;  // nodes per cell slot
  nodes_i parent;
  nodes_d v, d, rhs;      // voltage (mV); the step's diagonal and rhs (then dv)
  nodes_d minus_g_axial;  // -g_axial to the parent: the symmetric off-diagonal (uS)
  nodes_d d0;             // the constant part of d: C/dt + sum of g_axial
  nodes_u8 mechs;
  nodes_d pas_g, pas_e, hh_gna, hh_gk, hh_gl, hh_el, hh_m, hh_h, hh_n;  // absolute (uS)
  vec_i syn_begin, syn_node;  // syn_node: the cells and tiles schedules only
  vec_d syn_decay, syn_e, syn_g;
  vec_i stim_begin, stim_node;
  vec_d stim_del, stim_dur, stim_amp;
  vec_i det_node, det_flag;
  vec_d det_threshold;
  Kokkos::View<int, memory_space> spike_count;
  vec_i spike_slot, spike_step;
  SolveStatus<memory_space> status;
};

namespace impl {

enum class ScheduleKind { Cells, Tiles, OnChip };

// What CellGroup's shared setup does for a schedule before constructing it: the tiles
// schedule fills tiles from consecutive slots, so slots of one size are ordered by tree;
// tiles and on_chip use the distinct trees; the on-chip schedule finds a synapse's node
// through its groups (OnChipCellLists), the others read syn_node.
inline bool slots_by_tree(ScheduleKind k) { return k == ScheduleKind::Tiles; }
inline bool uses_trees(ScheduleKind k) { return k != ScheduleKind::Cells; }
inline bool uses_synapse_nodes(ScheduleKind k) { return k != ScheduleKind::OnChip; }

// The shared slot data a schedule is built from (CellGroup's, valid during construct).
template <class ExecutionSpace>
struct ScheduleSetup {
  const ExecutionSpace& exec;
  const std::vector<CellTemplate>& templates;
  const NetworkSpec& net;
  const std::vector<std::int64_t>& gid_of_slot;
  const std::vector<int>& template_of_slot;
  const std::vector<TemplateNodes>& nodes_of_template;  // per template
  const TemplateTrees& trees;                           // empty unless uses_trees
  const std::vector<int>& syn_begin_of_slot;            // slots + 1
  const CellGroupViews<ExecutionSpace>& shared;         // CellGroup's, filled
  const SimulationParameters& params;
  double q10;
  int max_nodes;
  OnChipForce on_chip_force;  // the on-chip schedule's forced launch shape, if any
  int num_cells() const { return static_cast<int>(gid_of_slot.size()); }
  int num_synapses() const { return syn_begin_of_slot.back(); }
};

// An epoch's events: before step j of it, events [step_begin[j], step_begin[j + 1]) of
// (syn, w), sorted by synapse, reach their synapses (step_begin_device: the same offsets;
// details: their connections' vectors and their times, where a point process needs them).
template <class MemorySpace>
struct StepEvents {
  Kokkos::View<const int*, MemorySpace> syn;
  Kokkos::View<const double*, MemorySpace> w;
  const std::vector<int>& step_begin;
  Kokkos::View<const int*, MemorySpace> step_begin_device;
  EventDetails<MemorySpace> details;
};

// The recordings: trace column r is v at node(r) of slot(r), or where some record is not
// v, the value that store(r) and index(r) say (RecordPlace, generated_layout.hpp; empty
// when every record is v).
template <class MemorySpace>
struct Recordings {
  Kokkos::View<int*, MemorySpace> slot, node;
  Kokkos::View<int*, MemorySpace> store, index;
};

template <class MemorySpace>
using TraceView = Kokkos::View<double**, Kokkos::LayoutRight, MemorySpace>;

// Adds a step's events to their synapses' conductances (ExpSyn's NET_RECEIVE: g += w;
// when an event is due is events.hpp's delivery_step): the first event of each run of
// equal synapses adds the whole run in order (events are sorted), so sums are the same
// on every backend and for any number of ranks.
template <class MemorySpace>
struct ApplySynapticEvents {
  Kokkos::View<const int*, MemorySpace> synapse;
  Kokkos::View<const double*, MemorySpace> weight;
  Kokkos::View<double*, MemorySpace> syn_g;
  int begin, end;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    mechanisms::expsyn_receive(synapse, weight, syn_g, i, begin, end);
  }
};

// The events [begin, end) of (syn, w), due at this step, added to syn_g. Asynchronous.
template <class ExecutionSpace, class MemorySpace = typename ExecutionSpace::memory_space>
void apply_synaptic_events(const ExecutionSpace& exec,
                           const Kokkos::View<const int*, MemorySpace>& syn,
                           const Kokkos::View<const double*, MemorySpace>& w,
                           const Kokkos::View<double*, MemorySpace>& syn_g, int begin, int end) {
  if (end <= begin) return;
  Kokkos::parallel_for("hinesbatch::sim_apply_events",
                       Kokkos::RangePolicy<ExecutionSpace>(exec, begin, end),
                       ApplySynapticEvents<MemorySpace>{syn, w, syn_g, begin, end});
}

// ApplySynapticEvents where some synapses run point processes (Synapses: a
// GeneratedSynapses): their NET_RECEIVE per event in the same order, at time t.
template <class MemorySpace, class Synapses>
struct ApplyGeneratedSynapticEvents {
  Kokkos::View<const int*, MemorySpace> synapse;
  Kokkos::View<const double*, MemorySpace> weight;
  Kokkos::View<double*, MemorySpace> syn_g;
  Synapses syn;
  int begin, end;
  double t;
  EventDetails<MemorySpace> details;
  KOKKOS_INLINE_FUNCTION void operator()(const int i) const {
    syn.receive_run(synapse, weight, syn_g, i, begin, end, t, details);
  }
};

// The self-events (net_send) of synapse k due by `step` that receive_run left.
template <class MemorySpace, class Synapses>
struct DeliverSelfEvents {
  Synapses syn;
  Kokkos::View<double*, MemorySpace> vectors;
  std::int64_t step;
  KOKKOS_INLINE_FUNCTION void operator()(const int k) const {
    syn.deliver_due_self_events(k, step, vectors);
  }
};

// v = v_init (and the gates at rest unless `gates` is false), synapses closed, detectors
// armed: the initial state of the schedules with (slot, node) voltages. Generated: the
// generated mechanisms' initialisation (generated_cells.hpp), after v.
template <class ExecutionSpace, class Generated = NoGenerated>
struct InitCells {
  CellGroupViews<ExecutionSpace> c;
  double v_init, q10;
  bool gates;  // false: the on-chip schedule sets its own (InitOnChipGates)
  Generated gen{};
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    for (int i = 0; i < c.size(s); ++i) {
      c.v(s, i) = v_init;
      if (gates && (c.mechs(s, i) & kHHBit))
        mechanisms::hh_initial_states(v_init, q10, c.hh_m(s, i), c.hh_h(s, i), c.hh_n(s, i));
    }
    if constexpr (Generated::active) {
      gen.initialize(c, s);
      gen.initialize_synapses(c, s, c.syn_begin(s), c.syn_begin(s + 1));
    }
    for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k) c.syn_g(k) = 0;
    if (c.det_node(s) >= 0) c.det_flag(s) = v_init > c.det_threshold(s) ? 1 : 0;
  }
};

// InitCells over the `cells` slots: with the generated mechanisms' initialisation where
// `generated` (gen), without it otherwise. Asynchronous.
template <class ExecutionSpace, class Generated>
void init_cells(const ExecutionSpace& exec, const CellGroupViews<ExecutionSpace>& c, int cells,
                double v_init, double q10, bool gates, bool generated, const Generated& gen) {
  const auto policy = Kokkos::RangePolicy<ExecutionSpace>(exec, 0, cells);
  if (generated)
    Kokkos::parallel_for("hinesbatch::sim_init", policy,
                         InitCells<ExecutionSpace, Generated>{c, v_init, q10, gates, gen});
  else
    Kokkos::parallel_for("hinesbatch::sim_init", policy,
                         InitCells<ExecutionSpace>{c, v_init, q10, gates});
}

template <class ExecutionSpace,
          class Voltages = Kokkos::View<const double**, typename ExecutionSpace::array_layout,
                                        typename ExecutionSpace::memory_space>>
struct RecordVoltages {
  Voltages v;  // (slot, node)
  Kokkos::View<const int*, typename ExecutionSpace::memory_space> slot, node;
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space> trace;
  int row;
  KOKKOS_INLINE_FUNCTION void operator()(const int r) const { trace(row, r) = v(slot(r), node(r)); }
};

// trace(row, r) = v(slot(r), node(r)) for the r < slot.extent(0) recordings, v any (slot,
// node) accessor. Asynchronous.
template <class ExecutionSpace, class Voltages, class MemorySpace>
void record_slot_voltages(const ExecutionSpace& exec, const Voltages& v,
                          const Kokkos::View<int*, MemorySpace>& slot,
                          const Kokkos::View<int*, MemorySpace>& node,
                          const TraceView<MemorySpace>& trace, int row) {
  Kokkos::parallel_for("hinesbatch::sim_record",
                       Kokkos::RangePolicy<ExecutionSpace>(exec, 0, slot.extent(0)),
                       RecordVoltages<ExecutionSpace, Voltages>{v, slot, node, trace, row});
}

// trace(row, r) = record r's value: v(slot(r), node(r)) or the generated mechanisms' value
// at store(r), index(r) (RecordPlace) in g (a GeneratedViews) or syn (GeneratedSynapses).
template <class ExecutionSpace, class Voltages, class GenViews, class Synapses>
struct RecordValues {
  Voltages v;  // (slot, node)
  Kokkos::View<const int*, typename ExecutionSpace::memory_space> slot, node, store, index;
  Kokkos::View<double**, Kokkos::LayoutRight, typename ExecutionSpace::memory_space> trace;
  int row;
  GenViews g;
  Synapses syn;
  KOKKOS_INLINE_FUNCTION void operator()(const int r) const {
    trace(row, r) = record_value(g, syn, store(r), index(r), slot(r), v(slot(r), node(r)));
  }
};

// What every schedule shares: the run's parameters, the slots' count and largest size, the
// Views (CellGroup's shared ones plus the schedule's own), and what it does with its
// voltages, its recordings and its generated mechanisms' setup, given Derived's
// `voltages()` (a (slot, node) accessor of v, valid between steps) and `generated_views()`
// (its GeneratedViews): data, dt, detail, record, set_records, record_voltages and
// check_voltages of the interface above.
template <class Derived, class ExecutionSpace>
class ScheduleVoltages {
 public:
  using memory_space = typename ExecutionSpace::memory_space;

  const CellGroupViews<ExecutionSpace>& data() const { return c_; }
  double dt() const { return params_.dt; }
  // Whether some template runs generated mechanisms, and what they are (the metrics'
  // detail; the on-chip schedule adds its launches).
  bool runs_generated() const { return generated_; }
  std::string detail() const { return generated_detail_; }

  void record(const ExecutionSpace& exec, const TraceView<memory_space>& trace, int row) const {
    if (records_.slot.extent(0) == 0) return;
    if (records_.store.extent(0) > 0)
      self().record_values(exec, trace, row);
    else
      record_voltages(exec, records_.slot, records_.node, trace, row);
  }
  // Records of any variable: each record's place (RecordPlace) in the generated mechanisms'
  // storage (laid out as layouts_, one per template).
  void set_records(const ExecutionSpace& exec, const Recordings<memory_space>& r,
                   const std::vector<int>& slot, const std::vector<int>& node,
                   const std::vector<RecordedVariable>& variables) {
    records_ = r;
    std::vector<int> store, index;
    record_places(layouts_, template_of_slot_, self().catalogue(), slot, node, variables, store,
                  index,
                  synapse_record_places(self().generated_synapses(), c_.syn_begin, variables));
    if (store.empty()) return;
    records_.store = to_device(exec, store, "hb::rec_store");
    records_.index = to_device(exec, index, "hb::rec_index");
  }
  // Row `row` of trace from records of any variable (record() calls it where some record is
  // not v). Asynchronous.
  void record_values(const ExecutionSpace& exec, const TraceView<memory_space>& trace,
                     int row) const {
    const Recordings<memory_space>& r = records_;
    using GenViews = std::decay_t<decltype(self().generated_views())>;
    using Synapses = std::decay_t<decltype(self().generated_synapses())>;
    Kokkos::parallel_for(
        "hinesbatch::sim_record_values",
        Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(r.slot.extent(0))),
        RecordValues<ExecutionSpace, decltype(self().voltages()), GenViews, Synapses>{
            self().voltages(), r.slot, r.node, r.store, r.index, trace, row,
            self().generated_views(), self().generated_synapses()});
  }
  void record_voltages(const ExecutionSpace& exec, const Kokkos::View<int*, memory_space>& slot,
                       const Kokkos::View<int*, memory_space>& node,
                       const TraceView<memory_space>& trace, int row) const {
    record_slot_voltages(exec, self().voltages(), slot, node, trace, row);
  }
  template <class GidOfSlot>
  void check_voltages(const ExecutionSpace& exec, double time_ms, const GidOfSlot& gid) const {
    const auto& size = c_.size;
    hinesbatch::check_voltages(exec, self().voltages(), size, static_cast<int>(size.extent(0)),
                               time_ms, gid);
  }

  // The schedules that launch once per step (cells, tiles; on_chip hides both with its epoch
  // kernel), given Derived's step(exec, step) and generated_synapses(): before step
  // first + j its events, after it row j + 1 of trace.
  void run_steps(const ExecutionSpace& exec, std::int64_t first, int count,
                 const StepEvents<memory_space>& events,
                 const TraceView<memory_space>& trace) const {
    for (int j = 0; j < count; ++j) {
      apply_step_events(exec, events, events.step_begin[j], events.step_begin[j + 1], first + j);
      self().step(exec, first + j);
      record(exec, trace, j + 1);
    }
  }

  // Events [begin, end) before global step `step` (at t = step dt): the built-in ExpSyn's, or
  // with point-process synapses (a GeneratedSynapses) theirs too. Asynchronous.
  void apply_step_events(const ExecutionSpace& exec, const StepEvents<memory_space>& events,
                         int begin, int end, std::int64_t step) const {
    const auto& syn = self().generated_synapses();
    if (!generated_ || syn.mech.extent(0) == 0) {
      apply_synaptic_events(exec, events.syn, events.w, c_.syn_g, begin, end);
      return;
    }
    using Synapses = std::decay_t<decltype(syn)>;
    if (end > begin)
      Kokkos::parallel_for("hinesbatch::sim_apply_events",
                           Kokkos::RangePolicy<ExecutionSpace>(exec, begin, end),
                           ApplyGeneratedSynapticEvents<memory_space, Synapses>{
                               events.syn, events.w, c_.syn_g, syn, begin, end,
                               static_cast<double>(step) * params_.dt, events.details});
    if constexpr (Synapses::kSelfEvents) {
      if (syn.self_capacity > 0)
        Kokkos::parallel_for(
            "hinesbatch::sim_self_events",
            Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(syn.mech.extent(0))),
            DeliverSelfEvents<memory_space, Synapses>{syn, events.details.vectors, step});
    }
  }

 protected:
  // What every schedule's construct takes from the shared setup first.
  void take_shared(const ScheduleSetup<ExecutionSpace>& setup) {
    params_ = setup.params;
    q10_ = setup.q10;
    max_nodes_ = setup.max_nodes;
    cells_ = setup.num_cells();
    c_ = setup.shared;
  }

  // The templates' generated mechanisms laid out (generated_layout.hpp) and on the device:
  // their views g and their synapses' point processes syn, for a step described by `where`
  // (the metrics' detail). extra: setup_generated_views' last arguments. Sets generated_.
  template <class Catalogue, class GenViews, class Synapses, class... Extra>
  void setup_generated_mechanisms(const ScheduleSetup<ExecutionSpace>& setup, const char* where,
                                  GenViews& g, Synapses& syn, Extra... extra) {
    template_of_slot_ = setup.template_of_slot;
    const MechanismCatalogue& cat = nmodl::description<Catalogue>();
    generated_ = setup_generated_views(setup.exec, setup.templates, setup.template_of_slot, cat,
                                       params_, where, layouts_, g, generated_detail_, extra...);
    if (generated_)
      syn = make_generated_synapses<Catalogue>(setup.exec, setup.templates, setup.template_of_slot,
                                               setup.syn_begin_of_slot, cat, params_);
  }

  CellGroupViews<ExecutionSpace> c_;  // the shared Views and the schedule's own
  SimulationParameters params_;
  double q10_ = 1;
  int max_nodes_ = 1, cells_ = 0;  // the slots' largest size, and their count
  bool generated_ = false;
  std::string generated_detail_;
  Recordings<memory_space> records_;
  std::vector<GeneratedTemplate> layouts_;  // per template, where records find their values
  std::vector<int> template_of_slot_;

 private:
  const Derived& self() const { return static_cast<const Derived&>(*this); }
};

}  // namespace impl
}  // namespace hinesbatch
