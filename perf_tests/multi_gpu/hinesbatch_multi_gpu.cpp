// The cuHinesBatch paper's Fig. 3 on several GPUs: a batch of N mono-morphology Hines
// systems split evenly over MPI ranks, one rank per GPU (on OpenMP builds: the host's cores
// shared by the ranks).
//
//   mpirun -np R hinesbatch_multi_gpu [--sizes 2560,25600,256000,2560000]
//       [--classes all|small-low,...] [--layouts FullInterleaved,BlockInterleaved]
//       [--flat-classes medium-high] [--repeat 10] [--warmup 2] [--block-size 128]
//       [--pool 4096] [--max-gb G] [--json FILE]
//
// Per (layout, class, N): every rank builds its share (N/R systems, the first N%R ranks one
// more) of the class's synthetic tree (paper_class_tree), warms up, then times `repeat` runs
// of  MPI_Barrier; t0; solve; fence; MPI_Barrier; t1  and reports the median over runs of
// the largest t1 - t0 over ranks, with G nodes/s = N x nodes / time. Inputs: a pool of
// `pool` random diagonally dominant systems per rank (test::random_systems), replicated on
// the device over the rank's share, so that host memory stays small at 2,560,000 neurons;
// d and rhs are restored from a pristine device copy before every run (untimed). The first
// systems' solutions are checked against the host (relative residual). A size that does
// not fit in a rank's free memory (device, or host / local ranks) is skipped on all ranks.
// Speed-up against one rank: run with -np 1 and -np 2 (scripts/gpu/device-run.sh multigpu)
// and compare the JSON files (scripts/plot_performance.py does).
//
// Device selection: device id = local rank (OMPI_COMM_WORLD_LOCAL_RANK, MV2_ / SLURM_ fall-
// backs) modulo the visible devices. OpenMP threads per rank: OMP_NUM_THREADS if set, else
// the hardware threads divided by the local ranks.
#include <mpi.h>
#include <unistd.h>

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "command_line.hpp"
#include "hinesbatch/hinesbatch.hpp"
#include "random_systems.hpp"

