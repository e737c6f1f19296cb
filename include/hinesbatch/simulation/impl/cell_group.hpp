#pragma once
// The cells one rank simulates, on the device of ExecutionSpace, and the step
// schedule that advances them. CellGroup keeps what every schedule shares: the slots (the
// cells sorted by size), their gids, the synapses' numbering and common arrays, stimuli,
// detectors, the spike buffer and the solve status. It delegates the steps to one of three
// schedules (impl/step_schedule.hpp describes their interface), each with its own setup,
// capacity test and kernel launches:
//   cells    one work item per cell per step, (slot, node) storage (impl/cells_schedule.hpp)
//   tiles    the host default: a work item steps a tile of W cells of one tree, vectorised
//            over them (impl/tiles_schedule.hpp); HostSchedule::Cells keeps cells
//   on_chip  the GPU default: a team per cell runs a whole epoch with the cell's system in
//            team scratch (impl/on_chip_schedule.hpp); how each run of alike cells is
//            launched is on_chip_launch_plan.hpp's choice
// Templates' generated (NMODL) mechanisms of Catalogue (CellTemplate::generated) run in every
// schedule.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/morphology/cable_matrix.hpp"
#include "hinesbatch/simulation/impl/cell_templates.hpp"
#include "hinesbatch/simulation/impl/cells_schedule.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/mechanisms/detector.hpp"
#include "hinesbatch/simulation/impl/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/impl/mechanisms/pas.hpp"
#include "hinesbatch/simulation/impl/on_chip_launch_plan.hpp"
#include "hinesbatch/simulation/impl/on_chip_schedule.hpp"
#include "hinesbatch/simulation/impl/step_schedule.hpp"
#include "hinesbatch/simulation/impl/tiles_schedule.hpp"
#include "hinesbatch/simulation/impl/voltage_check.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/simulation/nmodl/defaults/defaults.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"
#include "hinesbatch/simulation/run_options.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"

namespace hinesbatch {

namespace impl {

// The schedules an execution space can run: the tiles schedule on host ones only.
template <class ExecutionSpace, class Catalogue>
using StepSchedules = std::conditional_t<
    is_host_backend<ExecutionSpace>(),
    std::variant<CellsSchedule<ExecutionSpace, Catalogue>, TilesSchedule<ExecutionSpace, Catalogue>,
                 OnChipSchedule<ExecutionSpace, Catalogue>>,
    std::variant<CellsSchedule<ExecutionSpace, Catalogue>,
                 OnChipSchedule<ExecutionSpace, Catalogue>>>;

}  // namespace impl

// One rank's cells. Slots are the cells sorted by node count (descending, ties by gid).
// Catalogue: the compiled mechanism catalogue that the templates' generated mechanisms
// come from (the library's default one unless a program compiles its own).
template <class ExecutionSpace, class Catalogue = nmodl::defaults::defaults>
class CellGroup {
 public:
  using views = CellGroupViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;

