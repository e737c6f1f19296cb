// nmodl_rows_bench [slots] [nodes] [steps]: node-steps/s of isolated hh compartments stepped
// by the generated hh on node rows and by the simulator's hand-written hh (the kernels of
// nmodl_unit_tests), on the default execution space. A benchmark, not a test: it prints.
#include <Kokkos_Core.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "../tests/hh_rows_kernels.hpp"

template <class Kernel>
double seconds(Kernel& k, const Kokkos::DefaultExecutionSpace& exec) {
  k.run(exec);  // warm-up (first touch)
  exec.fence();
  const auto t0 = std::chrono::steady_clock::now();
  k.run(exec);
  exec.fence();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

int main(int argc, char** argv) {
  Kokkos::ScopeGuard guard(argc, argv);
  hinesbatch::nmodl::testing::HHRowsSetup p;
  p.slots = argc > 1 ? std::atoi(argv[1]) : 4096;
  p.nodes = argc > 2 ? std::atoi(argv[2]) : 64;
  p.steps = argc > 3 ? std::atoi(argv[3]) : 100;
  using Exec = Kokkos::DefaultExecutionSpace;
  using HH = hinesbatch::nmodl::testing::HH;
  int kena = 0, kek = 0;
  for (int k = 0; k < HH::num_ion_variables; ++k) {
    if (std::string(HH::ion_variables[k].name) == "ena") kena = k;
    if (std::string(HH::ion_variables[k].name) == "ek") kek = k;
  }
  Exec exec;
  hinesbatch::nmodl::testing::GeneratedHHRows<Exec> generated(p, kena, kek);
  hinesbatch::nmodl::testing::HandWrittenHHRows<Exec> hand(p);
  const double work = double(p.slots) * p.nodes * p.steps;
  const double tg = seconds(generated, exec), th = seconds(hand, exec);
  std::printf("%s, %d slots x %d nodes x %d steps\n", Exec::name(), p.slots, p.nodes, p.steps);
  std::printf("hand-written hh: %.3g node-steps/s\n", work / th);
  std::printf("generated hh:    %.3g node-steps/s (%.2f of hand-written)\n", work / tg, th / tg);
  return 0;
}
