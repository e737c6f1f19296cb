#include "hinesbatch/simulation/impl/on_chip_launch_plan.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "hinesbatch/core/error.hpp"

namespace hinesbatch {

namespace {

constexpr std::size_t kScratchBytesPerNode = 16;  // d and rhs in double
constexpr std::size_t kFillBytesPerNode = 8;      // and fill, for plans that split spines
constexpr int kMaxLanes = 1024;
// The model's costs, in cycles or instructions of one lane (only their ratios matter):
// work per node and step (an hh node computes six exponentials), the issue slots a
// team's barrier costs per warp of the team (each level of the solve has one: a team of
// many warps spends them where a warp per cell spends none), the issue rate of an SM,
// the latency of one dependent instruction and of one step of the solve's chain.
// Fitted to the H100's rates of every shape on the shared morphologies' cells at 200 to
// 20,000 cells (docs/SCALING.md, "Forced launch shapes"): the shape measured fastest is
// the one modelled fastest, or within 4% of it.
constexpr double kWorkPassiveNode = 30, kWorkHHNode = 300, kBarrierWorkPerWarp = 64;
constexpr double kIssuePerCycle = 128, kInstructionLatency = 4, kSolveStepLatency = 30;
constexpr double kMemoryIssueFactor = 1.3, kMemoryLatencyFactor = 2.2;
// The warp-per-cell kernel (its own launch bounds, no team barrier) ran 4-8% faster than
// a team of 32 lanes at the same residency.
constexpr double kWarpKernelSpeedup = 1.05;
// Shared memory that holds this few cells per SM leaves the SM mostly idle: then teams
// with d and rhs in their own memory, more of them per SM, are candidates too.
constexpr double kFewCellsPerSM = 2;
// What an SM holds: blocks, and warps at the registers each kind is bounded to (72 for a
// warp per cell: OnChipWarpBounds; 64 for a team: OnChipTeamBounds); 1 KB of shared
// memory per block is CUDA's own.
constexpr int kMaxBlocksPerSM = 32, kWarpKindBlocksPerSM = 28, kTeamKindThreadsPerSM = 1024;
constexpr std::size_t kSharedPerBlockReserved = 1024;

std::size_t scratch_bytes(const OnChipLaunch& l) {
  return (kScratchBytesPerNode + (l.fill ? kFillBytesPerNode : 0)) *
         static_cast<std::size_t>(l.scratch_nodes);
}

// Whether a plan of the launch's cells for `lanes` lanes splits spines.
bool launch_fill(const OnChipCells& c, int b, int e, int lanes) {
  if (!c.fill) return false;
  int last = -1;
  for (int s = b; s < e; ++s) {
    if (c.tree[s] == last) continue;
    last = c.tree[s];
    if (c.fill(last, lanes)) return true;
  }
  return false;
}

double group_work(const OnChipCells& c, int b, int e) {
  double w = 0;
  for (int s = b; s < e; ++s)
    w += (c.nodes[s] - c.hh_nodes[s]) * kWorkPassiveNode + c.hh_nodes[s] * kWorkHHNode;
  return w / std::max(1, e - b);
}

// Resident cells per SM for the launch's kind, lanes and scratch.
double resident_cells(const OnChipLaunch& l, const OnChipDevice& d) {
  double blocks = kMaxBlocksPerSM;
  if (l.kind == OnChipLaunch::kWarpPerCell)
    blocks = std::min<double>(blocks, kWarpKindBlocksPerSM);
  else
    blocks = std::min<double>(blocks, kTeamKindThreadsPerSM / l.lanes);
  if (l.scratch_level() == 0 && d.shared_per_sm > 0)
    blocks = std::min<double>(
        blocks,
        std::floor(double(d.shared_per_sm) / double(scratch_bytes(l) + kSharedPerBlockReserved)));
  return std::max(0.0, blocks);
}

}  // namespace

double on_chip_modelled_rate(const OnChipLaunch& l, const OnChipCells& c, const OnChipDevice& d) {
  const int count = l.slot_end - l.slot_begin;
  const double occupancy = resident_cells(l, d);
  if (occupancy < 1 || count < 1) return 0;
  const double per_sm = std::ceil(double(count) / std::max(1, d.multiprocessors));
  const double resident = std::min(occupancy, per_sm);
  const double work = group_work(c, l.slot_begin, l.slot_end);
  int path = 0;  // the largest cell's, the launch's slowest
  path = c.critical_path(c.tree[l.slot_begin], l.lanes, l.fill);
  // A lane's share of the nodes: whole nodes, at least one.
  const int n = c.nodes[l.slot_begin];
  const double per_lane = std::ceil(double(n) / l.lanes) * (work / std::max(1, n));
  const double barriers = l.kind == OnChipLaunch::kWarpPerCell
                              ? 0.0
                              : 2.0 * path * kBarrierWorkPerWarp * std::max(1, l.lanes / 32);
  double issue = resident * (work + barriers) / kIssuePerCycle;
  double latency = per_lane * kInstructionLatency + 2.0 * path * kSolveStepLatency;
  // In the team's memory every access to d and rhs goes through L1/L2: on an H100 a team
  // ran 0.5-0.7x as fast as the same team with them in shared memory.
  if (l.scratch_level() == 1) {
    issue *= kMemoryIssueFactor;
    latency *= kMemoryLatencyFactor;
  }
  const double rate = resident / std::max(issue, latency);
  return l.kind == OnChipLaunch::kWarpPerCell ? rate * kWarpKernelSpeedup : rate;
}

std::vector<OnChipLaunch> plan_on_chip_launches(const OnChipCells& c, const OnChipDevice& d,
                                                OnChipForce force) {
  const int nc = static_cast<int>(c.nodes.size());
  std::vector<OnChipLaunch> out;
  // Launches of alike cells: a new one where the cells have half the nodes of its first,
  // once it holds a cell per SM (fewer would leave SMs idle while it runs).
  std::vector<std::pair<int, int>> ranges;
  for (int s = 0; s < nc;) {
    int e = s + 1;
    const int min_cells = d.gpu ? d.multiprocessors : nc;
    while (e < nc && (2 * c.nodes[e] > c.nodes[s] || e - s < min_cells || nc - e < min_cells)) ++e;
    ranges.push_back({s, e});
    s = e;
  }
  for (const auto& [b, e] : ranges) {
    OnChipLaunch base;
    base.slot_begin = b;
    base.slot_end = e;
    base.scratch_nodes = std::max(1, c.nodes[b]);
    const std::size_t bytes = kScratchBytesPerNode * static_cast<std::size_t>(base.scratch_nodes);
    char why[512];
    if (!d.gpu) {  // a thread per cell: its scratch where it fits
      base.lanes = 1;
      const bool fits0 = bytes <= d.scratch0_max && d.team_max(bytes, 0) >= 1;
      base.kind = fits0 ? OnChipLaunch::kWarpPerCell : OnChipLaunch::kTeamInMemory;
      if (!fits0 && (bytes > d.scratch1_max || d.team_max(bytes, 1) < 1))
        throw InputError("on_chip: a cell of " + std::to_string(base.scratch_nodes) +
                             " nodes needs " + std::to_string(bytes) +
                             " B of team scratch; the backend has " +
                             std::to_string(d.scratch1_max) + " B",
                         {}, 0, std::to_string(base.scratch_nodes));
      std::snprintf(why, sizeof why, "a thread per cell, d and rhs %s (%zu B)",
                    fits0 ? "in level-0 scratch" : "in level-1 scratch", bytes);
      base.why = why;
      out.push_back(base);
      continue;
    }
    std::vector<OnChipLaunch> candidates;
    // A shape with plans as they are, and for teams with d and rhs in shared memory also
    // where their plans split spines, with the fill that needs (unless forced one way): the
    // model weighs the shorter path against the scratch. (In the team's memory the fill's
    // accesses cost more than the shorter path saves: 0.95x on v_e_moto1 at 10 um.)
    const auto add = [&](OnChipLaunch l, const std::function<bool(std::size_t)>& fits) {
      const bool split =
          l.kind == OnChipLaunch::kTeamPerCell && launch_fill(c, l.slot_begin, l.slot_end, l.lanes);
      if (force.split_spines != 1 || !split) candidates.push_back(l);
      l.fill = true;
      if (split && force.split_spines != 0 && fits(scratch_bytes(l))) candidates.push_back(l);
    };
    if (bytes <= d.scratch0_max && d.warp_team_max(bytes) >= 32) {
      OnChipLaunch l = base;
      l.kind = OnChipLaunch::kWarpPerCell;
      l.lanes = 32;
      add(l,
          [&](std::size_t with) { return with <= d.scratch0_max && d.warp_team_max(with) >= 32; });
    }
    for (const OnChipLaunch::Kind kind :
         {OnChipLaunch::kTeamPerCell, OnChipLaunch::kTeamInMemory}) {
      const int level = kind == OnChipLaunch::kTeamInMemory ? 1 : 0;
      if (bytes > (level == 0 ? d.scratch0_max : d.scratch1_max)) continue;
      // No more lanes than the largest cell has nodes (in whole warps).
      const int most = std::min(
          {kMaxLanes, d.team_max(bytes, level), std::max(32, (base.scratch_nodes + 31) / 32 * 32)});
      for (int lanes = 32; lanes <= most; lanes *= 2) {
        OnChipLaunch l = base;
        l.kind = kind;
        l.lanes = lanes;
        add(l, [&](std::size_t with) {
          return with <= (level == 0 ? d.scratch0_max : d.scratch1_max) &&
                 d.team_max(with, level) >= lanes;
        });
      }
      // In memory only where shared memory cannot hold the cell, or holds too few per SM
      // (or where forced).
      bool few = !candidates.empty();
      for (const OnChipLaunch& l : candidates) few = few && resident_cells(l, d) <= kFewCellsPerSM;
      if (!candidates.empty() && !few && force.kind != OnChipLaunch::kTeamInMemory) break;
    }
    if (candidates.empty())
      throw InputError("on_chip: a cell of " + std::to_string(base.scratch_nodes) +
                           " nodes needs " + std::to_string(bytes) +
                           " B of team scratch; this device's teams have at most " +
                           std::to_string(d.scratch1_max) + " B",
                       {}, 0, std::to_string(base.scratch_nodes));
    if (force.lanes > 0 || force.kind >= 0) {
      std::vector<OnChipLaunch> forced;
      for (const OnChipLaunch& l : candidates)
        if ((force.lanes <= 0 || l.lanes == force.lanes) &&
            (force.kind < 0 || l.kind == force.kind))
          forced.push_back(l);
      if (!forced.empty()) candidates = forced;
    }
    // The fastest modelled; within 3% the fewer lanes (fewer barriers), and a warp per cell
    // (the tuned kernel) before a team of 32.
    std::size_t best = 0;
    std::vector<double> rate(candidates.size());
    for (std::size_t k = 0; k < candidates.size(); ++k)
      rate[k] = on_chip_modelled_rate(candidates[k], c, d);
    const double top = *std::max_element(rate.begin(), rate.end());
    for (std::size_t k = 0; k < candidates.size(); ++k)
      if (rate[k] >= 0.97 * top) {
        best = k;
        break;
      }
    OnChipLaunch l = candidates[best];
    l.cells_per_sm = resident_cells(l, d);
    std::snprintf(
        why, sizeof why,
        "%s of %d lanes%s: %d cells of <= %d nodes, %zu B of %s, %.0f cells per SM%s",
        l.kind_name(), l.lanes, l.fill ? " (split spines)" : "", e - b, l.scratch_nodes,
        scratch_bytes(l), l.scratch_level() == 0 ? "shared memory" : "team memory", l.cells_per_sm,
        (force.lanes > 0 && l.lanes != force.lanes) || (force.kind >= 0 && l.kind != force.kind)
            ? " (the forced shape is not allowed here)"
            : "");
    l.why = why;
    out.push_back(l);
  }
  return out;
}

}  // namespace hinesbatch