  // schedule: HostSchedule::Tiles takes effect on host execution spaces only; on_chip:
  // OnChipSteps (run_options.hpp), which wins over schedule where it applies.
  CellGroup(const ExecutionSpace& exec, const std::vector<CellTemplate>& templates,
            const NetworkSpec& net, const std::vector<std::int64_t>& gids,
            const SimulationParameters& p, int spike_capacity_steps,
            HostSchedule schedule = HostSchedule::Cells, OnChipSteps on_chip = OnChipSteps::Off,
            OnChipForce on_chip_force = {})
      : params_(p) {
    using impl::ScheduleKind;
    const int nc = static_cast<int>(gids.size());
    const bool chip = on_chip == OnChipSteps::On ||
                      (on_chip == OnChipSteps::Auto && !is_host_backend<ExecutionSpace>());
    kind_ = chip ? ScheduleKind::OnChip
            : is_host_backend<ExecutionSpace>() && schedule == HostSchedule::Tiles
                ? ScheduleKind::Tiles
                : ScheduleKind::Cells;
    gid_of_slot_.assign(gids.begin(), gids.end());
    const impl::TemplateTrees trees =
        impl::uses_trees(kind_) ? impl::distinct_trees(templates) : impl::TemplateTrees{};
    // Lanes: cells of one tree next to each other, so that consecutive slots fill tiles.
    const bool by_tree = impl::slots_by_tree(kind_);
    std::stable_sort(gid_of_slot_.begin(), gid_of_slot_.end(), [&](std::int64_t a, std::int64_t b) {
      const int na = templates[net.template_of(a)].compartments.size();
      const int nb = templates[net.template_of(b)].compartments.size();
      if (na != nb) return na > nb;
      const int ta = by_tree ? trees.tree_of_template[net.template_of(a)] : 0;
      const int tb = by_tree ? trees.tree_of_template[net.template_of(b)] : 0;
      return ta != tb ? ta < tb : a < b;
    });
    max_nodes_ = 1;
    for (std::int64_t g : gid_of_slot_) {
      const int n = templates[net.template_of(g)].compartments.size();
      max_nodes_ = std::max(max_nodes_, n);
      num_nodes_ += n;
    }
    views& c = state_;
    c.size = typename views::vec_i("hb::size", nc);
    std::vector<impl::TemplateNodes> nodes_of_template;
    for (const CellTemplate& t : templates) {
      nodes_of_template.push_back(impl::template_nodes(t, p.dt));
      // Generated leaks (pas.mod) join the built-in passive terms, in every schedule.
      impl::fold_generated_leaks(t, nmodl::description<Catalogue>(), p, nodes_of_template.back());
    }
    auto hsize = Kokkos::create_mirror_view(c.size);
    std::vector<int> stim_begin{0}, stim_node, det_node;
    std::vector<double> stim_del, stim_dur, stim_amp, det_thr;
    // Synapses are numbered slot by slot (int indices, as the kernels read them).
    syn_begin_of_slot_.assign(1, 0);
    for (int s = 0; s < nc; ++s) {
      const std::int64_t gid = gid_of_slot_[s];
      slot_of_gid_[gid] = s;
      const CellTemplate& t = templates[net.template_of(gid)];
      hsize(s) = t.compartments.size();
      const std::int64_t syn_end = std::int64_t(syn_begin_of_slot_.back()) + t.synapses.size();
      if (syn_end > std::numeric_limits<int>::max())
        throw InputError("a rank's cells have more than " +
                             std::to_string(std::numeric_limits<int>::max()) +
                             " synapses (at gid " + std::to_string(gid) + "): use more ranks",
                         {}, 0, std::to_string(syn_end));
      syn_begin_of_slot_.push_back(static_cast<int>(syn_end));
      std::vector<IClampSpec> stims = t.iclamps;
      for (const IClampSpec& x : net.stimulus(gid, t).iclamps) stims.push_back(x);
      for (const IClampSpec& x : stims) {
        stim_node.push_back(t.compartments.node_at(x.where));
        stim_del.push_back(x.del);
        stim_dur.push_back(x.dur);
        stim_amp.push_back(x.amp);
      }
      stim_begin.push_back(static_cast<int>(stim_node.size()));
      det_node.push_back(t.detector.present ? t.compartments.node_at(t.detector.where) : -1);
      det_thr.push_back(t.detector.threshold);
    }
    Kokkos::deep_copy(exec, c.size, hsize);
    fill_synapses(exec, net, nodes_of_template, impl::uses_synapse_nodes(kind_));
    exec.fence();
    c.stim_begin = impl::to_device(exec, stim_begin, "hb::stim_begin");
    c.stim_node = impl::to_device(exec, stim_node, "hb::stim_node");
    c.stim_del = impl::to_device(exec, stim_del, "hb::stim_del");
    c.stim_dur = impl::to_device(exec, stim_dur, "hb::stim_dur");
    c.stim_amp = impl::to_device(exec, stim_amp, "hb::stim_amp");
    c.det_node = impl::to_device(exec, det_node, "hb::det_node");
    c.det_threshold = impl::to_device(exec, det_thr, "hb::det_threshold");
    c.det_flag = typename views::vec_i("hb::det_flag", nc);
    c.spike_count = Kokkos::View<int, memory_space>("hb::spike_count");
    const std::size_t cap = static_cast<std::size_t>(nc) * std::max(1, spike_capacity_steps);
    c.spike_slot = typename views::vec_i("hb::spike_slot", cap);
    c.spike_step = typename views::vec_i("hb::spike_step", cap);
    // Host copies made once: take_spikes() runs every epoch.
    spike_count_host_ = Kokkos::create_mirror_view(c.spike_count);
    spike_slot_host_ = Kokkos::create_mirror_view(c.spike_slot);
    spike_step_host_ = Kokkos::create_mirror_view(c.spike_step);
    q10_ = hh_q10(p.celsius);
    c.status = make_solve_status<memory_space>();
    exec.fence();
    // The chosen schedule's own storage, from the shared slot data.
    std::vector<int> template_of_slot(nc);
    for (int s = 0; s < nc; ++s) template_of_slot[s] = net.template_of(gid_of_slot_[s]);
    const impl::ScheduleSetup<ExecutionSpace> setup{exec,
                                                    templates,
                                                    net,
                                                    gid_of_slot_,
                                                    template_of_slot,
                                                    nodes_of_template,
                                                    trees,
                                                    syn_begin_of_slot_,
                                                    state_,
                                                    params_,
                                                    q10_,
                                                    max_nodes_,
                                                    on_chip_force};
    if (kind_ == ScheduleKind::OnChip)
      schedule_.template emplace<impl::OnChipSchedule<ExecutionSpace, Catalogue>>();
    if constexpr (is_host_backend<ExecutionSpace>()) {
      if (kind_ == ScheduleKind::Tiles)
        schedule_.template emplace<impl::TilesSchedule<ExecutionSpace, Catalogue>>();
    }
    std::visit([&](auto& s) { s.construct(setup); }, schedule_);
  }

