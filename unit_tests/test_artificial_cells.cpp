// Artificial cells (NEURON's ARTIFICIAL_CELL) on the host: a hand-written mechanism run by
// ArtificialCells, its spikes at their exact times whatever the epochs, net_move of the
// pending flag-1 self-event, inputs from spikes, and the errors that name the cell.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/simulation/config.hpp"
#include "hinesbatch/simulation/impl/artificial_cells.hpp"
#include "hinesbatch/simulation/nmodl/describe.hpp"

namespace hinesbatch::test {
namespace {

// A pacemaker: spikes every `period` ms (a flag-1 self-event); an input of weight w adds to
// `inputs`; w >= 1 moves the next spike to 0.25 ms after the input; w < 0 starts a loop of
// zero-delay self-events (flag 3); with `mode` 1 its spike moves a self-event that its own
// delivery cleared.
MechanismCatalogue pacer_catalogue() {
  CatalogueMechanism m;
  m.name = "pacer";
  m.artificial_cell = true;
  m.has_net_receive = true;
  m.num_weights = 1;
  m.variables = {{"period", CatalogueVariable::Parameter, 5.0, true, false, false},
                 {"mode", CatalogueVariable::Parameter, 0.0, true, false, false},
                 {"inputs", CatalogueVariable::Assigned, 0.0, true, true, false}};
  using A = ArtificialCellCall::Action;
  auto act = [](ArtificialCellCall& c, A::Kind k, double time, double flag) {
    c.actions[c.num_actions++] = {k, time, flag};
  };
  m.artificial_initial = [act](ArtificialCellCall& c) {
    c.variables[2] = 0;
    act(c, A::Send, c.variables[0], 1);
  };
  m.artificial_receive = [act](ArtificialCellCall& c, double* w, double flag) {
    if (flag == 1) {
      act(c, A::Event, c.t, 0);
      if (c.variables[1] == 1)
        act(c, A::Move, c.t + 1, 0);
      else
        act(c, A::Send, c.variables[0], 1);
    } else if (flag == 3) {
      act(c, A::Send, 0, 3);
    } else {
      c.variables[2] += w[0];
      if (w[0] >= 1) act(c, A::Move, c.t + 0.25, 0);
      if (w[0] < 0) act(c, A::Send, 0, 3);
    }
  };
  m.artificial_receive_initial = [](ArtificialCellCall&, double*) {};
  MechanismCatalogue cat;
  cat.name = "test";
  cat.mechanisms.push_back(m);
  return cat;
}

// Cells 0 and 1 (never simulated here), then a regular source (gid 2) and two pacers (gids
// 3 and 4), with the listed connections and events.
NetworkSpec network(std::vector<ExplicitConnection> connections, std::vector<ExplicitEvent> events,
                    double mode = 0) {
  ExplicitNetwork l;
  l.cells = 2;
  l.sources = 3;
  l.connections = std::move(connections);
  l.events = std::move(events);
  NetworkSpec n = make_explicit_network(l, 1);
  SourceGroup regular;
  regular.name = "clock";
  regular.count = 1;
  SourceGroup pacers;
  pacers.name = "pacers";
  pacers.first = 1;
  pacers.count = 2;
  pacers.type = SourceGroup::Artificial;
  pacers.mechanism = "pacer";
  pacers.parameters = {{"period", 2.5}, {"mode", mode}};
  n.sources = {regular, pacers};
  return n;
}

std::vector<TimedSpike> run(ArtificialCells& a, std::int64_t steps, std::int64_t chunk) {
  a.initialize();
  std::vector<TimedSpike> all;
  for (std::int64_t end = chunk; end < steps + chunk; end += chunk) {
    const auto part = a.advance(std::min(end, steps));
    all.insert(all.end(), part.begin(), part.end());
  }
  return all;
}

TEST(ArtificialCells, SpikeAtTheirExactTimesWhateverTheEpochs) {
  const MechanismCatalogue cat = pacer_catalogue();
  ArtificialCells a(network({}, {}), cat, 0.025, 6.3);
  ASSERT_EQ(a.size(), 2u);
  const std::vector<TimedSpike> once = run(a, 400, 400);  // 10 ms
  ASSERT_EQ(once.size(), 6u);                             // 2.5, 5, 7.5 (10: after the run)
  for (std::size_t k = 0; k < once.size(); ++k) {
    EXPECT_EQ(once[k].gid, 3 + static_cast<std::int64_t>(k % 2));
    EXPECT_EQ(once[k].time, 2.5 * static_cast<double>(k / 2 + 1));
  }
  for (std::int64_t chunk : {1, 7, 40, 399}) {
    const std::vector<TimedSpike> again = run(a, 400, chunk);
    ASSERT_EQ(again.size(), once.size()) << chunk;
    for (std::size_t k = 0; k < once.size(); ++k) {
      EXPECT_EQ(again[k].gid, once[k].gid);
      EXPECT_EQ(again[k].time, once[k].time);
    }
  }
}

TEST(ArtificialCells, AnInputMovesThePendingSelfEventAndSpikesReachTheirTargets) {
  const MechanismCatalogue cat = pacer_catalogue();
  // gid 3's spikes reach gid 4 after 0.5 ms (weight 0.25); an external event of weight 1
  // at 1.013 ms moves gid 4's first spike to 1.263 ms.
  ArtificialCells a(network({{3, 4, 0, 0.25, 0.5}, {0, 4, 0, 0.5, 1.0}}, {{4, 0, 1.013, 1.0}}), cat,
                    0.025, 6.3);
  a.initialize();
  // A cell's spike at 2.0 ms (gid 0) reaches gid 4 at 3.0 ms.
  a.receive({{0, 2.0}});
  // Epochs of 10 steps (0.25 ms), shorter than the delays, each one's spikes fed back.
  std::vector<TimedSpike> s;
  for (std::int64_t end = 10; end <= 200; end += 10) {  // to 5 - dt/2
    const std::vector<TimedSpike> part = a.advance(end);
    a.receive(part);
    s.insert(s.end(), part.begin(), part.end());
  }
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].gid, 4);
  EXPECT_EQ(s[0].time, 1.013 + 0.25);
  EXPECT_EQ(s[1].gid, 3);
  EXPECT_EQ(s[1].time, 2.5);
  EXPECT_EQ(s[2].gid, 4);
  EXPECT_EQ(s[2].time, (1.013 + 0.25) + 2.5);
  EXPECT_EQ(a.value(4, "inputs"), 1.0 + 0.5 + 0.25);  // the event, gid 0, gid 3 at 3.0 ms
  EXPECT_TRUE(std::isnan(a.value(2, "inputs")));      // the regular source is not one
  // An input due before a step already advanced: the epoch was too long.
  EXPECT_THROW(a.receive({{3, 4.0}}), std::logic_error);
}

