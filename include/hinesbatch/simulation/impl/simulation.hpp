#pragma once
// The network simulation driver (the MPI+OpenMP tasking paper's and Arbor's time scales): D local
// steps of dt make an epoch; at the end of each epoch the rank's spikes go to every rank through
// SpikeExchange::all_gather and become events on the device (device_events.hpp).
//
// Overlap (as Arbor; the MPI+OpenMP tasking paper used OpenMP tasks): the exchange of epoch k runs
// on a helper thread while epoch k + 1 computes, and its events are queued before epoch k + 2. That
// is exact when every event lands at least two epochs after its spike, so D is at most
// floor(min_delay / (2 dt)) with overlap and floor(min_delay / dt) without; a smaller
// min_delay is an InputError, and a late event (which these bounds exclude) a logic_error.
// One rank has no exchange to hide, so it never overlaps: its epochs are twice as long,
// which the on-chip GPU schedule turns into half the memory traffic (H100, 100,000 cells:
// 1.25e10 against 1.15e10 compartment-steps/s with overlap; docs/SCALING.md).
// Results do not depend on D, the rank count or the backend's thread order: every cell's
// arithmetic is its own and each step's events are applied in a fixed order.
#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <future>
#include <iostream>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/impl/artificial_cells.hpp"
#include "hinesbatch/simulation/impl/cell_group.hpp"
#include "hinesbatch/simulation/impl/device_events.hpp"
#include "hinesbatch/simulation/impl/events.hpp"
#include "hinesbatch/simulation/impl/voltage_check.hpp"
#include "hinesbatch/simulation/run_options.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"

