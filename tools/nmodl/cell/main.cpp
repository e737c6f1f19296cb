// hinesbatch-nmodl-cell: one isopotential compartment with mechanisms of the catalogue this
// program is built with (hinesbatch_add_mechanisms), under current and voltage clamp;
// writes a CSV of the recorded values. The protocol is a text file, one directive a line:
//
//   dt 0.025 | tstop 50 | celsius 34 | v_init -65 | cm 1 | area 1000 | diam 17.8 | cells 4
//   insert ID MECHANISM          an instance, named ID in the directives below
//   set ID VARIABLE VALUE        a parameter (or any variable) or a GLOBAL of that mechanism
//   ion ION ci0|co0|e0 VALUE     initial concentrations and reversal potential
//   event TIME ID WEIGHT [NC]    an event to point process ID through NetCon NC (events of
//                                one NC share its weight vector; none: a NetCon of its own)
//   vclamp TIME VALUE            from TIME on, v = VALUE at the start of every step
//   record v | record ID VARIABLE | record ion VARIABLE (eca, cai, cao, ica, ...)
//
//   hinesbatch-nmodl-cell [--serial] PROTOCOL.txt OUT.csv
//
// (--serial: Kokkos::Serial instead of the default execution space.)
//
// Exit status 2 on a bad directive, 1 if the copies of the cell (one per thread) differ.
#include MECHANISM_CATALOGUE_HEADER

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <hinesbatch/simulation/nmodl/single_compartment.hpp>
#include <iostream>
#include <map>
#include <sstream>

using Catalogue = MECHANISM_CATALOGUE;

template <class ExecSpace>
int run(const char* path, const char* out_path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "hinesbatch-nmodl-cell: cannot read " << path << "\n";
    return 2;
  }
  hinesbatch::nmodl::SingleCompartment<Catalogue, ExecSpace> cell;
  std::map<std::string, int> ids;
  std::vector<hinesbatch::nmodl::Record> records;
  int cells = 1, lineno = 0;
  std::string line;
  try {
    while (std::getline(in, line)) {
      ++lineno;
      std::istringstream ls(line);
      std::string key;
      if (!(ls >> key) || key[0] == '#') continue;
      auto id = [&](const std::string& s) {
        auto it = ids.find(s);
        if (it == ids.end()) throw std::invalid_argument("unknown instance '" + s + "'");
        return it->second;
      };
      std::string a, b;
      double x = 0, y = 0;
      if (key == "dt")
        ls >> cell.dt;
      else if (key == "tstop")
        ls >> cell.tstop;
      else if (key == "celsius")
        ls >> cell.celsius;
      else if (key == "v_init")
        ls >> cell.v_init;
      else if (key == "cm")
        ls >> cell.cm;
      else if (key == "area")
        ls >> cell.area;
      else if (key == "diam")
        ls >> cell.diam;
      else if (key == "cells")
        ls >> cells;
      else if (key == "insert") {
        ls >> a >> b;
        ids[a] = cell.insert(b);
      } else if (key == "set") {
        ls >> a >> b >> x;
        cell.set(id(a), b, x);
      } else if (key == "ion") {
        ls >> a >> b >> x;
        auto& ion = cell.ion(a);
        if (b == "ci0")
          ion.ci0 = x;
        else if (b == "co0")
          ion.co0 = x;
        else if (b == "e0")
          ion.e0 = x;
        else
          throw std::invalid_argument("ion " + a + ": unknown field '" + b + "'");
      } else if (key == "event") {
        ls >> x >> a >> y;
        int netcon = -1;
        if (!(ls >> netcon)) {
          netcon = -1;
          ls.clear();
        }
        cell.events.push_back({x, id(a), y, netcon});
      } else if (key == "vclamp") {
        ls >> x >> y;
        cell.vclamp.emplace_back(x, y);
      } else if (key == "record") {
        ls >> a;
        if (a == "v")
          records.push_back({hinesbatch::nmodl::Record::Voltage, -1, 0, "v"});
        else if (a == "ion") {
          ls >> b;
          records.push_back(cell.record_ion(b));
        } else {
          ls >> b;
          records.push_back(cell.record_variable(id(a), b));
        }
      } else
        throw std::invalid_argument("unknown directive '" + key + "'");
      if (ls.fail()) throw std::invalid_argument("missing or bad value");
    }
  } catch (const std::exception& e) {
    std::cerr << "hinesbatch-nmodl-cell: " << path << ":" << lineno << ": " << e.what() << "\n";
    return 2;
  }
  std::stable_sort(cell.events.begin(), cell.events.end(),
                   [](const auto& p, const auto& q) { return p.time < q.time; });
  const auto out = cell.run(records, cells);
  const int nr = static_cast<int>(records.size());
  const int steps = nr ? static_cast<int>(out.size() / (cells * nr)) : 0;
  for (int c = 1; c < cells; ++c)
    for (int i = 0; i < steps * nr; ++i)
      if (out[c * steps * nr + i] != out[i]) {
        std::cerr << "hinesbatch-nmodl-cell: copy " << c << " of the cell differs from copy 0\n";
        return 1;
      }
  FILE* f = std::fopen(out_path, "w");
  if (!f) {
    std::cerr << "hinesbatch-nmodl-cell: cannot write " << out_path << "\n";
    return 2;
  }
  std::fprintf(f, "t");
  for (const auto& r : records) std::fprintf(f, ",%s", r.label.c_str());
  std::fprintf(f, "\n");
  for (int s = 0; s < steps; ++s) {
    std::fprintf(f, "%.17g", s * cell.dt);
    for (int r = 0; r < nr; ++r) std::fprintf(f, ",%.17g", out[s * nr + r]);
    std::fprintf(f, "\n");
  }
  return std::fclose(f) == 0 ? 0 : 2;
}

int main(int argc, char** argv) {
  const bool serial = argc == 4 && std::string(argv[1]) == "--serial";
  if (argc != 3 && !serial) {
    std::cerr << "usage: hinesbatch-nmodl-cell [--serial] PROTOCOL.txt OUT.csv\n";
    return 2;
  }
  Kokkos::ScopeGuard guard(argc, argv);
  if (serial) {
#ifdef KOKKOS_ENABLE_SERIAL
    return run<Kokkos::Serial>(argv[2], argv[3]);
#else
    std::cerr << "hinesbatch-nmodl-cell: this Kokkos has no Serial backend\n";
    return 77;
#endif
  }
  return run<Kokkos::DefaultExecutionSpace>(argv[1], argv[2]);
}
