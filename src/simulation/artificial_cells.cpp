#include "hinesbatch/simulation/impl/artificial_cells.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/impl/events.hpp"

namespace hinesbatch {

namespace {
constexpr std::size_t kZeroVector = std::numeric_limits<std::size_t>::max();

std::string number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}
}  // namespace

ArtificialCells::ArtificialCells(const NetworkSpec& net, const MechanismCatalogue& cat, double dt,
                                 double celsius)
    : cat_(&cat), groups_(net.sources), first_gid_(net.cells), dt_(dt), celsius_(celsius) {
  cell_of_.assign(static_cast<std::size_t>(net.num_sources()), -1);
  globals_.resize(cat.mechanisms.size());
  for (std::size_t m = 0; m < cat.mechanisms.size(); ++m)
    for (const CatalogueGlobal& g : cat.mechanisms[m].globals)
      globals_[m].push_back(g.default_value);
  std::size_t weights = 1;
  for (std::size_t gi = 0; gi < groups_.size(); ++gi) {
    const SourceGroup& g = groups_[gi];
    if (g.type != SourceGroup::Artificial) continue;
    const int m = cat.index_of(g.mechanism);
    if (m < 0 || !cat.mechanisms[m].artificial_cell)
      throw InputError("source group '" + g.name + "': '" + g.mechanism +
                           "' is not an artificial cell of the catalogue '" + cat.name + "'",
                       {}, 0, g.mechanism);
    const CatalogueMechanism& mech = cat.mechanisms[m];
    weights = std::max<std::size_t>(weights, std::max(mech.num_weights, 1));
    for (std::int64_t i = 0; i < g.count; ++i) {
      Cell c;
      c.gid = net.cells + g.first + i;
      c.mechanism = m;
      c.group = static_cast<int>(gi);
      c.first = values_.size();
      values_.resize(values_.size() + mech.variables.size(), 0.0);
      cell_of_[static_cast<std::size_t>(g.first + i)] = static_cast<int>(cells_.size());
      cells_.push_back(c);
    }
  }
  zeros_.assign(weights, 0.0);
  if (cells_.empty()) return;
  // The inputs: an explicit network's connections and events into artificial cells.
  auto target = [&](std::int64_t gid, const std::string& what) {
    const std::int64_t i = gid - net.cells;
    const int c = cell_of_[static_cast<std::size_t>(i)];
    if (c < 0) {
      const SourceGroup* g = net.source_group(gid);
      throw InputError(what + " targets gid " + std::to_string(gid) + ", a " +
                           (g && g->type == SourceGroup::Poisson ? "Poisson" : "regular") +
                           " spike source of group '" + (g ? g->name : "") +
                           "': only artificial cells (and cells) receive events",
                       {}, 0, std::to_string(gid));
    }
    return c;
  };
  auto new_vector = [&](int cell, double w) {
    const std::size_t n = std::max(cat.mechanisms[cells_[cell].mechanism].num_weights, 1);
    const std::size_t first = initial_weight_values_.size();
    initial_weight_values_.push_back(w);
    initial_weight_values_.resize(first + n, 0.0);
    return first;
  };
  if (const ExplicitNetwork* l = net.explicit_lists()) {
    for (std::size_t k = 0; k < l->connections.size(); ++k) {
      const ExplicitConnection& x = l->connections[k];
      if (!net.is_source(x.target)) continue;
      const int c = target(x.target, "network.connections[" + std::to_string(k) + "]");
      inputs_.push_back({x.source, Input{c, new_vector(c, x.weight), x.delay}});
    }
    for (std::size_t k = 0; k < l->events.size(); ++k) {
      const ExplicitEvent& x = l->events[k];
      if (!net.is_source(x.gid)) continue;
      const int c = target(x.gid, "network.events[" + std::to_string(k) + "]");
      external_.push_back({c, x.time, new_vector(c, x.weight)});
    }
  }
  std::stable_sort(inputs_.begin(), inputs_.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

ArtificialCellCall ArtificialCells::call_of(Cell& c, double t) {
  ArtificialCellCall call;
  call.variables = values_.data() + c.first;
  call.globals = globals_[c.mechanism].data();
  call.t = t;
  call.dt = dt_;
  call.celsius = celsius_;
  call.seed = groups_[static_cast<std::size_t>(c.group)].seed;
  call.stream = static_cast<std::uint64_t>(c.gid);
  call.draws = &c.draws;
  return call;
}

void ArtificialCells::push(double time, int cell, std::size_t vector, double flag) {
  queue_.push(Event{time, ++seq_, cell, vector, flag});
}

void ArtificialCells::act(Cell& c, const ArtificialCellCall& call, std::size_t vector,
                          std::vector<TimedSpike>* out) {
  // The error naming the cell and the time (built only when thrown: act runs per event).
  auto fail = [&](const std::string& what) {
    throw std::runtime_error("hinesbatch: artificial cell gid " + std::to_string(c.gid) + " (" +
                             cat_->mechanisms[c.mechanism].name + ") at t = " + number(call.t) +
                             " ms: " + what);
  };
  if (call.num_actions > ArtificialCellCall::kMaxActions)
    fail(std::to_string(call.num_actions) +
         " net_send/net_event/net_move calls in one call of its block, more "
         "than the " +
         std::to_string(ArtificialCellCall::kMaxActions) + " supported");
  for (int k = 0; k < call.num_actions; ++k) {
    const ArtificialCellCall::Action& a = call.actions[k];
    if (!std::isfinite(a.time)) fail("a non-finite time (" + number(a.time) + ")");
    const int cell = static_cast<int>(&c - cells_.data());
    switch (a.kind) {
      case ArtificialCellCall::Action::Send:
        if (a.time < 0) fail("net_send with a negative delay (" + number(a.time) + " ms)");
        push(call.t + a.time, cell, vector, a.flag);
        if (a.flag == 1.0) {  // NEURON: only a flag-1 self-event moves
          c.movable = seq_;
          c.movable_vector = vector;
        }
        break;
      case ArtificialCellCall::Action::Event:
        if (out) out->push_back({c.gid, a.time});
        break;
      case ArtificialCellCall::Action::Move: {
        if (c.movable == 0) fail("net_move with no flag-1 self-event pending");
        if (a.time < call.t) fail("net_move into the past (" + number(a.time) + " ms)");
        moved_.insert(c.movable);
        // The moved event keeps its vector and flag 1 (net_move is NET_RECEIVE's).
        push(a.time, cell, c.movable_vector, 1.0);
        c.movable = seq_;
        break;
      }
    }
  }
}

void ArtificialCells::initialize() {
  queue_ = {};
  moved_.clear();
  seq_ = 0;
  next_step_ = 0;
  last_row_ = 0;
  weights_ = initial_weight_values_;
  for (Cell& c : cells_) {
    const CatalogueMechanism& m = cat_->mechanisms[c.mechanism];
    for (std::size_t v = 0; v < m.variables.size(); ++v)
      values_[c.first + v] = m.variables[v].default_value;
    for (const auto& [name, x] : groups_[c.group].parameters)
      values_[c.first + m.variable_index(name)] = x;
    c.movable = 0;
    c.step = -1;
    c.delivered = 0;
    c.draws = 0;  // a run again draws the same numbers
    ArtificialCellCall call = call_of(c, 0.0);
    m.artificial_initial(call);
    act(c, call, kZeroVector, nullptr);
  }
  for (const auto& [source, in] : inputs_) {
    (void)source;
    Cell& c = cells_[in.cell];
    ArtificialCellCall call = call_of(c, 0.0);
    cat_->mechanisms[c.mechanism].artificial_receive_initial(call, weights_.data() + in.vector);
  }
  for (const External& x : external_) {
    Cell& c = cells_[x.cell];
    ArtificialCellCall call = call_of(c, 0.0);
    cat_->mechanisms[c.mechanism].artificial_receive_initial(call, weights_.data() + x.vector);
    push(x.time, x.cell, x.vector, 0.0);
  }
}

std::vector<TimedSpike> ArtificialCells::advance(std::int64_t end,
                                                 const std::function<void(std::int64_t)>& on_row) {
  std::vector<TimedSpike> out;
  auto rows_to = [&](std::int64_t r) {
    for (; last_row_ < r; ++last_row_)
      if (on_row) on_row(last_row_ + 1);
  };
  while (!queue_.empty()) {
    const Event e = queue_.top();
    const std::int64_t step = delivery_step(e.time, dt_);
    if (step >= end) break;
    rows_to(step);  // the events before this step are all in
    queue_.pop();
    if (moved_.erase(e.seq)) continue;  // net_move put it elsewhere
    Cell& c = cells_[e.cell];
    const CatalogueMechanism& m = cat_->mechanisms[c.mechanism];
    if (step != c.step) {
      c.step = step;
      c.delivered = 0;
    }
    if (++c.delivered > kMaxEventsPerStep)
      throw std::runtime_error("hinesbatch: artificial cell gid " + std::to_string(c.gid) + " (" +
                               m.name + ") took more than " + std::to_string(kMaxEventsPerStep) +
                               " events in the step of t = " + number(e.time) +
                               " ms (a net_send(0) loop?)");
    if (e.flag == 1.0 && c.movable == e.seq) c.movable = 0;  // as NEURON's flag-1 delivery
    ArtificialCellCall call = call_of(c, e.time);
    double* w = e.vector == kZeroVector ? zeros_.data() : weights_.data() + e.vector;
    if (e.vector == kZeroVector) std::fill(zeros_.begin(), zeros_.end(), 0.0);
    m.artificial_receive(call, w, e.flag);
    act(c, call, e.vector, &out);
  }
  rows_to(end);
  next_step_ = std::max(next_step_, end);
  std::sort(out.begin(), out.end());
  return out;
}

void ArtificialCells::receive(const std::vector<TimedSpike>& spikes) {
  for (const TimedSpike& s : spikes) {
    auto it = std::lower_bound(inputs_.begin(), inputs_.end(), s.gid,
                               [](const auto& a, std::int64_t g) { return a.first < g; });
    for (; it != inputs_.end() && it->first == s.gid; ++it) {
      const double te = s.time + it->second.delay;
      if (delivery_step(te, dt_) < next_step_)
        throw std::logic_error("hinesbatch: an event into artificial cell gid " +
                               std::to_string(cells_[it->second.cell].gid) + " at t = " +
                               number(te) + " ms arrives after step " + std::to_string(next_step_) +
                               " already ran: the epoch is longer than the delays allow");
      push(te, it->second.cell, it->second.vector, 0.0);
    }
  }
}

std::int64_t ArtificialCells::value_index(std::int64_t gid, const std::string& name) const {
  const std::int64_t i = gid - first_gid_;
  if (i < 0 || i >= static_cast<std::int64_t>(cell_of_.size()) || cell_of_[i] < 0) return -1;
  const Cell& c = cells_[cell_of_[i]];
  const int v = cat_->mechanisms[c.mechanism].variable_index(name);
  return v < 0 ? -1 : static_cast<std::int64_t>(c.first) + v;
}

double ArtificialCells::value(std::int64_t gid, const std::string& name) const {
  const std::int64_t k = value_index(gid, name);
  return k < 0 ? std::numeric_limits<double>::quiet_NaN() : value_at(k);
}

}  // namespace hinesbatch
