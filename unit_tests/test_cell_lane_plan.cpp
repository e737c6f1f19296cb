// The on-chip solve's lane plan (CellLanePlan): its pieces, its warp levels, and the
// elimination it schedules against the sequential Hines algorithm.
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "hinesbatch/morphology/neuron_compartments.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/solvers/impl/cell_lane_plan.hpp"
#include "support/shared_data.hpp"

namespace hinesbatch::test {
namespace {

// The lane plan of `parent` for `lanes` lanes (splitting spines where `split` allows)
// against its definition, and the elimination it schedules, emulated level by level and
// lane by lane as the kernel runs it (registers for kept sums and a segment's fill
// included), against the sequential Hines algorithm. Returns the plan.
CellLanePlan check_plan(const std::vector<int>& parent, const int lanes, const bool split) {
  using P = CellLanePlan;
  const int n = static_cast<int>(parent.size());
  const P plan = P::build(parent, lanes, split);
  [&] {
    ASSERT_EQ(static_cast<int>(plan.begin.size()), plan.levels * lanes + 1);
    if (!split) EXPECT_FALSE(plan.fill);
    // Every node eliminated once. A node's step into its parent: made by the same lane at
    // the same level (kNode, kFill), pulled at a higher level by the lane owning the parent
    // (kPieceRoot), or made at a higher level by the lane of a split spine's interface
    // chain (kFillInto). No node's sums are written by two lanes of one level.
    std::vector<int> level_of(n, -1), lane_of(n, -1), kind_of(n, -1), pulled_at(n, -1),
        pulled_by(n, -1);
    bool fill_kinds = false;
    for (int v = 0; v < plan.levels; ++v)
      for (int k = 0; k < lanes; ++k)
        for (int q = plan.begin[v * lanes + k]; q < plan.begin[v * lanes + k + 1]; ++q) {
          const int e = plan.entries[q], i = P::node_of(e), kind = P::kind_of(e);
          ASSERT_GE(i, 0);
          ASSERT_LT(i, n);
          fill_kinds = fill_kinds || kind >= P::kFillStart;
          if (kind == P::kPull) {
            EXPECT_EQ(pulled_at[i], -1) << "node " << i << " pulled twice";
            pulled_at[i] = v;
            pulled_by[i] = k;
            continue;
          }
          if (kind == P::kFillStart || kind == P::kFillEnd) continue;
          ASSERT_EQ(level_of[i], -1) << "node " << i << " twice";
          level_of[i] = v;
          lane_of[i] = k;
          kind_of[i] = kind;
        }
    EXPECT_EQ(fill_kinds, plan.fill);
    for (int i = 0; i < n; ++i) {
      ASSERT_NE(level_of[i], -1) << "node " << i << " missing";
      if (i == 0) {
        EXPECT_EQ(kind_of[0], P::kPieceRoot);
        continue;
      }
      const int p = parent[i];
      // Only an A below a split spine's segment outlives its parent, eliminated with fill.
      if (level_of[p] < level_of[i]) EXPECT_EQ(kind_of[p], P::kFill) << "node " << i;
      if (kind_of[i] == P::kPieceRoot) {
        EXPECT_GT(level_of[p], level_of[i]) << "piece root " << i;
        EXPECT_EQ(pulled_at[i], level_of[p]) << "piece root " << i;
        EXPECT_EQ(pulled_by[i], lane_of[p]) << "piece root " << i;
      } else {
        EXPECT_EQ(pulled_at[i], -1) << "node " << i;
        if (!plan.fill) {
          EXPECT_EQ(kind_of[i], P::kNode);
          EXPECT_EQ(level_of[p], level_of[i]) << "node " << i;
          EXPECT_EQ(lane_of[p], lane_of[i]) << "node " << i;
        }
      }
    }
    if (lanes == 1) EXPECT_EQ(plan.levels, 1);
    // Per level, the nodes whose sums (d, rhs, fill) each lane writes: one lane each.
    for (int v = 0; v < plan.levels; ++v) {
      std::vector<int> writer(n, -1);
      for (int k = 0; k < lanes; ++k) {
        int above = -1;
        auto write = [&](int i) {
          if (i < 0) return;
          EXPECT_TRUE(writer[i] == -1 || writer[i] == k)
              << "level " << v << ": node " << i << " written by lanes " << writer[i] << ", " << k;
          writer[i] = k;
        };
        for (int q = plan.begin[v * lanes + k]; q < plan.begin[v * lanes + k + 1]; ++q) {
          const int e = plan.entries[q], i = P::node_of(e), kind = P::kind_of(e);
          if (kind == P::kFillStart) continue;
          if (kind == P::kFillEnd) {
            write(i);
            write(above);
            continue;
          }
          if (kind != P::kPull) write(i);
          if (kind == P::kFill) above = parent[i];
          if (kind != P::kPieceRoot && kind != P::kFillInto) write(parent[i]);
        }
      }
    }
    // The kernel's order against the sequential solve of a random diagonally dominant
    // system (u = l = a).
    std::vector<double> a(n), d(n), r(n), fill(n, 0);
    for (int i = 0; i < n; ++i) {
      a[i] = -(0.5 + uniform01(22, n, i));
      d[i] = 3 + uniform01(23, n, i);
      r[i] = uniform01(24, n, i) - 0.5;
    }
    for (int i = 1; i < n; ++i) d[parent[i]] += -a[i];
    const std::vector<double> d0 = d, r0 = r;
    std::vector<double> dr = d, rr = r;
    for (int i = n - 1; i > 0; --i) {
      const double f = a[i] / dr[i];
      dr[parent[i]] -= f * a[i];
      rr[parent[i]] -= f * rr[i];
    }
    rr[0] /= dr[0];
    for (int i = 1; i < n; ++i) rr[i] = (rr[i] - a[i] * rr[parent[i]]) / dr[i];
    // One lane's list at one level, elimination and substitution, as the kernel runs them.
    std::vector<double> xs(n);
    auto eliminate = [&](const int v, const int k) {
      bool cached = false;
      double dc = 0, rc = 0, gu = 0, gl = 0, sd = 0, sr = 0;
      int above = 0;
      const int b = plan.begin[v * lanes + k], end = plan.begin[v * lanes + k + 1];
      for (int q = b; q < end; ++q) {
        const int e = plan.entries[q], i = P::node_of(e), kind = P::kind_of(e);
        if (kind == P::kFillStart) {
          gu = gl = a[i];
          sd = sr = 0;
          continue;
        }
        if (kind == P::kFillEnd) {
          d[i] += sd;
          r[i] += sr;
          fill[i] = gl;
          fill[above] = gu;
          continue;
        }
        if (kind != P::kPull) {
          const double di = cached ? dc : d[i];
          const double ri = cached ? rc : r[i];
          d[i] = 1 / di;
          r[i] = ri;
          cached = false;
          if (kind == P::kPieceRoot) continue;
        }
        if (kind == P::kFillInto) {
          ASSERT_LT(q + 1, end) << "a kFillInto entry ends its list";
          const int next = plan.entries[q + 1];
          const int into =
              P::kind_of(next) == P::kPull ? parent[P::node_of(next)] : P::node_of(next);
          const double f = fill[into] * d[i];
          dc = d[into] - f * fill[i];
          rc = r[into] - f * r[i];
          cached = true;
          continue;
        }
        const int p = parent[i];
        const double f = a[i] * d[i];
        const double dp = (cached ? dc : d[p]) - f * a[i];
        const double rp = (cached ? rc : r[p]) - f * r[i];
        if (kind == P::kFill) {
          fill[i] = gu;
          const double g = gl * d[i];
          sd -= g * gu;
          sr -= g * r[i];
          gu = -f * gu;
          gl = -g * a[i];
          above = p;
        }
        cached = (e & P::kKeep) != 0;
        if (cached) {
          dc = dp;
          rc = rp;
        } else {
          d[p] = dp;
          r[p] = rp;
        }
      }
      EXPECT_FALSE(cached) << "a list's last entry keeps nothing";
    };
    auto substitute = [&](const int v, const int k) {
      double xprev = 0, xa = 0;
      for (int q = plan.begin[v * lanes + k + 1] - 1; q >= plan.begin[v * lanes + k]; --q) {
        const int e = plan.entries[q], i = P::node_of(e), kind = P::kind_of(e);
        if (kind == P::kPull || kind == P::kFillStart) continue;
        if (kind == P::kFillEnd) {
          xa = xs[i];
          continue;
        }
        if (i == 0)
          xs[i] = r[i] * d[i];
        else if (kind == P::kFillInto)
          xs[i] = (r[i] - fill[i] * xprev) * d[i];
        else
          xs[i] = (r[i] - a[i] * xs[parent[i]] - (kind == P::kFill ? fill[i] * xa : 0)) * d[i];
        xprev = xs[i];
      }
    };
    // The waits (CellLanePlan::waits): between two waits of the whole team each warp runs
    // its levels without waiting for the others, so the levels of a run are emulated warp
    // after warp, in both orders: a wait that must hold the team but holds each warp only
    // lets one of them read a node before, or after, another warp writes it.
    ASSERT_EQ(static_cast<int>(plan.waits.size()), plan.levels);
    const int warps = (lanes + P::kWarpLanes - 1) / P::kWarpLanes;
    std::vector<std::pair<int, bool>> steps;  // level, elimination
    for (int v = 0; v < plan.levels; ++v) steps.push_back({v, true});
    for (int v = plan.levels - 1; v >= 0; --v) steps.push_back({v, false});
    for (const bool reverse : {false, true}) {
      d = d0;
      r = r0;
      std::fill(fill.begin(), fill.end(), 0.0);
      std::fill(xs.begin(), xs.end(), std::numeric_limits<double>::quiet_NaN());
      for (std::size_t first = 0; first < steps.size();) {
        std::size_t last = first;  // the run's last step: the whole team waits after it
        for (; last + 1 < steps.size(); ++last) {
          const auto [v, up] = steps[last];
          if (plan.waits[v] & (up ? P::kTeamWaitUp : P::kTeamWaitDown)) break;
        }
        for (int ww = 0; ww < warps; ++ww) {
          const int w = reverse ? warps - 1 - ww : ww;
          for (std::size_t st = first; st <= last; ++st)
            for (int k = w * P::kWarpLanes; k < std::min(lanes, (w + 1) * P::kWarpLanes); ++k) {
              if (steps[st].second)
                eliminate(steps[st].first, k);
              else
                substitute(steps[st].first, k);
            }
        }
        first = last + 1;
      }
      for (int i = 0; i < n; ++i)
        ASSERT_NEAR(xs[i], rr[i], 1e-12) << "node " << i << (reverse ? ", warps in reverse" : "");
    }
    if (lanes <= P::kWarpLanes)
      for (int v = 0; v < plan.levels; ++v)
        EXPECT_EQ(plan.waits[v], P::kTeamWaitUp | P::kTeamWaitDown) << "level " << v;
  }();
  return plan;
}

// Random trees (parents uniform below each node), chains, stars, cables with short side
// branches and the synthetic:p3 cell, 1 to 32 lanes, with and without split spines.
TEST(CellLanePlanTest, PiecesAreWholeSubtreesOrChainsAndTheScheduleSolves) {
  std::vector<std::pair<std::string, std::vector<int>>> trees;
  auto parents_of = [](const NeuronCompartments& c) {
    std::vector<int> p(c.size());
    for (int i = 0; i < c.size(); ++i) p[i] = c.tree.parent(i);
    return p;
  };
  trees.push_back({"p3", parents_of(neuron_compartments(synthetic_sections("p3"), 100))});
  for (int n : {1, 2, 7, 100, 600}) {
    std::vector<int> random(n, -1), chain(n, -1), star(n, -1), caterpillar(n, -1);
    for (int i = 1; i < n; ++i) {
      random[i] = static_cast<int>(uniform01(21, n, i) * i);
      chain[i] = i - 1;
      star[i] = 0;
      // a cable with short side branches here and there (split spines' side pieces)
      caterpillar[i] = uniform01(25, n, i) < 0.3
                           ? i - 1 - static_cast<int>(uniform01(26, n, i) * std::min(i, 4))
                           : i - 1;
    }
    trees.push_back({"random " + std::to_string(n), random});
    trees.push_back({"chain " + std::to_string(n), chain});
    trees.push_back({"star " + std::to_string(n), star});
    trees.push_back({"caterpillar " + std::to_string(n), caterpillar});
  }
  for (const auto& tree : trees)
    for (int lanes : {1, 2, 5, 32, 64, 128}) {
      SCOPED_TRACE(tree.first + ", " + std::to_string(lanes) + " lanes");
      for (const bool split : {false, true}) {
        const CellLanePlan plan = check_plan(tree.second, lanes, split);
        if (lanes == 1) EXPECT_EQ(plan.levels, 1);
        if (tree.first == "p3" && lanes == 32)
          EXPECT_LT(plan.critical_path(), static_cast<int>(tree.second.size()) / 6);
        if (tree.first == "chain 600" && lanes == 32 && split) {  // a chain needs its fill
          EXPECT_TRUE(plan.fill);
          EXPECT_LT(plan.critical_path(), 600 / 4);
        }
      }
    }
}

// Every shared morphology, one node per SWC point and as the simulation discretises it, for
// teams of 32 to 512 lanes: the plan solves; its modelled critical path is well under one
// lane's whole tree, and more lanes never lengthen it by more than a barrier.
TEST(CellLanePlanTest, RealCellsSolveOverEveryTeamSize) {
  std::vector<std::pair<std::string, std::vector<int>>> trees;
  const std::vector<std::string> files = real_morphology_files();
  if (files.empty()) GTEST_SKIP() << "no SWC files in " << morphology_dir();
  const std::vector<Tree> points = real_morphology_trees();
  const std::vector<NeuronCompartments> compartments = real_neuron_cells();
  for (std::size_t f = 0; f < files.size(); ++f) {
    std::vector<int> p(points[f].size()), c(compartments[f].size());
    for (int i = 0; i < points[f].size(); ++i) p[i] = points[f].parent(i);
    for (int i = 0; i < compartments[f].size(); ++i) c[i] = compartments[f].tree.parent(i);
    trees.push_back({files[f] + " (SWC points)", p});
    trees.push_back({files[f] + " (d_lambda 0.1)", c});
  }
  for (const auto& tree : trees)
    for (int lanes : {32, 64, 128, 256, 512}) {
      SCOPED_TRACE(tree.first + ", " + std::to_string(lanes) + " lanes");
      const CellLanePlan plan = check_plan(tree.second, lanes, false);
      // Lanes of different warps touch different nodes at many levels: some waits need hold
      // each warp only.
      if (lanes > CellLanePlan::kWarpLanes) {
        int team_waits = 0;
        for (int w : plan.waits)
          team_waits +=
              (w & CellLanePlan::kTeamWaitUp ? 1 : 0) + (w & CellLanePlan::kTeamWaitDown ? 1 : 0);
        EXPECT_LT(team_waits, 2 * plan.levels - 1);
      }
      const int n = static_cast<int>(tree.second.size());
      if (n >= 400) EXPECT_LT(plan.critical_path(), n / 3);
      EXPECT_LE(plan.critical_path(),
                CellLanePlan::build(tree.second, 32).critical_path() + CellLanePlan::kBarrierSteps);
      // Splitting spines never lengthens the path.
      EXPECT_LE(check_plan(tree.second, lanes, true).critical_path(), plan.critical_path());
    }
}

// The levels near the root that only the first warp's lanes work on (warp_levels_from):
// from that level on no lane past the warp has an entry, and the level before it has one.
// Random trees give a plan of many lanes some such levels.
TEST(CellLanePlanTest, WarpLevelsAreTheTopLevelsOfTheFirstWarpAlone) {
  for (int n : {7, 600, 3000})
    for (int lanes : {8, 64, 256}) {
      std::vector<int> parent(n, -1);
      for (int i = 1; i < n; ++i) parent[i] = static_cast<int>(uniform01(23, n, i) * i);
      const CellLanePlan plan = CellLanePlan::build(parent, lanes);
      for (int warp : {4, 32}) {
        SCOPED_TRACE(std::to_string(n) + " nodes, " + std::to_string(lanes) + " lanes, warp " +
                     std::to_string(warp));
        const int from = plan.warp_levels_from(warp);
        ASSERT_GE(from, 0);
        ASSERT_LE(from, plan.levels);
        auto past_warp = [&](int v) {
          int entries = 0;
          for (int k = warp; k < lanes; ++k)
            entries += plan.begin[v * lanes + k + 1] - plan.begin[v * lanes + k];
          return entries;
        };
        for (int v = from; v < plan.levels; ++v) EXPECT_EQ(past_warp(v), 0) << "level " << v;
        if (from > 0) EXPECT_GT(past_warp(from - 1), 0);
        if (lanes <= warp) EXPECT_EQ(from, 0);
        if (n == 3000 && lanes == 256 && warp == 32) EXPECT_LT(from, plan.levels);
      }
    }
}

}  // namespace
}  // namespace hinesbatch::test
