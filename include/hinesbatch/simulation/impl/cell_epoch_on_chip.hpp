#pragma once
// The GPU's step schedule: one team (a warp on CUDA, one thread on a host) per
// cell runs every step of an epoch with the cell's system in team scratch. No spike can reach
// a cell from another one inside an epoch (the epoch is at most the minimum delay), so the
// epoch is one launch. What a cell has in common with every cell of its template (the
// constant diagonal, -g_axial, parents, mechanisms and their constants) is one block per
// template in global memory: all of a template's cells read the same block, so it stays in
// cache (L1 on a GPU). The cell's voltages and hh gates are in its own rows in memory: only
// the lane that owns a node reads them (assembly, update) and writes them (update), from
// L1/L2. Each step assembles the system for the new voltages themselves, not for dv as the
// cells schedule does, so no lane reads another lane's v. Team scratch keeps d and rhs,
// what the solve reads and writes across lanes: 16 B per node. Less scratch per cell is more
// cells per SM, and the launch bounds (OnChipWarpBounds) keep the registers from being
// the next limit. On an H100 (docs/SCALING.md), networks of 100,000 synthetic:p3 cells ran 1.5-1.6x
// faster with the constants out of scratch, and 1.2x faster again with v out of it and the
// launch bounds; keeping the system for dv with v in memory gained nothing (its solve reads
// other lanes' v from memory). Per step:
//   events    this step's events added to the cell's synapses (lanes over events)
//   assemble  d and rhs of every node from its mechanisms (lanes over nodes), then the
//             synapses (lanes over the nodes that carry synapses, each node's synapses in
//             order) and the IClamps (one lane)
//   solve     the Hines system over the lanes of a CellLanePlan (cell_lane_plan.hpp): level
//             by level each lane eliminates its pieces (whole subtrees, or chains between
//             branch points), then x level by level the other way. Sums the next entry of
//             a lane reads stay in registers, so the dependent chain per node is one
//             reciprocal and a few multiply-adds
//   update    v = x, hh gates, ExpSyn decay (lanes); the detector and the recordings.
// Synapses that run a point process of the catalogue (generated_synapses.hpp) take the
// built-in ExpSyn's place in events, assemble_synapses and update; where every synapse runs
// one point process, each of those passes dispatches to it once, not per synapse (the
// busyring's 51 synapses a cell ran 1.1x faster, docs/MECHANISMS.md).
// Generated (NMODL) mechanisms, where the templates have them, add their currents after the
// built-in ones and advance their states after update, each mechanism's nodes over the
// lanes (GeneratedCells::assemble_lanes, update_lanes).
// The cells schedule (StepCells in cells_schedule.hpp) runs the same mechanism functions and
// solves for dv; the two agree to rounding, not bit for bit (tested).
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>

#include "hinesbatch/layouts/solve_status.hpp"
#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/mechanisms/detector.hpp"
#include "hinesbatch/simulation/impl/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/impl/mechanisms/pas.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/solvers/impl/hines_lanes.hpp"
#include "hinesbatch/solvers/impl/hines_system.hpp"
#include "hinesbatch/solvers/on_chip.hpp"

