#pragma once
// The network of mixed trees that the schedule tests share (test_simulation_schedules.cpp,
// and test_simulation_generated.cpp with the default catalogue's pas and hh).
#include <cstdint>
#include <vector>

#include "dense_network.hpp"
#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/simulation/config.hpp"

namespace hinesbatch::test {

// Four templates round-robin, three trees (two templates share one, with different
// mechanisms: cells of one tree with and without hh), two of the same node count, hh on
// every node of one template, three synapses on one node, IClamps, and `cells` cells in
// rings of 6 kicked at 1 ms. Recorded: every node of one cell per template and of the last
// two cells.
struct MixedTrees {
  std::vector<CellTemplate> templates;
  NetworkSpec net;
  SimulationParameters p;
  std::vector<std::int64_t> gids;
  std::vector<RecordSpec> rec;
};
inline MixedTrees mixed_trees(int cells) {
  auto with_nseg = [](int nseg) {
    SectionOptions o;
    o.nseg_per_section = nseg;
    return synthetic_sections("ball-and-stick", o);
  };
  SectionedMorphology forked = with_nseg(10);  // soma and two dendrites of 10 segments
  forked.sections.push_back(forked.sections[1]);
  SectionedMorphology straight = with_nseg(21);  // soma and one dendrite of 21
  DensityMechanism pas, hh_soma, hh_all;
  pas.kind = DensityMechanism::Pas;
  pas.region = Region::Dend;
  pas.pas = {0.0002, -65};
  hh_soma.kind = hh_all.kind = DensityMechanism::HH;
  hh_soma.region = Region::Soma;
  hh_all.region = Region::All;
  hh_soma.hh.gnabar = hh_all.hh.gnabar = 0.25;
  const std::vector<ExpSynSpec> syn(3, ExpSynSpec{{0, 0.5}, 2.0, 0.0});
  const IClampSpec stim{{0, 0.5}, 1, 3, 0.4};
  const DetectorSpec det{true, {0, 0.5}, 10};
  MixedTrees m;
  m.templates = {make_cell_template(straight, 100, 1, {pas, hh_soma}, {stim}, syn, det),
                 make_cell_template(forked, 100, 1, {pas, hh_soma}, {}, syn, det),
                 make_cell_template(straight, 100, 1, {hh_all}, {}, syn, det),
                 make_cell_template(with_nseg(9), 100, 1, {pas, hh_soma}, {stim}, syn, det)};
  NetworkSpec& net = m.net;
  net.type = NetworkSpec::Ring;
  net.cells = cells;
  net.ring_size = 6;
  net.templates = 4;
  net.extra_synapses = 2;
  net.weight = 0.05;
  net.delay_min = 1.0;
  net.delay_max = 2.0;
  net.kick_weight = 0.2;
  net.seed = 5;
  m.p.tstop = 30;
  m.gids.resize(net.cells);
  for (int g = 0; g < net.cells; ++g) m.gids[g] = g;
  for (std::int64_t g : {std::int64_t{0}, std::int64_t{1}, std::int64_t{2}, std::int64_t{3},
                         net.cells - 2, net.cells - 1})
    for (const RecordSpec& r : every_node(m.templates[net.template_of(g)]))
      m.rec.push_back({g, r.where});
  return m;
}

}  // namespace hinesbatch::test
