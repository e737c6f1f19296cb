#include "hinesbatch/simulation/network.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <queue>
#include <unordered_map>

#include "hinesbatch/core/counter_random.hpp"
#include "hinesbatch/core/error.hpp"
#include "hinesbatch/core/numbers.hpp"

namespace hinesbatch {

namespace impl {
// An explicit network's lists, and each grouped by target gid (in the order given) for
// O(1) lookup: incoming() runs for every local cell in parallel during setup.
struct ExplicitIndex {
  ExplicitNetwork lists;
  template <class T>
  struct ByGid {
    std::vector<T> items;
    std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>> range;
    std::vector<T> of(std::int64_t gid) const {
      const auto it = range.find(gid);
      if (it == range.end()) return {};
      return std::vector<T>(items.begin() + it->second.first, items.begin() + it->second.second);
    }
  };
  ByGid<Connection> incoming;
  ByGid<ExternalEvent> events;
  ByGid<IClampSpec> iclamps;
};
}  // namespace impl

namespace {

// Groups (gid, item) pairs by gid, keeping the given order within a gid.
template <class T>
void group_by_gid(std::vector<std::pair<std::int64_t, T>> pairs,
                  impl::ExplicitIndex::ByGid<T>& out) {
  std::stable_sort(pairs.begin(), pairs.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  out.items.reserve(pairs.size());
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i == 0 || pairs[i].first != pairs[i - 1].first) out.range[pairs[i].first] = {i, i};
    out.range[pairs[i].first].second = i + 1;
    out.items.push_back(pairs[i].second);
  }
}

}  // namespace

double uniform01(std::uint64_t seed, std::uint64_t a, std::uint64_t b) {
  return counter_uniform01(seed, a, b);
}

int NetworkSpec::template_of(std::int64_t gid) const {
  if (listed && !listed->lists.templates.empty())
    return listed->lists.templates[static_cast<std::size_t>(gid)];
  if (!blocks.empty()) {
    const std::int64_t pattern = blocks.back().first_gid + blocks.back().count;
    const std::int64_t g = gid % pattern;
    const auto b =
        std::upper_bound(blocks.begin(), blocks.end(), g,
                         [](std::int64_t x, const TemplateBlock& t) { return x < t.first_gid; }) -
        1;
    return b->first_template + static_cast<int>((g - b->first_gid) % b->templates);
  }
  return static_cast<int>(gid % templates);
}

const SourceGroup* NetworkSpec::source_group(std::int64_t gid) const {
  if (!is_source(gid)) return nullptr;
  const std::int64_t i = gid - cells;
  for (const SourceGroup& g : sources)
    if (i >= g.first && i < g.first + g.count) return &g;
  return nullptr;
}

bool NetworkSpec::has_artificial_cells() const {
  for (const SourceGroup& g : sources)
    if (g.type == SourceGroup::Artificial) return true;
  return false;
}

std::int64_t NetworkSpec::num_sources() const {
  return sources.empty() ? 0 : sources.back().first + sources.back().count;
}

double NetworkSpec::min_delay() const {
  double d = delay_min;
  for (const SourceGroup& g : sources)
    if (g.per_cell > 0 && type != Explicit) d = std::min(d, g.delay);
  return d;
}

const ExplicitNetwork* NetworkSpec::explicit_lists() const {
  return listed ? &listed->lists : nullptr;
}

bool NetworkSpec::connected() const {
  if (type == Explicit) return listed && !listed->lists.connections.empty();
  for (const SourceGroup& g : sources)
    if (g.per_cell > 0) return true;
  return type != Single;
}

