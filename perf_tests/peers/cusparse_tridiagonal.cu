// Peer benchmark for batched tridiagonal solves (docs/REFERENCE.md §3, §6): cuSPARSE
// gtsv2StridedBatch (CR+PCR, flat layout), gtsvInterleavedBatch algorithms 0/1/2
// (Thomas, LU with pivoting, QR; interleaved layout), and a cuThomasBatch-style kernel
// (one thread per system, Full-Interleaved) as the plain-CUDA reference point.
// Standalone on purpose: it does not link HinesBatch, so it measures the peers alone.
#include <cuda_runtime.h>
#include <cusparse.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "peer_common.cuh"

namespace {

using namespace peers;

// ---------------------------------------------------------------- errors

struct Fatal : std::runtime_error {
  using std::runtime_error::runtime_error;
};

#define CUSPARSE_CHECK(call)                                                                  \
  do {                                                                                        \
    cusparseStatus_t s_ = (call);                                                             \
    if (s_ != CUSPARSE_STATUS_SUCCESS)                                                        \
      throw std::runtime_error(where(__FILE__, __LINE__) + #call + ": " +                     \
                               cusparseGetErrorName(s_) + " (" + cusparseGetErrorString(s_) + \
                               ")");                                                          \
  } while (0)

// ---------------------------------------------------------------- options

struct Options {
  std::vector<std::pair<int, int>> pairs;  // (m, N)
  bool f64 = true;
  int repeat = 20;
  int samples = 256;
  unsigned long long seed = 20170612;
  double max_gb = 30.0;
  bool flush_l2 = true;
  std::vector<std::string> methods;  // empty: all
  std::string out = "cusparse_tridiagonal.json";
};

const std::vector<int> kSmallM = {64, 128, 256, 512}, kSmallN = {256, 2560, 25600, 256000};
const std::vector<int> kLargeM = {1024, 2048, 4096, 8192}, kLargeN = {20, 200, 2000, 20000};

const char* kUsage =
    "usage: cusparse_tridiagonal [--m LIST] [--n LIST | --pairs M:N,...] [--type f64|f32]\n"
    "                            [--repeat R]\n"
    "                            [--out FILE.json] [--samples K] [--seed S] [--max-gb G]\n"
    "                            [--methods LIST] [--no-l2-flush]\n"
    "  --m, --n     comma lists; both given: every (m, N) pair; --m alone: N = 256..256000\n"
    "               for m <= 512 and 20..20000 above; --n alone: m = 64,128,256,512;\n"
    "               neither: the ThomasBatch paper's Figs. 9/10 (m 64..512 x N 256..256000, m "
    "1024..8192 x N "
    "20..20000)\n"
    "  --repeat     timed runs per method, median reported (default 20), after one warm-up\n"
    "  --samples    systems checked on the host in long double (default 256)\n"
    "  --max-gb     device memory cap for one (m, N) case incl. workspace (default 30)\n"
    "  --methods    subset of: strided, interleaved0, interleaved1, interleaved2, reference\n"
    "  --no-l2-flush  keep the restored inputs in L2 (default: overwrite L2 before each run)\n";

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

std::vector<int> parse_ints(const std::string& s, const char* what) {
  std::vector<int> v;
  for (const std::string& t : split(s)) {
    char* end = nullptr;
    long x = std::strtol(t.c_str(), &end, 10);
    if (*end != '\0' || x < 1 || x > std::numeric_limits<int>::max())
      throw std::invalid_argument(std::string("bad ") + what + " value '" + t + "'");
    v.push_back(static_cast<int>(x));
  }
  if (v.empty()) throw std::invalid_argument(std::string("empty ") + what + " list");
  return v;
}

Options parse(int argc, char** argv) {
  Options o;
  std::vector<int> ms, ns;
  std::vector<std::pair<int, int>> pairs;
  auto value = [&](int& i) -> std::string {
    if (i + 1 >= argc) throw std::invalid_argument(std::string(argv[i]) + " needs a value");
    return argv[++i];
  };
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--m") {
      ms = parse_ints(value(i), "--m");
    } else if (a == "--n") {
      ns = parse_ints(value(i), "--n");
    } else if (a == "--pairs") {
      // M:N,M:N,...: these (m, N) and no cross product (the solver map's points).
      for (const std::string& t : split(value(i))) {
        const auto colon = t.find(':');
        if (colon == std::string::npos)
          throw std::invalid_argument("--pairs wants M:N entries, not '" + t + "'");
        pairs.emplace_back(parse_ints(t.substr(0, colon), "--pairs m").at(0),
                           parse_ints(t.substr(colon + 1), "--pairs N").at(0));
      }
    } else if (a == "--type") {
      std::string t = value(i);
      if (t != "f64" && t != "f32") throw std::invalid_argument("--type must be f64 or f32");
      o.f64 = t == "f64";
    } else if (a == "--repeat") {
      o.repeat = parse_ints(value(i), "--repeat").at(0);
    } else if (a == "--samples") {
      o.samples = parse_ints(value(i), "--samples").at(0);
    } else if (a == "--seed") {
      o.seed = parse_seed(value(i));
    } else if (a == "--max-gb") {
      o.max_gb = parse_number(value(i), "--max-gb", 1e-3, 1e6);
    } else if (a == "--methods") {
      o.methods = split(value(i));
      for (const std::string& k : o.methods)
        if (k != "strided" && k != "interleaved0" && k != "interleaved1" && k != "interleaved2" &&
            k != "reference")
          throw std::invalid_argument("unknown method '" + k + "'");
    } else if (a == "--no-l2-flush") {
      o.flush_l2 = false;
    } else if (a == "--out") {
      o.out = value(i);
    } else if (a == "--help" || a == "-h") {
      std::fputs(kUsage, stdout);
      std::exit(0);
    } else {
      throw std::invalid_argument("unknown argument '" + a + "'");
    }
  }
  auto cross = [&](const std::vector<int>& mm, const std::vector<int>& nn) {
    for (int m : mm)
      for (int n : nn) o.pairs.emplace_back(m, n);
  };
  if (!pairs.empty()) {
    if (!ms.empty() || !ns.empty())
      throw std::invalid_argument("--pairs cannot be combined with --m or --n");
    o.pairs = pairs;
  } else if (!ms.empty() && !ns.empty()) {
    cross(ms, ns);
  } else if (!ms.empty()) {
    for (int m : ms) cross({m}, m <= 512 ? kSmallN : kLargeN);
  } else if (!ns.empty()) {
    cross(kSmallM, ns);
  } else {
    cross(kSmallM, kSmallN);
    cross(kLargeM, kLargeN);
  }
  for (auto [m, n] : o.pairs) {
    if (m < 3) throw std::invalid_argument("m must be >= 3 (cuSPARSE requirement)");
    // cuSPARSE and the reference kernel index with int.
    if (static_cast<long long>(m) * n > std::numeric_limits<int>::max())
      throw std::invalid_argument("m*N must fit in int: " + std::to_string(m) + "x" +
                                  std::to_string(n));
  }
  return o;
}