  int num_cells() const { return static_cast<int>(gid_of_slot_.size()); }
  int max_nodes() const { return max_nodes_; }
  std::int64_t num_nodes() const { return num_nodes_; }
  int num_synapses() const { return syn_begin_of_slot_.empty() ? 0 : syn_begin_of_slot_.back(); }
  std::int64_t gid_of_slot(int s) const { return gid_of_slot_[s]; }
  int slot_of_gid(std::int64_t gid) const {
    const auto it = slot_of_gid_.find(gid);
    return it == slot_of_gid_.end() ? -1 : it->second;
  }
  // Local synapse index of (gid, synapse k of its template).
  int synapse_index(std::int64_t gid, int k) const {
    const int s = slot_of_gid(gid);
    return syn_begin_of_slot_[s] + k;
  }
  int synapses_of(std::int64_t gid) const {
    const int s = slot_of_gid(gid);
    return syn_begin_of_slot_[s + 1] - syn_begin_of_slot_[s];
  }
  // The group's Views: the shared ones and the schedule's (CellGroupViews says which).
  const views& data() const {
    return std::visit([](const auto& s) -> const views& { return s.data(); }, schedule_);
  }

  // "on_chip", "tiles" or "cells": the schedule run_steps() runs; team_lanes() the threads
  // that step one cell together (on_chip: a team's size; else 1), tile_cells() the cells one
  // work item steps at once (tiles: W; else 1).
  const char* schedule_name() const {
    return std::visit([](const auto& s) { return s.schedule_name(); }, schedule_);
  }
  int team_lanes() const {
    return std::visit([](const auto& s) { return s.team_lanes(); }, schedule_);
  }
  int tile_cells() const {
    return std::visit([](const auto& s) { return s.tile_cells(); }, schedule_);
  }
  // What the schedule's setup chose (on_chip: what its launches say; any schedule: the
  // generated mechanisms it runs; else empty).
  std::string schedule_detail() const {
    return std::visit([](const auto& s) { return s.detail(); }, schedule_);
  }
  // The tiles schedule's tiles (0 under the other schedules), and whether a tile's d and
  // rhs live in team scratch (else in memory: cells too large).
  int num_tiles() const {
    if constexpr (is_host_backend<ExecutionSpace>()) {
      if (const auto* l = std::get_if<impl::TilesSchedule<ExecutionSpace, Catalogue>>(&schedule_))
        return l->num_tiles();
    }
    return 0;
  }
  bool tiles_in_scratch() const {
    if constexpr (is_host_backend<ExecutionSpace>()) {
      if (const auto* l = std::get_if<impl::TilesSchedule<ExecutionSpace, Catalogue>>(&schedule_))
        return l->tiles_in_scratch();
    }
    return false;
  }
  // The on-chip schedule's launches (empty under the other schedules).
  const std::vector<OnChipLaunch>& on_chip_launches() const {
    static const std::vector<OnChipLaunch> none;
    const auto* o = std::get_if<impl::OnChipSchedule<ExecutionSpace, Catalogue>>(&schedule_);
    return o ? o->launches() : none;
  }