namespace hinesbatch {
namespace impl {

// The epoch kernel's launch bounds on CUDA, one per kind of launch (OnChipLaunch):
//  - a warp per cell, at least kOnChipMinCellsPerSM cells per SM: the bounds cap the kernel
//    at 72 registers (86 without, which let only 20 cells run per SM where the synthetic:p3 cell's
//    7.7 KB of scratch allows 25 on an H100; 2.0 -> 2.3-2.5e10 compartment-steps/s on the
//    100,000-cell p3_synaptic network, docs/SCALING.md). Where an SM holds fewer blocks (16 on
//    Kepler, Turing and sm_86, 24 on Ada), the bound is that number: a larger one is
//    ignored with a ptxas warning. Only cells whose scratch lets that many teams share an
//    SM can take it (Kokkos' team_size_max says 0 otherwise).
//  - a team of up to 1,024 lanes per cell, one cell per SM at the least: any cell whose
//    scratch fits a block can take it; 64 registers, so 32 warps per SM.
// The macros are the same in the host and device passes, so the kernels' types are too.
// Host backends ignore the bounds.
#if defined(KOKKOS_ARCH_KEPLER) || defined(KOKKOS_ARCH_TURING75) || defined(KOKKOS_ARCH_AMPERE86)
inline constexpr unsigned kOnChipMinCellsPerSM = 16;
#elif defined(KOKKOS_ARCH_ADA89)
inline constexpr unsigned kOnChipMinCellsPerSM = 24;
#else
inline constexpr unsigned kOnChipMinCellsPerSM = 28;
#endif
using OnChipWarpBounds = Kokkos::LaunchBounds<32, kOnChipMinCellsPerSM>;
using OnChipTeamBounds = Kokkos::LaunchBounds<1024, 1>;

// Per-slot lists the on-chip schedule walks with its lanes (OnChipSchedule builds them).
template <class MemorySpace>
struct OnChipCellLists {
  using vec_i = Kokkos::View<int*, MemorySpace>;
  // Synapses grouped by node: slot s has groups [group_begin(s), group_begin(s + 1));
  // group g is node group_node(g) with synapses group_syn[group_first(g) .. group_first(g + 1))
  // in increasing index (the order the cells schedule adds them in).
  vec_i group_begin, group_node, group_first, group_syn;
  // Recordings: slot s has [record_begin(s), record_begin(s + 1)): node record_node(r) goes
  // to column record_column(r) of the trace. Where some record is not v, record_store and
  // record_index say where each one's value is (RecordPlace; empty: every record is v).
  vec_i record_begin, record_node, record_column;
  vec_i record_store, record_index;
  // The solve's plans (a CellLanePlan per tree, for the team's lanes): slot s uses plan
  // plan_of_slot(s) of `plans`.
  vec_i plan_of_slot;
  DeviceLanePlans<MemorySpace> plans;
  // The templates' constants: slot s's node i is entry constant_begin(s) + i. hh_slot
  // numbers a template's hh nodes in node order (-1: no hh), the index of their gates.
  template <class T>
  using cached = Kokkos::View<const T*, MemorySpace, Kokkos::MemoryTraits<Kokkos::RandomAccess>>;
  vec_i constant_begin;
  // The hh gates of slot s: m, h and n of its hh slots from gates(3 * hh_capacity * s).
  Kokkos::View<double*, MemorySpace> gates;
  // The voltages of slot s during an epoch: voltages(node_capacity * s + i), one row per cell
  // (CellGroupViews::v has the cells side by side).
  Kokkos::View<double*, MemorySpace> voltages;
  cached<int> parent, hh_slot;
  cached<unsigned char> mechs;
  // c_dt: C/dt alone (d0 is C/dt and the sum of g_axial over the node's edges).
  cached<double> d0, c_dt, minus_g_axial, pas_g, pas_e, hh_gna, hh_gk, hh_gl, hh_el;
};

// One cell as the epoch kernel works on it: d and rhs per node in team scratch (16 B per
// node; 24 B with fill, for plans that split spines: level 0, shared memory on a GPU, where
// the cell fits; level 1, memory private to the team, otherwise), its voltages and hh gates
// in its rows of OnChipCellLists::voltages and ::gates in memory.
struct OnChipCell {
  double *d, *rhs, *fill;  // fill: null where the launch's plans do not split spines
  double* v;               // per node, in memory
  double *m, *h, *n;       // per hh slot, in memory

