#pragma once
// What the simulation knows of a mechanism catalogue at run time: its mechanisms, their
// variables, globals and ions, as the generated metadata says (nmodl/describe.hpp builds
// it from a compiled catalogue; default_catalogue() is the library's, compiled from
// mechanisms/default). The config reader checks names against it and the step schedules
// lay out each template's mechanisms from it. No Kokkos here.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace hinesbatch {

struct CatalogueVariable {
  enum Kind { Parameter, State, Assigned };
  std::string name;
  Kind kind = Parameter;
  double default_value = 0;
  bool range = false;
  bool written = false;      // assigned by the mechanism (false: constant over a run)
  bool output_only = false;  // written, never read back by the mechanism: not kept in rows
};

struct CatalogueGlobal {
  std::string name;
  double default_value = 0;
};

struct CatalogueIonVariable {
  enum Role { Reversal, Inside, Outside, Current };
  std::string ion, name;
  int valence = 0;
  Role role = Current;
  bool read = false, write = false;
};

// One call of an artificial cell's INITIAL or NET_RECEIVE on the host (NEURON's
// ARTIFICIAL_CELL): its instance's variables and globals, the time, and what the call asked
// for, in order: self-events (net_send), spikes (net_event) and a move of its pending
// flag-1 self-event (net_move).
struct ArtificialCellCall {
  double* variables = nullptr;  // the instance's, in CatalogueMechanism::variables order
  const double* globals = nullptr;
  double t = 0, dt = 0, celsius = 0;
  // The cell's random numbers (scop_random, exprand, normrand): its k-th draw is
  // counter_uniform01(seed, stream, k) (core/counter_random.hpp), *draws counting them.
  std::uint64_t seed = 0, stream = 0;
  std::uint64_t* draws = nullptr;
  struct Action {
    enum Kind { Send, Event, Move } kind = Send;
    double time = 0, flag = 0;  // Send: the delay; Event, Move: the time
  };
  static constexpr int kMaxActions = 16;
  Action actions[kMaxActions];
  int num_actions = 0;  // more than kMaxActions asked: num_actions > kMaxActions
};

struct CatalogueMechanism {
  std::string name;
  bool point_process = false;
  // An ARTIFICIAL_CELL: a spike source driven by events alone (no membrane), run on the
  // host by artificial_initial and artificial_receive (w: its NetCon's weight vector).
  bool artificial_cell = false;
  std::function<void(ArtificialCellCall&)> artificial_initial;
  std::function<void(ArtificialCellCall&, double* w, double flag)> artificial_receive;
  std::function<void(ArtificialCellCall&, double* w)> artificial_receive_initial;
  bool writes_concentration = false;
  bool has_net_receive = false;
  int num_weights = 0;  // NET_RECEIVE's arguments (a NetCon's weight vector)
  // NET_RECEIVE keeps state per connection (assigns an argument, or has an INITIAL block):
  // each connection into it owns a vector of num_weights values.
  bool receive_keeps_weights = false;
  bool receive_reads_t = false;              // NET_RECEIVE reads t: events carry their own times
  bool receive_sends = false;                // NET_RECEIVE sends self-events (net_send)
  std::vector<CatalogueVariable> variables;  // parameters, states, assigned (in that order)
  std::vector<CatalogueGlobal> globals;
  std::vector<CatalogueIonVariable> ion_variables;
  // The mechanism's uniform expressions (of celsius and its GLOBALs alone), computed once
  // per run and kept after its globals: uniforms(celsius, globals, out[num_uniforms]).
  int num_uniforms = 0;
  std::function<void(double, const double*, double*)> uniforms;
  // Set for a leak (one current G (v - E) with G and E constant over a run): its conductance
  // G and current i(0) = -G E at one node, from the node's variables (all of them, in order)
  // and the globals: leak(celsius, vars, globals, &G, &i0), densities (S/cm2, mA/cm2).
  std::function<void(double, const double*, const double*, double*, double*)> leak;
  int variable_index(const std::string& n) const;  // -1: none of that name
  int global_index(const std::string& n) const;    // -1: none of that name
  // "a, b, c": the names a config may set (parameters and globals), for messages.
  std::string settable_names() const;
};

struct CatalogueIon {
  std::string name;
  int valence = 0;
};

struct MechanismCatalogue {
  std::string name;
  std::vector<CatalogueMechanism> mechanisms;  // in the compiled catalogue's order
  std::vector<CatalogueIon> ions;              // every ion a mechanism declares, in first-use order
  int index_of(const std::string& mechanism) const;  // -1: not in the catalogue
  int ion_index(const std::string& ion) const;       // -1: no mechanism uses it
  std::string mechanism_names() const;               // "a, b, c", for messages
};

// The library's catalogue: mechanisms/default (hh, pas, ExpSyn, Exp2Syn, IClamp) compiled
// by tools/nmodl into include/hinesbatch/simulation/nmodl/defaults.
const MechanismCatalogue& default_catalogue();

}  // namespace hinesbatch