// ---------------------------------------------------------------- methods

enum class Method { kStrided, kInterleaved0, kInterleaved1, kInterleaved2, kReference };
const Method kAllMethods[] = {Method::kStrided, Method::kInterleaved0, Method::kInterleaved1,
                              Method::kInterleaved2, Method::kReference};

const char* key(Method m) {
  switch (m) {
    case Method::kStrided:
      return "strided";
    case Method::kInterleaved0:
      return "interleaved0";
    case Method::kInterleaved1:
      return "interleaved1";
    case Method::kInterleaved2:
      return "interleaved2";
    case Method::kReference:
      return "reference";
  }
  return "?";
}

const char* name(Method m) {
  switch (m) {
    case Method::kStrided:
      return "cusparse_gtsv2StridedBatch";
    case Method::kInterleaved0:
      return "cusparse_gtsvInterleavedBatch_algo0";
    case Method::kInterleaved1:
      return "cusparse_gtsvInterleavedBatch_algo1";
    case Method::kInterleaved2:
      return "cusparse_gtsvInterleavedBatch_algo2";
    case Method::kReference:
      return "cuThomasBatch_reference";
  }
  return "?";
}

bool interleaved(Method m) { return m != Method::kStrided; }

// cuSPARSE entry points by precision.
template <class T>
struct Sparse;