namespace hinesbatch {

// Catalogue: the compiled mechanism catalogue of the templates' generated mechanisms
// (CellGroup's).
template <class ExecutionSpace, class Catalogue = nmodl::defaults::defaults>
class NetworkSimulation {
  using memory_space = typename ExecutionSpace::memory_space;
  using clock = std::chrono::steady_clock;
  static double since(clock::time_point t) {
    return std::chrono::duration<double>(clock::now() - t).count();
  }
  template <class T>
  static Kokkos::View<T*, Kokkos::HostSpace> uninitialized_host(const char* label, std::int64_t n) {
    return Kokkos::View<T*, Kokkos::HostSpace>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string(label)), n);
  }

 public:
  NetworkSimulation(const ExecutionSpace& exec, const std::vector<CellTemplate>& templates,
                    const NetworkSpec& net, const std::vector<std::int64_t>& local_gids,
                    const SimulationParameters& params, SpikeExchange& exchange,
                    const RunOptions& options, const std::vector<RecordSpec>& records = {})
      : exec_(exec),
        params_(params),
        exchange_(exchange),
        options_(options),
        overlap_(options.overlap && exchange.size() > 1) {
    const auto t0 = clock::now();
    net.validate();
    if (static_cast<int>(templates.size()) != net.templates)
      throw InputError("network uses " + std::to_string(net.templates) + " templates, got " +
                           std::to_string(templates.size()),
                       {}, 0, std::to_string(templates.size()));
    for (const CellTemplate& t : templates)
      if (t.point_processes < 0 || t.connectable_synapses() < net.synapses_needed())
        throw InputError("cell template has " + std::to_string(t.connectable_synapses()) +
                             " synapses that connections can reach (" +
                             std::to_string(t.point_processes) +
                             " placed point processes after them), the network needs " +
                             std::to_string(net.synapses_needed()),
                         t.morphology.source, 0, std::to_string(t.synapses.size()));
    if (!(params.dt > 0) || !(params.tstop >= 0) || !std::isfinite(params.tstop))
      throw InputError("need dt > 0 and tstop >= 0", {}, 0, std::to_string(params.dt));
    // lround(tstop / dt) of tstop 1e20 or dt 1e-300 overflows: no step would run.
    if (!(params.tstop / params.dt <= kMaxSimulationSteps))
      throw InputError("tstop / dt is more than " + format_value(kMaxSimulationSteps) + " steps",
                       {}, 0, format_value(params.tstop / params.dt));
    steps_ = params.steps();
    const bool connected = net.connected();
    int d = connected
                ? max_epoch_steps(net.min_delay(), params.dt, overlap_)
                : static_cast<int>(std::min<std::int64_t>(std::max<std::int64_t>(steps_, 1), 200));
    if (options.epoch_steps > 0) {
      if (options.epoch_steps > d)
        throw InputError("epoch_steps " + std::to_string(options.epoch_steps) +
                             " exceeds what the minimum delay allows (" + std::to_string(d) + ")",
                         {}, 0, std::to_string(options.epoch_steps));
      d = options.epoch_steps;
    } else {
      // The spike buffer holds cells x D entries: a long delay (1e12 ms) must not size it.
      // Results do not depend on D, so the cap only bounds memory.
      d = static_cast<int>(std::min<std::int64_t>({d, std::max<std::int64_t>(steps_, 1), 1000}));
    }
    epoch_steps_ = d;
    const auto t_cells = clock::now();
    group_ = std::make_unique<CellGroup<ExecutionSpace, Catalogue>>(
        exec, templates, net, local_gids, params, epoch_steps_, options.host_schedule,
        options.on_chip, options.on_chip_force);
    const auto t_connections = clock::now();
    metrics_.setup_cells_s = since(t_cells);
    // Incoming connections and external events of the local cells: drawn per target in
    // parallel on the host, then ordered into CSR by source on the device.
    const std::int64_t nl = static_cast<std::int64_t>(local_gids.size());
    std::vector<std::vector<Connection>> in(nl);
    Kokkos::parallel_for("hinesbatch::sim_incoming",
                         Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, nl),
                         [&](const std::int64_t i) { in[i] = net.incoming(local_gids[i]); });
    std::vector<std::int64_t> offset(nl + 1, 0);
    for (std::int64_t i = 0; i < nl; ++i)
      offset[i + 1] = offset[i] + static_cast<std::int64_t>(in[i].size());
    // Flat arrays filled in parallel, uninitialised until then (50 M connections are 1.4 GB:
    // zeroing them on one thread took longer than drawing them); each target's list is
    // checked and freed where it is copied.
    const auto c_src = uninitialized_host<std::int64_t>("hb::conn_src_host", offset[nl]);
    const auto c_syn = uninitialized_host<int>("hb::conn_syn_host", offset[nl]);
    const auto c_w = uninitialized_host<double>("hb::conn_w_host", offset[nl]);
    const auto c_delay = uninitialized_host<double>("hb::conn_delay_host", offset[nl]);
    // The first local cell with a connection to no synapse (Min's identity, the largest
    // int64, where there is none).
    std::int64_t first_bad = 0;
    Kokkos::parallel_reduce(
        "hinesbatch::sim_connections",
        Kokkos::RangePolicy<Kokkos::DefaultHostExecutionSpace>(0, nl),
        [&](const std::int64_t i, std::int64_t& bad) {
          const int base = group_->synapse_index(local_gids[i], 0);
          const int nsyn = group_->synapses_of(local_gids[i]);
          bool valid = true;
          for (std::size_t k = 0; k < in[i].size(); ++k) {
            const Connection& c = in[i][k];
            valid = valid && c.synapse >= 0 && c.synapse < nsyn;
            c_src(offset[i] + k) = c.source;
            c_syn(offset[i] + k) = base + c.synapse;
            c_w(offset[i] + k) = c.weight;
            c_delay(offset[i] + k) = c.delay;
          }
          if (valid)
            std::vector<Connection>().swap(in[i]);
          else
            bad = std::min(bad, i);  // kept, to be named below
        },
        Kokkos::Min<std::int64_t>(first_bad));
    if (first_bad < nl) {
      const int nsyn = group_->synapses_of(local_gids[first_bad]);
      for (const Connection& c : in[first_bad])
        if (c.synapse < 0 || c.synapse >= nsyn)
          throw InputError("connection into gid " + std::to_string(local_gids[first_bad]) +
                               " names synapse " + std::to_string(c.synapse),
                           {}, 0, std::to_string(c.synapse));
    }
    in.clear();
    // Where a synapse's point process keeps state per connection (NEURON's NetCon weight
    // vector) or reads t in NET_RECEIVE, events carry their times and each connection and
    // external event into such a synapse owns a vector (NEURON: a NetCon each).
    bool details = false;
    const std::vector<int> vector_size = weight_vector_sizes(templates, net, local_gids, details);
    std::vector<int> c_vector;
    if (details) {
      c_vector.resize(offset[nl]);
      for (std::int64_t i = 0; i < offset[nl]; ++i)
        c_vector[i] = add_weight_vector(c_syn(i), c_w(i), vector_size);
    }
    events_ = DeviceEventQueue<ExecutionSpace>(
        exec, c_src, c_syn, c_w, c_delay, group_->num_synapses(), params.dt, details,
        typename DeviceEventQueue<ExecutionSpace>::template host_array<int>(c_vector.data(),
                                                                            c_vector.size()));
    std::vector<std::int64_t> x_step;
    std::vector<int> x_syn, x_vector;
    std::vector<double> x_w, x_time;
    for (std::int64_t gid : local_gids)
      for (const ExternalEvent& e : net.external_events(gid)) {
        if (e.synapse < 0 || e.synapse >= group_->synapses_of(gid))
          throw InputError("external event into gid " + std::to_string(gid) + " names synapse " +
                               std::to_string(e.synapse),
                           {}, 0, std::to_string(e.synapse));
        x_step.push_back(delivery_step(e.time, params.dt));
        x_syn.push_back(group_->synapse_index(gid, e.synapse));
        x_w.push_back(e.weight);
        x_time.push_back(e.time);
        if (details) x_vector.push_back(add_weight_vector(x_syn.back(), e.weight, vector_size));
      }
    events_.push_external(exec, x_step, x_syn, x_w, x_time, x_vector);
    upload_weight_vectors(exec);
    sources_ = SourceSpikes(net, params.dt);
    if (net.has_artificial_cells())
      artificial_ =
          ArtificialCells(net, nmodl::description<Catalogue>(), params.dt, params.celsius);
    metrics_.setup_connections_s = since(t_connections);
    // Recordings that live here.
    std::vector<int> rs, rn;
    std::vector<impl::RecordedVariable> rv;
    for (const RecordSpec& r : records) {
      if (r.artificial) {  // every rank runs the artificial cells: rank 0 records them
        const std::int64_t k = artificial_.value_index(r.gid, r.variable);
        if (k < 0)
          throw InputError("record of gid " + std::to_string(r.gid) + ": variable '" + r.variable +
                               "' is not one of an artificial cell of the run",
                           {}, 0, r.variable);
        if (exchange.rank() != 0) continue;
        record_column_.push_back(-1 - static_cast<int>(artificial_records_.size()));
        artificial_records_.push_back(k);
        local_records_.push_back(r);
        continue;
      }
      const int s = group_->slot_of_gid(r.gid);
      if (s < 0) continue;
      const CellTemplate& t = templates[net.template_of(r.gid)];
      impl::RecordedVariable var;
      std::string why;
      const MechanismCatalogue& cat = nmodl::description<Catalogue>();
      if (r.synapse >= 0) {
        if (!impl::resolve_synapse_variable(t, cat, r.synapse, r.variable, var, why))
          throw InputError("record of gid " + std::to_string(r.gid) + " at synapse " +
                               std::to_string(r.synapse) + ": variable '" + r.variable +
                               "': " + why,
                           {}, 0, r.variable);
      } else if (!impl::resolve_recorded_variable(t, cat, r.where, r.variable, var, why)) {
        throw InputError("record of gid " + std::to_string(r.gid) + " at section " +
                             std::to_string(r.where.section) + ": variable '" + r.variable +
                             "': " + why,
                         {}, 0, r.variable);
      }
      RecordSpec here = r;
      if (r.synapse >= 0) here.where = t.synapses[r.synapse].where;
      local_records_.push_back(here);
      record_column_.push_back(static_cast<int>(rs.size()));
      rs.push_back(s);
      rn.push_back(t.compartments.node_at(here.where));
      rv.push_back(var);
    }
    group_->set_records(exec, rs, rn, rv);
    trace_buf_ = Kokkos::View<double**, Kokkos::LayoutRight, memory_space>(
        "hb::trace", epoch_steps_ + 1, rs.size());
    trace_host_ = Kokkos::create_mirror_view(trace_buf_);
    metrics_.exchange = exchange.name();
    metrics_.schedule = group_->schedule_name();
    metrics_.team_lanes = group_->team_lanes();
    metrics_.tile_cells = group_->tile_cells();
    metrics_.schedule_detail = group_->schedule_detail();
    metrics_.ranks = exchange.size();
    metrics_.overlap = overlap_;
    metrics_.epoch_steps = epoch_steps_;
    metrics_.local_cells = group_->num_cells();
    metrics_.local_nodes = group_->num_nodes();
    metrics_.local_connections = events_.num_connections();
    metrics_.setup_s = since(t0);
  }

  void run() {
    const auto t_start = clock::now();
    group_->initialize(exec_);
    artificial_.initialize();
    artificial_raster_.clear();
    sample_artificial(0);
    if (!vector_synapse_host_.empty()) {
      const auto h = Kokkos::create_mirror_view(vectors_);
      for (std::size_t i = 0; i < vectors_host_values_.size(); ++i) h(i) = vectors_host_values_[i];
      Kokkos::deep_copy(exec_, vectors_, h);
      group_->initialize_weight_vectors(exec_, vector_init_synapse_, vector_init_begin_,
                                        vector_init_first_, vectors_);
    }
    record(0);
    copy_trace_rows(0, 0, 1);
    std::future<std::vector<Spike>> pending;
    double last_progress = 0;
    std::int64_t epochs = 0;
    for (std::int64_t first = 0; first < steps_; first += epoch_steps_, ++epochs) {
      const int count = static_cast<int>(std::min<std::int64_t>(epoch_steps_, steps_ - first));
      auto t = clock::now();
      events_.take(exec_, first, count, ev_begin_);
      metrics_.events_s += since(t);
      t = clock::now();
      group_->run_steps(
          exec_, first, count, events_.synapse(), events_.weight(), ev_begin_, events_.step_begin(),
          impl::EventDetails<memory_space>{events_.vector(), events_.time(), vectors_}, trace_buf_);
      std::vector<Spike> local = group_->take_spikes(exec_);  // fences
      group_->check_voltages(exec_, (first + count) * params_.dt);
      metrics_.compute_s += since(t);
      // The artificial cells' events of this epoch's steps (their records' rows too): their
      // inputs came with earlier epochs' spikes, and their spikes reach no one before the
      // next epoch.
      if (!artificial_.empty()) {
        t = clock::now();
        queue_artificial_spikes(
            artificial_.advance(first + count,
                                [this](std::int64_t row) { sample_artificial(row); }),
            first + count);
        metrics_.events_s += since(t);
      }
      copy_trace_rows(first, 1, count + 1);
      const std::int64_t open = first + count;  // first step not yet run
      // The sources' spikes of this epoch's steps (a cell's spikes of the epoch have steps
      // first + 1 .. open; step 0 comes with the first): every rank draws them all, so they
      // join the gathered spikes without being exchanged.
      std::vector<Spike> drawn;
      if (!sources_.empty()) drawn = sources_.take(first == 0 ? 0 : first + 1, open + 1);
      if (overlap_) {
        if (pending.valid()) {
          t = clock::now();
          auto all = pending.get();
          metrics_.exposed_exchange_s += since(t);
          queue_spikes(std::move(all), open);
        }
        pending =
            std::async(std::launch::async, [this, l = std::move(local), d = std::move(drawn)] {
              auto all = gather(l);
              all.insert(all.end(), d.begin(), d.end());
              return all;
            });
      } else {
        t = clock::now();
        auto all = gather(local);
        all.insert(all.end(), drawn.begin(), drawn.end());
        metrics_.exposed_exchange_s += since(t);
        queue_spikes(std::move(all), open);
      }
      if (options_.progress_every_s > 0 && exchange_.rank() == 0 &&
          since(t_start) - last_progress >= options_.progress_every_s) {
        last_progress = since(t_start);
        std::fprintf(stderr, "[hinesbatch-sim] t = %.3f / %.3f ms (%.0f%%), %.1f s, %lld spikes\n",
                     (first + count) * params_.dt, steps_ * params_.dt,
                     100.0 * (first + count) / steps_, last_progress,
                     static_cast<long long>(raster_.size()));
      }
    }
    if (pending.valid()) {
      const auto t = clock::now();
      auto all = pending.get();
      metrics_.exposed_exchange_s += since(t);
      queue_spikes(std::move(all), steps_);
    }
    std::sort(raster_.begin(), raster_.end());
    std::sort(artificial_raster_.begin(), artificial_raster_.end());  // net_event(t) may be any t
    metrics_.wall_rank_s = since(t_start);
    metrics_.steps = steps_;
    metrics_.epochs = epochs;
    metrics_.simulated_ms = steps_ * params_.dt;
    metrics_.spikes = static_cast<std::int64_t>(raster_.size() + artificial_raster_.size());
    // Collective: every rank reaches this point.
    metrics_.compute_max_s = exchange_.max(metrics_.compute_s);
    metrics_.compute_mean_s = exchange_.sum(metrics_.compute_s) / exchange_.size();
    metrics_.wall_s = exchange_.max(metrics_.wall_rank_s);
    metrics_.global_nodes = static_cast<std::int64_t>(exchange_.sum(double(metrics_.local_nodes)));
  }

  // Every spike of the network (all ranks), the drawn sources' included, sorted by (step,
  // gid); time = step * dt.
  const std::vector<Spike>& spikes() const { return raster_; }
  // The artificial cells' spikes at their exact times, sorted by (time, gid).
  const std::vector<TimedSpike>& artificial_spikes() const { return artificial_raster_; }
  // Traces of the records that live on this rank: rows t = 0, record_interval, ..., one
  // column per local record (in the order given).
  const std::vector<RecordSpec>& local_records() const { return local_records_; }
  const std::vector<std::vector<double>>& traces() const { return traces_; }
  // Each trace row handed to `sink` as its epoch is copied back (on the thread that runs
  // run()) instead of kept in traces(): callers that stream the rows to a file do not
  // hold the whole run in memory.
  void stream_trace_rows(std::function<void(std::vector<double>&&)> sink) {
    row_sink_ = std::move(sink);
  }
  const RunMetrics& metrics() const { return metrics_; }
  int epoch_steps() const { return epoch_steps_; }

 private:
  // The catalogue mechanism of synapse k of template t (null: the built-in ExpSyn).
  static const CatalogueMechanism* synapse_mechanism(const CellTemplate& t, int k) {
    if (k >= static_cast<int>(t.synapses.size()) || t.synapses[k].mechanism.builtin())
      return nullptr;
    const MechanismCatalogue& cat = nmodl::description<Catalogue>();
    const int m = cat.index_of(t.synapses[k].mechanism.name);
    return m < 0 ? nullptr : &cat.mechanisms[m];
  }
  // Per local synapse: the length of the weight vector each connection into it keeps (0:
  // none; its NET_RECEIVE keeps no state per connection). details: whether some local
  // synapse needs its events' details (EventDetails).
  std::vector<int> weight_vector_sizes(const std::vector<CellTemplate>& templates,
                                       const NetworkSpec& net,
                                       const std::vector<std::int64_t>& gids, bool& details) const {
    std::vector<int> size(group_->num_synapses(), 0);
    details = false;
    for (std::int64_t gid : gids) {
      const CellTemplate& t = templates[net.template_of(gid)];
      for (int k = 0; k < group_->synapses_of(gid); ++k)
        if (const CatalogueMechanism* m = synapse_mechanism(t, k)) {
          if (m->receive_keeps_weights)
            size[group_->synapse_index(gid, k)] = std::max(m->num_weights, 1);
          details = details || m->receive_keeps_weights || m->receive_reads_t;
        }
    }
    return size;
  }
  // A weight vector for one more connection (or external event) into local synapse
  // `synapse` of weight w: its first value's index (-1 where the synapse keeps none).
  int add_weight_vector(int synapse, double w, const std::vector<int>& size) {
    const int n = size[synapse];
    if (n == 0) return -1;
    const std::size_t first = vectors_host_values_.size();
    if (first + n > static_cast<std::size_t>(std::numeric_limits<int>::max()))
      throw std::length_error("hinesbatch: more than 2^31 weight-vector values on one rank");
    vectors_host_values_.push_back(w);
    vectors_host_values_.resize(first + n, 0.0);
    vector_synapse_host_.push_back(synapse);
    vector_first_host_.push_back(static_cast<int>(first));
    return static_cast<int>(first);
  }
  // The weight vectors to the device, and the list InitializeWeightVectors runs: the
  // vectors by synapse, each synapse's in the order they were added.
  void upload_weight_vectors(const ExecutionSpace& exec) {
    if (vector_synapse_host_.empty()) return;
    vectors_ =
        Kokkos::View<double*, memory_space>("hb::weight_vectors", vectors_host_values_.size());
    std::vector<int> count(group_->num_synapses() + 1, 0);
    for (int y : vector_synapse_host_) ++count[y + 1];
    std::vector<int> synapse, begin{0}, first(vector_synapse_host_.size());
    for (int y = 0; y < group_->num_synapses(); ++y)
      if (count[y + 1] > 0) {
        synapse.push_back(y);
        begin.push_back(begin.back() + count[y + 1]);
      }
    for (int y = 0; y < group_->num_synapses(); ++y) count[y + 1] += count[y];
    for (std::size_t j = 0; j < vector_synapse_host_.size(); ++j)
      first[count[vector_synapse_host_[j]]++] = vector_first_host_[j];
    vector_init_synapse_ = impl::to_device(exec, synapse, "hb::vector_init_synapse");
    vector_init_begin_ = impl::to_device(exec, begin, "hb::vector_init_begin");
    vector_init_first_ = impl::to_device(exec, first, "hb::vector_init_first");
  }

  std::vector<Spike> gather(const std::vector<Spike>& local) {
    const auto t = clock::now();
    auto all = exchange_.all_gather(local);
    exchange_seconds_ += since(t);
    return all;
  }

  // The gathered spikes of an epoch: into the raster, and as events into the device queue.
  void queue_spikes(std::vector<Spike> all, std::int64_t open) {
    metrics_.exchange_s = exchange_seconds_;
    const auto t = clock::now();
    metrics_.max_spikes_per_epoch = std::max<std::int64_t>(metrics_.max_spikes_per_epoch,
                                                           static_cast<std::int64_t>(all.size()));
    std::sort(all.begin(), all.end());
    metrics_.events_delivered += static_cast<std::int64_t>(events_.push_spikes(exec_, all, open));
    if (!artificial_.empty()) {
      std::vector<TimedSpike> timed(all.size());
      for (std::size_t i = 0; i < all.size(); ++i)
        timed[i] = {all[i].gid, static_cast<double>(all[i].step) * params_.dt};
      artificial_.receive(timed);
    }
    // NEURON checks thresholds at the start of a step, so a crossing in the last step
    // (at t = tstop) is never reported: neither is it here.
    for (const Spike& s : all)
      if (s.step < steps_) raster_.push_back(s);
    metrics_.events_s += since(t);
  }

  // The artificial cells' recorded values at step `row`, where it falls on the record
  // interval (copy_trace_rows takes them).
  void sample_artificial(std::int64_t row) {
    if (artificial_records_.empty() || row % params_.record_every() != 0) return;
    std::vector<double>& v = artificial_samples_[row];
    v.resize(artificial_records_.size());
    for (std::size_t k = 0; k < v.size(); ++k) v[k] = artificial_.value_at(artificial_records_[k]);
  }

  // The artificial cells' spikes of an epoch (every rank makes them all): into the raster,
  // as events at their exact times into the device queue and into the artificial cells.
  void queue_artificial_spikes(const std::vector<TimedSpike>& fired, std::int64_t open) {
    if (fired.empty()) return;
    std::vector<Spike> spikes(fired.size());
    std::vector<double> times(fired.size());
    for (std::size_t i = 0; i < fired.size(); ++i) {
      spikes[i] = {fired[i].gid, delivery_step(fired[i].time, params_.dt)};
      times[i] = fired[i].time;
    }
    metrics_.events_delivered +=
        static_cast<std::int64_t>(events_.push_spikes(exec_, spikes, open, times));
    artificial_.receive(fired);
    artificial_raster_.insert(artificial_raster_.end(), fired.begin(), fired.end());
  }

  void record(int row) {
    if (local_records_.empty()) return;
    group_->record(exec_, trace_buf_, row);
  }
  // The epoch's rows [begin, end) (row r: step first + r) that fall on the record interval.
  void copy_trace_rows(std::int64_t first, int begin, int end) {
    if (local_records_.empty()) return;
    const std::int64_t every = params_.record_every();
    if ((first + begin + every - 1) / every > (first + end - 1) / every) return;  // none due
    const auto& h = trace_host_;
    Kokkos::deep_copy(exec_, h, trace_buf_);
    exec_.fence();
    for (int r = begin; r < end; ++r) {
      if ((first + r) % every != 0) continue;
      std::vector<double> row(local_records_.size());
      const auto sampled = artificial_samples_.find(first + r);
      for (std::size_t k = 0; k < row.size(); ++k) {
        const int col = record_column_[k];
        row[k] = col >= 0 ? h(r, col) : sampled->second[static_cast<std::size_t>(-1 - col)];
      }
      if (sampled != artificial_samples_.end()) artificial_samples_.erase(sampled);
      if (row_sink_)
        row_sink_(std::move(row));
      else
        traces_.push_back(std::move(row));
    }
  }

  ExecutionSpace exec_;
  SimulationParameters params_;
  SpikeExchange& exchange_;
  RunOptions options_;
  bool overlap_;  // options.overlap with more than one rank
  std::int64_t steps_ = 0;
  int epoch_steps_ = 1;
  std::unique_ptr<CellGroup<ExecutionSpace, Catalogue>> group_;
  DeviceEventQueue<ExecutionSpace> events_;
  // The connections' weight vectors (NET_RECEIVE's state per connection): their values
  // before NET_RECEIVE's INITIAL (host; copied in at each run), on the device, and the
  // synapse of each vector with its first value; vector_init_*: the same by synapse
  // (InitializeWeightVectors).
  std::vector<double> vectors_host_values_;
  std::vector<int> vector_synapse_host_, vector_first_host_;
  Kokkos::View<double*, memory_space> vectors_;
  Kokkos::View<const int*, memory_space> vector_init_synapse_, vector_init_begin_,
      vector_init_first_;
  SourceSpikes sources_;
  ArtificialCells artificial_;
  std::vector<TimedSpike> artificial_raster_;
  // Per local record: its column of trace_buf_ (>= 0) or -1 - k for the artificial cells'
  // value artificial_records_[k], sampled by row into artificial_samples_.
  std::vector<int> record_column_;
  std::vector<std::int64_t> artificial_records_;
  std::map<std::int64_t, std::vector<double>> artificial_samples_;
  std::vector<int> ev_begin_;
  std::vector<RecordSpec> local_records_;
  Kokkos::View<double**, Kokkos::LayoutRight, memory_space> trace_buf_;
  typename Kokkos::View<double**, Kokkos::LayoutRight, memory_space>::HostMirror trace_host_;
  std::vector<std::vector<double>> traces_;
  std::function<void(std::vector<double>&&)> row_sink_;
  std::vector<Spike> raster_;
  double exchange_seconds_ = 0;  // written by the exchange thread, read after its join
  RunMetrics metrics_;
};

}  // namespace hinesbatch