TEST(ArtificialCells, ErrorsNameTheCell) {
  const MechanismCatalogue cat = pacer_catalogue();
  auto message = [](auto&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  {  // a zero-delay self-event loop
    ArtificialCells a(network({}, {{3, 0, 1.0, -1.0}}), cat, 0.025, 6.3);
    a.initialize();
    const std::string m = message([&] { a.advance(100); });
    EXPECT_NE(m.find("artificial cell gid 3 (pacer)"), std::string::npos) << m;
    EXPECT_NE(m.find("net_send(0) loop"), std::string::npos) << m;
  }
  {  // net_move after the flag-1 self-event was delivered
    ArtificialCells a(network({}, {}, 1), cat, 0.025, 6.3);
    a.initialize();
    const std::string m = message([&] { a.advance(200); });
    EXPECT_NE(m.find("artificial cell gid 3 (pacer) at t = 2.5 ms: net_move with no flag-1"),
              std::string::npos)
        << m;
  }
  {  // a connection into a regular source
    const std::string m = message([&] {
      ArtificialCells(network({{0, 2, 0, 0.1, 1.0}}, {}), cat, 0.025, 6.3);
    });
    EXPECT_NE(m.find("network.connections[0] targets gid 2, a regular spike source of group "
                     "'clock': only artificial cells (and cells) receive events"),
              std::string::npos)
        << m;
  }
}

TEST(ArtificialCells, ConfigNamesAMechanismThatIsNoArtificialCell) {
  const MechanismCatalogue cat = pacer_catalogue();
  auto message = [&](const std::string& sources, const std::string& record = "[]") {
    const std::string text = R"({"dt": 0.025, "tstop": 10,
      "cell": {"morphology": "synthetic:ball-and-stick", "nseg": 3},
      "sources": )" + sources +
                             R"(, "record": )" + record + R"(,
      "network": {"type": "explicit", "cells": 1, "connections": [[1, 0, 0, 0.1, 1.0]]}})";
    try {
      parse_simulation_config(text, "cfg.json", "", {}, cat);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message(R"([{"name": "p", "mechanism": "pacer", "parameters": {"period": 3}}])"),
            "no error");
  std::string m = message(R"([{"name": "p", "mechanism": "hh"}])");
  EXPECT_NE(m.find("sources[0].mechanism': unknown mechanism: the artificial cells of the "
                   "catalogue 'test' are pacer"),
            std::string::npos)
      << m;
  m = message(R"([{"name": "p", "mechanism": "pacer", "parameters": {"inputs": 3}}])");
  EXPECT_NE(m.find("sources[0].parameters.inputs': not a parameter of pacer"), std::string::npos)
      << m;
  m = message(R"([{"name": "p", "mechanism": "pacer", "interval": 3}])");
  EXPECT_NE(m.find("sources[0].interval': is for regular and Poisson sources"), std::string::npos)
      << m;
  m = message(R"([{"name": "p", "type": "poisson", "mechanism": "pacer"}])");
  EXPECT_NE(m.find("sources[0].mechanism': is for artificial cells"), std::string::npos) << m;
  // Records of an artificial cell: a variable of its mechanism, no location.
  const std::string pacer = R"([{"name": "p", "mechanism": "pacer"}])";
  EXPECT_EQ(message(pacer, R"([{"gid": 1, "variable": "inputs"}])"), "no error");
  m = message(pacer, R"([{"gid": 1, "variable": "v"}])");
  EXPECT_NE(m.find("record[].variable': is not a variable of pacer (period, mode, inputs)"),
            std::string::npos)
      << m;
  m = message(pacer, R"([{"gid": 1, "variable": "inputs", "location": {"section": 0}}])");
  EXPECT_NE(m.find("record[].location': is not given for an artificial cell (gid 1"),
            std::string::npos)
      << m;
  m = message(R"([{"name": "c", "interval": 5}])", R"([{"gid": 1, "variable": "inputs"}])");
  EXPECT_NE(m.find("record[].gid': is not a cell of the network (network.cells = 1) nor an "
                   "artificial cell of its sources"),
            std::string::npos)
      << m;
}

