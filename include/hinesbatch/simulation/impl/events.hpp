#pragma once
// Host reference of spike delivery (the simulation uses DeviceEventQueue,
// device_events.hpp; the unit tests compare the two): which local synapses each source gid
// feeds, and the queue of events waiting for their step. NEURON's rule: an event of time te is
// delivered at the start of the first step from t with te <= t + dt/2. Within a step a
// synapse takes its events in (time, source gid) order, so results do not depend on
// ranks, threads or arrival order.
#include <cstdint>
#include <map>
#include <unordered_map>
#include <vector>

#include "hinesbatch/simulation/network.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"

namespace hinesbatch {

// The step at which an event of time te is delivered (never before step 0).
std::int64_t delivery_step(double te, double dt);

struct LocalTarget {
  int synapse = 0;  // local synapse index (CellGroup numbering)
  double weight = 0, delay = 0;
};

// source gid -> local targets, built once from the local cells' incoming connections.
class ConnectionTable {
 public:
  void add(std::int64_t source, const LocalTarget& t) { pending_.push_back({source, t}); }
  void finalize();  // sorts; call once after the last add
  // Targets of `source` (empty if it feeds nothing here).
  std::pair<const LocalTarget*, const LocalTarget*> targets(std::int64_t source) const;
  std::size_t size() const { return targets_.size(); }

 private:
  struct Entry {
    std::int64_t source;
    LocalTarget target;
  };
  std::vector<Entry> pending_;
  std::unordered_map<std::int64_t, std::pair<std::size_t, std::size_t>> range_;
  std::vector<LocalTarget> targets_;
};

// The spikes of a network's sources (NetworkSpec::sources), drawn epoch by epoch on the host.
// A spike of time t is taken at the step whose start NEURON's delivery rule picks
// (delivery_step(t)), as a cell's spike is reported at a step; its events are those of a
// cell's spike of that step. The n-th spike of a source depends on (seed, gid, n) only.
class SourceSpikes {
 public:
  SourceSpikes() = default;
  SourceSpikes(const NetworkSpec& net, double dt);
  // The spikes of steps [begin, end) of every source, sorted by (step, gid). Calls must come
  // with increasing, adjacent ranges.
  std::vector<Spike> take(std::int64_t begin, std::int64_t end);
  bool empty() const { return next_.empty(); }
  // The time of spike n of source `gid` of group g given the time of spike n - 1 (unused for
  // n = 0 and for regular sources).
  static double spike_time(const SourceGroup& g, std::int64_t gid, std::int64_t n, double previous);

 private:
  struct Next {
    std::int64_t gid, n;
    double time;  // of spike n (infinity: no more)
    int group;
  };
  std::vector<SourceGroup> groups_;
  std::vector<Next> next_;
  double dt_ = 1;
};

class EventQueue {
 public:
  struct Event {
    int synapse;
    double weight;
    double time;
    std::int64_t source;  // -1 for external events
  };
  void push(std::int64_t step, const Event& e) { buckets_[step].push_back(e); }
  // Delivers every spike through the table; returns how many events were queued.
  // Throws std::logic_error if an event falls before first_open_step (it would be late).
  std::size_t push_spikes(const std::vector<Spike>& spikes, const ConnectionTable& table, double dt,
                          std::int64_t first_open_step);
  // Removes the events of steps [first, first + count) into CSR arrays: step_begin has
  // count + 1 entries; within a step events are sorted by (synapse, time, source).
  void take(std::int64_t first, int count, std::vector<int>& step_begin, std::vector<int>& synapse,
            std::vector<double>& weight);
  std::size_t pending() const;

 private:
  std::map<std::int64_t, std::vector<Event>> buckets_;
};

}  // namespace hinesbatch
