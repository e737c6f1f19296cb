#pragma once
// The tiles schedule of the simulation's step on a host: one work item
// advances a TILE of W cells that share one tree (same node count and parent array), the
// lane loop vectorised, as the SIMD-tile solves do for batches (solvers/impl/tile_system.hpp).
// A Hines sweep of one cell is a serial chain of divisions; W cells side by side make W
// independent chains per vector instruction.
//
// Storage is (row, lane): node i of lane k of tile t is element (tile_row(t) + i) * W + k of
// every per-node state (v, hh gates), so one row of a tile is W contiguous doubles. Tiles have W
// lanes always: a tile short of cells (its tree has fewer cells left) gets padding lanes that hold
// a harmless system (d = 1, nothing else) and have no synapses, stimuli or detector. A tile's d and
// rhs live in team scratch (n x W values each, cache-resident): they are the step's temporaries and
// need not travel to memory. The constants (d0, g_axial and the mechanisms' parameters) depend on
// the cell's template only: every full tile of one template reads one shared block of them
// (cache-resident), so a step streams little more than the voltages; other tiles (mixed templates,
// padding lanes) have their own (element tile_const(t) + i * W + k).
//
// Each lane does the arithmetic of StepCells (cells_schedule.hpp) for its cell in the same
// order, with the same mechanism functions (mechanisms/*.hpp) and the same Hines
// elimination (hines_solve_tile without reciprocals = hines_solve_system), so results are
// the same as the cells schedule's: bit for bit in the generic build (tested); with
// -march=x86-64-v4 (FMA contraction) rasters and printed traces were identical too.
// Generated (NMODL) mechanisms (generated_tiles.hpp) run inside the step, lane by lane with
// the cells schedule's per-slot storage and order: the Generated hooks of InitCellTiles and
// StepCellTiles (NoGenerated: nothing compiled in).
//
// Host execution spaces only (CellGroup instantiates TilesSchedule under
// is_host_backend).
// Tiles go to threads in contiguous chunks (static schedule) and their pages are first
// written by the same policy (FillCellTiles), as for the SIMD-tile batches.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/simulation/impl/generated_cells.hpp"
#include "hinesbatch/simulation/impl/generated_tiles.hpp"
#include "hinesbatch/simulation/impl/host_exp.hpp"
#include "hinesbatch/simulation/impl/mechanisms/detector.hpp"
#include "hinesbatch/simulation/impl/mechanisms/expsyn.hpp"
#include "hinesbatch/simulation/impl/mechanisms/hh.hpp"
#include "hinesbatch/simulation/impl/mechanisms/iclamp.hpp"
#include "hinesbatch/simulation/impl/mechanisms/pas.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/solvers/impl/tile_system.hpp"
#include "hinesbatch/solvers/simd_tiles_solve.hpp"