// A Poisson pacer: each spike queues the next one an exprand(period) later, drawn by the
// accessor the generated code uses (the cell's own stream).
MechanismCatalogue poisson_catalogue() {
  MechanismCatalogue cat = pacer_catalogue();
  CatalogueMechanism& m = cat.mechanisms[0];
  using A = ArtificialCellCall::Action;
  m.artificial_initial = [](ArtificialCellCall& c) {
    nmodl::ArtificialCellAccessor a{&c};
    a.net_send(a.exprand(c.variables[0]), 1);
  };
  m.artificial_receive = [](ArtificialCellCall& c, double*, double flag) {
    nmodl::ArtificialCellAccessor a{&c};
    if (flag != 1) return;
    a.act(A::Event, c.t, 0);
    a.net_send(a.exprand(c.variables[0]), 1);
  };
  return cat;
}

// Kolmogorov-Smirnov distance of sorted samples x from the distribution function cdf.
template <class F>
double ks_distance(std::vector<double> x, F cdf) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d;
}

TEST(ArtificialCells, RandomFunctionsDrawTheirDistributionsFromTheCellsStream) {
  constexpr int kN = 100000;
  std::uint64_t draws = 0;
  ArtificialCellCall call;
  call.seed = 7;
  call.stream = 3;
  call.draws = &draws;
  nmodl::ArtificialCellAccessor a{&call};
  std::vector<double> u(kN), e(kN), g(kN);
  for (double& x : u) x = a.scop_random();
  for (double& x : e) x = a.exprand(2.0);
  for (double& x : g) x = a.normrand(1.0, 3.0);
  EXPECT_EQ(draws, 4u * kN);  // normrand takes two
  // Each distance below 1.95 / sqrt(n): a false failure once in a thousand seeds (fixed here).
  const double bound = 1.95 / std::sqrt(double(kN));
  EXPECT_LT(ks_distance(u, [](double x) { return x; }), bound);
  EXPECT_LT(ks_distance(e, [](double x) { return 1 - std::exp(-x / 2.0); }), bound);
  EXPECT_LT(
      ks_distance(g, [](double x) { return 0.5 * std::erfc(-(x - 1.0) / (3.0 * std::sqrt(2.0))); }),
      bound);
  for (double x : u) ASSERT_TRUE(x >= 0 && x < 1) << x;
  for (double x : e) ASSERT_TRUE(std::isfinite(x) && x >= 0) << x;
  // The same (seed, stream, draw) is the same number; another stream or seed is another.
  std::uint64_t again = 0, other = 0, reseeded = 0;
  ArtificialCellCall c2 = call, c3 = call, c4 = call;
  c2.draws = &again;
  c3.stream = 4;
  c3.draws = &other;
  c4.seed = 8;
  c4.draws = &reseeded;
  nmodl::ArtificialCellAccessor a2{&c2}, a3{&c3}, a4{&c4};
  int same_other = 0, same_reseeded = 0;
  for (int k = 0; k < 1000; ++k) {
    const double x2 = a2.scop_random(), x3 = a3.scop_random(), x4 = a4.scop_random();
    ASSERT_EQ(x2, u[static_cast<std::size_t>(k)]);
    same_other += x3 == x2;
    same_reseeded += x4 == x2;
  }
  EXPECT_EQ(same_other, 0);
  EXPECT_EQ(same_reseeded, 0);
}