template <>
struct Sparse<double> {
  static cusparseStatus_t strided_size(cusparseHandle_t h, int m, const double* dl, const double* d,
                                       const double* du, const double* x, int n, size_t* bytes) {
    return cusparseDgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, n, m, bytes);
  }
  static cusparseStatus_t strided(cusparseHandle_t h, int m, const double* dl, const double* d,
                                  const double* du, double* x, int n, void* ws) {
    return cusparseDgtsv2StridedBatch(h, m, dl, d, du, x, n, m, ws);
  }
  static cusparseStatus_t interleaved_size(cusparseHandle_t h, int algo, int m, const double* dl,
                                           const double* d, const double* du, const double* x,
                                           int n, size_t* bytes) {
    return cusparseDgtsvInterleavedBatch_bufferSizeExt(h, algo, m, dl, d, du, x, n, bytes);
  }
  static cusparseStatus_t interleaved(cusparseHandle_t h, int algo, int m, double* dl, double* d,
                                      double* du, double* x, int n, void* ws) {
    return cusparseDgtsvInterleavedBatch(h, algo, m, dl, d, du, x, n, ws);
  }
};

template <>
struct Sparse<float> {
  static cusparseStatus_t strided_size(cusparseHandle_t h, int m, const float* dl, const float* d,
                                       const float* du, const float* x, int n, size_t* bytes) {
    return cusparseSgtsv2StridedBatch_bufferSizeExt(h, m, dl, d, du, x, n, m, bytes);
  }
  static cusparseStatus_t strided(cusparseHandle_t h, int m, const float* dl, const float* d,
                                  const float* du, float* x, int n, void* ws) {
    return cusparseSgtsv2StridedBatch(h, m, dl, d, du, x, n, m, ws);
  }
  static cusparseStatus_t interleaved_size(cusparseHandle_t h, int algo, int m, const float* dl,
                                           const float* d, const float* du, const float* x, int n,
                                           size_t* bytes) {
    return cusparseSgtsvInterleavedBatch_bufferSizeExt(h, algo, m, dl, d, du, x, n, bytes);
  }
  static cusparseStatus_t interleaved(cusparseHandle_t h, int algo, int m, float* dl, float* d,
                                      float* du, float* x, int n, void* ws) {
    return cusparseSgtsvInterleavedBatch(h, algo, m, dl, d, du, x, n, ws);
  }
};

// cuThomasBatch (Valero-Lara et al., the cuHinesBatch and ThomasBatch papers): one thread per
// system, Full-Interleaved layout (element i of system s at i*N + s), Thomas without pivoting. Kept
// as published: U and RHS are overwritten in place (c' and d'/x), int indexing, no __restrict__,
// 128-thread blocks.
template <class T>
__global__ void cu_thomas_batch(const T* L, const T* D, T* U, T* RHS, const int M,
                                const int BATCHCOUNT) {
  int tid = threadIdx.x + blockDim.x * blockIdx.x;
  if (tid < BATCHCOUNT) {
    int first = tid;
    int last = BATCHCOUNT * (M - 1) + tid;
    U[first] /= D[first];
    RHS[first] /= D[first];
    for (int i = first + BATCHCOUNT; i < last; i += BATCHCOUNT) {
      U[i] /= D[i] - L[i] * U[i - BATCHCOUNT];
      RHS[i] = (RHS[i] - L[i] * RHS[i - BATCHCOUNT]) / (D[i] - L[i] * U[i - BATCHCOUNT]);
    }
    RHS[last] =
        (RHS[last] - L[last] * RHS[last - BATCHCOUNT]) / (D[last] - L[last] * U[last - BATCHCOUNT]);
    for (int i = last - BATCHCOUNT; i >= first; i -= BATCHCOUNT)
      RHS[i] -= U[i] * RHS[i + BATCHCOUNT];
  }
}

constexpr int kReferenceBlock = 128;  // cuHinesBatch's block size

// Flat (system-major) to interleaved; untimed, once per (m, N).
template <class T>
__global__ void interleave(const T* flat, T* inter, int m, int n) {
  size_t total = static_cast<size_t>(m) * n;
  for (size_t k = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; k < total;
       k += static_cast<size_t>(gridDim.x) * blockDim.x) {
    size_t i = k / n, s = k % n;
    inter[k] = flat[s * m + i];
  }
}

// ---------------------------------------------------------------- host data