namespace hinesbatch {
namespace impl {

// W of the tiles schedule: 16 cells, or two vectors where a vector holds more than 8
// doubles. More lanes than one vector: the sweep's divisions are long-latency and their
// throughput per double is the same at every width, so a tile must put several vectors
// of independent work in flight per node. Measured on a 2-core Xeon (AVX-512), the synthetic:p3
// cells, compartment-steps/s on one core (docs/PERFORMANCE.md): W = 2, 4, 8, 16 with SSE2 code
// 1.5, 1.8, 2.4, 2.6 x 10^8; W = 16, 32 with AVX-512 code 3.3, 3.2 x 10^8.
// -DHINESBATCH_CELL_TILE_LANES=N overrides it (experiments; any N >= 1).
template <class ExecutionSpace>
constexpr int cell_tile_lanes() {
#if defined(HINESBATCH_CELL_TILE_LANES)
  return HINESBATCH_CELL_TILE_LANES;
#else
  return 2 * host_vector_lanes<double>() > 16 ? 2 * host_vector_lanes<double>() : 16;
#endif
}

template <class ExecutionSpace>
struct CellTileViews {
  using memory_space = typename ExecutionSpace::memory_space;
  using vec_d = Kokkos::View<double*, memory_space>;
  using vec_i = Kokkos::View<int*, memory_space>;
  using vec_u8 = Kokkos::View<unsigned char*, memory_space>;
  using vec_l = Kokkos::View<std::int64_t*, memory_space>;
  int tiles = 0;
  vec_i tile_row;           // tiles + 1: a tile's rows are [tile_row(t), tile_row(t + 1))
  vec_i tile_slot;          // its first cell slot; lanes k < tile_cells(t) are slots tile_slot + k
  vec_i tile_cells;         // real cells in the tile (the rest are padding lanes)
  vec_l tile_const;         // element of its constants' node 0 (rows of W, as the states)
  vec_i const_owner;        // per tile: 1 if it writes its constant block (first touch)
  vec_i parent;             // per row: the parent of the tile's node (tile-relative)
  vec_u8 row_any, row_all;  // per row: OR and AND of the lanes' mechanism bits
  vec_l slot_origin;        // per slot: element of its node 0 (node k at + k W)
  // States per (row, lane) of the tile: node i of lane k at tile_row(t) * W + i * W + k.
  vec_d v, hh_m, hh_h, hh_n;
  // Constants per (row, lane) of the tile's constant block: at tile_const(t) + i * W + k.
  vec_d d0, minus_g_axial, pas_g, pas_e, hh_gna, hh_gk, hh_gl, hh_el;
  vec_u8 mechs;
  vec_d d, rhs;  // only when a tile's temporaries do not fit in team scratch
};

// Voltage of (slot, node), for the per-epoch check and the recordings.
template <class MemorySpace>
struct TileVoltages {
  Kokkos::View<const double*, MemorySpace> v;
  Kokkos::View<const std::int64_t*, MemorySpace> origin;
  int lanes = 1;
  KOKKOS_INLINE_FUNCTION double operator()(const int s, const int k) const {
    return v(origin(s) + static_cast<std::int64_t>(k) * lanes);
  }
};
// check_voltages' rare path reads voltages on the host: tiles live in host memory.
template <class MemorySpace>
TileVoltages<MemorySpace> host_voltages(const TileVoltages<MemorySpace>& v) {
  return v;
}

// Copies the cells' (slot, node) constants (their templates' blocks) into the tiles, each tile
// written by the thread that will step it (a shared constant block by its first tile); padding
// lanes get d0 = 1 and zeros.
template <class ExecutionSpace, class Staging, int W>
struct FillCellTiles {
  CellTileViews<ExecutionSpace> t;
  Staging s;  // (slot, node) accessors: TemplateBlockRows (tiles_schedule.hpp)
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename SimdTilePolicy<ExecutionSpace>::member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= t.tiles) return;
    const int row0 = t.tile_row(tile), n = t.tile_row(tile + 1) - row0;
    const int first = t.tile_slot(tile), cells = t.tile_cells(tile);
    const bool owner = t.const_owner(tile) != 0;
    for (int i = 0; i < n; ++i) {
      unsigned char any = 0, all = 0xff;
      for (int k = 0; k < W; ++k) {
        const std::size_t e = static_cast<std::size_t>(row0 + i) * W + k;
        const std::size_t q = static_cast<std::size_t>(t.tile_const(tile)) + i * W + k;
        const bool real = k < cells;
        const int c = first + (real ? k : 0);
        t.v(e) = t.hh_m(e) = t.hh_h(e) = t.hh_n(e) = 0;
        if (t.d.extent(0)) t.d(e) = t.rhs(e) = 0;
        if (owner) {
          t.d0(q) = real ? s.d0(c, i) : 1.0;
          t.minus_g_axial(q) = real ? s.minus_g_axial(c, i) : 0.0;
          t.mechs(q) = real ? s.mechs(c, i) : 0;
          t.pas_g(q) = real ? s.pas_g(c, i) : 0.0;
          t.pas_e(q) = real ? s.pas_e(c, i) : 0.0;
          t.hh_gna(q) = real ? s.hh_gna(c, i) : 0.0;
          t.hh_gk(q) = real ? s.hh_gk(c, i) : 0.0;
          t.hh_gl(q) = real ? s.hh_gl(c, i) : 0.0;
          t.hh_el(q) = real ? s.hh_el(c, i) : 0.0;
        }
        if (real) {
          any |= s.mechs(c, i);
          all &= s.mechs(c, i);
        }
      }
      t.row_any(row0 + i) = any;
      t.row_all(row0 + i) = all;
      t.parent(row0 + i) = s.parent(first, i);
    }
  }
};

