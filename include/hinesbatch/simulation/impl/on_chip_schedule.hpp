#pragma once
// The on-chip schedule, the default on a GPU (OnChipSteps): a team per cell runs
// a whole epoch in one launch with the cell's system in team scratch (the kernel:
// cell_epoch_on_chip.hpp). Its setup: the capacity (each cell's rows of voltages and hh
// gates are as long as the largest cell's), the templates' constants as one cached block
// per template, each slot's synapses grouped by node, each tree's CellLanePlan for the
// lanes of its launch, and the launches themselves: on_chip_launch_plan.hpp chooses them
// from what the Kokkos in use reports for the kernel (on_chip_device) and refuses, by name,
// a cell no kind of launch can take. Templates' generated (NMODL) mechanisms run inside the
// same kernel (generated_cells.hpp: their rows per slot, lanes over each mechanism's nodes);
// the kernel is compiled with them only when some template uses one.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/core/impl/launch_streams.hpp"
#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/impl/cell_epoch_on_chip.hpp"
#include "hinesbatch/simulation/impl/cell_templates.hpp"
#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/on_chip_launch_plan.hpp"
#include "hinesbatch/simulation/impl/step_schedule.hpp"
#include "hinesbatch/simulation/impl/voltage_check.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "hinesbatch/solvers/impl/hines_lanes.hpp"