// Flat layout, system s row i at s*m + i; a = lower (a[s*m] = 0), b = diagonal,
// c = upper (c[s*m + m-1] = 0), r = right-hand side.
template <class T>
struct HostSystems {
  int m = 0, n = 0;
  std::vector<T> a, b, c, r;
};

// Diagonally dominant, non-symmetric: |b| = |a| + |c| + margin, margin in [0.1, 1.1], random
// sign; a != c. Seeded per block of systems so the data do not depend on the thread count.
template <class T>
HostSystems<T> generate(int m, int n, unsigned long long seed) {
  HostSystems<T> h;
  h.m = m;
  h.n = n;
  size_t total = static_cast<size_t>(m) * n;
  h.a.resize(total);
  h.b.resize(total);
  h.c.resize(total);
  h.r.resize(total);
  constexpr int kBlock = 1024;
  int blocks = (n + kBlock - 1) / kBlock;
  std::atomic<int> next{0};
  auto work = [&] {
    for (int blk; (blk = next++) < blocks;) {
      std::seed_seq seq{static_cast<unsigned>(seed), static_cast<unsigned>(seed >> 32),
                        static_cast<unsigned>(m), static_cast<unsigned>(n),
                        static_cast<unsigned>(blk)};
      std::mt19937_64 rng(seq);
      std::uniform_real_distribution<double> sym(-1.0, 1.0), margin(0.1, 1.1);
      for (int s = blk * kBlock; s < std::min(n, (blk + 1) * kBlock); ++s) {
        size_t o = static_cast<size_t>(s) * m;
        for (int i = 0; i < m; ++i) {
          T a = i > 0 ? static_cast<T>(sym(rng)) : T(0);
          T c = i < m - 1 ? static_cast<T>(sym(rng)) : T(0);
          while (c == a) c = static_cast<T>(sym(rng));
          double mag = std::fabs(double(a)) + std::fabs(double(c)) + margin(rng);
          h.a[o + i] = a;
          h.b[o + i] = static_cast<T>(rng() & 1 ? mag : -mag);
          h.c[o + i] = c;
          h.r[o + i] = static_cast<T>(sym(rng));
        }
      }
    }
  };
  unsigned hw = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < hw; ++t) pool.emplace_back(work);
  work();
  for (auto& t : pool) t.join();
  return h;
}

// Long double Thomas on the sampled systems: the oracle for the forward error.
template <class T>
std::vector<long double> oracle(const HostSystems<T>& h, const std::vector<int>& ids) {
  int m = h.m;
  std::vector<long double> x(ids.size() * m), cp(m);
  for (size_t k = 0; k < ids.size(); ++k) {
    size_t o = static_cast<size_t>(ids[k]) * m;
    long double* xs = &x[k * m];
    cp[0] = (long double)h.c[o] / h.b[o];
    xs[0] = (long double)h.r[o] / h.b[o];
    for (int i = 1; i < m; ++i) {
      long double den = h.b[o + i] - (long double)h.a[o + i] * cp[i - 1];
      cp[i] = h.c[o + i] / den;
      xs[i] = (h.r[o + i] - (long double)h.a[o + i] * xs[i - 1]) / den;
    }
    for (int i = m - 2; i >= 0; --i) xs[i] -= cp[i] * xs[i + 1];
  }
  return x;
}

struct Accuracy {
  double residual = 0, error = 0;  // max over the samples; NaN propagates
};

// residual = ||r - A x||_inf / ||r||_inf; error = ||x - x_oracle||_inf / ||x_oracle||_inf.
template <class T>
Accuracy check(const HostSystems<T>& h, const std::vector<int>& ids,
               const std::vector<long double>& ref, const std::vector<T>& x, bool inter) {
  int m = h.m, n = h.n;
  Accuracy acc;
  std::vector<long double> xs(m);
  for (size_t k = 0; k < ids.size(); ++k) {
    size_t o = static_cast<size_t>(ids[k]) * m;
    for (int i = 0; i < m; ++i) xs[i] = inter ? x[static_cast<size_t>(i) * n + ids[k]] : x[o + i];
    long double res = 0, rn = 0, err = 0, xn = 0;
    for (int i = 0; i < m; ++i) {
      long double ax = (long double)h.b[o + i] * xs[i];
      if (i > 0) ax += (long double)h.a[o + i] * xs[i - 1];
      if (i < m - 1) ax += (long double)h.c[o + i] * xs[i + 1];
      res = std::max(res, std::fabs(h.r[o + i] - ax));
      rn = std::max(rn, std::fabs((long double)h.r[o + i]));
      err = std::max(err, std::fabs(xs[i] - ref[k * m + i]));
      xn = std::max(xn, std::fabs(ref[k * m + i]));
      if (std::isnan(xs[i])) res = err = NAN;
    }
    double rr = static_cast<double>(res / rn), ee = static_cast<double>(err / xn);
    acc.residual = std::isnan(rr) || std::isnan(acc.residual) ? NAN : std::max(acc.residual, rr);
    acc.error = std::isnan(ee) || std::isnan(acc.error) ? NAN : std::max(acc.error, ee);
  }
  return acc;
}