namespace {

using namespace hinesbatch;
using Real = double;

struct Options {
  std::vector<long> sizes = {2560, 25600, 256000, 2560000};
  std::vector<std::string> classes;  // empty: all six
  std::vector<std::string> layouts = {"FullInterleaved", "BlockInterleaved"};
  std::vector<std::string> flat_classes = {"medium-high"};  // the paper's Fig. 3 also shows Flat
  int repeat = 10, warmup = 2, block_size = 128, pool = 4096;
  double max_gb = 0;  // 0: what the rank has free
  std::string json;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream ss(s);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

const char* const kUsage =
    "usage: mpirun -np R hinesbatch_multi_gpu [--sizes N,...] [--classes all|NAME,...] "
    "[--layouts FullInterleaved,BlockInterleaved,Flat] [--flat-classes NAME,...|none] "
    "[--repeat R] [--warmup W] [--block-size BS] [--pool P] [--max-gb G] [--json FILE]\n";

[[noreturn]] void usage(const std::string& msg) {
  std::fprintf(stderr, "hinesbatch_multi_gpu: %s\n%s", msg.c_str(), kUsage);
  MPI_Abort(MPI_COMM_WORLD, 2);
  std::exit(2);
}

// Whole argument an integer (or decimal) in range: "12abc", "abc", 2^40 are refused.
int int_arg(const std::string& k, const std::string& v, long long lo, long long hi) {
  long long x = 0;
  if (!cli::parse_integer(v, lo, hi, x))
    usage(k + " must be an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) +
          "] (value '" + cli::echoed(v) + "')");
  return static_cast<int>(x);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int a = 1; a < argc; ++a) {
    const std::string k = argv[a];
    if (k == "--help" || k == "-h") {
      std::printf("hinesbatch_multi_gpu: the cuHinesBatch paper's Fig. 3 on several GPUs\n%s",
                  kUsage);
      MPI_Finalize();
      std::exit(0);
    }
    if (a + 1 >= argc) usage("missing value after " + k);
    const std::string v = argv[++a];
    {
      if (k == "--sizes") {
        o.sizes.clear();
        for (const auto& x : split(v)) {
          long long n = 0;
          if (!cli::parse_integer(x, 1, 1LL << 40, n))
            usage("--sizes needs integers in [1, 2^40] (value '" + cli::echoed(x) + "')");
          o.sizes.push_back(static_cast<long>(n));
        }
      } else if (k == "--classes") {
        o.classes = v == "all" ? std::vector<std::string>{} : split(v);
      } else if (k == "--layouts") {
        o.layouts = split(v);
      } else if (k == "--flat-classes") {
        o.flat_classes = v == "none" ? std::vector<std::string>{} : split(v);
      } else if (k == "--repeat") {
        o.repeat = int_arg(k, v, 1, 1000000);
      } else if (k == "--warmup") {
        o.warmup = int_arg(k, v, 0, 1000000);
      } else if (k == "--block-size") {
        o.block_size = int_arg(k, v, 1, 65536);
      } else if (k == "--pool") {
        o.pool = int_arg(k, v, 1, 1 << 24);
      } else if (k == "--max-gb") {
        if (!cli::parse_real(v, 0, 1e6, o.max_gb))
          usage("--max-gb must be a number in [0, 1e6] (value '" + cli::echoed(v) + "')");
      } else if (k == "--json") {
        o.json = v;
      } else {
        usage("unknown option " + cli::echoed(k));
      }
    }
  }
  if (o.repeat < 1 || o.warmup < 0 || o.pool < 1 || o.block_size < 1) usage("bad counts");
  for (const auto& l : o.layouts)
    if (l != "FullInterleaved" && l != "BlockInterleaved" && l != "Flat")
      usage("unknown layout " + cli::echoed(l));
  return o;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  long long x = 0;
  return v && cli::parse_integer(v, 0, 1 << 20, x) ? static_cast<int>(x) : fallback;
}
int local_rank() {
  for (const char* n : {"OMPI_COMM_WORLD_LOCAL_RANK", "MV2_COMM_WORLD_LOCAL_RANK",
                        "MPI_LOCALRANKID", "SLURM_LOCALID"})
    if (std::getenv(n)) return env_int(n, 0);
  return 0;
}
int local_size(int world) {
  for (const char* n :
       {"OMPI_COMM_WORLD_LOCAL_SIZE", "MV2_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"})
    if (std::getenv(n)) return std::max(1, env_int(n, 1));
  return world;
}

// Bytes this rank may allocate for one case.
double free_bytes(int ranks_here) {
#if defined(KOKKOS_ENABLE_CUDA)
  (void)ranks_here;
  std::size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  return static_cast<double>(free);
#else
  const double avail = double(sysconf(_SC_AVPHYS_PAGES)) * double(sysconf(_SC_PAGESIZE));
  return avail / ranks_here;
#endif
}

std::string device_name() {
  char host[256] = {0};
  gethostname(host, sizeof(host) - 1);
  std::string s = std::string(host) + ": " + Kokkos::DefaultExecutionSpace::name();
#if defined(KOKKOS_ENABLE_CUDA)
  int dev = -1;
  cudaGetDevice(&dev);
  cudaDeviceProp p;
  if (cudaGetDeviceProperties(&p, dev) == cudaSuccess) {
    char buf[256];
    std::snprintf(buf, sizeof(buf), " device %d %s (PCI %02x:%02x)", dev, p.name, p.pciBusID,
                  p.pciDeviceID);
    s += buf;
  }
#else
  s += " " + std::to_string(Kokkos::DefaultExecutionSpace().concurrency()) + " threads";
#endif
  return s;
}

struct Result {
  std::string layout, cls, status, reason;
  int nodes = 0;
  long n = 0, n_per_rank_max = 0;
  double seconds = 0, min_seconds = 0, max_seconds = 0, gnodes = 0, residual = 0, gb_per_rank = 0;
};

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

template <class Layout>
Result run_case(const Options& o, const char* layout_name, const PaperClassInfo& cls, long n_total,
                int rank, int ranks, int ranks_here) {
  using Exec = Kokkos::DefaultExecutionSpace;
  using Mem = Exec::memory_space;
  using Batch = HinesBatch<Real, Layout, Mem>;
  using View = typename Batch::view_type;
  Result r;
  r.layout = layout_name;
  r.cls = cls.name;
  r.n = n_total;
  const Tree tree = paper_class_tree(cls.id);
  const int n = tree.size();
  r.nodes = n;
  const long mine = n_total / ranks + (rank < n_total % ranks ? 1 : 0);
  r.n_per_rank_max = n_total / ranks + (n_total % ranks ? 1 : 0);
  const int bs = Layout::tiled ? o.block_size : 1;
  const double padded =
      Layout::tiled ? double((r.n_per_rank_max + bs - 1) / bs * bs) : double(r.n_per_rank_max);
  // u, l, d, rhs + pristine d, rhs; the pool (4 arrays) besides.
  const double need =
      (6.0 * padded + 4.0 * std::min<long>(o.pool, r.n_per_rank_max)) * n * sizeof(Real);
  r.gb_per_rank = need * 1e-9;
  double limit = 0.85 * free_bytes(ranks_here);
  if (o.max_gb > 0) limit = std::min(limit, o.max_gb * 1e9);
  // Decided on all ranks alike (a rank that skipped alone would leave the others waiting).
  int fits = need <= limit && double(r.n_per_rank_max) * n < 2147483647.0 ? 1 : 0, all_fit = 0;
  MPI_Allreduce(&fits, &all_fit, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_fit || n_total < ranks) {
    r.status = "skipped";
    char buf[200];
    if (n_total < ranks)
      std::snprintf(buf, sizeof(buf), "fewer systems than ranks");
    else
      std::snprintf(buf, sizeof(buf), "needs %.1f GB per rank; a rank has %.1f GB usable",
                    need * 1e-9, limit * 1e-9);
    r.reason = buf;
    return r;
  }
  Exec exec;
  const int pool = static_cast<int>(std::min<long>(o.pool, mine));
  const auto in = test::random_systems<Real>(tree, pool, 20170612 + 7919 * rank);
  Kokkos::View<Real**, Kokkos::LayoutRight, Mem> pu("pool_u", pool, n), pl("pool_l", pool, n),
      pd("pool_d", pool, n), pr("pool_rhs", pool, n);
  auto load = [&](const auto& dst, const std::vector<Real>& src) {
    Kokkos::View<const Real**, Kokkos::LayoutRight, Kokkos::HostSpace,
                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>
        h(src.data(), pool, n);
    Kokkos::deep_copy(exec, dst, h);
  };
  load(pu, in.u);
  load(pl, in.l);
  load(pd, in.d);
  load(pr, in.rhs);
  Batch batch(static_cast<int>(mine), n, bs);
  const View u = batch.u(), l = batch.l(), d = batch.d(), rhs = batch.rhs();
  const View d0 = Layout::template allocate<View>("pristine_d", static_cast<int>(mine), n, bs);
  const View r0 = Layout::template allocate<View>("pristine_rhs", static_cast<int>(mine), n, bs);
  Kokkos::parallel_for(
      "multi_gpu::replicate_pool",
      Kokkos::RangePolicy<Exec, Kokkos::IndexType<long>>(exec, 0, mine * n),
      KOKKOS_LAMBDA(const long k) {
        const int s = static_cast<int>(k / n), i = static_cast<int>(k % n), p = s % pool;
        Layout::at(u, s, i, bs) = pu(p, i);
        Layout::at(l, s, i, bs) = pl(p, i);
        Layout::at(d0, s, i, bs) = pd(p, i);
        Layout::at(r0, s, i, bs) = pr(p, i);
      });
  exec.fence();
  DeviceTree<Mem> dtree(exec, tree);
  std::vector<double> times;
  for (int it = 0; it < o.warmup + o.repeat; ++it) {
    Kokkos::deep_copy(exec, d, d0);
    Kokkos::deep_copy(exec, rhs, r0);
    exec.fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    solve(exec, dtree, batch, HinesSchedule::PerSystem);  // cuHinesBatch's kernel: the reproduction
    exec.fence();
    MPI_Barrier(MPI_COMM_WORLD);
    const double t = MPI_Wtime() - t0;
    double tmax = 0;
    MPI_Allreduce(&t, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (it >= o.warmup) times.push_back(tmax);
  }
  batch.check(exec);
  // Residual of the first systems (each is pool system s).
  const int k = std::min(pool, 16);
  Kokkos::View<Real**, Kokkos::LayoutRight, Mem> xs("x_sample", k, n);
  Kokkos::parallel_for(
      "multi_gpu::sample", Kokkos::RangePolicy<Exec>(exec, 0, k * n),
      KOKKOS_LAMBDA(const int q) { xs(q / n, q % n) = Layout::at(rhs, q / n, q % n, bs); });
  auto hx = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), xs);
  double res = 0;
  for (int s = 0; s < k; ++s) {
    const std::size_t off = static_cast<std::size_t>(s) * n;
    res = std::max(res, relative_residual(tree, in.u.data() + off, in.l.data() + off,
                                          in.d.data() + off, in.rhs.data() + off, &hx(s, 0)));
  }
  MPI_Allreduce(MPI_IN_PLACE, &res, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  r.residual = res;
  r.seconds = median(times);
  r.min_seconds = *std::min_element(times.begin(), times.end());
  r.max_seconds = *std::max_element(times.begin(), times.end());
  r.gnodes = double(n_total) * n / r.seconds * 1e-9;
  r.status = res < 1e-8 ? "ok" : "failed";
  if (r.status == "failed") r.reason = "residual too large";
  return r;
}

std::string json_escape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '"' || c == '\\') o += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) o += c;
  }
  return o;
}

