#pragma once
// Networks of cells: which template each gid uses, which connections feed its
// synapses, which external events it receives. Connectivity is generated per target gid
// from (seed, gid) alone, so every rank builds only its own cells' inputs and any number
// of ranks (or a dry run emulating them) sees the same network. A network may also be
// listed by hand (Explicit: make_explicit_network), as a script builds it.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "hinesbatch/simulation/mechanisms.hpp"

namespace hinesbatch {

struct Connection {
  std::int64_t source = 0;  // gid whose detector fires
  int synapse = 0;          // index into the target template's synapses
  double weight = 0;        // uS
  double delay = 1;         // ms
};
struct ExternalEvent {
  int synapse = 0;
  double time = 0, weight = 0;
};
struct CellStimulus {  // IClamps a network adds to one cell on top of its template's
  std::vector<IClampSpec> iclamps;
};

// A network listed by hand (a script's cells, connections and stimuli). Synapse indices
// count the synapses of the target's template (CellTemplate::synapses).
struct ExplicitConnection {
  // gids: the source's detector drives the target (a cell, or an artificial cell of the
  // sources, on its synapse 0)
  std::int64_t source = 0, target = 0;
  int synapse = 0;
  double weight = 0;  // uS
  double delay = 1;   // ms, > 0
};
struct ExplicitEvent {  // an event from outside the network
  std::int64_t gid = 0;
  int synapse = 0;
  double time = 0, weight = 0;  // ms, uS
};
struct ExplicitIClamp {  // an IClamp on one cell, on top of its template's
  std::int64_t gid = 0;
  IClampSpec clamp;
};
struct ExplicitNetwork {
  std::int64_t cells = 1;
  std::int64_t sources = 0;    // gids cells .. cells + sources - 1 may be connection sources
  std::vector<int> templates;  // template index of each gid; empty: gid % template count
  std::vector<ExplicitConnection> connections;
  std::vector<ExplicitEvent> events;
  std::vector<ExplicitIClamp> iclamps;
};
namespace impl {
struct ExplicitIndex;  // the lists grouped by target gid (network.cpp)
}

// A block of consecutive gids that use a range of templates round-robin (one entry of a
// config's "cells" list: its morphologies share one set of biophysics).
struct TemplateBlock {
  std::string name;
  std::int64_t first_gid = 0, count = 1;
  int first_template = 0, templates = 1;
};

// Artificial spike sources (NEURON's NetStim): `count` gids after the network's cells that
// emit spikes through their connections as a cell's detector does. Regular: start, start +
// interval, ...; Poisson: exponential intervals of mean `interval` from start. A train is
// drawn from (seed, gid, spike index) alone, so every rank and backend sees the same.
struct SourceGroup {
  std::string name;
  // first: the index of its first source among all sources (gid: network cells + first).
  std::int64_t first = 0, count = 1;
  // Artificial: cells of an ARTIFICIAL_CELL mechanism of the catalogue (NEURON's
  // IntervalFire, IntFire1, a NetStim with noise), each with the parameters given; they
  // spike when their NET_RECEIVE says (net_event), at its exact time, and may receive
  // events (an explicit network's connections and events into their gids, synapse 0).
  // seed: their random streams' (one per cell: (seed, gid, draw)).
  enum Type { Regular, Poisson, Artificial } type = Regular;
  std::string mechanism;
  std::vector<std::pair<std::string, double>> parameters;
  double start = 0, interval = 10;              // ms
  std::int64_t number = std::int64_t(1) << 62;  // spikes per source at most
  std::uint64_t seed = 1;
  // Connections: each cell of a targeted template gets per_cell synapses fed by sources of
  // this group (every source once when per_cell == count, else drawn with replacement from
  // (network seed, gid)). first_synapse[t]: the first of them on template t (-1: not a
  // target of this group).
  int per_cell = 0;
  double weight = 0.01, delay = 1;  // uS, ms
  std::vector<int> first_synapse;
};

struct NetworkSpec {
  enum Type { Single, Ring, Random, Explicit } type = Single;
  std::int64_t cells = 1;
  // Ring (Arbor's busyring): rings of ring_size cells; cell i feeds cell i+1 of its ring
  // through synapse 0; extra_synapses more synapses per cell get weight-zero connections
  // from random gids (they load the communication only); cell 0 of each ring is kicked.
  int ring_size = 10;
  int extra_synapses = 0;
  double kick_time = 1, kick_weight = 0.1;
  // Random (as in the MPI+OpenMP tasking paper): synapses_per_cell connections from random other
  // gids (every other cell when synapses_per_cell >= cells - 1), weights uniform in [weight,
  // weight_max].
  int synapses_per_cell = 500;
  double weight = 0.01, weight_max = -1;  // weight_max < 0: all weights equal `weight`
  double delay_min = 1, delay_max = 1;    // ms, uniform
  // Per-cell tonic drive for Random: IClamp at the detector location, amp, from a random
  // start in [0, stim_start_max) to the end.
  double stim_amp = 0, stim_start_max = 10;
  // Random: gids 0 .. kick_cells - 1 get one event of kick_weight on synapse 0 at
  // kick_time (the seed of activity that the network's own synapses then keep going).
  std::int64_t kick_cells = 0;
  std::uint64_t seed = 1;
  // Templates are used round-robin: gid g uses template g % templates (Explicit: as listed).
  int templates = 1;
  // Explicit: the lists, grouped by target (shared: a NetworkSpec is copied freely).
  std::shared_ptr<const impl::ExplicitIndex> listed;
  // Non-empty: gids are assigned to these blocks in order (their counts sum to the cells of
  // one pattern, repeated by a dry run) instead of round-robin over every template.
  std::vector<TemplateBlock> blocks;
  // Spike sources: gids cells .. cells + num_sources() - 1.
  std::vector<SourceGroup> sources;

