// Peer benchmark for batched Hines solves (docs/REFERENCE.md §2, §4, §6), standalone CUDA
// (it does not link HinesBatch, so it measures the peers alone):
//  - cuHinesBatch_FullInterleaved: cuHinesBatch's kernel as published: one thread per system, every
//    system shares one tree (one parent array), u, l, d, rhs interleaved [node * N + sys],
//    backward elimination then forward substitution in place, int indexing, no __restrict__,
//    128-thread blocks. Trees: the six paper classes, read from a cell file written by
//    hinesbatch-export-cells --mix classes (the very trees our benchmarks use).
//  - CoreNEURON_sorted_interleaved: one thread per cell, cells sorted by size (descending,
//    stable) and interleaved node-major, cell fastest, padded to the largest cell; per-cell
//    parent arrays interleaved the same way; each thread stops at its own size (the
//    algorithm of our InterleavedMultiBatch sorted path, CoreNEURON's "permute 1" order).
//    Cells: any cell file (hinesbatch-export-cells --mix real|fig14).
//
// Cell file (little endian): int32 count, then per cell int32 n and n int32 parents in Hines
// numbering (parent[0] = -1, 0 <= parent[i] < i).
//
// Values: u, l, rhs uniform in [-1, 1), d = +-(|l(i)| + sum over children c of |u(c)| +
// margin), margin in [0.1, 1.1], random sign: strictly diagonally dominant by rows and
// columns. Drawn from a counter-based hash of (seed, system or cell, node, stream), on the
// device, untimed; the checked systems' inputs are gathered back, never regenerated.
//
// Timing: per case, one warm-up, then --repeat runs, each after restoring d and rhs from
// pristine device copies and overwriting L2 (untimed); the kernel alone between CUDA events;
// median and min reported. Checked: up to --samples systems against a long double Hines
// solve on the host: residual ||rhs - A x||inf / ||rhs||inf and error against the oracle;
// above 1e-10 (f64) / 1e-3 (f32) the case is "failed" and the exit status is 3.
//
// --self-test runs the same solver code (host+device functions) on the host for a few
// systems, without a GPU: it checks file reading, sorting, interleaving, value generation
// and the oracle, and exits 0 or 3.
#include <cuda_runtime.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "peer_common.cuh"

namespace {

using namespace peers;

// ---------------------------------------------------------------- errors

// ---------------------------------------------------------------- the peer kernels

constexpr int kBlock = 128;  // cuHinesBatch's block size

// cuHinesBatch, Full-Interleaved (the cuHinesBatch paper's kernel): thread tid solves system tid; p
// is the shared tree.
template <class T>
__host__ __device__ inline void hines_fi_body(T* u, T* l, T* d, T* rhs, const int* p,
                                              const int cell_size, const int BATCHCOUNT,
                                              const int tid) {
  int i;
  T factor;
  // Backward sweep
  for (i = cell_size - 1; i > 0; --i) {
    factor = u[i * BATCHCOUNT + tid] / d[i * BATCHCOUNT + tid];
    d[p[i] * BATCHCOUNT + tid] -= factor * l[i * BATCHCOUNT + tid];
    rhs[p[i] * BATCHCOUNT + tid] -= factor * rhs[i * BATCHCOUNT + tid];
  }
  rhs[tid] /= d[tid];
  // Forward sweep
  for (i = 1; i < cell_size; ++i) {
    rhs[i * BATCHCOUNT + tid] -= l[i * BATCHCOUNT + tid] * rhs[p[i] * BATCHCOUNT + tid];
    rhs[i * BATCHCOUNT + tid] /= d[i * BATCHCOUNT + tid];
  }
}

template <class T>
__global__ void cu_hines_batch_fi(T* u, T* l, T* d, T* rhs, const int* p, const int cell_size,
                                  const int BATCHCOUNT) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid < BATCHCOUNT) hines_fi_body(u, l, d, rhs, p, cell_size, BATCHCOUNT, tid);
}

// CoreNEURON-style: slot tid holds a cell of sizes[tid] nodes; parents interleaved like the
// values (P[i * N + tid]); padding nodes (i >= sizes[tid]) are never touched.
template <class T>
__host__ __device__ inline void multi_sorted_body(T* u, T* l, T* d, T* rhs, const int* P,
                                                  const int* sizes, const int N, const int tid) {
  const int n = sizes[tid];
  for (int i = n - 1; i > 0; --i) {
    const int k = i * N + tid;
    const int pk = P[k] * N + tid;
    const T factor = u[k] / d[k];
    d[pk] -= factor * l[k];
    rhs[pk] -= factor * rhs[k];
  }
  rhs[tid] /= d[tid];
  for (int i = 1; i < n; ++i) {
    const int k = i * N + tid;
    rhs[k] = (rhs[k] - l[k] * rhs[P[k] * N + tid]) / d[k];
  }
}

template <class T>
__global__ void multi_sorted(T* u, T* l, T* d, T* rhs, const int* P, const int* sizes,
                             const int N) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid < N) multi_sorted_body(u, l, d, rhs, P, sizes, N, tid);
}

// ---------------------------------------------------------------- inputs (untimed)