// Generated: the generated mechanisms' hooks (generated_tiles.hpp; NoGenerated: none).
template <class ExecutionSpace, class Cells, int W, class Generated = NoGenerated>
struct InitCellTiles {
  CellTileViews<ExecutionSpace> t;
  Cells c;  // per-slot synapses and detectors
  double v_init, q10;
  Generated gen{};
  KOKKOS_INLINE_FUNCTION void operator()(
      const typename SimdTilePolicy<ExecutionSpace>::member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= t.tiles) return;
    const int row0 = t.tile_row(tile), n = t.tile_row(tile + 1) - row0;
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < W; ++k) {
        const std::size_t e = static_cast<std::size_t>(row0 + i) * W + k;
        t.v(e) = v_init;
        if (t.mechs(static_cast<std::size_t>(t.tile_const(tile)) + i * W + k) & kHHBit)
          mechanisms::hh_initial_states(v_init, q10, t.hh_m(e), t.hh_h(e), t.hh_n(e));
      }
    if constexpr (Generated::active) {
      const double* v = t.v.data() + static_cast<std::size_t>(row0) * W;
      gen.template initialize<W>(t.tile_slot(tile), t.tile_cells(tile), n, v);
      for (int k = 0; k < t.tile_cells(tile); ++k) {
        const int s = t.tile_slot(tile) + k;
        gen.gen.initialize_synapses(TileLaneViews<W>{v, nullptr, nullptr, k, n}, s, c.syn_begin(s),
                                    c.syn_begin(s + 1));
      }
    }
    for (int s = t.tile_slot(tile); s < t.tile_slot(tile) + t.tile_cells(tile); ++s) {
      for (int k = c.syn_begin(s); k < c.syn_begin(s + 1); ++k) c.syn_g(k) = 0;
      if (c.det_node(s) >= 0) c.det_flag(s) = v_init > c.det_threshold(s) ? 1 : 0;
    }
  }
};

// c ? a : b bit for bit, as integer operations: it vectorises where a conditional
// floating-point expression would not.
KOKKOS_INLINE_FUNCTION double lane_select(const bool c, const double a, const double b) {
  std::uint64_t ia, ib;
  std::memcpy(&ia, &a, sizeof(double));
  std::memcpy(&ib, &b, sizeof(double));
  const std::uint64_t mask = 0 - static_cast<std::uint64_t>(c);
  const std::uint64_t r = (ia & mask) | (ib & ~mask);
  double x;
  std::memcpy(&x, &r, sizeof(double));
  return x;
}

// pas_current where with_pas: computed in every lane and selected bitwise (a branch
// around floating-point arithmetic is not if-converted, and the lane loop stays scalar).
KOKKOS_INLINE_FUNCTION void pas_where(const bool with_pas, const double g, const double e,
                                      const double v, double& d, double& rhs) {
  double dp = d, rp = rhs;
  mechanisms::pas_current(g, e, v, dp, rp);
  d = lane_select(with_pas, dp, d);
  rhs = lane_select(with_pas, rp, rhs);
}

// NEURON's fixed step for the W cells of one tile: StepCells' phases, lane by lane.
// Generated: the generated mechanisms' hooks (generated_tiles.hpp; NoGenerated: none).
template <class ExecutionSpace, class Cells, int W, class Generated = NoGenerated>
struct StepCellTiles {
  using member_type = typename SimdTilePolicy<ExecutionSpace>::member_type;
  CellTileViews<ExecutionSpace> t;
  Cells c;  // per-slot synapses, stimuli, detectors, spike buffer, solve status
  double dt, t_mid, ena, ek, q10;
  int step_end, max_nodes;
  std::size_t scratch_bytes;  // per tile: d and rhs, 0 when they live in t.d, t.rhs
  // host_vector_exp_usable(): hh's exps by host_vector_exp, the step compiled for AVX2
  bool vector_exp = false;
  Generated gen{};

