#pragma once
// Artificial cells (NEURON's ARTIFICIAL_CELL: IntervalFire, IntFire1, NetStim without
// noise): spike sources that act on events alone. They run on the host, every rank all of
// them, as the drawn sources do: their inputs are the gathered spikes every rank sees, so
// the ranks agree without exchanging their spikes. NEURON's rules: events in time order
// (ties in the order queued), each delivered at its own time (NEURON sets t to an event's
// time for an artificial cell); net_event(t) is a spike at that exact time; net_send(d,
// flag) a self-event at t + d; net_move(t) moves the pending flag-1 self-event, which a
// flag-1 delivery clears. An event of time te is due in the step NEURON delivers it in
// (delivery_step), so a cell's inputs and outputs meet the other cells' at the same steps.
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <unordered_set>
#include <vector>

#include "hinesbatch/simulation/catalogue.hpp"
#include "hinesbatch/simulation/network.hpp"

namespace hinesbatch {

struct TimedSpike {
  std::int64_t gid = 0;
  double time = 0;  // ms, exact
  friend bool operator<(const TimedSpike& a, const TimedSpike& b) {
    return a.time != b.time ? a.time < b.time : a.gid < b.gid;
  }
};

class ArtificialCells {
 public:
  ArtificialCells() = default;
  // The artificial cells of net's source groups with their mechanisms from `cat`, and the
  // connections and events into them (an explicit network's). InputError when a connection
  // or event targets a source that is not an artificial cell.
  ArtificialCells(const NetworkSpec& net, const MechanismCatalogue& cat, double dt, double celsius);
  bool empty() const { return cells_.empty(); }
  std::size_t size() const { return cells_.size(); }
  // At t = 0: every cell's variables from its mechanism's defaults and its group's
  // parameters, then its INITIAL; each input's weight vector through NET_RECEIVE's INITIAL;
  // the external events queued.
  void initialize();
  // Delivers every event due before step `end` in time order; returns the spikes they
  // made, sorted by (time, gid). std::runtime_error naming the cell on a net_move with no
  // flag-1 self-event pending, a self-event into the past, a non-finite time, or more than
  // kMaxEventsPerStep events of one cell in one step (a net_send(0) loop).
  // on_row(r), for each step r up to `end` in order, once the state at t = r dt is known
  // (every event due before step r delivered: what NEURON records at that t).
  std::vector<TimedSpike> advance(std::int64_t end,
                                  const std::function<void(std::int64_t)>& on_row = {});
  // Spikes (exact times) into the cells they connect to, at time + delay. std::logic_error
  // when one is due before a step already advanced (the epoch is longer than the delays).
  void receive(const std::vector<TimedSpike>& spikes);
  // The value of variable `name` of artificial cell `gid` (NaN: no such variable), and
  // where it lives (-1: nowhere) for value_at.
  double value(std::int64_t gid, const std::string& name) const;
  std::int64_t value_index(std::int64_t gid, const std::string& name) const;
  double value_at(std::int64_t index) const { return values_[static_cast<std::size_t>(index)]; }

  static constexpr int kMaxEventsPerStep = 100000;

 private:
  struct Cell {
    std::int64_t gid = 0;
    int mechanism = 0, group = 0;
    std::size_t first = 0;      // its variables in values_
    std::uint64_t movable = 0;  // the pending flag-1 self-event (0: none) and its vector
    std::size_t movable_vector = 0;
    std::int64_t step = -1;  // the step of its last delivery, and how many in it
    std::int64_t delivered = 0;
    std::uint64_t draws = 0;  // its random stream's draws so far (stream: its gid)
  };
  struct Input {
    int cell = 0;
    std::size_t vector = 0;  // its weight vector in weights_
    double delay = 0;
  };
  struct Event {
    double time;
    std::uint64_t seq;
    int cell;
    std::size_t vector;  // weights_ index; SIZE_MAX: a zero vector (INITIAL's net_send)
    double flag;
    friend bool operator>(const Event& a, const Event& b) {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  void push(double time, int cell, std::size_t vector, double flag);
  // Runs the actions a call of cell c at time t asked for (spikes into `out`).
  void act(Cell& c, const ArtificialCellCall& call, std::size_t vector,
           std::vector<TimedSpike>* out);
  ArtificialCellCall call_of(Cell& c, double t);

  const MechanismCatalogue* cat_ = nullptr;
  std::vector<SourceGroup> groups_;
  std::int64_t first_gid_ = 0;  // the gid of sources' first
  double dt_ = 0, celsius_ = 0;
  std::vector<Cell> cells_;  // by gid - first_gid_ (-1 where a source is not artificial)
  std::vector<int> cell_of_;
  std::vector<double> values_, weights_, zeros_;
  std::vector<std::vector<double>> globals_;  // per mechanism
  std::vector<std::size_t> initial_weights_;  // each input's and event's vector, in order
  std::vector<double> initial_weight_values_;
  // source gid -> inputs (sorted by source, then as listed)
  std::vector<std::pair<std::int64_t, Input>> inputs_;
  struct External {
    int cell;
    double time;
    std::size_t vector;
  };
  std::vector<External> external_;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> queue_;
  std::unordered_set<std::uint64_t> moved_;  // self-events net_move replaced
  std::uint64_t seq_ = 0;
  std::int64_t next_step_ = 0;  // the first step not yet advanced
  std::int64_t last_row_ = 0;   // the last row on_row was called for
};

}  // namespace hinesbatch