// ---------------------------------------------------------------- device helpers

// ---------------------------------------------------------------- results

struct Record {
  std::string method, layout, status = "ok", reason;
  int m = 0, n = 0;
  double median_ms = NAN, min_ms = NAN, max_ms = NAN;
  double grows = NAN, gbs = NAN, frac = NAN;
  size_t workspace = 0;
  double residual = NAN, error = NAN;
};

struct Context {
  std::string device, type, timestamp, host;
  int cc_major = 0, cc_minor = 0, sms = 0, driver = 0, runtime = 0, cusparse = 0;
  size_t mem_bytes = 0, l2_bytes = 0;
  double copy_gbs = NAN;
  int bytes_per_row = 0, repeat = 0, samples = 0;
  unsigned long long seed = 0;
  bool flush_l2 = true;
};

// Rewritten after every (m, N) so a run cut short still leaves its results.
void write_json(const std::string& path, const Context& c, const std::vector<Record>& rs) {
  std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "w");
  if (!f) throw Fatal("cannot write " + tmp + ": " + std::strerror(errno));
  std::fprintf(f, "{\n  \"context\": {\n");
  std::fprintf(f, "    \"program\": \"cusparse_tridiagonal\",\n");
  std::fprintf(f, "    \"device\": %s,\n", jstr(c.device).c_str());
  std::fprintf(f, "    \"compute_capability\": \"%d.%d\",\n", c.cc_major, c.cc_minor);
  std::fprintf(f, "    \"sm_count\": %d,\n", c.sms);
  std::fprintf(f, "    \"memory_bytes\": %zu,\n", c.mem_bytes);
  std::fprintf(f, "    \"l2_bytes\": %zu,\n", c.l2_bytes);
  std::fprintf(f, "    \"driver_version\": %d,\n", c.driver);
  std::fprintf(f, "    \"runtime_version\": %d,\n", c.runtime);
  std::fprintf(f, "    \"cusparse_version\": %d,\n", c.cusparse);
  std::fprintf(f, "    \"copy_bandwidth_gbs\": %s,\n", jnum(c.copy_gbs).c_str());
  std::fprintf(f, "    \"type\": %s,\n", jstr(c.type).c_str());
  std::fprintf(f, "    \"bytes_per_row_model\": %d,\n", c.bytes_per_row);
  std::fprintf(f, "    \"repeat\": %d,\n", c.repeat);
  std::fprintf(f, "    \"samples\": %d,\n", c.samples);
  std::fprintf(f, "    \"seed\": %llu,\n", c.seed);
  std::fprintf(f, "    \"l2_flush\": %s,\n", c.flush_l2 ? "true" : "false");
  std::fprintf(f, "    \"host\": %s,\n", jstr(c.host).c_str());
  std::fprintf(f, "    \"timestamp\": %s\n  },\n  \"results\": [", jstr(c.timestamp).c_str());
  for (size_t i = 0; i < rs.size(); ++i) {
    const Record& r = rs[i];
    std::fprintf(f, "%s\n    {\"method\": %s, \"layout\": %s, \"m\": %d, \"N\": %d, ", i ? "," : "",
                 jstr(r.method).c_str(), jstr(r.layout).c_str(), r.m, r.n);
    std::fprintf(f, "\"status\": %s, \"reason\": %s, ", jstr(r.status).c_str(),
                 jstr(r.reason).c_str());
    std::fprintf(f, "\"median_ms\": %s, \"min_ms\": %s, \"max_ms\": %s, ",
                 jnum(r.median_ms).c_str(), jnum(r.min_ms).c_str(), jnum(r.max_ms).c_str());
    std::fprintf(f, "\"grows_per_s\": %s, \"gbytes_per_s\": %s, \"frac_copy_bw\": %s, ",
                 jnum(r.grows).c_str(), jnum(r.gbs).c_str(), jnum(r.frac).c_str());
    std::fprintf(f, "\"workspace_bytes\": %zu, \"residual\": %s, \"error\": %s}", r.workspace,
                 jnum(r.residual).c_str(), jnum(r.error).c_str());
  }
  std::fprintf(f, "\n  ]\n}\n");
  bool ok = std::fclose(f) == 0;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0)
    throw Fatal("cannot write " + path + ": " + std::strerror(errno));
}