  KOKKOS_INLINE_FUNCTION void operator()(const member_type& team) const {
#if defined(HINESBATCH_HOST_VECTOR_EXP) && !defined(HINESBATCH_LANES_ARE_THREADS)
    if (vector_exp) {
      step_avx2(team);
      return;
    }
#endif
    step(team);
  }

#if defined(HINESBATCH_HOST_VECTOR_EXP) && !defined(HINESBATCH_LANES_ARE_THREADS)
  // The whole step compiled again for AVX2 (everything it calls inlined): twice the
  // doubles per instruction of the generic build's SSE2, and without FMA the same results.
  HINESBATCH_HOST_AVX2 __attribute__((flatten)) void step_avx2(const member_type& team) const {
    step(team);
  }
#endif

  KOKKOS_INLINE_FUNCTION void step(const member_type& team) const {
    const int tile = simd_tile_of(team);
    if (tile >= t.tiles) return;
    const int row0 = t.tile_row(tile), n = t.tile_row(tile + 1) - row0;
    const std::size_t base = static_cast<std::size_t>(row0) * W;
    double* d;
    double* rhs;
    if (scratch_bytes) {
      d = static_cast<double*>(team.team_scratch(1).get_shmem(scratch_bytes));
      rhs = d + static_cast<std::size_t>(n) * W;
    } else {
      d = t.d.data() + base;
      rhs = t.rhs.data() + base;
    }
    assemble(team, tile, row0, n, base, d, rhs);
    solve(team, tile, row0, n, d, rhs);
    update(team, tile, row0, n, base, rhs);
    detect(tile, base);
  }