__host__ __device__ inline uint64_t mix64(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
__host__ __device__ inline uint64_t draw(uint64_t seed, uint64_t key, uint64_t node, int stream) {
  return mix64(seed ^ mix64(key * 0x100000001b3ull ^ mix64(node * 8 + stream)));
}
__host__ __device__ inline double unit(uint64_t r) {  // [0, 1)
  return static_cast<double>(r >> 11) * (1.0 / 9007199254740992.0);
}

// Fills system `slot` (n nodes, key = its system or cell number) of an interleaved batch of
// N; parent of node i is par[i * pn + slot * ps] (mono: pn = 1, ps = 0; multi: pn = N,
// ps = 1).
template <class T>
__host__ __device__ inline void fill_body(T* u, T* l, T* d, T* rhs, const int* par, size_t pn,
                                          size_t ps, int n, int slot, int N, uint64_t key,
                                          uint64_t seed) {
  for (int i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i) * N + slot;
    const T ui = i > 0 ? static_cast<T>(2 * unit(draw(seed, key, i, 0)) - 1) : T(0);
    const T li = i > 0 ? static_cast<T>(2 * unit(draw(seed, key, i, 1)) - 1) : T(0);
    u[k] = ui;
    l[k] = li;
    rhs[k] = static_cast<T>(2 * unit(draw(seed, key, i, 2)) - 1);
    d[k] = static_cast<T>(fabs(static_cast<double>(li)) + 0.1 + unit(draw(seed, key, i, 3)));
  }
  for (int i = n - 1; i > 0; --i) {
    const int p = par[i * pn + slot * ps];
    d[static_cast<size_t>(p) * N + slot] +=
        static_cast<T>(fabs(static_cast<double>(u[static_cast<size_t>(i) * N + slot])));
  }
  for (int i = 0; i < n; ++i)
    if (draw(seed, key, i, 4) & 1)
      d[static_cast<size_t>(i) * N + slot] = -d[static_cast<size_t>(i) * N + slot];
}

template <class T>
__global__ void fill_mono(T* u, T* l, T* d, T* rhs, const int* p, int n, int N, uint64_t seed) {
  int s = threadIdx.x + blockDim.x * blockIdx.x;
  if (s < N) fill_body(u, l, d, rhs, p, 1, 0, n, s, N, static_cast<uint64_t>(s), seed);
}

template <class T>
__global__ void fill_multi(T* u, T* l, T* d, T* rhs, const int* P, const int* sizes,
                           const int* cell_of_slot, int N, uint64_t seed) {
  int s = threadIdx.x + blockDim.x * blockIdx.x;
  if (s < N)
    fill_body(u, l, d, rhs, P, N, 1, sizes[s], s, N,
              static_cast<uint64_t>(cell_of_slot[s]) + (1ull << 40), seed);
}

// Scatters packed per-cell parents (cell c at offsets[c]) into the interleaved slots.
__global__ void scatter_parents(int* P, const int* packed, const long long* offsets,
                                const int* cell_of_slot, const int* sizes, int N) {
  int s = threadIdx.x + blockDim.x * blockIdx.x;
  if (s < N) {
    const long long o = offsets[cell_of_slot[s]];
    for (int i = 0; i < sizes[s]; ++i) P[static_cast<size_t>(i) * N + s] = packed[o + i];
  }
}

// out[k * rows + i] = a[i * N + ids[k]] for every row i < rows.
template <class T>
__global__ void gather(T* out, const T* a, const int* ids, int k, int rows, int N) {
  long long t = threadIdx.x + static_cast<long long>(blockDim.x) * blockIdx.x;
  if (t < static_cast<long long>(k) * rows) {
    const int j = static_cast<int>(t / rows), i = static_cast<int>(t % rows);
    out[t] = a[static_cast<size_t>(i) * N + ids[j]];
  }
}

// ---------------------------------------------------------------- cell files

struct Cells {
  std::vector<int> sizes;          // per cell
  std::vector<long long> offsets;  // per cell, into parents; size count + 1
  std::vector<int> parents;        // packed
  int count() const { return static_cast<int>(sizes.size()); }
  const int* parent(int c) const { return parents.data() + offsets[c]; }
};

Cells read_cells(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
  struct Close {
    FILE* f;
    ~Close() { std::fclose(f); }
  } guard{f};
  auto read = [&](void* p, size_t bytes, const char* what) {
    if (bytes && std::fread(p, 1, bytes, f) != bytes)
      throw std::runtime_error(path + ": truncated (" + what + ")");
  };
  int32_t count = 0;
  read(&count, 4, "count");
  if (count < 1) throw std::runtime_error(path + ": cell count " + std::to_string(count) + " < 1");
  Cells c;
  c.sizes.resize(count);
  c.offsets.assign(count + 1, 0);
  for (int k = 0; k < count; ++k) {
    int32_t n = 0;
    read(&n, 4, "cell size");
    if (n < 1)
      throw std::runtime_error(path + ": cell " + std::to_string(k) + " has size " +
                               std::to_string(n));
    c.sizes[k] = n;
    c.offsets[k + 1] = c.offsets[k] + n;
    c.parents.resize(static_cast<size_t>(c.offsets[k + 1]));
    read(c.parents.data() + c.offsets[k], static_cast<size_t>(n) * 4, "parents");
    const int* p = c.parent(k);
    if (p[0] != -1)
      throw std::runtime_error(path + ": cell " + std::to_string(k) + ": parent[0] != -1");
    for (int i = 1; i < n; ++i)
      if (p[i] < 0 || p[i] >= i)
        throw std::runtime_error(path + ": cell " + std::to_string(k) + ": parent[" +
                                 std::to_string(i) + "] = " + std::to_string(p[i]) +
                                 " is not in Hines numbering");
  }
  char extra;
  if (std::fread(&extra, 1, 1, f) == 1)
    throw std::runtime_error(path + ": trailing bytes after the last cell");
  return c;
}