void print_header() {
  std::printf("%-36s %5s %7s %10s %9s %8s %6s %14s %9s %9s\n", "method", "m", "N", "median_ms",
              "Grows/s", "GB/s", "of_bw", "workspace_B", "residual", "error");
}

void print_record(const Record& r) {
  if (r.status == "ok") {
    std::printf("%-36s %5d %7d %10.4f %9.3f %8.1f %6.3f %14zu %9.2e %9.2e\n", r.method.c_str(), r.m,
                r.n, r.median_ms, r.grows, r.gbs, r.frac, r.workspace, r.residual, r.error);
  } else {
    std::printf("%-36s %5d %7d FAILED: %s\n", r.method.c_str(), r.m, r.n, r.reason.c_str());
  }
  std::fflush(stdout);
}

// ---------------------------------------------------------------- the benchmark

template <class T>
class Bench {
 public:
  Bench(const Options& o, const Context& ctx, cusparseHandle_t h, size_t l2_bytes)
      : o_(o), ctx_(ctx), h_(h) {
    if (o.flush_l2 && l2_bytes > 0) {
      flush_bytes_ = 2 * l2_bytes;
      CUDA_CHECK(cudaMalloc(&flush_, flush_bytes_));
    }
  }
  ~Bench() { cudaFree(flush_); }

  void run_case(int m, int n, std::vector<Record>& out) {
    std::vector<Method> todo;
    for (Method me : kAllMethods)
      if (o_.methods.empty() ||
          std::find(o_.methods.begin(), o_.methods.end(), key(me)) != o_.methods.end())
        todo.push_back(me);
    // Flat methods first: the pristine copies are then turned into the interleaved layout.
    std::stable_partition(todo.begin(), todo.end(), [](Method me) { return !interleaved(me); });

    size_t count = static_cast<size_t>(m) * n, bytes = count * sizeof(T);
    // Four pristine arrays, four working arrays (the solvers overwrite their inputs).
    if (8.0 * bytes + flush_bytes_ > o_.max_gb * 1e9) {
      for (Method me : todo) {
        Record r = base(me, m, n);
        fail(r, "8 arrays of " + std::to_string(bytes) + " B exceed --max-gb");
        out.push_back(r);
        print_record(r);
      }
      return;
    }
    HostSystems<T> hs = generate<T>(m, n, o_.seed);
    std::vector<int> ids = sample_ids(n, o_.samples);
    std::vector<long double> ref = oracle(hs, ids);
    std::vector<T> hx(count);

    std::vector<std::unique_ptr<DeviceArray<T>>> arrays;
    try {
      for (int k = 0; k < 8; ++k) arrays.push_back(std::make_unique<DeviceArray<T>>(count));
    } catch (const std::exception& e) {
      (void)cudaGetLastError();  // an allocation failure is not sticky
      for (Method me : todo) {
        Record r = base(me, m, n);
        fail(r, e.what());
        out.push_back(r);
        print_record(r);
      }
      return;
    }
    T* pristine[4] = {arrays[0]->p, arrays[1]->p, arrays[2]->p, arrays[3]->p};
    T* work[4] = {arrays[4]->p, arrays[5]->p, arrays[6]->p, arrays[7]->p};
    const std::vector<T>* host[4] = {&hs.a, &hs.b, &hs.c, &hs.r};
    for (int k = 0; k < 4; ++k)
      CUDA_CHECK(cudaMemcpy(pristine[k], host[k]->data(), bytes, cudaMemcpyHostToDevice));
    bool is_inter = false;

    for (Method me : todo) {
      if (interleaved(me) && !is_inter) {
        for (int k = 0; k < 4; ++k) {
          interleave<T><<<1024, 256>>>(pristine[k], work[k], m, n);
          CUDA_CHECK(cudaGetLastError());
          std::swap(pristine[k], work[k]);
        }
        CUDA_CHECK(cudaDeviceSynchronize());
        is_inter = true;
      }
      Record r = base(me, m, n);
      try {
        measure(me, m, n, pristine, work, r);
        CUDA_CHECK(cudaMemcpy(hx.data(), work[3], bytes, cudaMemcpyDeviceToHost));
        Accuracy acc = check(hs, ids, ref, hx, is_inter);
        r.residual = acc.residual;
        r.error = acc.error;
        double tol = sizeof(T) == 8 ? 1e-10 : 1e-3;
        if (!(acc.residual <= tol)) {
          char buf[96];
          std::snprintf(buf, sizeof buf, "residual %.3e above %.0e", acc.residual, tol);
          fail(r, buf);
        }
      } catch (const Fatal&) {
        throw;
      } catch (const std::exception& e) {
        fail(r, e.what());
        (void)cudaGetLastError();  // clears a non-sticky error such as an allocation failure
        cudaError_t sticky = cudaDeviceSynchronize();
        if (sticky != cudaSuccess)
          throw Fatal(std::string("device unusable after ") + r.method + ": " +
                      cudaGetErrorString(sticky));
      }
      out.push_back(r);
      print_record(r);
    }
  }