  KOKKOS_INLINE_FUNCTION static std::size_t scratch_bytes(int nodes, bool with_fill) {
    return (with_fill ? 3 : 2) * static_cast<std::size_t>(nodes) * sizeof(double);
  }
  // Plain assignments: taking the members' addresses would put the struct in local memory.
  KOKKOS_INLINE_FUNCTION OnChipCell(double* scratch, int nodes, bool with_fill, double* voltages,
                                    double* gates, int hh_nodes)
      : d(scratch),
        rhs(d + nodes),
        fill(with_fill ? rhs + nodes : nullptr),
        v(voltages),
        m(gates),
        h(m + hh_nodes),
        n(h + hh_nodes) {}
};

// The cell's system as lanes_hines_solve reads it, for the new voltages themselves:
// off-diagonal -g_axial both ways, from the template's block.
template <class Lists>
struct OnChipCellSystem {
  using scalar_type = double;
  double* d;
  double* rhs;
  double* fill;
  typename Lists::template cached<double> minus_g_axial;
  typename Lists::template cached<int> parent_;
  int b;  // the template's block
  KOKKOS_INLINE_FUNCTION OnChipCellSystem(const OnChipCell& x, const Lists& l, int b_)
      : d(x.d),
        rhs(x.rhs),
        fill(x.fill),
        minus_g_axial(l.minus_g_axial),
        parent_(l.parent),
        b(b_) {}
  KOKKOS_INLINE_FUNCTION int parent(int i) const { return parent_(b + i); }
  KOKKOS_INLINE_FUNCTION double u(int i) const { return minus_g_axial(b + i); }
  KOKKOS_INLINE_FUNCTION double l(int i) const { return minus_g_axial(b + i); }
};

// first(j * (cells + 1) + s) = the first event of step j (of the epoch) whose synapse
// belongs to slot s or a later one: a binary search in the step's events, which are sorted
// by synapse, for slot s's first synapse (slot `cells`: the step's end).
template <class MemorySpace>
struct LocateCellEvents {
  Kokkos::View<const int*, MemorySpace> syn, step_begin, syn_begin;
  Kokkos::View<int*, MemorySpace> first;
  int cells;
  KOKKOS_INLINE_FUNCTION void operator()(const int idx) const {
    const int j = idx / (cells + 1), s = idx % (cells + 1);
    const int target = syn_begin(s);
    int lo = step_begin(j), hi = step_begin(j + 1);
    while (lo < hi) {
      const int mid = lo + (hi - lo) / 2;
      if (syn(mid) < target)
        lo = mid + 1;
      else
        hi = mid;
    }
    first(idx) = lo;
  }
};

// ScratchLevel: where d and rhs live (0: shared memory on a GPU; 1: the team's memory).
// The launch covers slots [slot_begin, slot_begin + league size); its team's size is the
// lane count its slots' plans were built for. Generated: the generated (NMODL) mechanisms'
// hooks (generated_cells.hpp; NoGenerated: none), their currents after the built-in ones,
// their states after v = x, each over the team's lanes.
template <class ExecutionSpace, class Views, int ScratchLevel, class Generated = NoGenerated,
          bool Fill = false>
struct StepCellEpochOnChip {
  using memory_space = typename ExecutionSpace::memory_space;
  using member = typename Kokkos::TeamPolicy<ExecutionSpace>::member_type;
  Views c;
  OnChipCellLists<memory_space> lists;
  Kokkos::View<const int*, memory_space> ev_syn;
  Kokkos::View<const double*, memory_space> ev_w;
  Kokkos::View<const int*, memory_space> cell_events;  // LocateCellEvents; empty: no events
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> trace;  // row j + 1 after step j
  double dt, ena, ek, q10;
  std::int64_t first_step;
  int steps, cells, max_nodes, node_capacity, hh_capacity;
  int slot_begin, scratch_nodes;  // this launch's first slot; nodes its scratch holds
  Generated gen{};
  EventDetails<memory_space> ev_details{};  // where a point process needs them

  // A cell's ranges in the per-slot lists, read once per epoch.
  struct Ranges {
    int stim_begin, stim_end, syn_begin, syn_end, group_begin, group_end, record_begin, record_end,
        detector, levels, waits_at, plan_begin,  // plan_begin: this lane's first offset
        constants,                               // the template's constants begin
        syn_constants;  // the first synapse's point-process constants (GeneratedSynapses::cst)
  };

  // The point-process constants of slot s's first synapse (0 where it has none).
  KOKKOS_INLINE_FUNCTION int first_synapse_constants(const int s) const {
    if constexpr (Generated::active) {
      const int k = c.syn_begin(s);
      if (gen.syn.mech.extent(0) > 0 && k < c.syn_begin(s + 1)) return gen.syn.cst(k);
    }
    return 0;
  }