// Slot order of the sorted interleaved layout: by size, descending, stable.
std::vector<int> sorted_slots(const Cells& c) {
  std::vector<int> order(c.count());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return c.sizes[a] > c.sizes[b]; });
  return order;
}

// ---------------------------------------------------------------- host oracle

struct Accuracy {
  double residual = 0, error = 0;
};

// One system (n nodes, parents p) given by its inputs; x the computed solution.
template <class T>
void check_system(int n, const int* p, const T* u, const T* l, const T* d, const T* rhs, const T* x,
                  Accuracy& acc) {
  std::vector<long double> dd(d, d + n), xx(rhs, rhs + n), ax(n);
  for (int i = n - 1; i > 0; --i) {
    const long double f = (long double)u[i] / dd[i];
    dd[p[i]] -= f * l[i];
    xx[p[i]] -= f * xx[i];
  }
  xx[0] /= dd[0];
  for (int i = 1; i < n; ++i) xx[i] = (xx[i] - (long double)l[i] * xx[p[i]]) / dd[i];
  for (int i = 0; i < n; ++i) ax[i] = (long double)d[i] * x[i];
  for (int i = 1; i < n; ++i) {
    ax[i] += (long double)l[i] * x[p[i]];
    ax[p[i]] += (long double)u[i] * x[i];
  }
  long double res = 0, rn = 0, err = 0, xn = 0;
  bool bad = false;
  for (int i = 0; i < n; ++i) {
    res = std::max(res, std::fabs(rhs[i] - ax[i]));
    rn = std::max(rn, std::fabs((long double)rhs[i]));
    err = std::max(err, std::fabs(x[i] - xx[i]));
    xn = std::max(xn, std::fabs(xx[i]));
    if (!std::isfinite(static_cast<double>(x[i]))) bad = true;
  }
  double r = bad ? NAN : static_cast<double>(res / rn),
         e = bad ? NAN : static_cast<double>(err / xn);
  acc.residual = std::isnan(r) || std::isnan(acc.residual) ? NAN : std::max(acc.residual, r);
  acc.error = std::isnan(e) || std::isnan(acc.error) ? NAN : std::max(acc.error, e);
}

// ---------------------------------------------------------------- options

const char* kClassNames[6] = {"small-low",   "small-high", "medium-low",
                              "medium-high", "big-low",    "big-high"};

struct Options {
  std::string classes;             // cell file with the six paper-class trees
  std::vector<std::string> cells;  // cell files for the multi-morphology peer
  std::vector<int> n = {256, 2560, 25600, 256000};
  std::vector<int> totals;  // log2 of nodes per batch: N = 2^t / size per tree (overrides n)
  std::vector<std::string> types = {"f64", "f32"};
  int repeat = 10, samples = 64;
  unsigned long long seed = 20170612;
  double max_gb = 60.0;
  bool flush_l2 = true, self_test = false;
  std::string out = "hines_peers.json";
};

const char* kUsage =
    "usage: hines_peers [--classes FILE] [--cells FILE]... [--n LIST] [--type f64|f32|both]\n"
    "                   [--repeat R] [--samples K] [--seed S] [--max-gb G] [--no-l2-flush]\n"
    "                   [--out FILE.json] [--self-test]\n"
    "  --classes   cell file of the six paper classes (hinesbatch-export-cells --mix classes):\n"
    "              cuHinesBatch Full-Interleaved for every class and every N of --n\n"
    "  --cells     cell file (repeatable): CoreNEURON-style sorted interleaved solve of its cells\n"
    "  --n         systems per class (default 256,2560,25600,256000)\n"
    "  --totals    instead of --n: log2 of the nodes per batch, N = 2^t / class size (the\n"
    "              solver map's points; a map's trees: hinesbatch_solver_map --map-export)\n"
    "  --repeat    timed runs per case after one warm-up (default 10); median and min reported\n"
    "  --samples   systems checked on the host in long double (default 64)\n"
    "  --max-gb    device memory cap of one case (default 60)\n"
    "  --self-test run the solvers on the host on the given files (few systems), no GPU needed\n";

// Whole argument a number in range ("12abc" or "abc" must not read as 12 or 0).
double parse_number(const std::string& t, const char* what, double lo, double hi) {
  char* end = nullptr;
  const double x = std::strtod(t.c_str(), &end);
  if (t.empty() || *end != '\0' || !std::isfinite(x) || x < lo || x > hi)
    throw std::invalid_argument(std::string("bad ") + what + " value '" + t.substr(0, 64) + "'");
  return x;
}
unsigned long long parse_seed(const std::string& t) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long x = std::strtoull(t.c_str(), &end, 10);
  if (t.empty() || t[0] == '-' || *end != '\0' || errno == ERANGE)
    throw std::invalid_argument("bad --seed value '" + t.substr(0, 64) + "'");
  return x;
}