  // StepCells::assemble per lane: d = d0 + pas + hh, rhs = pas + hh + axial (in that
  // order), then the generated mechanisms' currents, then synapses and stimuli.
  KOKKOS_INLINE_FUNCTION void assemble(const member_type& team, const int tile, const int row0,
                                       const int n, const std::size_t base, double* d,
                                       double* rhs) const {
    const std::size_t cbase = static_cast<std::size_t>(t.tile_const(tile));
    const double* v = t.v.data() + base;
    const double* d0 = t.d0.data() + cbase;
    const double* ga = t.minus_g_axial.data() + cbase;
    const unsigned char* mk = t.mechs.data() + cbase;
    const double* pg = t.pas_g.data() + cbase;
    const double* pe = t.pas_e.data() + cbase;
    // A node's own terms in registers: rhs(i) is stored once, not re-read (a re-read of
    // a value just stored waits for the store).
    const auto pas_axial = [&](const int o, const int po, const auto with_pas) {
      impl::lanes_for(team, Lanes<W>{}, [&](const int k) {
        double dk = d0[o + k], rk = 0;
        pas_where(with_pas(k), pg[o + k], pe[o + k], v[o + k], dk, rk);
        const double current = -ga[o + k] * (v[po + k] - v[o + k]);
        rk += current;
        rhs[po + k] -= current;
        d[o + k] = dk;
        rhs[o + k] = rk;
      });
    };
    for (int i = 0; i < n; ++i) {
      const int o = i * W;
      const unsigned char any = t.row_any(row0 + i), all = t.row_all(row0 + i);
      if (i > 0 && !(any & kHHBit)) {  // most nodes
        const int po = t.parent(row0 + i) * W;
        if (all & kPasBit)
          pas_axial(o, po, [](int) { return true; });
        else
          pas_axial(o, po, [&](const int k) { return (mk[o + k] & kPasBit) != 0; });
        continue;
      }
      if (any & kHHBit) {
        // Every lane's hh terms, kept where the lane has hh (as pas_where).
        const double* gna = t.hh_gna.data() + cbase;
        const double* gk = t.hh_gk.data() + cbase;
        const double* gl = t.hh_gl.data() + cbase;
        const double* el = t.hh_el.data() + cbase;
        const double* hm = t.hh_m.data() + base;
        const double* hh = t.hh_h.data() + base;
        const double* hn = t.hh_n.data() + base;
        impl::lanes_for(team, Lanes<W>{}, [&](const int k) {
          double dk = d0[o + k], rk = 0;
          pas_where((mk[o + k] & kPasBit) != 0, pg[o + k], pe[o + k], v[o + k], dk, rk);
          double dh = dk, rh = rk;
          mechanisms::hh_current(gna[o + k], gk[o + k], gl[o + k], el[o + k], hm[o + k], hh[o + k],
                                 hn[o + k], v[o + k], ena, ek, dh, rh);
          const bool with_hh = (mk[o + k] & kHHBit) != 0;
          d[o + k] = lane_select(with_hh, dh, dk);
          rhs[o + k] = lane_select(with_hh, rh, rk);
        });
      } else {
        impl::lanes_for(team, Lanes<W>{}, [&](const int k) {
          double dk = d0[o + k], rk = 0;
          pas_where((mk[o + k] & kPasBit) != 0, pg[o + k], pe[o + k], v[o + k], dk, rk);
          d[o + k] = dk;
          rhs[o + k] = rk;
        });
      }
      if (i > 0) {
        const int po = t.parent(row0 + i) * W;
        impl::lanes_for(team, Lanes<W>{}, [&](const int k) {
          const double current = -ga[o + k] * (v[po + k] - v[o + k]);
          rhs[o + k] += current;
          rhs[po + k] -= current;
        });
      }
    }
    if constexpr (Generated::active)
      gen.template assemble<W>(t.tile_slot(tile), t.tile_cells(tile), n, v, d, rhs, t_mid);
    for (int k = 0; k < t.tile_cells(tile); ++k) {
      const int s = t.tile_slot(tile) + k;
      for (int j = c.syn_begin(s); j < c.syn_begin(s + 1); ++j) {
        const int e = c.syn_node(j) * W + k;
        if constexpr (Generated::active) {
          if (gen.gen.syn.is_generated(j)) {
            gen.gen.syn.current(j, v[e], t_mid, d[e], rhs[e]);
            continue;
          }
        }
        mechanisms::expsyn_current(c.syn_g(j), c.syn_e(j), v[e], d[e], rhs[e]);
      }
      for (int j = c.stim_begin(s); j < c.stim_begin(s + 1); ++j) {
        const int e = c.stim_node(j) * W + k;
        double i, gm;  // the catalogue's IClamp or the hand-written one (the same bits)
        gen.stimulus_current(c.stim_del(j), c.stim_dur(j), c.stim_amp(j), t_mid, v[e], i, gm);
        d[e] += gm;
        rhs[e] -= i;
      }
    }
  }

  // The W Hines systems for dv (left in rhs), off-diagonal -g_axial, symmetric.
  KOKKOS_INLINE_FUNCTION void solve(const member_type& team, const int tile, const int row0,
                                    const int n, double* d, double* rhs) const {
    const int* par = t.parent.data() + row0;
    const auto parent = [par](const int i) { return par[i]; };
    const std::size_t cbase = static_cast<std::size_t>(t.tile_const(tile));
    const double* ga = t.minus_g_axial.data() + cbase;
    const int first = t.tile_slot(tile), cells = t.tile_cells(tile);
    hines_solve_tile(team, Lanes<W>{}, parent, n, W, ga, ga, d, rhs, static_cast<double*>(nullptr),
                     [&](const int k, const int bad_pivot, const int bad_solution) {
                       if (k < cells)
                         record_tile_failure(c.status, bad_pivot, bad_solution,
                                             static_cast<long long>(first + k) * max_nodes);
                     });
  }

