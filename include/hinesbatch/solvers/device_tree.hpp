#pragma once
// The parent array of a Tree, copied once into a memory space for the batched solvers,
// with the tree's plans for the team and warp schedules (solvers/impl/team_tree_plan.hpp,
// solvers/impl/warp_tree_plan.hpp) and, built when a solve first asks, for the block
// and split schedules (solvers/impl/hines_block.hpp, solvers/impl/hines_split.hpp).
#include <Kokkos_Core.hpp>
#include <memory>
#include <string>
#include <vector>

#include "hinesbatch/core/impl/device_copy.hpp"
#include "hinesbatch/morphology/tree.hpp"
#include "hinesbatch/solvers/impl/hines_block.hpp"
#include "hinesbatch/solvers/impl/hines_split.hpp"
#include "hinesbatch/solvers/impl/hines_team.hpp"
#include "hinesbatch/solvers/impl/hines_warp.hpp"
#include "hinesbatch/solvers/impl/plans_by_lanes.hpp"
#include "hinesbatch/solvers/impl/team_tree_plan.hpp"
#include "hinesbatch/solvers/impl/warp_tree_plan.hpp"

namespace hinesbatch {

template <class MemorySpace = Kokkos::DefaultExecutionSpace::memory_space>
class DeviceTree {
 public:
  using memory_space = MemorySpace;
  using parent_view = Kokkos::View<const int*, MemorySpace>;

  DeviceTree() = default;
  // team_piece_length: the longest piece of the team schedule's plan (0: chosen from the
  // tree's size; see TeamTreePlan::build). warp_lanes: lanes per system of the warp
  // schedule (0: WarpTreePlan::choose_lanes). on_chip_nodes: at most this many nodes kept
  // in scratch by the PerSystemOnChip schedule (0: as many as fit).
  template <class ExecutionSpace>
  DeviceTree(const ExecutionSpace& exec, const Tree& tree, int team_piece_length = 0,
             int warp_lanes = 0, int on_chip_nodes = 0)
      : size_(tree.size()),
        height_(tree.height()),
        on_chip_nodes_(on_chip_nodes),
        block_plans_(std::make_shared<BlockPlans>(tree.parents())),
        split_plans_(std::make_shared<SplitPlans>(tree.parents())) {
    auto ints = [&exec](const std::vector<int>& src, const char* label) {
      return parent_view(impl::to_device<MemorySpace>(exec, src, label));
    };
    parent_ = ints(tree.parents(), "hinesbatch::parent");

    const TeamTreePlan plan = TeamTreePlan::build(tree, team_piece_length);
    team_plan_.piece_begin = ints(plan.piece_begin, "hinesbatch::piece_begin");
    team_plan_.piece_nodes = ints(plan.piece_nodes, "hinesbatch::piece_nodes");
    team_plan_.parent_node = ints(plan.parent_node, "hinesbatch::piece_parent");
    team_plan_.child_begin = ints(plan.child_begin, "hinesbatch::child_begin");
    team_plan_.children = ints(plan.children, "hinesbatch::children");
    team_plan_.level_begin = ints(plan.level_begin, "hinesbatch::level_begin");
    team_plan_.num_nodes = plan.num_nodes;
    team_plan_.num_pieces = plan.num_pieces();
    team_plan_.num_levels = plan.num_levels();

    const WarpTreePlan warp = WarpTreePlan::build(tree, warp_lanes);
    warp_plan_.kind = ints(warp.kind, "hinesbatch::warp_kind");
    warp_plan_.parent_slot = ints(warp.parent_slot, "hinesbatch::warp_parent_slot");
    warp_plan_.lane_piece_begin = ints(warp.lane_piece_begin, "hinesbatch::warp_lane_piece_begin");
    warp_plan_.piece_begin = ints(warp.piece_begin, "hinesbatch::warp_piece_begin");
    warp_plan_.piece_slots = ints(warp.piece_slots, "hinesbatch::warp_piece_slots");
    warp_plan_.piece_parent = ints(warp.piece_parent, "hinesbatch::warp_piece_parent");
    warp_plan_.port_piece = ints(warp.port_piece, "hinesbatch::warp_port_piece");
    warp_plan_.port_child_begin = ints(warp.port_child_begin, "hinesbatch::warp_port_child_begin");
    warp_plan_.child_piece = ints(warp.child_piece, "hinesbatch::warp_child_piece");
    warp_plan_.child_bottom = ints(warp.child_bottom, "hinesbatch::warp_child_bottom");
    warp_plan_.port_cross_begin = ints(warp.port_cross_begin, "hinesbatch::warp_port_cross_begin");
    warp_plan_.port_cross = ints(warp.port_cross, "hinesbatch::warp_port_cross");
    warp_plan_.num_nodes = warp.num_nodes;
    warp_plan_.lanes = warp.lanes;
    warp_plan_.nodes_per_lane = warp.nodes_per_lane;
    warp_plan_.lane_stride = warp.lane_stride;
    warp_plan_.num_pieces = warp.num_pieces();
    warp_plan_.num_ports = warp.num_ports();
    warp_plan_.lane_of = impl::FastDivider(warp.nodes_per_lane, warp.num_nodes);
  }

  int size() const { return size_; }
  int height() const { return height_; }  // Tree::height()
  int on_chip_nodes() const { return on_chip_nodes_; }
  const parent_view& parents() const { return parent_; }
  const impl::DeviceTeamPlan<MemorySpace>& team_plan() const { return team_plan_; }
  const impl::DeviceWarpPlan<MemorySpace>& warp_plan() const { return warp_plan_; }
  // The block schedule's plan for teams of `lanes` threads (built on first use, then kept
  // by this tree and its copies).
  template <class ExecutionSpace>
  const impl::BlockPlan<MemorySpace>& block_plan(const ExecutionSpace& exec, int lanes) const {
    return block_plans_->get(lanes, [&](const std::vector<int>& parents, int k) {
      return impl::make_block_plan<MemorySpace>(exec, parents, k);
    });
  }
  // The split schedule's plan for `lanes` lanes per system (built on first use, then kept).
  template <class ExecutionSpace>
  const impl::DeviceSplitPlan<MemorySpace>& split_plan(const ExecutionSpace& exec,
                                                       int lanes) const {
    return split_plans_->get(lanes, [&](const std::vector<int>& parents, int k) {
      return impl::make_split_plan<MemorySpace>(exec, parents, k);
    });
  }

 private:
  int size_ = 0;
  int height_ = 0;
  int on_chip_nodes_ = 0;
  parent_view parent_;
  impl::DeviceTeamPlan<MemorySpace> team_plan_;
  impl::DeviceWarpPlan<MemorySpace> warp_plan_;
  using BlockPlans = impl::PlansByLanes<impl::BlockPlan<MemorySpace>>;
  using SplitPlans = impl::PlansByLanes<impl::DeviceSplitPlan<MemorySpace>>;
  std::shared_ptr<BlockPlans> block_plans_;
  std::shared_ptr<SplitPlans> split_plans_;
};

}  // namespace hinesbatch
