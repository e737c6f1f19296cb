#include "runtime.hpp"

#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

namespace hinesbatch {
namespace python {

namespace {
std::set<Resource*>& resources() {
  static std::set<Resource*> live;  // the GIL serialises every access
  return live;
}
bool we_initialized = false, finalized = false;
std::thread::id kokkos_thread;  // the thread that initialised Kokkos (through this module)

// Kokkos' OpenMP backend before 4.0 keeps its instance in a thread-local variable: from any
// other thread it reads as uninitialised and refuses to run. Said plainly instead.
void check_thread() {
#if defined(KOKKOS_ENABLE_OPENMP) && KOKKOS_VERSION < 40000
  if (we_initialized && std::this_thread::get_id() != kokkos_thread)
    throw std::runtime_error(
        "hinesbatch: this build's Kokkos (OpenMP backend, Kokkos < 4.0) runs kernels only "
        "from the thread that initialized Kokkos (the first solve or run, or "
        "hinesbatch.initialize()); call hinesbatch from that thread");
#endif
}

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
  kokkos_thread = std::this_thread::get_id();
}
}  // namespace

Resource::Resource() { resources().insert(this); }
Resource::~Resource() { resources().erase(this); }

void ensure_initialized() {
  start_kokkos(-1, -1);
  check_thread();
}

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