int NetworkSpec::synapses_needed() const {
  switch (type) {
    case Single:
    case Explicit:
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
  if (type == Explicit && !listed)
    bad("an explicit network needs its lists (make_explicit_network)", "");
  if (type == Explicit && listed && listed->lists.cells != cells)
    bad("cells differs from the explicit lists' cells", std::to_string(cells));
  if (type == Explicit && listed && listed->lists.sources != num_sources())
    bad("sources differ from the explicit lists' sources", std::to_string(num_sources()));
  std::int64_t next = 0;
  for (const SourceGroup& g : sources) {
    const std::string name = "source group '" + g.name + "': ";
    if (g.first != next)
      bad(name + "first must follow the previous group", std::to_string(g.first));
    if (g.count < 1) bad(name + "count must be >= 1", std::to_string(g.count));
    if (g.type == SourceGroup::Artificial && g.mechanism.empty())
      bad(name + "an artificial cell needs its mechanism", "");
    if (!(g.interval > 0) || !std::isfinite(g.interval))
      bad(name + "interval must be > 0 and finite (ms)", format_value(g.interval));
    if (!(g.start >= 0) || !std::isfinite(g.start))
      bad(name + "start must be >= 0 and finite (ms)", format_value(g.start));
    if (g.number < 0) bad(name + "number must be >= 0", std::to_string(g.number));
    if (g.per_cell < 0) bad(name + "per_cell must be >= 0", std::to_string(g.per_cell));
    if (g.per_cell > 0 && type == Explicit)
      bad(name + "per_cell: an explicit network lists its connections", std::to_string(g.per_cell));
    if (g.per_cell > 0 && (!(g.delay > 0) || !std::isfinite(g.delay)))
      bad(name + "delay must be > 0 and finite (ms)", format_value(g.delay));
    if (!std::isfinite(g.weight)) bad(name + "weight must be finite", format_value(g.weight));
    if (g.per_cell > 0 && static_cast<int>(g.first_synapse.size()) != templates)
      bad(name + "needs the first synapse of every template", std::to_string(templates));
    next += g.count;
  }
  // Events into a source gid reach only an artificial cell (regular and Poisson trains are
  // drawn, deaf to inputs).
  if (type == Explicit && listed) {
    auto deaf = [&](const char* list, std::size_t i, std::int64_t gid) {
      const SourceGroup* g = source_group(gid);
      if (g && g->type != SourceGroup::Artificial)
        bad(std::string(list) + "[" + std::to_string(i) + "]: target gid " + std::to_string(gid) +
                " is a " + (g->type == SourceGroup::Poisson ? "Poisson" : "regular") +
                " spike source of group '" + g->name +
                "': only cells and artificial cells receive events",
            std::to_string(gid));
    };
    const ExplicitNetwork& l = listed->lists;
    for (std::size_t i = 0; i < l.connections.size(); ++i)
      deaf("connections", i, l.connections[i].target);
    for (std::size_t i = 0; i < l.events.size(); ++i) deaf("events", i, l.events[i].gid);
  }
  if (!blocks.empty()) {
    std::int64_t first = 0;
    int t = 0;
    for (const TemplateBlock& b : blocks) {
      if (b.first_gid != first || b.count < 1 || b.first_template != t || b.templates < 1)
        bad("template block '" + b.name + "' does not follow the previous one",
            std::to_string(b.first_gid));
      first += b.count;
      t += b.templates;
    }
    if (t != templates) bad("template blocks use " + std::to_string(t) + " templates", "");
    if (cells % first != 0)
      bad("cells is not a multiple of the template blocks' cells", std::to_string(cells));
  }
}

std::vector<Connection> NetworkSpec::incoming(std::int64_t gid) const {
  if (type == Explicit) return listed ? listed->incoming.of(gid) : std::vector<Connection>{};
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
  if (sources.empty() || type == Explicit) return in;
  const int t = template_of(gid);
  for (std::size_t gi = 0; gi < sources.size(); ++gi) {
    const SourceGroup& g = sources[gi];
    if (g.per_cell <= 0 || g.first_synapse[t] < 0) continue;
    const bool all = g.per_cell >= g.count;
    for (int k = 0; k < g.per_cell; ++k) {
      const std::int64_t i =
          all ? k
              : std::min<std::int64_t>(g.count - 1,
                                       static_cast<std::int64_t>(
                                           uniform01(seed ^ (0x50c0ULL + gi), gid, k) * g.count));
      in.push_back({cells + g.first + i, g.first_synapse[t] + k, g.weight, g.delay});
    }
  }
  return in;
}

std::vector<ExternalEvent> NetworkSpec::external_events(std::int64_t gid) const {
  if (type == Explicit) return listed ? listed->events.of(gid) : std::vector<ExternalEvent>{};
  if (type == Ring && gid % ring_size == 0) return {{0, kick_time, kick_weight}};
  if (type == Random && gid < kick_cells && synapses_needed() > 0)
    return {{0, kick_time, kick_weight}};
  return {};
}

CellStimulus NetworkSpec::stimulus(std::int64_t gid, const CellTemplate& t) const {
  CellStimulus s;
  if (type == Explicit && listed) s.iclamps = listed->iclamps.of(gid);
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

namespace {

// Checks an explicit network's lists; templates (may be null): synapse indices and IClamp
// locations against each gid's template.
void check_explicit(const ExplicitNetwork& l, int num_templates,
                    const std::vector<CellTemplate>* templates) {
  auto bad = [](const std::string& entry, const std::string& what, const std::string& v) {
    throw InputError("network " + entry + ": " + what, {}, 0, v);
  };
  auto at = [](const char* list, std::size_t i) {
    return std::string(list) + "[" + std::to_string(i) + "]";
  };
  if (l.cells < 1) bad("cells", "must be >= 1", std::to_string(l.cells));
  if (num_templates < 1)
    bad("templates", "needs at least one cell template", std::to_string(num_templates));
  const std::string of_cells =
      " is not a cell of the network (cells = " + std::to_string(l.cells) + ")";
  auto gid_ok = [&](std::int64_t g) { return g >= 0 && g < l.cells; };
  auto source_ok = [&](std::int64_t g) { return g >= 0 && g < l.cells + l.sources; };
  if (!l.templates.empty() && static_cast<std::int64_t>(l.templates.size()) != l.cells)
    bad("templates",
        "must list one template index per cell (cells = " + std::to_string(l.cells) + ")",
        std::to_string(l.templates.size()));
  for (std::size_t i = 0; i < l.templates.size(); ++i)
    if (l.templates[i] < 0 || l.templates[i] >= num_templates)
      bad(at("templates", i),
          "names template " + std::to_string(l.templates[i]) + " of " +
              std::to_string(num_templates),
          std::to_string(l.templates[i]));
  auto template_of = [&](std::int64_t g) {
    return l.templates.empty() ? static_cast<int>(g % num_templates) : l.templates[g];
  };
  auto synapse_ok = [&](const std::string& entry, std::int64_t gid, int syn) {
    if (syn < 0) bad(entry, "synapse index must be >= 0", std::to_string(syn));
    if (!templates) return;
    const CellTemplate& t = (*templates)[template_of(gid)];
    const int n = t.connectable_synapses();
    if (syn >= n)
      bad(entry,
          "names synapse " + std::to_string(syn) + " but gid " + std::to_string(gid) +
              "'s template has " + std::to_string(n) +
              (t.point_processes > 0 ? " (and " + std::to_string(t.point_processes) +
                                           " point processes placed on it, which receive no "
                                           "events)"
                                     : std::string()),
          std::to_string(syn));
  };
  for (std::size_t i = 0; i < l.connections.size(); ++i) {
    const ExplicitConnection& c = l.connections[i];
    const std::string e = at("connections", i);
    if (!source_ok(c.source) && l.sources == 0)
      bad(e, "source gid" + of_cells, std::to_string(c.source));
    if (!source_ok(c.source))
      bad(e,
          "source gid is neither a cell nor a spike source of the network (cells = " +
              std::to_string(l.cells) + ", sources = " + std::to_string(l.sources) + ")",
          std::to_string(c.source));
    if (!source_ok(c.target)) bad(e, "target gid" + of_cells, std::to_string(c.target));
    if (gid_ok(c.target))
      synapse_ok(e, c.target, c.synapse);
    else if (c.synapse != 0)  // a spike source: an artificial cell's one input
      bad(e, "an artificial cell receives on synapse 0", std::to_string(c.synapse));
    if (!std::isfinite(c.weight)) bad(e, "weight must be finite", format_value(c.weight));
    if (!(c.delay > 0) || !std::isfinite(c.delay))
      bad(e, "delay must be > 0 and finite (ms)", format_value(c.delay));
  }
  for (std::size_t i = 0; i < l.events.size(); ++i) {
    const ExplicitEvent& x = l.events[i];
    const std::string e = at("events", i);
    if (!source_ok(x.gid)) bad(e, "gid" + of_cells, std::to_string(x.gid));
    if (gid_ok(x.gid))
      synapse_ok(e, x.gid, x.synapse);
    else if (x.synapse != 0)
      bad(e, "an artificial cell receives on synapse 0", std::to_string(x.synapse));
    if (!std::isfinite(x.time)) bad(e, "time must be finite", format_value(x.time));
    if (!std::isfinite(x.weight)) bad(e, "weight must be finite", format_value(x.weight));
  }
  for (std::size_t i = 0; i < l.iclamps.size(); ++i) {
    const ExplicitIClamp& x = l.iclamps[i];
    const std::string e = at("iclamps", i);
    if (!gid_ok(x.gid)) bad(e, "gid" + of_cells, std::to_string(x.gid));
    const IClampSpec& c = x.clamp;
    if (!std::isfinite(c.del) || !std::isfinite(c.dur) || !std::isfinite(c.amp) || c.dur < 0)
      bad(e, "del, dur and amp must be finite, dur >= 0",
          format_value(c.del) + ", " + format_value(c.dur) + ", " + format_value(c.amp));
    if (!(c.where.x >= 0 && c.where.x <= 1))
      bad(e, "x must lie in [0, 1]", format_value(c.where.x));
    if (c.where.section < 0) bad(e, "section must be >= 0", std::to_string(c.where.section));
    if (templates) {
      const int n = (*templates)[template_of(x.gid)].morphology.size();
      if (c.where.section >= n)
        bad(e,
            "names section " + std::to_string(c.where.section) + " but gid " +
                std::to_string(x.gid) + "'s template has " + std::to_string(n),
            std::to_string(c.where.section));
    }
  }
}

NetworkSpec index_explicit(ExplicitNetwork lists, int num_templates) {
  NetworkSpec n;
  n.type = NetworkSpec::Explicit;
  n.cells = lists.cells;
  n.templates = num_templates;
  auto index = std::make_shared<impl::ExplicitIndex>();
  std::vector<std::pair<std::int64_t, Connection>> in;
  in.reserve(lists.connections.size());
  double dmin = 0, dmax = 0;
  for (const ExplicitConnection& c : lists.connections) {
    in.push_back({c.target, Connection{c.source, c.synapse, c.weight, c.delay}});
    dmin = in.size() == 1 ? c.delay : std::min(dmin, c.delay);
    dmax = std::max(dmax, c.delay);
  }
  if (!in.empty()) {  // no connections: the defaults (1 ms), which bound nothing
    n.delay_min = dmin;
    n.delay_max = dmax;
  }
  group_by_gid(std::move(in), index->incoming);
  std::vector<std::pair<std::int64_t, ExternalEvent>> ev;
  for (const ExplicitEvent& e : lists.events)
    ev.push_back({e.gid, ExternalEvent{e.synapse, e.time, e.weight}});
  group_by_gid(std::move(ev), index->events);
  std::vector<std::pair<std::int64_t, IClampSpec>> cl;
  for (const ExplicitIClamp& c : lists.iclamps) cl.push_back({c.gid, c.clamp});
  group_by_gid(std::move(cl), index->iclamps);
  index->lists = std::move(lists);
  n.listed = std::move(index);
  return n;
}

}  // namespace

NetworkSpec make_explicit_network(ExplicitNetwork lists, int num_templates) {
  check_explicit(lists, num_templates, nullptr);
  return index_explicit(std::move(lists), num_templates);
}

NetworkSpec make_explicit_network(ExplicitNetwork lists,
                                  const std::vector<CellTemplate>& templates) {
  const int count = static_cast<int>(templates.size());
  check_explicit(lists, count, &templates);
  return index_explicit(std::move(lists), count);
}

ExplicitNetwork list_network(const NetworkSpec& net, const std::vector<CellTemplate>& templates) {
  if (const ExplicitNetwork* l = net.explicit_lists()) return *l;
  ExplicitNetwork l;
  l.cells = net.cells;
  l.sources = net.num_sources();
  for (std::int64_t gid = 0; gid < net.cells; ++gid) {
    for (const Connection& c : net.incoming(gid))
      l.connections.push_back({c.source, gid, c.synapse, c.weight, c.delay});
    for (const ExternalEvent& e : net.external_events(gid))
      l.events.push_back({gid, e.synapse, e.time, e.weight});
    for (const IClampSpec& c : net.stimulus(gid, templates.at(net.template_of(gid))).iclamps)
      l.iclamps.push_back({gid, c});
  }
  return l;
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