 private:
  Record base(Method me, int m, int n) const {
    Record r;
    r.method = name(me);
    r.layout = interleaved(me) ? "interleaved" : "flat";
    r.m = m;
    r.n = n;
    return r;
  }

  static void fail(Record& r, const std::string& why) {
    r.status = "failed";
    r.reason = why;
    r.median_ms = r.min_ms = r.max_ms = r.grows = r.gbs = r.frac = NAN;
  }

  size_t workspace_bytes(Method me, int m, int n, T* const* p) {
    size_t b = 0;
    switch (me) {
      case Method::kStrided:
        CUSPARSE_CHECK(Sparse<T>::strided_size(h_, m, p[0], p[1], p[2], p[3], n, &b));
        break;
      case Method::kInterleaved0:
      case Method::kInterleaved1:
      case Method::kInterleaved2:
        CUSPARSE_CHECK(Sparse<T>::interleaved_size(h_, algo(me), m, p[0], p[1], p[2], p[3], n, &b));
        break;
      case Method::kReference:
        break;
    }
    return b;
  }

  static int algo(Method me) {
    return me == Method::kInterleaved0 ? 0 : me == Method::kInterleaved1 ? 1 : 2;
  }

  void solve(Method me, int m, int n, T* const* w, void* ws) {
    switch (me) {
      case Method::kStrided:
        CUSPARSE_CHECK(Sparse<T>::strided(h_, m, w[0], w[1], w[2], w[3], n, ws));
        break;
      case Method::kInterleaved0:
      case Method::kInterleaved1:
      case Method::kInterleaved2:
        CUSPARSE_CHECK(Sparse<T>::interleaved(h_, algo(me), m, w[0], w[1], w[2], w[3], n, ws));
        break;
      case Method::kReference:
        cu_thomas_batch<T><<<(n + kReferenceBlock - 1) / kReferenceBlock, kReferenceBlock>>>(
            w[0], w[1], w[2], w[3], m, n);
        CUDA_CHECK(cudaGetLastError());
        break;
    }
  }

  // Untimed: inputs back to pristine, then L2 overwritten so no run starts with hot inputs.
  void restore(T* const* p, T* const* w, size_t bytes) {
    for (int k = 0; k < 4; ++k)
      CUDA_CHECK(cudaMemcpyAsync(w[k], p[k], bytes, cudaMemcpyDeviceToDevice));
    if (flush_) CUDA_CHECK(cudaMemsetAsync(flush_, 0, flush_bytes_));
  }

