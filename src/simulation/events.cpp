#include "hinesbatch/simulation/impl/events.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace hinesbatch {

std::int64_t delivery_step(double te, double dt) {
  const double x = te / dt - 0.5;
  const double n = std::ceil(x - 1e-9 * std::max(1.0, std::abs(x)));
  return n < 0 ? 0 : static_cast<std::int64_t>(n);
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