void write_json(const std::string& file, const Options& o, int ranks, int ranks_here,
                const std::vector<std::string>& devices, const std::vector<Result>& results) {
  std::ofstream f(file);
  char stamp[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  f << "{\n  \"context\": {\n    \"program\": \"hinesbatch_multi_gpu\",\n    \"ranks\": " << ranks
    << ",\n    \"local_ranks\": " << ranks_here << ",\n    \"execution_space\": \""
    << Kokkos::DefaultExecutionSpace::name()
    << "\",\n    \"type\": \"f64\",\n    \"repeat\": " << o.repeat
    << ",\n    \"warmup\": " << o.warmup << ",\n    \"pool\": " << o.pool
    << ",\n    \"block_size\": " << o.block_size << ",\n    \"timestamp\": \"" << stamp
    << "\",\n    \"devices\": [";
  for (std::size_t i = 0; i < devices.size(); ++i)
    f << (i ? ", " : "") << '"' << json_escape(devices[i]) << '"';
  f << "]\n  },\n  \"results\": [\n";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    char buf[1024];
    std::snprintf(buf, sizeof(buf),
                  "    {\"ranks\": %d, \"layout\": \"%s\", \"class\": \"%s\", \"nodes\": %d, "
                  "\"N\": %ld, \"N_per_rank_max\": %ld, \"status\": \"%s\", \"reason\": \"%s\", "
                  "\"seconds\": %.9g, \"min_seconds\": %.9g, \"max_seconds\": %.9g, "
                  "\"gnodes_per_s\": %.6g, \"residual\": %.3g, \"gb_per_rank\": %.3f}%s\n",
                  ranks, r.layout.c_str(), r.cls.c_str(), r.nodes, r.n, r.n_per_rank_max,
                  r.status.c_str(), json_escape(r.reason).c_str(), r.seconds, r.min_seconds,
                  r.max_seconds, r.gnodes, r.residual, r.gb_per_rank,
                  i + 1 < results.size() ? "," : "");
    f << buf;
  }
  f << "  ]\n}\n";
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const Options o = parse(argc, argv);
  const int lrank = local_rank(), lsize = local_size(ranks);

  int device_id = -1, num_threads = -1;  // -1: Kokkos' default
#if defined(KOKKOS_ENABLE_CUDA)
  int devices = 0;
  cudaGetDeviceCount(&devices);
  if (devices < 1) {
    std::fprintf(stderr, "rank %d: no CUDA device visible\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (lsize > devices && lrank == 0)
    std::fprintf(stderr, "warning: %d ranks on this host share %d GPU(s)\n", lsize, devices);
  device_id = lrank % devices;
#endif
  if (!std::getenv("OMP_NUM_THREADS")) {
    const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    num_threads = std::max(1, hw / lsize);  // on CUDA builds: the host space only
  }
  // Kokkos 4 removed the old init-arguments struct: InitializationSettings from 3.7, the
  // same choices as command-line arguments before (3.4 has no InitializationSettings).
#if KOKKOS_VERSION >= 30700
  Kokkos::InitializationSettings settings;
  if (device_id >= 0) settings.set_device_id(device_id);
  if (num_threads > 0) settings.set_num_threads(num_threads);
  Kokkos::initialize(settings);
#else
  std::vector<std::string> kokkos_args{argv[0]};
  if (device_id >= 0) kokkos_args.push_back("--kokkos-device-id=" + std::to_string(device_id));
  if (num_threads > 0)  // Kokkos < 3.7 only: it has no --kokkos-num-threads
    kokkos_args.push_back("--kokkos-threads=" + std::to_string(num_threads));  // portability-ok
  std::vector<char*> kokkos_argv;
  for (std::string& a : kokkos_args) kokkos_argv.push_back(&a[0]);
  int kokkos_argc = static_cast<int>(kokkos_argv.size());
  kokkos_argv.push_back(nullptr);
  Kokkos::initialize(kokkos_argc, kokkos_argv.data());
#endif
  int rc = 0;
  try {
    // Which device every rank got.
    std::vector<std::string> devices;
    {
      char mine[256] = {0};
      std::snprintf(mine, sizeof(mine), "rank %d (local %d/%d): %s", rank, lrank, lsize,
                    device_name().c_str());
      std::vector<char> all(rank == 0 ? 256 * ranks : 1);
      MPI_Gather(mine, 256, MPI_CHAR, all.data(), 256, MPI_CHAR, 0, MPI_COMM_WORLD);
      if (rank == 0)
        for (int q = 0; q < ranks; ++q) devices.emplace_back(&all[256 * q]);
    }
    if (rank == 0) {
      std::printf(
          "HinesBatch multi-GPU (the cuHinesBatch paper's Fig. 3): %d rank(s), %s, double, median "
          "of %d runs "
          "(max over ranks of barrier-to-barrier time), %d warm-up\n",
          ranks, Kokkos::DefaultExecutionSpace::name(), o.repeat, o.warmup);
      for (const auto& d : devices) std::printf("  %s\n", d.c_str());
      std::printf("%-16s %-12s %5s %9s %8s %12s %10s %9s\n", "layout", "class", "nodes", "N",
                  "ranks", "time [ms]", "G nodes/s", "residual");
      std::fflush(stdout);
    }
    std::vector<Result> results;
    for (const auto& c : paper_classes()) {
      const bool chosen = o.classes.empty() ||
                          std::find(o.classes.begin(), o.classes.end(), c.name) != o.classes.end();
      std::vector<std::string> lays;
      if (chosen) lays = o.layouts;
      if (std::find(o.flat_classes.begin(), o.flat_classes.end(), c.name) != o.flat_classes.end() &&
          std::find(lays.begin(), lays.end(), "Flat") == lays.end())
        lays.push_back("Flat");
      for (const auto& lay : lays)
        for (long n : o.sizes) {
          Result r;
          if (lay == "FullInterleaved")
            r = run_case<layouts::FullInterleaved>(o, "FullInterleaved", c, n, rank, ranks, lsize);
          else if (lay == "BlockInterleaved")
            r = run_case<layouts::BlockInterleaved>(o, "BlockInterleaved", c, n, rank, ranks,
                                                    lsize);
          else
            r = run_case<layouts::Flat>(o, "Flat", c, n, rank, ranks, lsize);
          if (rank == 0) {
            if (r.status == "skipped")
              std::printf("%-16s %-12s %5d %9ld %8d   skipped: %s\n", r.layout.c_str(),
                          r.cls.c_str(), r.nodes, r.n, ranks, r.reason.c_str());
            else
              std::printf("%-16s %-12s %5d %9ld %8d %12.4f %10.3f %9.1e%s\n", r.layout.c_str(),
                          r.cls.c_str(), r.nodes, r.n, ranks, r.seconds * 1e3, r.gnodes, r.residual,
                          r.status == "ok" ? "" : "  FAILED");
            std::fflush(stdout);
            if (r.status == "failed") rc = 1;
          }
          results.push_back(r);
          if (rank == 0 && !o.json.empty()) write_json(o.json, o, ranks, lsize, devices, results);
        }
    }
    if (rank == 0 && !o.json.empty()) std::printf("# wrote %s\n", o.json.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "rank %d: %s\n", rank, e.what());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  Kokkos::finalize();
  MPI_Finalize();
  return rc;
}