  void initialize(const ExecutionSpace& exec) {
    std::visit([&](auto& s) { s.initialize(exec); }, schedule_);
  }
  // After initialize(): NET_RECEIVE's INITIAL of the connections that keep weight vectors,
  // at t = 0 (impl::InitializeWeightVectors: per synapse, its vectors in order).
  // Asynchronous.
  void initialize_weight_vectors(const ExecutionSpace& exec,
                                 const Kokkos::View<const int*, memory_space>& synapse,
                                 const Kokkos::View<const int*, memory_space>& begin,
                                 const Kokkos::View<const int*, memory_space>& first,
                                 const Kokkos::View<double*, memory_space>& vectors) const {
    const int n = static_cast<int>(synapse.extent(0));
    if (n == 0) return;
    std::visit(
        [&](const auto& s) {
          using Synapses = std::decay_t<decltype(s.generated_synapses())>;
          Kokkos::parallel_for("hinesbatch::sim_init_weight_vectors",
                               Kokkos::RangePolicy<ExecutionSpace>(exec, 0, n),
                               impl::InitializeWeightVectors<memory_space, Synapses>{
                                   s.generated_synapses(), synapse, begin, first, vectors});
        },
        schedule_);
  }
  // The recordings: trace column r is variables[r] (v where variables is empty or says so)
  // at node[r] of slot[r]. Set once, before run_steps.
  void set_records(const ExecutionSpace& exec, const std::vector<int>& slot,
                   const std::vector<int>& node,
                   std::vector<impl::RecordedVariable> variables = {}) {
    variables.resize(slot.size());
    const impl::Recordings<memory_space> r{impl::to_device(exec, slot, "hb::rec_slot"),
                                           impl::to_device(exec, node, "hb::rec_node"),
                                           {},
                                           {}};
    std::visit([&](auto& s) { s.set_records(exec, r, slot, node, variables); }, schedule_);
  }
  // Steps [first, first + count): before step first + j, its events [step_begin[j],
  // step_begin[j + 1]) of (syn, w) (sorted by synapse; step_begin_device: the same offsets
  // on the device; details: their times and connections' vectors where a point process
  // needs them) reach their synapses; after it, row j + 1 of trace gets the recordings.
  // Asynchronous.
  void run_steps(const ExecutionSpace& exec, std::int64_t first, int count,
                 const Kokkos::View<const int*, memory_space>& syn,
                 const Kokkos::View<const double*, memory_space>& w,
                 const std::vector<int>& step_begin,
                 const Kokkos::View<const int*, memory_space>& step_begin_device,
                 const impl::EventDetails<memory_space>& details,
                 const Kokkos::View<double**, Kokkos::LayoutRight, memory_space>& trace) {
    const impl::StepEvents<memory_space> events{syn, w, step_begin, step_begin_device, details};
    std::visit([&](auto& s) { s.run_steps(exec, first, count, events, trace); }, schedule_);
  }
  // Record row `row` of trace from the recordings of set_records. Asynchronous.
  void record(const ExecutionSpace& exec,
              const Kokkos::View<double**, Kokkos::LayoutRight, memory_space>& trace,
              int row) const {
    std::visit([&](const auto& s) { s.record(exec, trace, row); }, schedule_);
  }
  // Adds the events [begin, end) of (synapse, weight), due at this step, to the synapses'
  // conductances. Asynchronous.
  void apply_synaptic_events(const ExecutionSpace& exec,
                             const Kokkos::View<const int*, memory_space>& syn,
                             const Kokkos::View<const double*, memory_space>& w, int begin,
                             int end) {
    impl::apply_synaptic_events(exec, syn, w, state_.syn_g, begin, end);
  }
  // Spikes since the last call, as (gid, step); fences exec. Throws SolverError if a
  // solve failed (naming gid and node) or the spike buffer overflowed.
  std::vector<Spike> take_spikes(const ExecutionSpace& exec) {
    Kokkos::deep_copy(exec, spike_count_host_, state_.spike_count);
    exec.fence();
    const int count = spike_count_host_();
    check(exec);
    if (count > static_cast<int>(state_.spike_slot.extent(0)))
      throw SolverError("hinesbatch: spike buffer overflow (" + std::to_string(count) + " spikes)");
    std::vector<Spike> out(count);
    if (count > 0) {
      const auto& hs = spike_slot_host_;
      const auto& ht = spike_step_host_;
      const auto r = std::make_pair(0, count);
      Kokkos::deep_copy(exec, Kokkos::subview(hs, r), Kokkos::subview(state_.spike_slot, r));
      Kokkos::deep_copy(exec, Kokkos::subview(ht, r), Kokkos::subview(state_.spike_step, r));
      exec.fence();
      for (int k = 0; k < count; ++k) out[k] = {gid_of_slot_[hs(k)], ht(k)};
      Kokkos::deep_copy(exec, state_.spike_count, 0);
      exec.fence();
    }
    return out;
  }
  // Throws SolverError if a voltage is non-finite or beyond kMaxAbsVoltageMv (voltage_check.hpp).
  void check_voltages(const ExecutionSpace& exec, double time_ms) const {
    const auto gid = [this](int s) { return gid_of_slot_[s]; };
    std::visit([&](const auto& s) { s.check_voltages(exec, time_ms, gid); }, schedule_);
  }
  // trace(row, r) = v(slot(r), node(r)) for the r < slot.extent(0) recordings. Asynchronous.
  void record_voltages(const ExecutionSpace& exec, const Kokkos::View<int*, memory_space>& slot,
                       const Kokkos::View<int*, memory_space>& node,
                       const Kokkos::View<double**, Kokkos::LayoutRight, memory_space>& trace,
                       int row) const {
    std::visit([&](const auto& s) { s.record_voltages(exec, slot, node, trace, row); }, schedule_);
  }

