// Solves a small batch through the installed package and checks the answer; then builds
// and runs a model from JSON text (the library's JSON reader is private: this project
// never finds nlohmann_json).
#include <cmath>
#include <cstdio>
#include <hinesbatch/hinesbatch.hpp>
#include <hinesbatch/simulation/run.hpp>

int main(int argc, char* argv[]) {
  Kokkos::ScopeGuard kokkos(argc, argv);
  using namespace hinesbatch;
  const Tree tree = chain_tree(4);  // p = {-1, 0, 1, 2}
  const int N = 3;
  std::vector<double> u(4 * N, -1.0), l(4 * N, -1.0), d(4 * N, 4.0), b(4 * N);
  for (std::size_t k = 0; k < b.size(); ++k) b[k] = 1.0 + k % 4;
  Kokkos::DefaultExecutionSpace exec;
  HinesBatch<double, layouts::FullInterleaved> batch(N, 4);
  batch.fill(exec, u, l, d, b);
  solve(exec, DeviceTree<>(exec, tree), batch);
  batch.check(exec);
  std::vector<double> x;
  batch.solution_to_host(exec, x);
  const double r = relative_residual(tree, u.data(), l.data(), d.data(), b.data(), x.data());
  std::printf("consumer: x0 = %.6f, residual %.2e on %s\n", x[0], r,
              Kokkos::DefaultExecutionSpace::name());
  const SimulationConfig model = parse_simulation_config(
      R"({"tstop": 20, "cell": {"morphology": "synthetic:ball-and-stick",
          "mechanisms": [{"name": "hh"}], "iclamp": [{"del": 2, "dur": 10, "amp": 0.5}],
          "detector": {}}})",
      "consumer", "");
  const SimulationResult run = run_simulation(model);
  std::printf("consumer: model run, %zu spikes, first at %.3f ms\n", run.spike_gids.size(),
              run.spike_times.empty() ? -1.0 : run.spike_times[0]);
  return r < 1e-14 && !run.spike_gids.empty() ? 0 : 1;
}