int parse_int(const std::string& t, const char* what) {
  char* end = nullptr;
  long x = std::strtol(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || x < 1 || x > std::numeric_limits<int>::max())
    throw std::invalid_argument(std::string("bad ") + what + " value '" + t + "'");
  return static_cast<int>(x);
}

Options parse(int argc, char** argv) {
  Options o;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw std::invalid_argument(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--classes") {
      o.classes = value(i);
    } else if (a == "--cells") {
      o.cells.push_back(value(i));
    } else if (a == "--n") {
      o.n.clear();
      for (const auto& t : split(value(i))) o.n.push_back(parse_int(t, "--n"));
      if (o.n.empty()) throw std::invalid_argument("empty --n");
    } else if (a == "--totals") {
      o.totals.clear();
      for (const auto& t : split(value(i))) o.totals.push_back(parse_int(t, "--totals"));
      for (int t : o.totals)
        if (t > 30)
          throw std::invalid_argument("--totals: 2^" + std::to_string(t) + " is too large");
    } else if (a == "--type") {
      std::string t = value(i);
      if (t == "both")
        o.types = {"f64", "f32"};
      else if (t == "f64" || t == "f32")
        o.types = {t};
      else
        throw std::invalid_argument("--type must be f64, f32 or both");
    } else if (a == "--repeat") {
      o.repeat = parse_int(value(i), "--repeat");
    } else if (a == "--samples") {
      o.samples = parse_int(value(i), "--samples");
    } else if (a == "--seed") {
      o.seed = parse_seed(value(i));
    } else if (a == "--max-gb") {
      o.max_gb = parse_number(value(i), "--max-gb", 1e-3, 1e6);
    } else if (a == "--no-l2-flush") {
      o.flush_l2 = false;
    } else if (a == "--out") {
      o.out = value(i);
    } else if (a == "--self-test") {
      o.self_test = true;
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument '" + a + "'");
    }
  }
  if (o.classes.empty() && o.cells.empty())
    throw std::invalid_argument("nothing to run: give --classes and/or --cells");
  return o;
}

std::string basename_noext(const std::string& path) {
  std::string b =
      path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (b.size() > 4 && b.substr(b.size() - 4) == ".bin") b.resize(b.size() - 4);
  return b;
}

// ---------------------------------------------------------------- self-test (host only)

template <class T>
bool self_test_mono(const Cells& classes, unsigned long long seed) {
  bool ok = true;
  const int N = 37;
  for (int c = 0; c < classes.count(); ++c) {
    const int n = classes.sizes[c];
    const int* p = classes.parent(c);
    size_t count = static_cast<size_t>(n) * N;
    std::vector<T> u(count), l(count), d(count), r(count);
    for (int s = 0; s < N; ++s)
      fill_body(u.data(), l.data(), d.data(), r.data(), p, 1, 0, n, s, N, s, seed);
    std::vector<T> d0 = d, r0 = r;
    for (int s = 0; s < N; ++s) hines_fi_body(u.data(), l.data(), d.data(), r.data(), p, n, N, s);
    Accuracy acc;
    std::vector<T> su(n), sl(n), sd(n), sr(n), sx(n);
    for (int s = 0; s < N; ++s) {
      for (int i = 0; i < n; ++i) {
        size_t k = static_cast<size_t>(i) * N + s;
        su[i] = u[k], sl[i] = l[k], sd[i] = d0[k], sr[i] = r0[k], sx[i] = r[k];
      }
      check_system(n, p, su.data(), sl.data(), sd.data(), sr.data(), sx.data(), acc);
    }
    const double tol = sizeof(T) == 8 ? 1e-10 : 1e-3;
    const bool pass = acc.residual <= tol;
    ok = ok && pass;
    std::printf("self-test mono %-12s n=%4d N=%d %s residual %.2e error %.2e %s\n",
                c < 6 ? kClassNames[c] : "?", n, N, sizeof(T) == 8 ? "f64" : "f32", acc.residual,
                acc.error, pass ? "ok" : "FAILED");
  }
  return ok;
}

