// A batch of each of the papers' six morphology classes (the cuHinesBatch paper's Fig. 5),
// solved in every layout on the default execution space, against one sequential core on
// Flat, and with the SIMD-tile schedule on the host (a tile of W systems per vector
// instruction; W is the vector width the program was compiled for: 2 doubles on generic
// x86-64, 4 with -march=x86-64-v3, 8 with AVX-512; see HINESBATCH_BENCH_ARCH_FLAGS).
//
//   hinesbatch-paper-classes [--systems N] [--repeat R] [--block-size BS] [--float]
//
// Prints, per class and layout: median solve time, G nodes/s (nodes = N x n solved per
// second) and speed-up over the sequential solve of the same batch.
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "command_line.hpp"
#include "hinesbatch/hinesbatch.hpp"
#include "random_systems.hpp"

namespace {

using namespace hinesbatch;
using Clock = std::chrono::steady_clock;

struct Options {
  int systems = 25600;
  int repeat = 5;
  int block_size = 128;
  bool single = false;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class T>
double time_sequential(const Tree& tree, const test::HostSystems<T>& in, int repeat) {
  std::vector<double> times;
  for (int r = 0; r < repeat; ++r) {
    std::vector<T> d = in.d, x = in.rhs;
    const auto t0 = Clock::now();
    hines_solve_serial_batch(tree, in.num_systems, in.u.data(), in.l.data(), d.data(), x.data());
    times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  return median(times);
}

// Times solve() alone: d and rhs are restored from a pristine copy before each run
// (a solve overwrites them), outside the timed region.
template <class T, class Layout, class Exec>
double time_layout(const Exec& exec, const Tree& tree, const test::HostSystems<T>& in,
                   const Options& o, double* residual) {
  using Batch = HinesBatch<T, Layout, typename Exec::memory_space>;
  int bs = o.block_size;
  if (std::is_same<Layout, layouts::BlockShared>::value) {
    const long fit =
        Kokkos::TeamPolicy<Exec>::scratch_size_max(0) / (long(tree.size()) * long(sizeof(T))) - 1;
    bs = static_cast<int>(std::min<long>(bs, fit));
    if (bs < 1) return -1;  // a tile does not fit in scratch
  }
  Batch batch(in.num_systems, tree.size(), bs), pristine(in.num_systems, tree.size(), bs);
  pristine.fill(exec, in.u, in.l, in.d, in.rhs);
  Kokkos::deep_copy(exec, batch.u(), pristine.u());
  Kokkos::deep_copy(exec, batch.l(), pristine.l());
  DeviceTree<typename Exec::memory_space> dtree(exec, tree);
  std::vector<double> times;
  for (int r = 0; r <= o.repeat; ++r) {  // run 0 is a warm-up
    Kokkos::deep_copy(exec, batch.d(), pristine.d());
    Kokkos::deep_copy(exec, batch.rhs(), pristine.rhs());
    exec.fence();
    const auto t0 = Clock::now();
    solve(exec, dtree, batch);
    exec.fence();
    if (r > 0) times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  batch.check(exec);
  std::vector<T> x;
  batch.solution_to_host(exec, x);
  double worst = 0;
  const int n = tree.size();
  for (int s = 0; s < in.num_systems; s += std::max(1, in.num_systems / 64)) {
    const std::size_t off = static_cast<std::size_t>(s) * n;
    worst =
        std::max(worst, relative_residual(tree, in.u.data() + off, in.l.data() + off,
                                          in.d.data() + off, in.rhs.data() + off, x.data() + off));
  }
  *residual = worst;
  return median(times);
}

// The SIMD-tile schedule on the host: tiles of W = the vector width systems, filled by the
// solve's schedule (first touch), timed like time_layout.
template <class T, class Exec>
double time_simd_tiles(const Exec& exec, const Tree& tree, const test::HostSystems<T>& in,
                       const Options& o, double* residual, int* lanes) {
  auto batch = make_simd_tile_batch<T>(exec, in.num_systems, tree.size());
  *lanes = batch.block_size();
  DeviceTree<typename Exec::memory_space> dtree(exec, tree);
  std::vector<double> times;
  for (int r = 0; r <= o.repeat; ++r) {  // run 0 is a warm-up
    fill_tiles(exec, batch, in.u, in.l, in.d, in.rhs);
    const auto t0 = Clock::now();
    solve_simd_tiles(exec, dtree, batch);
    exec.fence();
    if (r > 0) times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  batch.check(exec);
  std::vector<T> x;
  batch.solution_to_host(exec, x);
  double worst = 0;
  const int n = tree.size();
  for (int s = 0; s < in.num_systems; s += std::max(1, in.num_systems / 64)) {
    const std::size_t off = static_cast<std::size_t>(s) * n;
    worst =
        std::max(worst, relative_residual(tree, in.u.data() + off, in.l.data() + off,
                                          in.d.data() + off, in.rhs.data() + off, x.data() + off));
  }
  *residual = worst;
  return median(times);
}

template <class T>
void run(const Options& o) {
  using Exec = Kokkos::DefaultExecutionSpace;
  Exec exec;
  std::printf("HinesBatch %s: %d systems per class, %s, %s, median of %d runs\n", "paper classes",
              o.systems, std::is_same<T, float>::value ? "float" : "double", Exec::name(),
              o.repeat);
  std::printf("%-12s %5s %-17s %10s %9s %9s %9s\n", "class", "nodes", "layout", "time [ms]",
              "G nodes/s", "speed-up", "residual");
  for (const auto& c : paper_classes()) {
    const Tree tree = paper_class_tree(c.id);
    const auto in = test::random_systems<T>(tree, o.systems, 2024);
    const double nodes = double(o.systems) * tree.size();
    const double t_seq = time_sequential(tree, in, std::max(1, o.repeat / 2));
    std::printf("%-12s %5d %-17s %10.3f %9.3f %9.2f %9s\n", c.name, tree.size(),
                "Sequential(1 core)", t_seq * 1e3, nodes / t_seq * 1e-9, 1.0, "-");
    auto report = [&](const char* name, double t, double res) {
      if (t < 0) {
        std::printf("%-12s %5d %-17s %10s (tile does not fit in team scratch)\n", c.name,
                    tree.size(), name, "-");
        return;
      }
      std::printf("%-12s %5d %-17s %10.3f %9.3f %9.2f %9.1e\n", c.name, tree.size(), name, t * 1e3,
                  nodes / t * 1e-9, t_seq / t, res);
    };
    double res = 0, t = 0;
    t = time_layout<T, layouts::Flat>(exec, tree, in, o, &res);
    report("Flat", t, res);
    t = time_layout<T, layouts::FullInterleaved>(exec, tree, in, o, &res);
    report("FullInterleaved", t, res);
    t = time_layout<T, layouts::BlockInterleaved>(exec, tree, in, o, &res);
    report("BlockInterleaved", t, res);
    t = time_layout<T, layouts::BlockShared>(exec, tree, in, o, &res);
    report("BlockShared", t, res);
#if defined(KOKKOS_ENABLE_OPENMP)
    if (!std::is_same<Exec, Kokkos::OpenMP>::value) {  // the papers' Multicore baseline
      t = time_layout<T, layouts::Flat>(Kokkos::OpenMP(), tree, in, o, &res);
      report("Multicore(OpenMP)", t, res);
    }
#endif
    {  // vectorised over the lanes of a tile, every host thread
      int lanes = 0;
      t = time_simd_tiles<T>(Kokkos::DefaultHostExecutionSpace(), tree, in, o, &res, &lanes);
      report(("SimdTiles(W=" + std::to_string(lanes) + ")").c_str(), t, res);
    }
  }
}

const char* const kUsage =
    "usage: hinesbatch-paper-classes [--systems N] [--repeat R] [--block-size BS] [--float]\n"
    "       [--kokkos-... options; --kokkos-help lists them]\n";

// The bytes a run needs at most (one class at a time): the host systems, their sequential
// copies and the solution (7 arrays), two device batches of 4 arrays padded to whole
// tiles, in the chosen precision.
double bytes_needed(const Options& o) {
  int largest = 1;
  for (const auto& c : paper_classes()) largest = std::max(largest, paper_class_tree(c.id).size());
  const double padded = std::ceil(double(o.systems) / o.block_size) * o.block_size;
  const double word = o.single ? sizeof(float) : sizeof(double);
  return largest * word * (7.0 * o.systems + 8.0 * padded);
}

}  // namespace

int main(int argc, char* argv[]) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
      std::printf(
          "hinesbatch-paper-classes: the papers' six morphology classes in every layout\n%s",
          kUsage);
      return 0;
    }
  Kokkos::ScopeGuard kokkos(argc, argv);
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    // Whole argument an integer in range ("12abc", "abc" and 2^30 block sizes are refused).
    auto value = [&](long long hi) -> int {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "hinesbatch-paper-classes: %s needs a value\n%s", a.c_str(), kUsage);
        std::exit(2);
      }
      long long v = 0;
      if (!cli::parse_integer(argv[++i], 1, hi, v)) {
        std::fprintf(stderr,
                     "hinesbatch-paper-classes: %s must be an integer in [1, %lld] (value '%s')\n",
                     a.c_str(), hi, cli::echoed(argv[i]).c_str());
        std::exit(2);
      }
      return static_cast<int>(v);
    };
    if (a == "--systems")
      o.systems = value(1 << 30);
    else if (a == "--repeat")
      o.repeat = value(1000000);
    else if (a == "--block-size")
      o.block_size = value(65536);  // lanes per tile; 2^30 overflowed the tile count
    else if (a == "--float")
      o.single = true;
    else if (a.rfind("--kokkos", 0) == 0)
      continue;
    else {
      std::fprintf(stderr,
                   "unknown option '%s'\nusage: %s [--systems N] [--repeat R] [--block-size BS] "
                   "[--float]\n",
                   cli::echoed(a).c_str(), argv[0]);
      return 2;
    }
  }
  // Memory checked before anything is allocated (--systems 100000000 was a bad_alloc).
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  const double available = pages > 0 && page > 0 ? double(pages) * page : 0;
  if (available > 0 && bytes_needed(o) > 0.8 * available) {
    std::fprintf(stderr,
                 "hinesbatch-paper-classes: --systems %d needs about %.3g GB (block size %d), "
                 "more than 80%% of this machine's %.3g GB\n",
                 o.systems, bytes_needed(o) / 1e9, o.block_size, available / 1e9);
    return 2;
  }
  if (o.single)
    run<float>(o);
  else
    run<double>(o);
  return 0;
}