  KOKKOS_INLINE_FUNCTION void operator()(const member& t) const {
    const int s = slot_begin + t.league_rank();
    const int n = c.size(s);
    const int plan = lists.plan_of_slot(s);
    const Ranges r{c.stim_begin(s),
                   c.stim_begin(s + 1),
                   c.syn_begin(s),
                   c.syn_begin(s + 1),
                   lists.group_begin(s),
                   lists.group_begin(s + 1),
                   lists.record_begin(s),
                   lists.record_begin(s + 1),
                   c.det_node(s),
                   lists.plans.levels(plan),
                   lists.plans.waits_at(plan),
                   lists.plans.begin_at(plan) + t.team_rank(),
                   lists.constant_begin(s),
                   first_synapse_constants(s)};
    double* const scratch = static_cast<double*>(
        t.team_scratch(ScratchLevel).get_shmem(OnChipCell::scratch_bytes(scratch_nodes, Fill)));
    const OnChipCell x(ScratchLevel == 0 ? on_chip<0>(scratch) : scratch, scratch_nodes, Fill,
                       lists.voltages.data() + std::size_t(node_capacity) * s,
                       lists.gates.data() + std::size_t(3) * hh_capacity * s, hh_capacity);
    load(t, s, n, x);
    // The slot's template among the generated mechanisms' (once, not per step and phase).
    int gen_template = 0;
    if constexpr (Generated::active) gen_template = gen.g.template_of_slot(s);
    t.team_barrier();
    for (int j = 0; j < steps; ++j) {
      const std::int64_t step = first_step + j;
      apply_events(t, s, j, step);
      t.team_barrier();
      assemble_nodes(t, n, r.constants, x);
      // A lane's first generated block waits for the others only where it shares a node
      // with another lane's cable terms (blk_sync).
      if constexpr (Generated::active)
        gen.assemble_lanes(t, s, gen_template, n, x.v, x.d, x.rhs,
                           (static_cast<double>(step) + 0.5) * dt);
      t.team_barrier();
      assemble_synapses(t, r, x, (static_cast<double>(step) + 0.5) * dt, step);
      t.team_barrier();
      if (r.stim_begin < r.stim_end) {  // the same for the whole team
        if (t.team_rank() == 0) {
          const double t_mid = (static_cast<double>(step) + 0.5) * dt;
          for (int k = r.stim_begin; k < r.stim_end; ++k) {
            const int node = c.stim_node(k);
            // the catalogue's IClamp or the hand-written one (the same bits), as a current:
            // the system for the new v gets g and g v - i
            double i, gm;
            gen.stimulus_current(c.stim_del(k), c.stim_dur(k), c.stim_amp(k), t_mid, x.v[node], i,
                                 gm);
            x.d[node] += gm;
            x.rhs[node] += gm * x.v[node] - i;
          }
        }
        t.team_barrier();
      }
      solve(t, s, r, x);
      t.team_barrier();
      update(t, r, n, x, static_cast<double>(step + 1) * dt);
      if constexpr (Generated::active)  // as assemble_lanes, after the lanes' v = x
        gen.update_lanes(t, s, gen_template, x.v, static_cast<double>(step + 1) * dt);
      t.team_barrier();
      if (t.team_rank() == 0 && r.detector >= 0)
        mechanisms::detect_threshold_crossing(c, s, x.v[r.detector], static_cast<int>(step + 1));
      record(t, s, r, j, x);
    }
    t.team_barrier();
    store(t, s, n, x);
  }

  // Row j + 1 of the trace: the cell's records after step j. Records other than v (only
  // with generated mechanisms) read the rows and ions the lanes have just updated, after a
  // wait for the team.
  KOKKOS_INLINE_FUNCTION void record(const member& t, const int s, const Ranges& r, const int j,
                                     const OnChipCell& x) const {
    if constexpr (Generated::active) {
      if (lists.record_store.extent(0) > 0 && r.record_begin < r.record_end) {
        t.team_barrier();
        Kokkos::parallel_for(
            Kokkos::TeamThreadRange(t, r.record_begin, r.record_end), [&](const int q) {
              trace(j + 1, lists.record_column(q)) =
                  record_value(gen.g, gen.syn, lists.record_store(q), lists.record_index(q), s,
                               x.v[lists.record_node(q)]);
            });
        return;
      }
    }
    Kokkos::parallel_for(
        Kokkos::TeamThreadRange(t, r.record_begin, r.record_end),
        [&](const int q) { trace(j + 1, lists.record_column(q)) = x.v[lists.record_node(q)]; });
  }

