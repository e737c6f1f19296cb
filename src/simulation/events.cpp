#include "hinesbatch/simulation/impl/events.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace hinesbatch {

std::int64_t delivery_step(double te, double dt) {
  const double x = te / dt - 0.5;
  const double n = std::ceil(x - 1e-9 * std::max(1.0, std::abs(x)));
  return n < 0 ? 0 : static_cast<std::int64_t>(n);
}

double SourceSpikes::spike_time(const SourceGroup& g, std::int64_t gid, std::int64_t n,
                                double previous) {
  // Artificial cells spike as their mechanism says (ArtificialCells), not drawn here.
  if (n >= g.number || g.type == SourceGroup::Artificial)
    return std::numeric_limits<double>::infinity();
  if (g.type == SourceGroup::Regular) return g.start + static_cast<double>(n) * g.interval;
  // Exponential intervals by inversion; 1 - u lies in (0, 1], so the log is finite.
  const double u =
      uniform01(g.seed, static_cast<std::uint64_t>(gid), static_cast<std::uint64_t>(n));
  const double x = -g.interval * std::log1p(-u);
  return (n == 0 ? g.start : previous) + x;
}

SourceSpikes::SourceSpikes(const NetworkSpec& net, double dt) : groups_(net.sources), dt_(dt) {
  next_.reserve(static_cast<std::size_t>(net.num_sources()));
  for (std::size_t k = 0; k < groups_.size(); ++k) {
    const SourceGroup& g = groups_[k];
    if (g.type == SourceGroup::Artificial) continue;  // ArtificialCells runs those
    for (std::int64_t i = 0; i < g.count; ++i) {
      const std::int64_t gid = net.cells + g.first + i;
      next_.push_back({gid, 0, spike_time(g, gid, 0, 0), static_cast<int>(k)});
    }
  }
}

std::vector<Spike> SourceSpikes::take(std::int64_t begin, std::int64_t end) {
  std::vector<Spike> out;
  for (Next& s : next_) {
    const SourceGroup& g = groups_[s.group];
    while (std::isfinite(s.time)) {
      const std::int64_t step = delivery_step(s.time, dt_);
      if (step >= end) break;
      // Steps before `begin` were taken already (only the first call has begin 0).
      if (step >= begin) out.push_back({s.gid, step});
      ++s.n;
      s.time = spike_time(g, s.gid, s.n, s.time);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void ConnectionTable::finalize() {
  std::stable_sort(pending_.begin(), pending_.end(),
                   [](const Entry& a, const Entry& b) { return a.source < b.source; });
  targets_.clear();
  targets_.reserve(pending_.size());
  range_.clear();
  for (std::size_t i = 0; i < pending_.size();) {
    std::size_t j = i;
    const std::size_t begin = targets_.size();
    while (j < pending_.size() && pending_[j].source == pending_[i].source) {
      targets_.push_back(pending_[j].target);
      ++j;
    }
    range_[pending_[i].source] = {begin, targets_.size()};
    i = j;
  }
  pending_.clear();
  pending_.shrink_to_fit();
}

std::pair<const LocalTarget*, const LocalTarget*> ConnectionTable::targets(
    std::int64_t source) const {
  const auto it = range_.find(source);
  if (it == range_.end()) return {nullptr, nullptr};
  return {targets_.data() + it->second.first, targets_.data() + it->second.second};
}

std::size_t EventQueue::push_spikes(const std::vector<Spike>& spikes, const ConnectionTable& table,
                                    double dt, std::int64_t first_open_step) {
  std::size_t n = 0;
  for (const Spike& s : spikes) {
    const auto [b, e] = table.targets(s.gid);
    for (const LocalTarget* t = b; t != e; ++t) {
      const double te = static_cast<double>(s.step) * dt + t->delay;
      const std::int64_t step = delivery_step(te, dt);
      if (step < first_open_step)
        throw std::logic_error("hinesbatch: event from gid " + std::to_string(s.gid) +
                               " at t=" + std::to_string(te) + " ms arrives after step " +
                               std::to_string(first_open_step) +
                               " already ran: the epoch is longer than the delays allow");
      push(step, {t->synapse, t->weight, te, s.gid});
      ++n;
    }
  }
  return n;
}

void EventQueue::take(std::int64_t first, int count, std::vector<int>& step_begin,
                      std::vector<int>& synapse, std::vector<double>& weight) {
  step_begin.assign(count + 1, 0);
  synapse.clear();
  weight.clear();
  for (int k = 0; k < count; ++k) {
    step_begin[k] = static_cast<int>(synapse.size());
    auto it = buckets_.find(first + k);
    if (it == buckets_.end()) continue;
    auto& ev = it->second;
    std::sort(ev.begin(), ev.end(), [](const Event& a, const Event& b) {
      if (a.synapse != b.synapse) return a.synapse < b.synapse;
      if (a.time != b.time) return a.time < b.time;
      return a.source < b.source;
    });
    for (const Event& e : ev) {
      synapse.push_back(e.synapse);
      weight.push_back(e.weight);
    }
    buckets_.erase(it);
  }
  step_begin[count] = static_cast<int>(synapse.size());
  if (!buckets_.empty() && buckets_.begin()->first < first)
    throw std::logic_error("hinesbatch: events left behind before step " + std::to_string(first));
}

std::size_t EventQueue::pending() const {
  std::size_t n = 0;
  for (const auto& b : buckets_) n += b.second.size();
  return n;
}

}  // namespace hinesbatch
