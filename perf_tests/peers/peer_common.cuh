#pragma once
// What the standalone peer programs (cusparse_tridiagonal.cu, hines_peers.cu) share:
// CUDA error checks, device arrays and event timing, the copy-bandwidth probe, sample
// selection, and the JSON/text helpers of their output. Header-only, CUDA 13.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace peers {

std::string where(const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": ";
}

#define CUDA_CHECK(call)                                                                         \
  do {                                                                                           \
    cudaError_t e_ = (call);                                                                     \
    if (e_ != cudaSuccess)                                                                       \
      throw std::runtime_error(where(__FILE__, __LINE__) + #call + ": " + cudaGetErrorName(e_) + \
                               " (" + cudaGetErrorString(e_) + ")");                             \
  } while (0)

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

// The systems checked on the host: spread over the batch, first and last included.
std::vector<int> sample_ids(int n, int k) {
  std::vector<int> ids;
  if (n <= k) {
    for (int s = 0; s < n; ++s) ids.push_back(s);
  } else {
    for (int j = 0; j < k; ++j)
      ids.push_back(static_cast<int>(static_cast<long long>(j) * (n - 1) / (k - 1)));
  }
  return ids;
}

template <class T>
struct DeviceArray {
  T* p = nullptr;
  explicit DeviceArray(size_t count) {
    CUDA_CHECK(cudaMalloc(&p, std::max<size_t>(count, 1) * sizeof(T)));
  }
  ~DeviceArray() { cudaFree(p); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
};

struct Events {
  cudaEvent_t start, stop;
  Events() {
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
  }
  ~Events() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  float ms() const {
    float t = 0;
    CUDA_CHECK(cudaEventElapsedTime(&t, start, stop));
    return t;
  }
};

double copy_bandwidth_gbs() {
  const size_t bytes = size_t(1) << 30;
  DeviceArray<char> src(bytes), dst(bytes);
  CUDA_CHECK(cudaMemset(src.p, 1, bytes));
  CUDA_CHECK(cudaMemcpy(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice));
  Events ev;
  float best = std::numeric_limits<float>::max();
  for (int i = 0; i < 10; ++i) {
    CUDA_CHECK(cudaEventRecord(ev.start));
    CUDA_CHECK(cudaMemcpyAsync(dst.p, src.p, bytes, cudaMemcpyDeviceToDevice));
    CUDA_CHECK(cudaEventRecord(ev.stop));
    CUDA_CHECK(cudaEventSynchronize(ev.stop));
    best = std::min(best, ev.ms());
  }
  return 2.0 * bytes / (best * 1e6);
}

std::string jstr(const std::string& s) {
  std::string o = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') {
      o += '\\';
      o += ch;
    } else if (static_cast<unsigned char>(ch) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", ch);
      o += buf;
    } else {
      o += ch;
    }
  }
  return o + "\"";
}

std::string jnum(double v) {
  if (!std::isfinite(v)) return "null";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return buf;
}

}  // namespace peers