namespace hinesbatch::impl {

// The on-chip schedule's gates (OnChipCellLists::gates) at rest at v_init, as InitCells
// sets the other schedules' (hh_initial_states).
template <class ExecutionSpace>
struct InitOnChipGates {
  OnChipCellLists<typename ExecutionSpace::memory_space> l;
  Kokkos::View<const int*, typename ExecutionSpace::memory_space> size;
  int hh_capacity;
  double v_init, q10;
  KOKKOS_INLINE_FUNCTION void operator()(const int s) const {
    double* g = l.gates.data() + std::size_t(3) * hh_capacity * s;
    const int b = l.constant_begin(s);
    for (int i = 0; i < size(s); ++i) {
      const int h = l.hh_slot(b + i);
      if (h >= 0)
        mechanisms::hh_initial_states(v_init, q10, g[h], g[hh_capacity + h],
                                      g[2 * hh_capacity + h]);
    }
  }
};

// Catalogue: the compiled catalogue whose mechanisms the templates' `generated` lists name.
template <class ExecutionSpace, class Catalogue>
class OnChipSchedule
    : public ScheduleVoltages<OnChipSchedule<ExecutionSpace, Catalogue>, ExecutionSpace> {
 public:
  using views = CellGroupViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;
  // A team per slot: each slot's rows contiguous, so the lanes' nodes are too.
  using Generated = GeneratedCells<ExecutionSpace, Catalogue, Kokkos::LayoutRight>;
  using Base = ScheduleVoltages<OnChipSchedule<ExecutionSpace, Catalogue>, ExecutionSpace>;
  using Base::c_, Base::params_, Base::q10_, Base::max_nodes_, Base::cells_, Base::generated_;
  using Base::generated_detail_;

  static const char* schedule_name() { return "on_chip"; }
  // The lanes of a team (the first launch's).
  int team_lanes() const { return launches_.empty() ? 1 : launches_.front().lanes; }
  int tile_cells() const { return 1; }
  // What the launches say.
  std::string detail() const {
    std::string out;
    for (const OnChipLaunch& l : launches_) out += (out.empty() ? "" : "; ") + l.why;
    return generated_detail_.empty() ? out : out + "; " + generated_detail_;
  }
  const std::vector<OnChipLaunch>& launches() const { return launches_; }

  // The shared Views and v (slot, node), the capacity, the lists and the launches; throws
  // InputError naming a cell that no launch can take.
  void construct(const ScheduleSetup<ExecutionSpace>& setup) {
    this->take_shared(setup);
    count_on_chip_capacity(setup.templates, setup.net, setup.gid_of_slot);
    c_.v = typename views::nodes_d(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::v")), cells_, max_nodes_);
    setup_generated(setup);
    build_on_chip_lists(setup);
    setup.exec.fence();
  }

  // Per slot, in column order (the epoch kernel records each cell's own nodes).
  // Records other than v read the generated mechanisms' storage at their RecordPlace.
  void set_records(const ExecutionSpace& exec, const Recordings<memory_space>& rec,
                   const std::vector<int>& slot, const std::vector<int>& node,
                   const std::vector<RecordedVariable>& variables) {
    this->records_ = rec;
    std::vector<int> store, index;
    record_places(this->layouts_, this->template_of_slot_, nmodl::description<Catalogue>(), slot,
                  node, variables, store, index,
                  synapse_record_places(gen_.syn, c_.syn_begin, variables));
    std::vector<int> begin(cells_ + 1, 0), nodes(slot.size()), columns(slot.size());
    std::vector<int> stores(store.size()), indices(index.size());
    for (int s : slot) ++begin[s + 1];
    for (int s = 0; s < cells_; ++s) begin[s + 1] += begin[s];
    std::vector<int> at(begin.begin(), begin.end() - 1);
    for (std::size_t r = 0; r < slot.size(); ++r) {
      const int q = at[slot[r]]++;
      nodes[q] = node[r];
      columns[q] = static_cast<int>(r);
      if (!store.empty()) {
        stores[q] = store[r];
        indices[q] = index[r];
      }
    }
    lists_.record_begin = to_device(exec, begin, "hb::rec_begin");
    lists_.record_node = to_device(exec, nodes, "hb::rec_node_of_slot");
    lists_.record_column = to_device(exec, columns, "hb::rec_column");
    if (store.empty()) return;
    this->records_.store = to_device(exec, store, "hb::rec_store");
    this->records_.index = to_device(exec, index, "hb::rec_index");
    lists_.record_store = to_device(exec, stores, "hb::rec_store_of_slot");
    lists_.record_index = to_device(exec, indices, "hb::rec_index_of_slot");
  }

  // Records of any variable: ScheduleVoltages::record_values writes the first row (after
  // initialisation), the epoch kernel the others.
  const typename Generated::Views& generated_views() const { return gen_.g; }
  const auto& generated_synapses() const { return gen_.syn; }

  void initialize(const ExecutionSpace& exec) {
    init_cells(exec, c_, cells_, params_.v_init, q10_, false, generated_, gen_);
    Kokkos::parallel_for(
        "hinesbatch::sim_init_on_chip_gates", Kokkos::RangePolicy<ExecutionSpace>(exec, 0, cells_),
        InitOnChipGates<ExecutionSpace>{lists_, c_.size, on_chip_hh_, params_.v_init, q10_});
  }

  // One launch per planned launch for the whole epoch (events located per cell and step
  // first), each recording its cells' nodes after every step.
  void run_steps(const ExecutionSpace& exec, std::int64_t first, int count,
                 const StepEvents<memory_space>& events, const TraceView<memory_space>& trace) {
    const auto& syn = events.syn;
    const auto& w = events.w;
    const int nc = cells_;
    Kokkos::View<const int*, memory_space> cell_events;
    if (events.step_begin[count] > 0) {
      const std::size_t entries = static_cast<std::size_t>(count) * (nc + 1);
      if (cell_events_.extent(0) < entries)
        cell_events_ = Kokkos::View<int*, memory_space>(
            Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::cell_events")),
            entries);
      Kokkos::parallel_for("hinesbatch::sim_locate_cell_events",
                           Kokkos::RangePolicy<ExecutionSpace>(exec, 0, static_cast<int>(entries)),
                           LocateCellEvents<memory_space>{syn, events.step_begin_device,
                                                          c_.syn_begin, cell_events_, nc});
      cell_events = cell_events_;
    }
    if (generated_)
      launch_epoch<Generated>(exec, first, count, syn, w, cell_events, trace, gen_, events.details);
    else
      launch_epoch<NoGenerated>(exec, first, count, syn, w, cell_events, trace, NoGenerated{},
                                events.details);
  }

  // v (slot, node), current between epochs.
  Kokkos::View<const double**, typename ExecutionSpace::array_layout, memory_space> voltages()
      const {
    return c_.v;
  }

 private:
  // The planned launches for the epoch, with the generated mechanisms' hooks Gen.
  template <class Gen, class Syn, class W, class CellEvents>
  void launch_epoch(const ExecutionSpace& exec, std::int64_t first, int count, const Syn& syn,
                    const W& w, const CellEvents& cell_events, const TraceView<memory_space>& trace,
                    const Gen& gen, const EventDetails<memory_space>& details) const {
    const double dt = params_.dt;
    // The launches hold disjoint cells: side by side on streams of their own, the next
    // launch's teams fill the SMs that the one before leaves idle in its last wave.
    streams_.reserve(static_cast<int>(launches_.size()));
    streams_.fork(exec);
    for (std::size_t i = 0; i < launches_.size(); ++i) {
      const OnChipLaunch& l = launches_[i];
      const ExecutionSpace& space = streams_.space(exec, static_cast<int>(i));
      const int cells = l.slot_end - l.slot_begin;
      const auto bytes = Kokkos::PerTeam(OnChipCell::scratch_bytes(l.scratch_nodes, l.fill));
      const auto step = [&](auto level, auto fill) {
        return StepCellEpochOnChip<ExecutionSpace, views, decltype(level)::value, Gen,
                                   decltype(fill)::value>{
            c_,          lists_,       syn,
            w,           cell_events,  trace,
            dt,          params_.ena,  params_.ek,
            q10_,        first,        count,
            cells_,      max_nodes_,   on_chip_nodes_,
            on_chip_hh_, l.slot_begin, l.scratch_nodes,
            gen,         details};
      };
      using level0 = std::integral_constant<int, 0>;
      using level1 = std::integral_constant<int, 1>;
      using plain = std::false_type;
      // Only teams with d and rhs in shared memory take plans that split spines
      // (on_chip_launch_plan.cpp): the other kinds' kernels have none of the fill's code.
      if (l.kind == OnChipLaunch::kWarpPerCell)
        launch("hinesbatch::sim_epoch_on_chip_warp",
               Kokkos::TeamPolicy<ExecutionSpace, OnChipWarpBounds>(space, cells, l.lanes)
                   .set_scratch_size(0, bytes),
               step(level0{}, plain{}));
      else if (l.kind == OnChipLaunch::kTeamPerCell && l.fill)
        launch("hinesbatch::sim_epoch_on_chip_team_split",
               Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(space, cells, l.lanes)
                   .set_scratch_size(0, bytes),
               step(level0{}, std::true_type{}));
      else if (l.kind == OnChipLaunch::kTeamPerCell)
        launch("hinesbatch::sim_epoch_on_chip_team",
               Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(space, cells, l.lanes)
                   .set_scratch_size(0, bytes),
               step(level0{}, plain{}));
      else
        launch("hinesbatch::sim_epoch_on_chip_team_in_memory",
               Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(space, cells, l.lanes)
                   .set_scratch_size(1, bytes),
               step(level1{}, plain{}));
    }
    streams_.join(exec);
  }

  // One launch of the epoch, free to run beside the others (side_by_side_policy).
  template <class Policy, class Functor>
  static void launch(const char* name, const Policy& policy, const Functor& functor) {
    Kokkos::parallel_for(name, side_by_side_policy<Functor>(policy), functor);
  }

  // The templates' generated mechanisms laid out (generated_layout.hpp) and on the device,
  // (slot, row) rows contiguous per slot.
  void setup_generated(const ScheduleSetup<ExecutionSpace>& setup) {
    this->template setup_generated_mechanisms<Catalogue>(
        setup, "over each team's lanes", gen_.g, gen_.syn, team_range_by_position(setup.exec));
  }

  // The on-chip schedule's rows: the most nodes and hh nodes of any cell (each cell's
  // voltages and gates rows are that long), and the hh nodes of each template.
  void count_on_chip_capacity(const std::vector<CellTemplate>& templates, const NetworkSpec& net,
                              const std::vector<std::int64_t>& gids) {
    hh_of_template_.assign(templates.size(), -1);
    on_chip_nodes_ = 1;
    on_chip_hh_ = 0;
    for (std::int64_t g : gids) {
      const int k = net.template_of(g);
      const CellTemplate& t = templates[k];
      if (hh_of_template_[k] < 0) {
        std::vector<char> hh(t.compartments.size(), 0);
        for (const DensityMechanism& m : t.density)
          if (m.kind == DensityMechanism::HH) for_each_node_of(t, m, [&](int i) { hh[i] = 1; });
        hh_of_template_[k] = static_cast<int>(std::count(hh.begin(), hh.end(), 1));
      }
      on_chip_nodes_ = std::max(on_chip_nodes_, t.compartments.size());
      on_chip_hh_ = std::max(on_chip_hh_, hh_of_template_[k]);
    }
  }

  // What the device allows the epoch kernel, as the Kokkos in use reports it for the
  // kernels run_steps launches (with the generated mechanisms' hooks Gen).
  template <class Gen>
  static OnChipDevice on_chip_device() {
    OnChipDevice d;
    d.gpu = !is_host_backend<ExecutionSpace>();
    d.scratch0_max = static_cast<std::size_t>(
        Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(1, 1).scratch_size_max(0));
    d.scratch1_max = static_cast<std::size_t>(
        Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(1, 1).scratch_size_max(1));
    using Step0 = StepCellEpochOnChip<ExecutionSpace, views, 0, Gen>;
    using Step1 = StepCellEpochOnChip<ExecutionSpace, views, 1, Gen>;
    d.warp_team_max = [](std::size_t bytes) {
      return side_by_side_policy<Step0>(
                 Kokkos::TeamPolicy<ExecutionSpace, OnChipWarpBounds>(1, 1).set_scratch_size(
                     0, Kokkos::PerTeam(bytes)))
          .team_size_max(Step0{}, Kokkos::ParallelForTag());
    };
    d.team_max = [](std::size_t bytes, int level) {
      auto p = Kokkos::TeamPolicy<ExecutionSpace, OnChipTeamBounds>(1, 1);
      p.set_scratch_size(level, Kokkos::PerTeam(bytes));
      return level == 0
                 ? side_by_side_policy<Step0>(p).team_size_max(Step0{}, Kokkos::ParallelForTag())
                 : side_by_side_policy<Step1>(p).team_size_max(Step1{}, Kokkos::ParallelForTag());
    };
#if defined(KOKKOS_ENABLE_CUDA)
    if constexpr (std::is_same_v<ExecutionSpace, Kokkos::Cuda>) {
      int device = 0, sms = 1, shared = 0;
      cudaGetDevice(&device);
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
      cudaDeviceGetAttribute(&shared, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
      d.multiprocessors = std::max(1, sms);
      d.shared_per_sm = static_cast<std::size_t>(std::max(0, shared));
    }
#endif
    return d;
  }

  // The on-chip schedule's lists: per slot, its synapses grouped by node (its template's
  // groups, offset to the slot's synapses), its tree's CellLanePlan for the team's lanes
  // (one per distinct tree), and the templates' constants.
  void build_on_chip_lists(const ScheduleSetup<ExecutionSpace>& setup) {
    const ExecutionSpace& exec = setup.exec;
    const TemplateTrees& trees = setup.trees;
    const NetworkSpec& net = setup.net;
    const std::vector<CellTemplate>& templates = setup.templates;
    const std::vector<TemplateNodes>& nodes_of_template = setup.nodes_of_template;
    const std::vector<std::int64_t>& gid_of_slot = setup.gid_of_slot;
    const std::vector<int>& syn_begin_of_slot = setup.syn_begin_of_slot;
    // The launches, from each tree's plans for the lane counts they consider (each plan
    // made once).
    std::map<std::tuple<int, int, bool>, CellLanePlan> plan_of;  // (tree, lanes, split)
    const auto plan_for = [&](int tree, int lanes, bool split) -> const CellLanePlan& {
      auto it = plan_of.find({tree, lanes, split});
      if (it == plan_of.end())
        it = plan_of
                 .emplace(std::make_tuple(tree, lanes, split),
                          CellLanePlan::build(trees.parents[tree], lanes, split))
                 .first;
      return it->second;
    };
    OnChipCells cells;
    for (int s = 0; s < cells_; ++s) {
      const int k = net.template_of(gid_of_slot[s]);
      cells.nodes.push_back(static_cast<int>(templates[k].compartments.size()));
      cells.hh_nodes.push_back(hh_of_template_[k]);
      cells.tree.push_back(trees.tree_of_template[k]);
    }
    cells.critical_path = [&](int tree, int lanes, bool split) {
      return plan_for(tree, lanes, split).critical_path();
    };
    cells.fill = [&](int tree, int lanes) { return plan_for(tree, lanes, true).fill; };
    launches_ = plan_on_chip_launches(
        cells, generated_ ? on_chip_device<Generated>() : on_chip_device<NoGenerated>(),
        setup.on_chip_force);
    std::map<std::tuple<int, int, bool>, int> index_of;  // (tree, lanes, split) -> plan
    std::vector<int> plan_of_slot(cells_);
    LanePlanList plans;
    for (const OnChipLaunch& l : launches_)
      for (int s = l.slot_begin; s < l.slot_end; ++s) {
        const std::tuple<int, int, bool> key{cells.tree[s], l.lanes, l.fill};
        auto it = index_of.find(key);
        if (it == index_of.end())
          it = index_of.emplace(key, plans.add(plan_for(cells.tree[s], l.lanes, l.fill))).first;
        plan_of_slot[s] = it->second;
      }
    lists_.plan_of_slot = to_device(exec, plan_of_slot, "hb::plan_of_slot");
    lists_.plans = plans.to_device<memory_space>(exec);
    upload_template_blocks(exec, template_blocks(setup.template_of_slot, nodes_of_template));
    // A slot's groups are its template's; its group_syn entries are a permutation of its
    // synapses, so they start at its first synapse.
    std::vector<int> group_begin{0};
    for (int s = 0; s < cells_; ++s)
      group_begin.push_back(
          group_begin.back() +
          static_cast<int>(nodes_of_template[net.template_of(gid_of_slot[s])].group_node.size()));
    std::vector<int> group_node(group_begin.back()), group_first(group_begin.back() + 1, 0),
        group_syn(setup.num_synapses());
    Kokkos::parallel_for(
        "hinesbatch::sim_group_synapses",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, cells_), [&](const int s) {
          const TemplateNodes& k = nodes_of_template[net.template_of(gid_of_slot[s])];
          const int first_syn = syn_begin_of_slot[s], first_group = group_begin[s];
          for (std::size_t q = 0; q < k.group_syn.size(); ++q)
            group_syn[first_syn + q] = first_syn + k.group_syn[q];
          for (std::size_t g = 0; g < k.group_node.size(); ++g) {
            group_node[first_group + g] = k.group_node[g];
            group_first[first_group + g + 1] = first_syn + k.group_first[g + 1];
          }
        });
    Kokkos::DefaultHostExecutionSpace().fence();
    lists_.group_begin = to_device(exec, group_begin, "hb::syn_group_begin");
    lists_.group_node = to_device(exec, group_node, "hb::syn_group_node");
    lists_.group_first = to_device(exec, group_first, "hb::syn_group_first");
    lists_.group_syn = to_device(exec, group_syn, "hb::syn_group_syn");
    const std::vector<int> no_records(cells_ + 1, 0);
    lists_.record_begin = to_device(exec, no_records, "hb::rec_begin");
    lists_.record_node = lists_.record_column = typename views::vec_i("hb::rec_none", 0);
  }

  // The templates' blocks of constants on the device, and the cells' rows of gates and v.
  void upload_template_blocks(const ExecutionSpace& exec, const TemplateBlocks& b) {
    OnChipCellLists<memory_space>& l = lists_;
    l.constant_begin = to_device(exec, b.begin, "hb::constant_begin");
    l.parent = to_device(exec, b.parent, "hb::template_parent");
    l.hh_slot = to_device(exec, b.hh_slot, "hb::template_hh_slot");
    l.mechs = to_device(exec, b.mechs, "hb::template_mechs");
    l.d0 = to_device(exec, b.d0, "hb::template_d0");
    l.c_dt = to_device(exec, b.c_dt, "hb::template_c_dt");
    l.minus_g_axial = to_device(exec, b.minus_g_axial, "hb::template_minus_g_axial");
    l.pas_g = to_device(exec, b.pas_g, "hb::template_pas_g");
    l.pas_e = to_device(exec, b.pas_e, "hb::template_pas_e");
    l.hh_gna = to_device(exec, b.gna, "hb::template_gna");
    l.hh_gk = to_device(exec, b.gk, "hb::template_gk");
    l.hh_gl = to_device(exec, b.gl, "hb::template_gl");
    l.hh_el = to_device(exec, b.el, "hb::template_el");
    l.gates = Kokkos::View<double*, memory_space>(
        "hb::on_chip_gates", std::size_t(3) * std::max(on_chip_hh_, 1) * cells_);
    l.voltages = Kokkos::View<double*, memory_space>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hb::on_chip_voltages")),
        std::size_t(on_chip_nodes_) * cells_);
  }

  Generated gen_;
  int on_chip_nodes_ = 1, on_chip_hh_ = 0;  // each cell's rows of voltages and gates
  std::vector<int> hh_of_template_;
  std::vector<OnChipLaunch> launches_;
  OnChipCellLists<memory_space> lists_;
  Kokkos::View<int*, memory_space> cell_events_;   // LocateCellEvents' output, reused
  mutable LaunchStreams<ExecutionSpace> streams_;  // a stream per launch (CUDA)
};

}  // namespace hinesbatch::impl