  void check(const ExecutionSpace& exec) const {
    check_self_events(exec);
    const auto r = take_solve_status(exec, state_.status);
    if (!r.failed()) return;
    const long long gid = gid_of_slot_[r.key() / max_nodes_], node = r.key() % max_nodes_;
    throw_solve_failure("gid " + std::to_string(gid) + ", node " + std::to_string(node), r.pivot(),
                        {}, gid, node);
  }

 private:
  // InputError where a synapse's self-events (net_send) overflowed their slots.
  void check_self_events(const ExecutionSpace& exec) const {
    std::visit(
        [&](const auto& sched) {
          const auto& syn = sched.generated_synapses();
          using Synapses = std::decay_t<decltype(syn)>;
          if (syn.self_capacity == 0) return;
          int k = INT_MAX;
          exec.fence();
          Kokkos::deep_copy(k, syn.self_overflow);
          if (k == INT_MAX) return;
          const int slot = static_cast<int>(std::upper_bound(syn_begin_of_slot_.begin(),
                                                             syn_begin_of_slot_.end(), k) -
                                            syn_begin_of_slot_.begin()) -
                           1;
          throw InputError("synapse " + std::to_string(k - syn_begin_of_slot_[slot]) + " of gid " +
                               std::to_string(gid_of_slot_[slot]) +
                               ": its point process had more than " +
                               std::to_string(syn.self_capacity) +
                               " self-events (net_send) pending at once, or delivered more than " +
                               std::to_string(Synapses::kMaxSelfEventsPerStep) +
                               " in one step; raise run.self_events_per_synapse",
                           "run.self_events_per_synapse", 0, std::to_string(syn.self_capacity));
        },
        schedule_);
  }