  int template_of(std::int64_t gid) const;
  std::int64_t num_sources() const;
  bool is_source(std::int64_t gid) const { return gid >= cells && gid < cells + num_sources(); }
  const SourceGroup* source_group(std::int64_t gid) const;  // null: not a source
  bool has_artificial_cells() const;
  // Synapses every template must provide (Explicit: 0, each gid's are checked on its own).
  int synapses_needed() const;
  // Whether any connection exists, so that the delays bound the epoch.
  bool connected() const;
  // Explicit: the lists as given (nullptr for the other types).
  const ExplicitNetwork* explicit_lists() const;
  std::vector<Connection> incoming(std::int64_t gid) const;
  std::vector<ExternalEvent> external_events(std::int64_t gid) const;
  CellStimulus stimulus(std::int64_t gid, const CellTemplate& t) const;
  // The smallest delay of any connection, the sources' included (bounds the epoch).
  double min_delay() const;
  void validate() const;  // InputError naming the bad value
};

// An Explicit network from its lists: checks them (gids in [0, cells), template indices,
// synapse indices >= 0 and, with `templates`, below the target template's synapse count,
// delays > 0, finite numbers; an InputError names the list, entry and value) and groups
// them by target gid. num_templates: how many templates the run gets.
NetworkSpec make_explicit_network(ExplicitNetwork lists, int num_templates);
NetworkSpec make_explicit_network(ExplicitNetwork lists,
                                  const std::vector<CellTemplate>& templates);
// Every connection, event and IClamp of `net` (any type) listed by hand: the Explicit
// network of the same cells (templates as net.template_of; gids from 0 to cells - 1).
ExplicitNetwork list_network(const NetworkSpec& net, const std::vector<CellTemplate>& templates);

// A deterministic uniform double in [0, 1) from (seed, a, b): splitmix64 of the mix.
double uniform01(std::uint64_t seed, std::uint64_t a, std::uint64_t b);

// Which gids each of `ranks` ranks simulates. Contiguous: equal blocks of gids.
// Balanced: by compartment count (longest-processing-time greedy over cells sorted by
// size, ties by gid), for multi-morphology networks (the MPI+OpenMP tasking paper's future work).
enum class Partition { Contiguous, Balanced };
Partition parse_partition(const std::string& name);
std::vector<std::vector<std::int64_t>> partition_gids(const NetworkSpec& net,
                                                      const std::vector<CellTemplate>& templates,
                                                      int ranks, Partition how);

}  // namespace hinesbatch
