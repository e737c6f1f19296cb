#include "hinesbatch/simulation/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <queue>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

namespace {
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

double uniform01(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  const std::uint64_t h =
      splitmix64(splitmix64(splitmix64(seed) ^ a) ^ (b * 0x632be59bd9b4e019ULL));
  return static_cast<double>(h >> 11) * 0x1.0p-53;
}

int NetworkSpec::synapses_needed() const {
  switch (type) {
    case Single:
      return 0;
    case Ring:
      return 1 + extra_synapses;
    case Random:
      return static_cast<int>(std::min<std::int64_t>(synapses_per_cell, cells - 1));
  }
  return 0;
}

void NetworkSpec::validate() const {
  auto bad = [](const std::string& what, const std::string& v) {
    throw InputError("network: " + what, {}, 0, v);
  };
  if (cells < 1) bad("cells must be >= 1", std::to_string(cells));
  if (templates < 1) bad("needs at least one cell template", std::to_string(templates));
  if (!(delay_min > 0) || !(delay_max >= delay_min) || !std::isfinite(delay_max))
    bad("delays must satisfy 0 < delay_min <= delay_max",
        format_value(delay_min) + ".." + format_value(delay_max));
  if (!std::isfinite(weight)) bad("weight must be finite", format_value(weight));
  if (type == Ring && ring_size < 1) bad("ring_size must be >= 1", std::to_string(ring_size));
  if (type == Ring && extra_synapses < 0)
    bad("extra_synapses must be >= 0", std::to_string(extra_synapses));
  if (type == Random && kick_cells < 0) bad("kick.cells must be >= 0", std::to_string(kick_cells));
  if (type == Random && synapses_per_cell < 0)
    bad("synapses_per_cell must be >= 0", std::to_string(synapses_per_cell));
}

std::vector<Connection> NetworkSpec::incoming(std::int64_t gid) const {
  std::vector<Connection> in;
  auto delay = [&](std::uint64_t k) {
    return delay_min + (delay_max - delay_min) * uniform01(seed, gid, 2 * k + 1);
  };
  if (type == Ring) {
    const std::int64_t ring = gid / ring_size, first = ring * ring_size;
    const std::int64_t size = std::min<std::int64_t>(ring_size, cells - first);
    if (size > 1) {
      const std::int64_t prev = first + (gid - first + size - 1) % size;
      in.push_back({prev, 0, weight, delay(0)});
    }
    for (int k = 1; k <= extra_synapses && cells > 1; ++k) {
      std::int64_t src = static_cast<std::int64_t>(uniform01(seed, gid, 2 * k) * (cells - 1));
      if (src >= gid) ++src;  // anyone but itself
      in.push_back({src, k, 0.0, delay(k)});
    }
  } else if (type == Random) {
    const int n = synapses_needed();
    const bool all = synapses_per_cell >= cells - 1;
    for (int k = 0; k < n; ++k) {
      std::int64_t src;
      if (all) {
        src = k < gid ? k : k + 1;
      } else {
        src = static_cast<std::int64_t>(uniform01(seed, gid, 2 * k) * (cells - 1));
        if (src >= gid) ++src;
      }
      const double w = weight_max < 0
                           ? weight
                           : weight + (weight_max - weight) * uniform01(seed ^ 0x5eedULL, gid, k);
      in.push_back({src, k, w, delay(k)});
    }
  }
  return in;
}

std::vector<ExternalEvent> NetworkSpec::external_events(std::int64_t gid) const {
  if (type == Ring && gid % ring_size == 0) return {{0, kick_time, kick_weight}};
  if (type == Random && gid < kick_cells && synapses_needed() > 0)
    return {{0, kick_time, kick_weight}};
  return {};
}

CellStimulus NetworkSpec::stimulus(std::int64_t gid, const CellTemplate& t) const {
  CellStimulus s;
  if (type == Random && stim_amp != 0) {
    IClampSpec c;
    c.where = t.detector.present ? t.detector.where : Location{0, 0.5};
    c.del = stim_start_max * uniform01(seed ^ 0x57ULL, gid, 0);
    c.dur = 1e9;
    c.amp = stim_amp;
    s.iclamps.push_back(c);
  }
  return s;
}

Partition parse_partition(const std::string& name) {
  if (name == "contiguous") return Partition::Contiguous;
  if (name == "balanced") return Partition::Balanced;
  throw InputError("unknown partition (contiguous, balanced)", {}, 0, name);
}

std::vector<std::vector<std::int64_t>> partition_gids(const NetworkSpec& net,
                                                      const std::vector<CellTemplate>& templates,
                                                      int ranks, Partition how) {
  if (ranks < 1) throw InputError("partition: ranks must be >= 1", {}, 0, std::to_string(ranks));
  std::vector<std::vector<std::int64_t>> out(ranks);
  const std::int64_t n = net.cells;
  if (how == Partition::Contiguous) {
    for (int r = 0; r < ranks; ++r)
      for (std::int64_t g = n * r / ranks; g < n * (r + 1) / ranks; ++g) out[r].push_back(g);
    return out;
  }
  std::vector<std::int64_t> gids(n);
  std::iota(gids.begin(), gids.end(), 0);
  auto size = [&](std::int64_t g) { return templates[net.template_of(g)].compartments.size(); };
  std::stable_sort(gids.begin(), gids.end(),
                   [&](std::int64_t a, std::int64_t b) { return size(a) > size(b); });
  using Load = std::pair<long long, int>;  // (nodes, rank): smallest first
  std::priority_queue<Load, std::vector<Load>, std::greater<Load>> heap;
  for (int r = 0; r < ranks; ++r) heap.push({0, r});
  for (std::int64_t g : gids) {
    auto [load, r] = heap.top();
    heap.pop();
    out[r].push_back(g);
    heap.push({load + size(g), r});
  }
  for (auto& v : out) std::sort(v.begin(), v.end());
  return out;
}

}  // namespace hinesbatch
