#pragma once
// The tiles schedule, the default on a host (HostSchedule::Tiles): a work item
// steps a tile of W cells of one tree, vectorised over them (the kernels and the tiles'
// layout: cell_tiles.hpp). Host execution spaces only: CellGroup instantiates it under
// is_host_backend. Its setup packs the templates' blocks into the tiles (its only
// copy of the cells' per-node state); d and rhs go to team scratch where a tile's fit.
// Generated (NMODL) mechanisms of a catalogue run inside the tiles' step
// (generated_tiles.hpp): their currents after the cable terms, their states after
// v += dv, per lane with the cells schedule's per-slot storage. The step's kernel is
// compiled with them only when some template uses one.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/layouts/simd_tiles.hpp"
#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/impl/cell_templates.hpp"
#include "hinesbatch/simulation/impl/cell_tiles.hpp"
#include "hinesbatch/simulation/impl/generated_layout.hpp"
#include "hinesbatch/simulation/impl/generated_tiles.hpp"
#include "hinesbatch/simulation/impl/step_schedule.hpp"
#include "hinesbatch/simulation/impl/voltage_check.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"

namespace hinesbatch::impl {

// TemplateBlocks read as the (slot, node) arrays that FillCellTiles copies into the tiles
// schedule's tiles (host memory; raw pointers, as the functor is a device function too).
struct TemplateBlockRows {
  const int *begin_, *parent_;
  const unsigned char* mechs_;
  const double *d0_, *minus_g_axial_, *pas_g_, *pas_e_, *gna_, *gk_, *gl_, *el_;
  explicit TemplateBlockRows(const TemplateBlocks& b)
      : begin_(b.begin.data()),
        parent_(b.parent.data()),
        mechs_(b.mechs.data()),
        d0_(b.d0.data()),
        minus_g_axial_(b.minus_g_axial.data()),
        pas_g_(b.pas_g.data()),
        pas_e_(b.pas_e.data()),
        gna_(b.gna.data()),
        gk_(b.gk.data()),
        gl_(b.gl.data()),
        el_(b.el.data()) {}
  KOKKOS_INLINE_FUNCTION int parent(int s, int i) const { return parent_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION unsigned char mechs(int s, int i) const { return mechs_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double d0(int s, int i) const { return d0_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double minus_g_axial(int s, int i) const {
    return minus_g_axial_[begin_[s] + i];
  }
  KOKKOS_INLINE_FUNCTION double pas_g(int s, int i) const { return pas_g_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double pas_e(int s, int i) const { return pas_e_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_gna(int s, int i) const { return gna_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_gk(int s, int i) const { return gk_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_gl(int s, int i) const { return gl_[begin_[s] + i]; }
  KOKKOS_INLINE_FUNCTION double hh_el(int s, int i) const { return el_[begin_[s] + i]; }
};

// Catalogue: the compiled catalogue whose mechanisms the templates' `generated` lists name.
template <class ExecutionSpace, class Catalogue>
class TilesSchedule
    : public ScheduleVoltages<TilesSchedule<ExecutionSpace, Catalogue>, ExecutionSpace> {
 public:
  using views = CellGroupViews<ExecutionSpace>;
  using memory_space = typename ExecutionSpace::memory_space;
  using Generated = GeneratedTiles<ExecutionSpace, Catalogue>;
  static constexpr int W = cell_tile_lanes<ExecutionSpace>();
  using Base = ScheduleVoltages<TilesSchedule<ExecutionSpace, Catalogue>, ExecutionSpace>;
  using Base::c_, Base::params_, Base::q10_, Base::max_nodes_, Base::cells_, Base::generated_;

  static const char* schedule_name() { return "tiles"; }
  int team_lanes() const { return 1; }
  int tile_cells() const { return W; }
  int num_tiles() const { return tiles_.tiles; }

  // The catalogue's description, by which templates name its mechanisms.
  static const MechanismCatalogue& catalogue() { return nmodl::description<Catalogue>(); }
  // Whether a tile's d and rhs live in team scratch (else in memory: cells too large).
  bool tiles_in_scratch() const { return tile_scratch_bytes_ > 0; }

  // The shared Views (no (slot, node) ones), and the tiles.
  void construct(const ScheduleSetup<ExecutionSpace>& setup) {
    this->take_shared(setup);
    const TemplateBlocks blocks = template_blocks(setup.template_of_slot, setup.nodes_of_template);
    std::vector<int> tree_of_slot(cells_);
    for (int s = 0; s < cells_; ++s)
      tree_of_slot[s] = setup.trees.tree_of_template[setup.template_of_slot[s]];
    build_tiles(setup.exec, tree_of_slot, setup.template_of_slot, blocks);
    setup_generated(setup);
  }

  // Records other than v read the generated mechanisms' storage per slot, as the cells
  // schedule's.
  const typename Generated::Views& generated_views() const { return gen_.gen.g; }

  void initialize(const ExecutionSpace& exec) {
    const auto policy = simd_tile_policy(exec, tiles_.tiles, W);
    if (generated_)
      Kokkos::parallel_for("hinesbatch::sim_init_tiles", policy,
                           InitCellTiles<ExecutionSpace, views, W, Generated>{
                               tiles_, c_, params_.v_init, q10_, gen_});
    else
      Kokkos::parallel_for(
          "hinesbatch::sim_init_tiles", policy,
          InitCellTiles<ExecutionSpace, views, W>{tiles_, c_, params_.v_init, q10_});
  }

  // A launch per step, after the step's events (ScheduleVoltages::run_steps).
  const auto& generated_synapses() const { return gen_.gen.syn; }

  // Global step `step`: from t = step dt to (step + 1) dt. Asynchronous.
  void step(const ExecutionSpace& exec, std::int64_t step) const {
    const double dt = params_.dt;
    // Tiles handed out one at a time, largest first (slots are sorted by size): a
    // mixed network's tiles differ 20-fold in work, and contiguous chunks of them left
    // most threads idle.
    auto policy =
        Kokkos::TeamPolicy<ExecutionSpace, Kokkos::Schedule<Kokkos::Dynamic>>(exec, tiles_.tiles, 1)
            .set_chunk_size(1);
    if (tile_scratch_bytes_) policy.set_scratch_size(1, Kokkos::PerTeam(tile_scratch_bytes_));
    const double t_mid = (static_cast<double>(step) + 0.5) * dt;
    const int step_end = static_cast<int>(step + 1);
    if (generated_)
      Kokkos::parallel_for("hinesbatch::sim_step_tiles", policy,
                           StepCellTiles<ExecutionSpace, views, W, Generated>{
                               tiles_, c_, dt, t_mid, params_.ena, params_.ek, q10_, step_end,
                               max_nodes_, tile_scratch_bytes_, host_vector_exp_usable(), gen_});
    else
      Kokkos::parallel_for("hinesbatch::sim_step_tiles", policy,
                           StepCellTiles<ExecutionSpace, views, W>{
                               tiles_, c_, dt, t_mid, params_.ena, params_.ek, q10_, step_end,
                               max_nodes_, tile_scratch_bytes_, host_vector_exp_usable()});
  }

  // v (slot, node) read from the tiles.
  TileVoltages<memory_space> voltages() const { return {tiles_.v, tiles_.slot_origin, W}; }

 private:
  // Packs the templates' blocks into tiles of W cells of one tree (consecutive slots;
  // tree_of_slot is constant over a tile): the tiles schedule's only copy of the cells.
  // Full tiles of one template share one constant block.
  void build_tiles(const ExecutionSpace& exec, const std::vector<int>& tree_of_slot,
                   const std::vector<int>& template_of_slot, const TemplateBlocks& blocks) {
    using tv = CellTileViews<ExecutionSpace>;
    const int nc = cells_;
    auto hsize = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), c_.size);
    std::vector<int> row{0}, first, cells, owner;
    std::vector<std::int64_t> origin(nc), const_at;
    std::map<int, std::int64_t> block_of_template;  // full one-template tiles' shared block
    std::int64_t const_elems = 0;
    int max_rows = 0;
    for (int s = 0; s < nc;) {
      int e = s + 1;
      while (e < nc && e - s < W && tree_of_slot[e] == tree_of_slot[s]) ++e;
      for (int k = s; k < e; ++k) origin[k] = static_cast<std::int64_t>(row.back()) * W + (k - s);
      bool uniform = e - s == W;
      for (int k = s; k < e; ++k) uniform = uniform && template_of_slot[k] == template_of_slot[s];
      const auto shared =
          uniform ? block_of_template.find(template_of_slot[s]) : block_of_template.end();
      if (shared != block_of_template.end()) {
        const_at.push_back(shared->second);
        owner.push_back(0);
      } else {
        const_at.push_back(const_elems);
        owner.push_back(1);
        if (uniform) block_of_template[template_of_slot[s]] = const_elems;
        const_elems += static_cast<std::int64_t>(hsize(s)) * W;
      }
      first.push_back(s);
      cells.push_back(e - s);
      row.push_back(row.back() + hsize(s));
      max_rows = std::max(max_rows, static_cast<int>(hsize(s)));
      s = e;
    }
    tv& t = tiles_;
    t.tiles = static_cast<int>(first.size());
    t.tile_row = to_device(exec, row, "hb::tile_row");
    t.tile_slot = to_device(exec, first, "hb::tile_slot");
    t.tile_cells = to_device(exec, cells, "hb::tile_cells");
    t.slot_origin = to_device(exec, origin, "hb::slot_origin");
    t.tile_const = to_device(exec, const_at, "hb::tile_const");
    t.const_owner = to_device(exec, owner, "hb::tile_const_owner");
    const std::size_t rows = static_cast<std::size_t>(row.back()), elems = rows * W;
    const auto alloc = [](const char* label) {
      return Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label));
    };
    t.parent = typename tv::vec_i(alloc("hb::tile_parent"), rows);
    t.row_any = typename tv::vec_u8(alloc("hb::tile_row_any"), rows);
    t.row_all = typename tv::vec_u8(alloc("hb::tile_row_all"), rows);
    t.mechs = typename tv::vec_u8(alloc("hb::tile_mechs"), const_elems);
    for (auto* x : {&t.v, &t.hh_m, &t.hh_h, &t.hh_n})
      *x = typename tv::vec_d(alloc("hb::tile_states"), elems);
    for (auto* x :
         {&t.d0, &t.minus_g_axial, &t.pas_g, &t.pas_e, &t.hh_gna, &t.hh_gk, &t.hh_gl, &t.hh_el})
      *x = typename tv::vec_d(alloc("hb::tile_constants"), const_elems);
    // A tile's d and rhs in team scratch when they fit (they do for any real cell).
    tile_scratch_bytes_ = 2 * static_cast<std::size_t>(max_rows) * W * sizeof(double);
    if (tile_scratch_bytes_ >
        static_cast<std::size_t>(SimdTilePolicy<ExecutionSpace>::scratch_size_max(1))) {
      tile_scratch_bytes_ = 0;
      t.d = typename tv::vec_d(alloc("hb::tile_d"), elems);
      t.rhs = typename tv::vec_d(alloc("hb::tile_rhs"), elems);
    }
    Kokkos::parallel_for(
        "hinesbatch::sim_fill_tiles", simd_tile_policy(exec, t.tiles, W),
        FillCellTiles<ExecutionSpace, TemplateBlockRows, W>{t, TemplateBlockRows(blocks)});
    exec.fence();
  }

  // The templates' generated mechanisms laid out (generated_layout.hpp), their rows and ions
  // per slot (GeneratedTiles: LayoutLeft, a tile's lanes side by side).
  void setup_generated(const ScheduleSetup<ExecutionSpace>& setup) {
    this->template setup_generated_mechanisms<Catalogue>(setup, "in the tiles schedule's step",
                                                         gen_.gen.g, gen_.gen.syn);
  }

  CellTileViews<ExecutionSpace> tiles_;  // the cells' per-node state and constants
  std::size_t tile_scratch_bytes_ = 0;
  Generated gen_;
};

}  // namespace hinesbatch::impl