  // v += dv; hh gates at the new v (per lane: exp); synapses decay; the generated
  // mechanisms' states at the new v.
  KOKKOS_INLINE_FUNCTION void update(const member_type& team, const int tile, const int row0,
                                     const int n, const std::size_t base, const double* rhs) const {
    const std::size_t cbase = static_cast<std::size_t>(t.tile_const(tile));
    double* v = t.v.data() + base;
    const unsigned char* mk = t.mechs.data() + cbase;
    for (int i = 0; i < n; ++i) {
      const int o = i * W;
      impl::lanes_for(team, Lanes<W>{}, [&](const int k) { v[o + k] = v[o + k] + rhs[o + k]; });
      if (!(t.row_any(row0 + i) & kHHBit)) continue;
#if defined(HINESBATCH_HOST_VECTOR_EXP) && !defined(HINESBATCH_LANES_ARE_THREADS)
      if (vector_exp) {
        hh_advance_row(team, v + o, t.hh_m.data() + base + o, t.hh_h.data() + base + o,
                       t.hh_n.data() + base + o);
        continue;
      }
#endif
      for (int k = 0; k < W; ++k)
        if (mk[o + k] & kHHBit) {
          const std::size_t e = base + o + k;
          mechanisms::hh_advance_states(v[o + k], dt, q10, t.hh_m(e), t.hh_h(e), t.hh_n(e));
        }
    }
    for (int k = 0; k < t.tile_cells(tile); ++k) {
      const int s = t.tile_slot(tile) + k;
      for (int j = c.syn_begin(s); j < c.syn_begin(s + 1); ++j) {
        if constexpr (Generated::active) {
          if (gen.gen.syn.is_generated(j)) {
            gen.gen.syn.state(j, v[c.syn_node(j) * W + k], step_end * dt);
            continue;
          }
        }
        mechanisms::expsyn_decay(c.syn_decay(j), c.syn_g(j));
      }
    }
    if constexpr (Generated::active)
      gen.template update<W>(t.tile_slot(tile), t.tile_cells(tile), n, v, step_end * dt);
  }

#if defined(HINESBATCH_HOST_VECTOR_EXP) && !defined(HINESBATCH_LANES_ARE_THREADS)
  // hh_advance_states for the lanes of one row, its exps W at a time (host_vector_exp: the
  // same values as std::exp), the rest lane-vectorised: the same arithmetic in the same
  // order, so the same gates. Lanes without hh advance too (their gates are never read):
  // no select, no branch in the lane loops.
  // AVX2 (step_avx2): twice the divisions per instruction of the generic build's SSE2.
  HINESBATCH_HOST_AVX2 void hh_advance_row(const member_type& team, const double* v, double* m,
                                           double* h, double* n) const {
    double a[kHHRateExps * W], e[kHHRateExps * W];
    impl::lanes_for(team, Lanes<W>{}, [&](const int k) { hh_rate_exp_args(v[k], a + k, W); });
    host_vector_exp(a, e, kHHRateExps * W);
    double step[3 * W], inf[3 * W];
    const auto rates = [&](const int k, const HHRates& r) {
      step[k] = -dt / r.mtau;
      step[W + k] = -dt / r.htau;
      step[2 * W + k] = -dt / r.ntau;
      inf[k] = r.minf;
      inf[W + k] = r.hinf;
      inf[2 * W + k] = r.ninf;
    };
    impl::lanes_for(team, Lanes<W>{},
                    [&](const int k) { rates(k, hh_rates<false>(v[k], q10, a + k, e + k, W)); });
    for (int k = 0; k < W; ++k)  // vtrap's expansion, within 1e-5 mV of -40 or -55 mV
      if (hh_vtrap_expands(a[k]) || hh_vtrap_expands(a[4 * W + k]))
        rates(k, hh_rates(v[k], q10, a + k, e + k, W));
    host_vector_exp(step, step, 3 * W);
    impl::lanes_for(team, Lanes<W>{}, [&](const int k) {
      m[k] = mechanisms::hh_cnexp(m[k], inf[k], step[k]);
      h[k] = mechanisms::hh_cnexp(h[k], inf[W + k], step[W + k]);
      n[k] = mechanisms::hh_cnexp(n[k], inf[2 * W + k], step[2 * W + k]);
    });
  }
#endif

  KOKKOS_INLINE_FUNCTION void detect(const int tile, const std::size_t base) const {
    for (int k = 0; k < t.tile_cells(tile); ++k) {
      const int s = t.tile_slot(tile) + k;
      const int det = c.det_node(s);
      if (det >= 0)
        mechanisms::detect_threshold_crossing(
            c, s, t.v(base + static_cast<std::size_t>(det) * W + k), step_end);
    }
  }
};

}  // namespace impl
}  // namespace hinesbatch