template <class T>
bool self_test_multi(const Cells& cells, const std::string& name, unsigned long long seed) {
  const int N = std::min(cells.count(), 300);
  Cells sub;
  sub.sizes.assign(cells.sizes.begin(), cells.sizes.begin() + N);
  sub.offsets.assign(cells.offsets.begin(), cells.offsets.begin() + N + 1);
  sub.parents.assign(cells.parents.begin(), cells.parents.begin() + sub.offsets[N]);
  const std::vector<int> order = sorted_slots(sub);
  std::vector<int> sizes(N);
  for (int s = 0; s < N; ++s) sizes[s] = sub.sizes[order[s]];
  for (int s = 1; s < N; ++s)
    if (sizes[s] > sizes[s - 1]) {
      std::printf("self-test multi %s: slots not sorted\n", name.c_str());
      return false;
    }
  const int nmax = sizes[0];
  size_t count = static_cast<size_t>(nmax) * N;
  std::vector<int> P(count, -7);
  for (int s = 0; s < N; ++s)
    for (int i = 0; i < sizes[s]; ++i) P[static_cast<size_t>(i) * N + s] = sub.parent(order[s])[i];
  std::vector<T> u(count, 0), l(count, 0), d(count, 0), r(count, 0);
  for (int s = 0; s < N; ++s)
    fill_body(u.data(), l.data(), d.data(), r.data(), P.data(), N, 1, sizes[s], s, N,
              static_cast<uint64_t>(order[s]) + (1ull << 40), seed);
  std::vector<T> d0 = d, r0 = r;
  for (int s = 0; s < N; ++s)
    multi_sorted_body(u.data(), l.data(), d.data(), r.data(), P.data(), sizes.data(), N, s);
  Accuracy acc;
  bool padding_ok = true;
  for (int s = 0; s < N; ++s) {
    const int n = sizes[s];
    std::vector<T> su(n), sl(n), sd(n), sr(n), sx(n);
    for (int i = 0; i < n; ++i) {
      size_t k = static_cast<size_t>(i) * N + s;
      su[i] = u[k], sl[i] = l[k], sd[i] = d0[k], sr[i] = r0[k], sx[i] = r[k];
    }
    for (int i = n; i < nmax; ++i)
      padding_ok = padding_ok && r[static_cast<size_t>(i) * N + s] == T(0);
    check_system(n, sub.parent(order[s]), su.data(), sl.data(), sd.data(), sr.data(), sx.data(),
                 acc);
  }
  const double tol = sizeof(T) == 8 ? 1e-10 : 1e-3;
  const bool pass = acc.residual <= tol && padding_ok;
  std::printf(
      "self-test multi %-12s %d cells (max %d nodes) %s residual %.2e error %.2e padding %s %s\n",
      name.c_str(), N, nmax, sizeof(T) == 8 ? "f64" : "f32", acc.residual, acc.error,
      padding_ok ? "untouched" : "TOUCHED", pass ? "ok" : "FAILED");
  return pass;
}

// ---------------------------------------------------------------- device benchmark

struct Record {
  std::string method, input, type, status = "ok", reason;
  int n_systems = 0, max_nodes = 0;
  long long nodes = 0;  // real nodes solved (padding excluded)
  double median_ms = NAN, min_ms = NAN, max_ms = NAN, gnodes = NAN, gbs = NAN, frac = NAN;
  double residual = NAN, error = NAN;
};

struct Context {
  std::string device, host, timestamp;
  int cc_major = 0, cc_minor = 0, sms = 0, driver = 0, runtime = 0;
  size_t mem_bytes = 0, l2_bytes = 0;
  double copy_gbs = NAN;
};

void write_json(const std::string& path, const Context& c, const Options& o,
                const std::vector<Record>& rs) {
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
  std::fprintf(f, "{\n  \"context\": {\n");
  std::fprintf(f, "    \"program\": \"hines_peers\",\n");
  std::fprintf(f, "    \"device\": %s,\n", jstr(c.device).c_str());
  std::fprintf(f, "    \"compute_capability\": \"%d.%d\",\n", c.cc_major, c.cc_minor);
  std::fprintf(f, "    \"sm_count\": %d,\n", c.sms);
  std::fprintf(f, "    \"memory_bytes\": %zu,\n", c.mem_bytes);
  std::fprintf(f, "    \"l2_bytes\": %zu,\n", c.l2_bytes);
  std::fprintf(f, "    \"driver_version\": %d,\n", c.driver);
  std::fprintf(f, "    \"runtime_version\": %d,\n", c.runtime);
  std::fprintf(f, "    \"copy_bandwidth_gbs\": %s,\n", jnum(c.copy_gbs).c_str());
  std::fprintf(
      f, "    \"byte_model\": \"5 x sizeof(T) per real node: read u, l, d, rhs, write x\",\n");
  std::fprintf(f, "    \"block_size\": %d,\n", kBlock);
  std::fprintf(f, "    \"repeat\": %d,\n", o.repeat);
  std::fprintf(f, "    \"samples\": %d,\n", o.samples);
  std::fprintf(f, "    \"seed\": %llu,\n", o.seed);
  std::fprintf(f, "    \"l2_flush\": %s,\n", o.flush_l2 ? "true" : "false");
  std::fprintf(f, "    \"host\": %s,\n", jstr(c.host).c_str());
  std::fprintf(f, "    \"timestamp\": %s\n  },\n  \"results\": [", jstr(c.timestamp).c_str());
  for (size_t i = 0; i < rs.size(); ++i) {
    const Record& r = rs[i];
    std::fprintf(f,
                 "%s\n    {\"method\": %s, \"input\": %s, \"type\": %s, \"N\": %d, \"max_nodes\": "
                 "%d, \"nodes\": %lld, ",
                 i ? "," : "", jstr(r.method).c_str(), jstr(r.input).c_str(), jstr(r.type).c_str(),
                 r.n_systems, r.max_nodes, r.nodes);
    std::fprintf(f, "\"status\": %s, \"reason\": %s, ", jstr(r.status).c_str(),
                 jstr(r.reason).c_str());
    std::fprintf(f, "\"median_ms\": %s, \"min_ms\": %s, \"max_ms\": %s, ",
                 jnum(r.median_ms).c_str(), jnum(r.min_ms).c_str(), jnum(r.max_ms).c_str());
    std::fprintf(f, "\"gnodes_per_s\": %s, \"gbytes_per_s\": %s, \"frac_copy_bw\": %s, ",
                 jnum(r.gnodes).c_str(), jnum(r.gbs).c_str(), jnum(r.frac).c_str());
    std::fprintf(f, "\"residual\": %s, \"error\": %s}", jnum(r.residual).c_str(),
                 jnum(r.error).c_str());
  }
  std::fprintf(f, "\n  ]\n}\n");
  bool ok = std::fclose(f) == 0;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0)
    throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