TEST(ArtificialCells, RandomTrainsArePerCellAndTheSameWhateverTheEpochs) {
  const MechanismCatalogue cat = poisson_catalogue();
  ArtificialCells a(network({}, {}), cat, 0.025, 6.3);
  const std::vector<TimedSpike> once = run(a, 40000, 40000);  // 1 s at a mean interval of 2.5 ms
  std::vector<double> isi[2], last = {0, 0};
  for (const TimedSpike& s : once) {
    const std::size_t c = static_cast<std::size_t>(s.gid - 3);
    isi[c].push_back(s.time - last[c]);
    last[c] = s.time;
  }
  for (const auto& x : isi) {
    ASSERT_GT(x.size(), 300u);
    const double bound = 1.95 / std::sqrt(double(x.size()));
    EXPECT_LT(ks_distance(x, [](double t) { return 1 - std::exp(-t / 2.5); }), bound);
  }
  EXPECT_NE(isi[0][0], isi[1][0]);            // each cell its own stream
  for (std::int64_t chunk : {1, 33, 4000}) {  // initialize() starts each stream again
    const std::vector<TimedSpike> again = run(a, 40000, chunk);
    ASSERT_EQ(again.size(), once.size()) << chunk;
    for (std::size_t k = 0; k < once.size(); ++k) {
      ASSERT_EQ(again[k].gid, once[k].gid);
      ASSERT_EQ(again[k].time, once[k].time);
    }
  }
}

}  // namespace
}  // namespace hinesbatch::test