  // Each slot's synapses (decay factor, reversal potential and, where the schedule reads
  // it, node) are its template's, from syn_begin_of_slot_; filled in parallel over slots
  // (the MPI+OpenMP tasking paper's literal network has 50 M).
  void fill_synapses(const ExecutionSpace& exec, const NetworkSpec& net,
                     const std::vector<impl::TemplateNodes>& nodes_of_template, bool nodes) {
    views& c = state_;
    const std::size_t total = static_cast<std::size_t>(num_synapses());
    const auto alloc = [&](auto& device_view, const char* label) {
      using View = std::decay_t<decltype(device_view)>;
      device_view =
          View(Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), total);
      return Kokkos::create_mirror_view(device_view);
    };
    // The on-chip schedule finds a synapse's node through its groups (OnChipCellLists).
    typename views::vec_i::HostMirror hnode;
    if (nodes) hnode = alloc(c.syn_node, "hb::syn_node");
    auto hdecay = alloc(c.syn_decay, "hb::syn_decay");
    auto he = alloc(c.syn_e, "hb::syn_e");
    Kokkos::parallel_for(
        "hinesbatch::sim_fill_synapses",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, num_cells()), [&](const int s) {
          const impl::TemplateNodes& k = nodes_of_template[net.template_of(gid_of_slot_[s])];
          const int b = syn_begin_of_slot_[s];
          for (std::size_t q = 0; q < k.syn_node.size(); ++q) {
            if (nodes) hnode(b + q) = k.syn_node[q];
            hdecay(b + q) = k.syn_decay[q];
            he(b + q) = k.syn_e[q];
          }
        });
    Kokkos::DefaultHostExecutionSpace().fence();
    if (nodes) Kokkos::deep_copy(exec, c.syn_node, hnode);
    Kokkos::deep_copy(exec, c.syn_decay, hdecay);
    Kokkos::deep_copy(exec, c.syn_e, he);
    c.syn_begin = impl::to_device(exec, syn_begin_of_slot_, "hb::syn_begin");
    c.syn_g = typename views::vec_d("hb::syn_g", total);
    exec.fence();  // before the host mirrors go
  }

  SimulationParameters params_;
  impl::ScheduleKind kind_ = impl::ScheduleKind::Cells;
  impl::StepSchedules<ExecutionSpace, Catalogue> schedule_;  // the one kind_ names
  std::vector<std::int64_t> gid_of_slot_;
  std::unordered_map<std::int64_t, int> slot_of_gid_;
  std::vector<int> syn_begin_of_slot_;
  int max_nodes_ = 1;
  std::int64_t num_nodes_ = 0;
  double q10_ = 1;
  views state_;  // the shared Views (CellGroupViews); the schedule's copy adds its own
  typename Kokkos::View<int, memory_space>::HostMirror spike_count_host_;
  typename views::vec_i::HostMirror spike_slot_host_, spike_step_host_;
};

}  // namespace hinesbatch