void print_header() {
  std::printf("%-32s %-22s %-4s %7s %6s %10s %10s %9s %8s %6s %9s %9s\n", "method", "input", "type",
              "N", "nmax", "median_ms", "min_ms", "Gnodes/s", "GB/s", "of_bw", "residual", "error");
}

void print_record(const Record& r) {
  if (r.status == "ok")
    std::printf("%-32s %-22s %-4s %7d %6d %10.4f %10.4f %9.3f %8.1f %6.3f %9.2e %9.2e\n",
                r.method.c_str(), r.input.c_str(), r.type.c_str(), r.n_systems, r.max_nodes,
                r.median_ms, r.min_ms, r.gnodes, r.gbs, r.frac, r.residual, r.error);
  else
    std::printf("%-32s %-22s %-4s %7d FAILED: %s\n", r.method.c_str(), r.input.c_str(),
                r.type.c_str(), r.n_systems, r.reason.c_str());
  std::fflush(stdout);
}

class Bench {
 public:
  Bench(const Options& o, const Context& ctx) : o_(o), ctx_(ctx) {
    if (o.flush_l2 && ctx.l2_bytes > 0) {
      flush_bytes_ = 2 * ctx.l2_bytes;
      CUDA_CHECK(cudaMalloc(&flush_, flush_bytes_));
    }
  }
  ~Bench() { cudaFree(flush_); }

  // The systems per batch for a tree of `size` nodes: --n, or 2^t / size for --totals.
  std::vector<int> class_counts(int size) const {
    if (o_.totals.empty()) return o_.n;
    std::vector<int> counts;
    for (int t : o_.totals) counts.push_back(std::max(1, static_cast<int>((1ll << t) / size)));
    return counts;
  }

  // Six classes x every N.
  template <class T>
  void mono(const Cells& classes, std::vector<Record>& out) {
    for (int c = 0; c < classes.count(); ++c)
      for (int N : class_counts(classes.sizes[c])) {
        Record r =
            base<T>("cuHinesBatch_FullInterleaved",
                    c < 6 && classes.count() == 6 ? kClassNames[c] : "class" + std::to_string(c), N,
                    classes.sizes[c]);
        r.nodes = static_cast<long long>(N) * classes.sizes[c];
        guarded(r, [&] { mono_case<T>(classes.sizes[c], classes.parent(c), N, r); });
        out.push_back(r);
        print_record(r);
        write_json(o_.out, ctx_, o_, out);
      }
  }

  template <class T>
  void multi(const Cells& cells, const std::string& name, std::vector<Record>& out) {
    const int N = cells.count();
    const std::vector<int> order = sorted_slots(cells);
    Record r = base<T>("CoreNEURON_sorted_interleaved", name, N, cells.sizes[order[0]]);
    r.nodes = cells.offsets.back();
    guarded(r, [&] { multi_case<T>(cells, order, r); });
    out.push_back(r);
    print_record(r);
    write_json(o_.out, ctx_, o_, out);
  }

 private:
  template <class T>
  Record base(const std::string& method, const std::string& input, int N, int nmax) const {
    Record r;
    r.method = method;
    r.input = input;
    r.type = sizeof(T) == 8 ? "f64" : "f32";
    r.n_systems = N;
    r.max_nodes = nmax;
    return r;
  }

