#pragma once
// Template compression, shared by the step schedules: the cells of one template have the
// same per-node constants (the cable's constant diagonal and -g_axial, the mechanisms'
// flags and parameters) and synapse layout, so CellGroup computes them once per template
// (TemplateNodes) and each schedule stores them its own way: the cells schedule copies them
// into each slot's row, the tiles schedule packs TemplateBlocks into its tiles, the on-chip
// schedule keeps TemplateBlocks as one cached block per template. TemplateTrees: the
// distinct trees, which the tiles schedule tiles by and the on-chip schedule plans once.
#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "hinesbatch/morphology/cable_matrix.hpp"
#include "hinesbatch/simulation/mechanisms.hpp"
#include "hinesbatch/simulation/network.hpp"

namespace hinesbatch::impl {

// The distinct trees (identical parent arrays) of a group's templates: tree_of_template[k]
// indexes parents. The tiles schedule groups cells of one tree into tiles; the on-chip
// schedule plans each tree's solve once.
struct TemplateTrees {
  std::vector<int> tree_of_template;
  std::vector<std::vector<int>> parents;
};
inline TemplateTrees distinct_trees(const std::vector<CellTemplate>& templates) {
  TemplateTrees out;
  std::map<std::vector<int>, int> index;
  for (const CellTemplate& t : templates) {
    const NeuronCompartments& comp = t.compartments;
    std::vector<int> parents(comp.size());
    for (int i = 0; i < comp.size(); ++i) parents[i] = comp.tree.parent(i);
    const auto found = index.emplace(parents, static_cast<int>(out.parents.size()));
    if (found.second) out.parents.push_back(std::move(parents));
    out.tree_of_template.push_back(found.first->second);
  }
  return out;
}

// f(node) for every node that density mechanism m of template t covers.
template <class F>
void for_each_node_of(const CellTemplate& t, const DensityMechanism& m, F&& f) {
  for (int sec : t.sections_of(m)) {
    const int first = t.compartments.first_centre[sec];
    for (int i = first; i < first + t.compartments.section_nseg[sec]; ++i) f(i);
  }
}

// One template's per-node constants and synapses, which every cell of it shares: CellGroup
// computes them once per template; the cells schedule copies them into each slot's row, the
// tiles schedule into its tiles, and the on-chip schedule keeps one block per template.
struct TemplateNodes {
  std::vector<int> parent;
  std::vector<unsigned char> mechs;
  std::vector<double> d0, minus_g_axial, c_dt, pas_g, pas_e, gna, gk, gl, el;  // uS, mV
  std::vector<int> syn_node;  // per synapse of the template
  std::vector<double> syn_decay, syn_e;
  // The synapses grouped by node, as the on-chip schedule reads them: nodes in increasing
  // order, group g has synapses group_syn[group_first[g] .. group_first[g + 1]) (indices
  // into the template's synapses, increasing).
  std::vector<int> group_node, group_first{0}, group_syn;
};
inline TemplateNodes template_nodes(const CellTemplate& t, double dt) {
  const NeuronCompartments& comp = t.compartments;
  const int n = comp.size();
  const CableMatrix cable = cable_matrix(comp, t.section_cm(), dt);
  TemplateNodes k;
  k.parent.resize(n);
  for (int i = 0; i < n; ++i) k.parent[i] = comp.tree.parent(i);
  k.d0 = cable.d0;
  k.minus_g_axial = cable.minus_g_axial;
  k.c_dt = cable.c_dt;
  k.mechs.assign(n, 0);
  for (auto* x : {&k.pas_g, &k.pas_e, &k.gna, &k.gk, &k.gl, &k.el}) x->assign(n, 0.0);
  for (const DensityMechanism& m : t.density)
    for_each_node_of(t, m, [&](const int i) {
      if (m.kind == DensityMechanism::Pas) {
        k.mechs[i] |= kPasBit;
        k.pas_g[i] = membrane_uS(comp, i, m.pas.g);
        k.pas_e[i] = m.pas.e;
      } else {
        k.mechs[i] |= kHHBit;
        k.gna[i] = membrane_uS(comp, i, m.hh.gnabar);
        k.gk[i] = membrane_uS(comp, i, m.hh.gkbar);
        k.gl[i] = membrane_uS(comp, i, m.hh.gl);
        k.el[i] = m.hh.el;
      }
    });
  for (const ExpSynSpec& syn : t.synapses) {
    k.syn_node.push_back(comp.node_at(syn.where));
    k.syn_decay.push_back(std::exp(-dt / syn.tau));
    k.syn_e.push_back(syn.e);
  }
  std::vector<int> order(k.syn_node.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return k.syn_node[a] < k.syn_node[b]; });
  for (std::size_t q = 0; q < order.size(); ++q) {
    if (q > 0 && k.syn_node[order[q]] != k.syn_node[order[q - 1]]) {
      k.group_first.push_back(static_cast<int>(k.group_syn.size()));
      k.group_node.push_back(k.syn_node[order[q - 1]]);
    }
    k.group_syn.push_back(order[q]);
  }
  if (!order.empty()) {
    k.group_first.push_back(static_cast<int>(k.group_syn.size()));
    k.group_node.push_back(k.syn_node[order.back()]);
  }
  return k;
}

// The templates' per-node constants as one block per template of a group, in the order of
// their first slots: slot s's node i is entry begin[s] + i. hh_slot numbers a template's hh
// nodes in node order (-1: no hh).
struct TemplateBlocks {
  std::vector<int> begin;  // per slot
  std::vector<int> parent, hh_slot;
  std::vector<unsigned char> mechs;
  std::vector<double> d0, c_dt, minus_g_axial, pas_g, pas_e, gna, gk, gl, el;
};
inline TemplateBlocks template_blocks(const std::vector<int>& template_of_slot,
                                      const std::vector<TemplateNodes>& nodes_of_template) {
  TemplateBlocks b;
  std::vector<int> begin_of_template(nodes_of_template.size(), -1);
  const auto append = [](auto& to, const auto& from) {
    to.insert(to.end(), from.begin(), from.end());
  };
  for (const int t : template_of_slot) {
    if (begin_of_template[t] < 0) {
      begin_of_template[t] = static_cast<int>(b.parent.size());
      const TemplateNodes& k = nodes_of_template[t];
      int hh = 0;
      for (unsigned char m : k.mechs) b.hh_slot.push_back((m & kHHBit) ? hh++ : -1);
      append(b.parent, k.parent);
      append(b.mechs, k.mechs);
      append(b.d0, k.d0);
      append(b.c_dt, k.c_dt);
      append(b.minus_g_axial, k.minus_g_axial);
      append(b.pas_g, k.pas_g);
      append(b.pas_e, k.pas_e);
      append(b.gna, k.gna);
      append(b.gk, k.gk);
      append(b.gl, k.gl);
      append(b.el, k.el);
    }
    b.begin.push_back(begin_of_template[t]);
  }
  return b;
}

}  // namespace hinesbatch::impl