  // The cell's voltages into its row (its gates stay in theirs).
  KOKKOS_INLINE_FUNCTION void load(const member& t, const int s, const int n,
                                   const OnChipCell& x) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const int i) { x.v[i] = c.v(s, i); });
  }

  // The voltages back to the cells' views.
  KOKKOS_INLINE_FUNCTION void store(const member& t, const int s, const int n,
                                    const OnChipCell& x) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const int i) { c.v(s, i) = x.v[i]; });
  }

  // ExpSyn's NET_RECEIVE for step j's events of this cell (a run of equal synapses never
  // crosses cells, so the cell's range is a step's range for expsyn_receive); a synapse
  // that runs a point process gets its NET_RECEIVE per event, in the same order.
  KOKKOS_INLINE_FUNCTION void apply_events(const member& t, const int s, const int j,
                                           const std::int64_t step) const {
    if (cell_events.extent(0) == 0) return;
    const int begin = cell_events(j * (cells + 1) + s), end = cell_events(j * (cells + 1) + s + 1);
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, begin, end), [&](const int i) {
      if constexpr (Generated::active)
        gen.syn.receive_run(ev_syn, ev_w, c.syn_g, i, begin, end, static_cast<double>(step) * dt,
                            ev_details);
      else
        mechanisms::expsyn_receive(ev_syn, ev_w, c.syn_g, i, begin, end);
    });
  }

  // d and rhs of every node for the new voltage itself: the mechanisms give NEURON's terms
  // for dv (conductance g and rhs -i at v), and the system for v + dv adds (C/dt + g) v to
  // rhs, so no lane reads another's v. g is summed apart from d0, where C/dt + g would be
  // lost beside large axial conductances. b: the template's block.
  KOKKOS_INLINE_FUNCTION void assemble_nodes(const member& t, const int n, const int b,
                                             const OnChipCell& x) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const int i) {
      const double vi = x.v[i];
      double g = 0, ri = 0;
      const unsigned char mk = lists.mechs(b + i);
      if (mk & kPasBit) mechanisms::pas_current(lists.pas_g(b + i), lists.pas_e(b + i), vi, g, ri);
      const int h = lists.hh_slot(b + i);
      if (h >= 0)
        mechanisms::hh_current(lists.hh_gna(b + i), lists.hh_gk(b + i), lists.hh_gl(b + i),
                               lists.hh_el(b + i), x.m[h], x.h[h], x.n[h], vi, ena, ek, g, ri);
      x.d[i] = lists.d0(b + i) + g;
      x.rhs[i] = ri + (lists.c_dt(b + i) + g) * vi;
    });
  }

  KOKKOS_INLINE_FUNCTION void assemble_synapses(const member& t, const Ranges& r,
                                                const OnChipCell& x, const double t_mid,
                                                const std::int64_t step) const {
    if constexpr (Generated::active) {
      if (gen.syn.single_mech >= 0) {  // one point process: dispatched once for the pass
        gen.syn.with_single([&](auto of) {
          using M = typename decltype(of)::type;
          Kokkos::parallel_for(
              Kokkos::TeamThreadRange(t, r.group_begin, r.group_end), [&](const int g) {
                const int node = lists.group_node(g);
                const double vn = x.v[node];
                double gn = 0, rn = 0;
                for (int q = lists.group_first(g); q < lists.group_first(g + 1); ++q) {
                  const int k = lists.group_syn(q);
                  gen.syn.deliver_due_self_events(k, step, ev_details.vectors);
                  gen.syn.template current_as<M>(
                      k, gen.syn.cst_from(k, r.syn_begin, r.syn_constants), vn, t_mid, gn, rn);
                }
                x.d[node] += gn;
                x.rhs[node] += rn + gn * vn;
              });
        });
        return;
      }
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, r.group_begin, r.group_end), [&](const int g) {
      const int node = lists.group_node(g);
      const double vn = x.v[node];
      double gn = 0, rn = 0;
      for (int q = lists.group_first(g); q < lists.group_first(g + 1); ++q) {
        const int k = lists.group_syn(q);
        if constexpr (Generated::active) {
          if (gen.syn.is_generated(k)) {
            gen.syn.deliver_due_self_events(k, step, ev_details.vectors);
            gen.syn.current_at(k, gen.syn.cst_from(k, r.syn_begin, r.syn_constants), vn, t_mid, gn,
                               rn);
            continue;
          }
        }
        mechanisms::expsyn_current(c.syn_g(k), c.syn_e(k), vn, gn, rn);
      }
      x.d[node] += gn;
      x.rhs[node] += rn + gn * vn;  // for the new v, as assemble_nodes
    });
  }

  // The Hines elimination (parent < node; off-diagonal -g_axial, symmetric) for the new v,
  // left in rhs, over the cell's CellLanePlan (solvers/hines_lanes.hpp). d keeps 1/d for
  // the substitution. The status keeps the smallest node with a zero pivot or non-finite
  // result, as for the cells schedule.
  KOKKOS_INLINE_FUNCTION void solve(const member& t, const int s, const Ranges& r,
                                    const OnChipCell& x) const {
    int bad_pivot = -1, bad_solution = -1;
    lanes_hines_solve<Fill>(t, lists.plans, lists.plans.entries.data(), 0, r.levels, r.waits_at,
                            r.plan_begin,
                            OnChipCellSystem<OnChipCellLists<memory_space>>(x, lists, r.constants),
                            bad_pivot, bad_solution);
    if (bad_pivot >= 0 || bad_solution >= 0)
      record_nodes(c.status, static_cast<long long>(s) * max_nodes, bad_pivot, bad_solution);
  }

  // Synapses that run point processes may read the new v of their node, which another
  // lane may have written: the team waits first where the catalogue has a point process
  // whose state reads v.
  KOKKOS_INLINE_FUNCTION void update(const member& t, const Ranges& r, const int n,
                                     const OnChipCell& x, const double t_end) const {
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, n), [&](const int i) {
      const double vi = x.rhs[i];
      x.v[i] = vi;
      const int h = lists.hh_slot(r.constants + i);
      if (h >= 0) mechanisms::hh_advance_states(vi, dt, q10, x.m[h], x.h[h], x.n[h]);
    });
    if constexpr (Generated::active) {
      if (gen.syn.single_mech >= 0) {  // one point process: dispatched once for the pass
        constexpr bool reads_v = decltype(gen.syn)::kStateReadsV;
        if constexpr (reads_v) t.team_barrier();
        gen.syn.with_single([&](auto of) {
          using M = typename decltype(of)::type;
          Kokkos::parallel_for(
              Kokkos::TeamThreadRange(t, r.syn_begin, r.syn_end), [&](const int k) {
                gen.syn.template state_as<M>(k, gen.syn.cst_from(k, r.syn_begin, r.syn_constants),
                                             reads_v ? x.v[gen.syn.node(k)] : 0.0, t_end);
              });
        });
        return;
      }
      if (gen.syn.mech.extent(0) > 0) {
        constexpr bool reads_v = decltype(gen.syn)::kStateReadsV;
        if constexpr (reads_v) t.team_barrier();
        Kokkos::parallel_for(Kokkos::TeamThreadRange(t, r.syn_begin, r.syn_end), [&](const int k) {
          if (gen.syn.is_generated(k))
            gen.syn.state(k, reads_v ? x.v[gen.syn.node(k)] : 0.0, t_end);
          else
            mechanisms::expsyn_decay(c.syn_decay(k), c.syn_g(k));
        });
        return;
      }
    }
    Kokkos::parallel_for(Kokkos::TeamThreadRange(t, r.syn_begin, r.syn_end), [&](const int k) {
      mechanisms::expsyn_decay(c.syn_decay(k), c.syn_g(k));
    });
  }
};

}  // namespace impl
}  // namespace hinesbatch
