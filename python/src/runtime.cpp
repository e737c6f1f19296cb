#include "runtime.hpp"

#include <set>
#include <stdexcept>
#include <vector>

namespace hinesbatch {
namespace python {

namespace {
std::set<Resource*>& resources() {
  static std::set<Resource*> live;  // the GIL serialises every access
  return live;
}
bool we_initialized = false, finalized = false;

void start_kokkos(int num_threads, int device_id) {
  if (finalized)
    throw std::runtime_error(
        "hinesbatch: Kokkos was finalized (hinesbatch.finalize() or interpreter exit) and "
        "cannot be initialized again in this process");
  if (Kokkos::is_initialized()) return;  // somebody else (another module) started it
  // Command-line style settings: valid on every Kokkos from 3.4 on.
  std::vector<std::string> args{"hinesbatch"};
#if KOKKOS_VERSION >= 30700
  if (num_threads > 0) args.push_back("--kokkos-num-threads=" + std::to_string(num_threads));
  if (device_id >= 0) args.push_back("--kokkos-device-id=" + std::to_string(device_id));
#else
  if (num_threads > 0) args.push_back("--kokkos-threads=" + std::to_string(num_threads));
  if (device_id >= 0) args.push_back("--kokkos-device-id=" + std::to_string(device_id));
#endif
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  argv.push_back(nullptr);
  int argc = static_cast<int>(args.size());
  Kokkos::initialize(argc, argv.data());
  we_initialized = true;
}
}  // namespace

Resource::Resource() { resources().insert(this); }
Resource::~Resource() { resources().erase(this); }

void ensure_initialized() { start_kokkos(-1, -1); }

ExecutionSpace exec() {
  ensure_initialized();
  return ExecutionSpace();
}

void initialize(int num_threads, int device_id) {
  if (Kokkos::is_initialized())
    throw std::runtime_error(
        "hinesbatch.initialize: Kokkos is already initialized (the first solve or simulation "
        "initializes it with default settings); call initialize() before anything else");
  start_kokkos(num_threads, device_id);
}

void finalize() {
  // Copy: release() never erases, but be safe against a Resource dying meanwhile.
  const std::vector<Resource*> live(resources().begin(), resources().end());
  for (Resource* r : live) r->release();
  if (we_initialized && Kokkos::is_initialized()) {
    Kokkos::finalize();
    finalized = true;
  }
}

bool is_initialized() { return Kokkos::is_initialized(); }
bool is_finalized() { return finalized; }

}  // namespace python
}  // namespace hinesbatch