  template <class F>
  void guarded(Record& r, F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      r.status = "failed";
      r.reason = e.what();
      r.median_ms = r.min_ms = r.max_ms = r.gnodes = r.gbs = r.frac = NAN;
      (void)cudaGetLastError();
      cudaError_t sticky = cudaDeviceSynchronize();
      if (sticky != cudaSuccess)
        throw std::runtime_error(std::string("device unusable after ") + r.method + ": " +
                                 cudaGetErrorString(sticky));
    }
  }

  void check_fits(double bytes) const {
    if (bytes + flush_bytes_ > o_.max_gb * 1e9)
      throw std::runtime_error("needs " + std::to_string(bytes / 1e9) + " GB, above --max-gb");
  }

  void flush() {
    if (flush_) CUDA_CHECK(cudaMemsetAsync(flush_, 0, flush_bytes_));
  }

  template <class T, class Launch>
  void time_it(T* d, T* rhs, const T* d0, const T* rhs0, size_t count, Launch launch, Record& r) {
    const size_t bytes = count * sizeof(T);
    auto restore = [&] {
      CUDA_CHECK(cudaMemcpyAsync(d, d0, bytes, cudaMemcpyDeviceToDevice));
      CUDA_CHECK(cudaMemcpyAsync(rhs, rhs0, bytes, cudaMemcpyDeviceToDevice));
      flush();
    };
    Events ev;
    restore();
    launch();  // warm-up
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int i = 0; i < o_.repeat; ++i) {
      restore();
      CUDA_CHECK(cudaEventRecord(ev.start));
      launch();
      CUDA_CHECK(cudaEventRecord(ev.stop));
      CUDA_CHECK(cudaEventSynchronize(ev.stop));
      t.push_back(ev.ms());
    }
    std::sort(t.begin(), t.end());
    size_t k = t.size();
    r.median_ms = k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
    r.min_ms = t.front();
    r.max_ms = t.back();
    r.gnodes = r.nodes / (r.median_ms * 1e6);
    r.gbs = 5.0 * sizeof(T) * r.nodes / (r.median_ms * 1e6);
    r.frac = r.gbs / ctx_.copy_gbs;
  }

  // Copies rows 0..rows-1 of the sampled systems of an interleaved array to the host.
  template <class T>
  std::vector<T> fetch(const T* a, const std::vector<int>& ids, const int* d_ids, int rows, int N) {
    size_t total = ids.size() * static_cast<size_t>(rows);
    DeviceArray<T> buf(total);
    gather<T><<<static_cast<unsigned>((total + 255) / 256), 256>>>(
        buf.p, a, d_ids, static_cast<int>(ids.size()), rows, N);
    CUDA_CHECK(cudaGetLastError());
    std::vector<T> h(total);
    CUDA_CHECK(cudaMemcpy(h.data(), buf.p, total * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }

  void judge(Record& r, const Accuracy& acc, double tol) {
    r.residual = acc.residual;
    r.error = acc.error;
    if (!(acc.residual <= tol)) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "residual %.3e above %.0e", acc.residual, tol);
      throw std::runtime_error(buf);
    }
  }

  template <class T>
  void mono_case(int n, const int* parent, int N, Record& r) {
    const size_t count = static_cast<size_t>(n) * N;
    if (count > static_cast<size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("n*N does not fit in int (the kernel indexes with int)");
    check_fits(6.0 * count * sizeof(T));
    DeviceArray<T> u(count), l(count), d(count), rhs(count), d0(count), rhs0(count);
    DeviceArray<int> p(n);
    CUDA_CHECK(cudaMemcpy(p.p, parent, n * sizeof(int), cudaMemcpyHostToDevice));
    const unsigned grid = static_cast<unsigned>((N + kBlock - 1) / kBlock);
    fill_mono<T><<<grid, kBlock>>>(u.p, l.p, d0.p, rhs0.p, p.p, n, N, o_.seed);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    time_it<T>(
        d.p, rhs.p, d0.p, rhs0.p, count,
        [&] {
          cu_hines_batch_fi<T><<<grid, kBlock>>>(u.p, l.p, d.p, rhs.p, p.p, n, N);
          CUDA_CHECK(cudaGetLastError());
        },
        r);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<int> ids = sample_ids(N, o_.samples);
    DeviceArray<int> d_ids(ids.size());
    CUDA_CHECK(cudaMemcpy(d_ids.p, ids.data(), ids.size() * sizeof(int), cudaMemcpyHostToDevice));
    auto hu = fetch(u.p, ids, d_ids.p, n, N), hl = fetch(l.p, ids, d_ids.p, n, N),
         hd = fetch(d0.p, ids, d_ids.p, n, N), hr = fetch(rhs0.p, ids, d_ids.p, n, N),
         hx = fetch(rhs.p, ids, d_ids.p, n, N);
    Accuracy acc;
    for (size_t k = 0; k < ids.size(); ++k) {
      size_t o = k * n;
      check_system(n, parent, &hu[o], &hl[o], &hd[o], &hr[o], &hx[o], acc);
    }
    judge(r, acc, sizeof(T) == 8 ? 1e-10 : 1e-3);
  }

  template <class T>
  void multi_case(const Cells& cells, const std::vector<int>& order, Record& r) {
    const int N = cells.count(), nmax = cells.sizes[order[0]];
    const size_t count = static_cast<size_t>(nmax) * N;
    if (count > static_cast<size_t>(std::numeric_limits<int>::max()))
      throw std::runtime_error("max_nodes*N does not fit in int (the kernel indexes with int)");
    check_fits(6.0 * count * sizeof(T) + count * 4.0 + cells.parents.size() * 4.0);
    std::vector<int> sizes(N);
    for (int s = 0; s < N; ++s) sizes[s] = cells.sizes[order[s]];
    DeviceArray<T> u(count), l(count), d(count), rhs(count), d0(count), rhs0(count);
    DeviceArray<int> P(count), d_sizes(N), d_order(N);
    const unsigned grid = static_cast<unsigned>((N + kBlock - 1) / kBlock);
    {
      DeviceArray<int> packed(cells.parents.size());
      DeviceArray<long long> offsets(cells.offsets.size());
      CUDA_CHECK(cudaMemcpy(packed.p, cells.parents.data(), cells.parents.size() * sizeof(int),
                            cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(offsets.p, cells.offsets.data(),
                            cells.offsets.size() * sizeof(long long), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(d_sizes.p, sizes.data(), N * sizeof(int), cudaMemcpyHostToDevice));
      CUDA_CHECK(cudaMemcpy(d_order.p, order.data(), N * sizeof(int), cudaMemcpyHostToDevice));
      // Padding: parents 0 and values 0 (never read by the solve).
      CUDA_CHECK(cudaMemset(P.p, 0, count * sizeof(int)));
      T* const zeroed[4] = {u.p, l.p, d0.p, rhs0.p};
      for (int k = 0; k < 4; ++k) CUDA_CHECK(cudaMemset(zeroed[k], 0, count * sizeof(T)));
      scatter_parents<<<grid, kBlock>>>(P.p, packed.p, offsets.p, d_order.p, d_sizes.p, N);
      CUDA_CHECK(cudaGetLastError());
      fill_multi<T>
          <<<grid, kBlock>>>(u.p, l.p, d0.p, rhs0.p, P.p, d_sizes.p, d_order.p, N, o_.seed);
      CUDA_CHECK(cudaGetLastError());
      CUDA_CHECK(cudaDeviceSynchronize());
    }
    time_it<T>(
        d.p, rhs.p, d0.p, rhs0.p, count,
        [&] {
          multi_sorted<T><<<grid, kBlock>>>(u.p, l.p, d.p, rhs.p, P.p, d_sizes.p, N);
          CUDA_CHECK(cudaGetLastError());
        },
        r);
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::vector<int> ids = sample_ids(N, o_.samples);  // slots
    DeviceArray<int> d_ids(ids.size());
    CUDA_CHECK(cudaMemcpy(d_ids.p, ids.data(), ids.size() * sizeof(int), cudaMemcpyHostToDevice));
    auto hu = fetch(u.p, ids, d_ids.p, nmax, N), hl = fetch(l.p, ids, d_ids.p, nmax, N),
         hd = fetch(d0.p, ids, d_ids.p, nmax, N), hr = fetch(rhs0.p, ids, d_ids.p, nmax, N),
         hx = fetch(rhs.p, ids, d_ids.p, nmax, N);
    Accuracy acc;
    for (size_t k = 0; k < ids.size(); ++k) {
      const int cell = order[ids[k]];
      size_t o = k * nmax;
      check_system(cells.sizes[cell], cells.parent(cell), &hu[o], &hl[o], &hd[o], &hr[o], &hx[o],
                   acc);
    }
    judge(r, acc, sizeof(T) == 8 ? 1e-10 : 1e-3);
  }

  const Options& o_;
  const Context& ctx_;
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
};

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), kUsage);
    return 1;
  }
  Cells classes;
  std::vector<std::pair<std::string, Cells>> multi;
  try {
    if (!o.classes.empty()) classes = read_cells(o.classes);
    for (const auto& f : o.cells) multi.emplace_back(basename_noext(f), read_cells(f));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }

  if (o.self_test) {
    bool ok = true;
    if (!o.classes.empty()) {
      ok = self_test_mono<double>(classes, o.seed) && ok;
      ok = self_test_mono<float>(classes, o.seed) && ok;
    }
    for (const auto& m : multi) {
      ok = self_test_multi<double>(m.second, m.first, o.seed) && ok;
      ok = self_test_multi<float>(m.second, m.first, o.seed) && ok;
    }
    std::printf("self-test %s\n", ok ? "passed" : "FAILED");
    return ok ? 0 : 3;
  }

  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::fprintf(stderr,
                 "error: no usable CUDA device (%s); this benchmark must run on a GPU machine\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices");
    return 2;
  }
  std::vector<Record> records;
  try {
    Context ctx;
    cudaDeviceProp prop{};
    CUDA_CHECK(cudaGetDeviceProperties(&prop, 0));
    ctx.device = prop.name;
    ctx.cc_major = prop.major;
    ctx.cc_minor = prop.minor;
    ctx.sms = prop.multiProcessorCount;
    ctx.mem_bytes = prop.totalGlobalMem;
    ctx.l2_bytes = static_cast<size_t>(prop.l2CacheSize);
    CUDA_CHECK(cudaDriverGetVersion(&ctx.driver));
    CUDA_CHECK(cudaRuntimeGetVersion(&ctx.runtime));
    ctx.timestamp = utc_now();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    ctx.host = host;
    ctx.copy_gbs = copy_bandwidth_gbs();
    std::printf("# %s (cc %d.%d, %d SMs), driver %d, runtime %d\n", ctx.device.c_str(),
                ctx.cc_major, ctx.cc_minor, ctx.sms, ctx.driver, ctx.runtime);
    std::printf(
        "# device copy bandwidth %.1f GB/s (1 GiB D2D, read+write, best of 10); GB/s below: "
        "5 x sizeof(T) B per node, median of %d runs, L2 %s, %d-thread blocks\n",
        ctx.copy_gbs, o.repeat, o.flush_l2 ? "flushed" : "kept", kBlock);
    Bench bench(o, ctx);
    write_json(o.out, ctx, o, records);  // fail early on an unwritable path
    print_header();
    for (const std::string& t : o.types) {
      if (!o.classes.empty()) {
        if (t == "f64")
          bench.mono<double>(classes, records);
        else
          bench.mono<float>(classes, records);
      }
      for (const auto& m : multi) {
        if (t == "f64")
          bench.multi<double>(m.second, m.first, records);
        else
          bench.multi<float>(m.second, m.first, records);
      }
    }
    std::printf("# wrote %s\n", o.out.c_str());
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "error: %s\n", ex.what());
    return 1;
  }
  for (const Record& r : records)
    if (r.status != "ok") {
      std::fprintf(stderr, "error: %s %s %s N=%d failed: %s\n", r.method.c_str(), r.input.c_str(),
                   r.type.c_str(), r.n_systems, r.reason.c_str());
      return 3;
    }
  return 0;
}