  void measure(Method me, int m, int n, T* const* p, T* const* w, Record& r) {
    size_t count = static_cast<size_t>(m) * n, bytes = count * sizeof(T);
    r.workspace = workspace_bytes(me, m, n, p);
    if (8.0 * bytes + r.workspace + flush_bytes_ > o_.max_gb * 1e9)
      throw std::runtime_error("workspace of " + std::to_string(r.workspace) +
                               " B exceeds --max-gb");
    void* ws = nullptr;
    // cuSPARSE wants a 128-byte aligned buffer even when it asks for none; cudaMalloc gives 256.
    cudaError_t e = cudaMalloc(&ws, std::max<size_t>(r.workspace, 256));
    if (e != cudaSuccess)
      throw std::runtime_error("workspace allocation of " + std::to_string(r.workspace) +
                               " B failed: " + cudaGetErrorString(e));
    struct Free {
      void* p;
      ~Free() { cudaFree(p); }
    } guard{ws};

    Events ev;
    restore(p, w, bytes);
    solve(me, m, n, w, ws);  // warm-up
    CUDA_CHECK(cudaDeviceSynchronize());
    std::vector<double> t;
    for (int i = 0; i < o_.repeat; ++i) {
      restore(p, w, bytes);
      CUDA_CHECK(cudaEventRecord(ev.start));
      solve(me, m, n, w, ws);
      CUDA_CHECK(cudaEventRecord(ev.stop));
      CUDA_CHECK(cudaEventSynchronize(ev.stop));
      t.push_back(ev.ms());
    }
    std::sort(t.begin(), t.end());
    size_t k = t.size();
    r.median_ms = k % 2 ? t[k / 2] : 0.5 * (t[k / 2 - 1] + t[k / 2]);
    r.min_ms = t.front();
    r.max_ms = t.back();
    r.grows = count / (r.median_ms * 1e6);
    r.gbs = 5.0 * sizeof(T) * count / (r.median_ms * 1e6);
    r.frac = r.gbs / ctx_.copy_gbs;
  }

  const Options& o_;
  const Context& ctx_;
  cusparseHandle_t h_;
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
};

template <class T>
void run_all(const Options& o, Context& ctx, cusparseHandle_t h, size_t l2_bytes) {
  std::vector<Record> records;
  Bench<T> bench(o, ctx, h, l2_bytes);
  write_json(o.out, ctx, records);  // fail early on an unwritable path
  print_header();
  for (auto [m, n] : o.pairs) {
    bench.run_case(m, n, records);
    write_json(o.out, ctx, records);
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n%s", e.what(), kUsage);
    return 1;
  }

  int devices = 0;
  cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    int driver = 0;
    cudaDriverGetVersion(&driver);
    std::fprintf(stderr,
                 "error: no usable CUDA device (cudaGetDeviceCount: %s; driver version %d); "
                 "this benchmark must run on a GPU machine\n",
                 e != cudaSuccess ? cudaGetErrorString(e) : "0 devices", driver);
    return 2;
  }

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
    cusparseHandle_t h = nullptr;
    CUSPARSE_CHECK(cusparseCreate(&h));
    CUSPARSE_CHECK(cusparseGetVersion(h, &ctx.cusparse));
    ctx.type = o.f64 ? "f64" : "f32";
    ctx.bytes_per_row = 5 * (o.f64 ? 8 : 4);
    ctx.repeat = o.repeat;
    ctx.samples = o.samples;
    ctx.seed = o.seed;
    ctx.flush_l2 = o.flush_l2;
    ctx.timestamp = utc_now();
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    ctx.host = host;
    ctx.copy_gbs = copy_bandwidth_gbs();
    std::printf("# %s (cc %d.%d, %d SMs), driver %d, runtime %d, cuSPARSE %d, %s\n",
                ctx.device.c_str(), ctx.cc_major, ctx.cc_minor, ctx.sms, ctx.driver, ctx.runtime,
                ctx.cusparse, ctx.type.c_str());
    std::printf(
        "# device copy bandwidth %.1f GB/s (1 GiB D2D, read+write, best of 10); "
        "GB/s below: %d B/row model, median of %d runs, L2 %s\n",
        ctx.copy_gbs, ctx.bytes_per_row, o.repeat, o.flush_l2 ? "flushed" : "kept");
    if (o.f64)
      run_all<double>(o, ctx, h, ctx.l2_bytes);
    else
      run_all<float>(o, ctx, h, ctx.l2_bytes);
    CUSPARSE_CHECK(cusparseDestroy(h));
    std::printf("# wrote %s\n", o.out.c_str());
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "error: %s\n", ex.what());
    return 1;
  }
  return 0;
}
