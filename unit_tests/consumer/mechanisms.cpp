// Mechanisms compiled from .mod files by hinesbatch_add_mechanisms() in a project that
// links the installed package: hh under a current step must fire.
#include <cstdio>
#include <hinesbatch/simulation/nmodl/single_compartment.hpp>
#include <mine/mine.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  hinesbatch::nmodl::SingleCompartment<hinesbatch::nmodl::mine::mine> cell;
  cell.tstop = 20;
  cell.insert("hh");
  const int stim = cell.insert("IClamp");
  cell.set(stim, "del", 2);
  cell.set(stim, "dur", 10);
  cell.set(stim, "amp", 0.3);
  const auto v = cell.run({hinesbatch::nmodl::Record{}});
  double vmax = -1e9;
  for (double x : v) vmax = x > vmax ? x : vmax;
  std::printf("consumer_mechanisms: hh peak %.2f mV\n", vmax);
  return vmax > 0 ? 0 : 1;
}
