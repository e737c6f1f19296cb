// The C interface (hinesbatch_c.h): unmanaged Kokkos Views over the caller's pointers, the
// library's solvers, errors turned into return codes.
#include "hinesbatch_c.h"

#include <Kokkos_Core.hpp>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "hinesbatch/core/error.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/solvers/device_tree.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"

namespace {

using ExecutionSpace = Kokkos::DefaultExecutionSpace;
using MemorySpace = ExecutionSpace::memory_space;

bool we_initialized = false;
thread_local void* last[4] = {nullptr, nullptr, nullptr, nullptr};

void say(char* message, int size, const std::string& text) {
  if (message && size > 0)
    std::snprintf(message, static_cast<std::size_t>(size), "%s", text.c_str());
}

// Runs f, turning exceptions into the interface's return codes.
template <class F>
int guarded(long long* system, long long* node, char* message, int size, F&& f) {
  if (system) *system = -1;
  if (node) *node = -1;
  say(message, size, "");
  try {
    if (!Kokkos::is_initialized()) {
      say(message, size, "hinesbatch: call hb_initialize first");
      return 3;
    }
    Kokkos::fence();  // arrays written on another stream are complete
    f();
    Kokkos::fence();
    return 0;
  } catch (const hinesbatch::SolverError& e) {
    if (system) *system = e.system();
    if (node) *node = e.node();
    say(message, size, e.what());
    return 1;
  } catch (const hinesbatch::InputError& e) {
    say(message, size, e.what());
    return 2;
  } catch (const std::exception& e) {
    say(message, size, e.what());
    return 3;
  }
}

// d (or c) solved on a copy unless the caller lets the solver overwrite it.
template <class View>
View scratch_or_same(const View& v, bool overwrite) {
  if (overwrite) return v;
  typename View::non_const_type copy(
      Kokkos::view_alloc(Kokkos::WithoutInitializing, "hinesbatch::scratch"), v.extent(0),
      v.extent(1));
  Kokkos::deep_copy(copy, v);
  return copy;
}

template <class T, class Layout>
void hines(const int* parent, int n, int N, const T* u, const T* l, T* d, T* rhs, bool overwrite) {
  using Batch = hinesbatch::HinesBatch<T, Layout, MemorySpace>;
  using View = typename Batch::view_type;
  using Unmanaged = Kokkos::View<typename View::data_type, typename View::array_layout, MemorySpace,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const ExecutionSpace space;
  const hinesbatch::Tree tree(std::vector<int>(parent, parent + n));
  const hinesbatch::DeviceTree<MemorySpace> device_tree(space, tree);
  // (N, n) Views in both layouts (interleaved: LayoutLeft, node i of every system contiguous).
  const std::size_t n0 = N, n1 = n;
  // The batch's Views are managed types: copy-construct them from the unmanaged ones.
  View vu = Unmanaged(const_cast<T*>(u), n0, n1), vl = Unmanaged(const_cast<T*>(l), n0, n1);
  View vd = scratch_or_same<View>(Unmanaged(d, n0, n1), overwrite);
  View vr = Unmanaged(rhs, n0, n1);
  last[0] = vu.data();
  last[1] = vl.data();
  last[2] = vd.data();
  last[3] = vr.data();
  Batch batch(vu, vl, vd, vr);
  hinesbatch::solve(space, device_tree, batch, hinesbatch::HinesSchedule::Auto);
  space.fence();
  batch.check(space);
}

template <class T, class Layout>
void thomas(int N, int m, const T* a, const T* b, T* c, T* d, bool overwrite) {
  using View = Kokkos::View<T**, Layout, MemorySpace>;
  using Unmanaged = Kokkos::View<T**, Layout, MemorySpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const ExecutionSpace space;
  View A = Unmanaged(const_cast<T*>(a), N, m), B = Unmanaged(const_cast<T*>(b), N, m);
  View C = scratch_or_same<View>(Unmanaged(c, N, m), overwrite), D = Unmanaged(d, N, m);
  last[0] = A.data();
  last[1] = B.data();
  last[2] = C.data();
  last[3] = D.data();
  auto status = hinesbatch::make_thomas_status(space);
  hinesbatch::thomas_batch(space, A, B, C, D, status, hinesbatch::ThomasSchedule::Auto);
  space.fence();
  hinesbatch::check_thomas_status(space, status, m);
}

template <class T>
int solve_hines_c(const int* parent, int n, int N, int layout, const T* u, const T* l, T* d, T* rhs,
                  int overwrite_d, long long* system, long long* node, char* message, int size) {
  return guarded(system, node, message, size, [&] {
    if (!parent || n < 1 || N < 0 || (layout != 0 && layout != 1))
      throw hinesbatch::InputError(
          "hb_solve_hines: need a parent array, n >= 1, N >= 0 and "
          "layout 0 (flat) or 1 (interleaved)");
    if (layout == 0)
      hines<T, hinesbatch::layouts::Flat>(parent, n, N, u, l, d, rhs, overwrite_d != 0);
    else
      hines<T, hinesbatch::layouts::FullInterleaved>(parent, n, N, u, l, d, rhs, overwrite_d != 0);
  });
}

template <class T>
int thomas_c(int N, int m, int layout, const T* a, const T* b, T* c, T* d, int overwrite_c,
             long long* system, long long* node, char* message, int size) {
  return guarded(system, node, message, size, [&] {
    if (N < 0 || m < 1 || (layout != 0 && layout != 1))
      throw hinesbatch::InputError("hb_thomas_batch: need N >= 0, m >= 1 and layout 0 or 1");
    if (layout == 0)
      thomas<T, Kokkos::LayoutRight>(N, m, a, b, c, d, overwrite_c != 0);
    else
      thomas<T, Kokkos::LayoutLeft>(N, m, a, b, c, d, overwrite_c != 0);
  });
}

}  // namespace

extern "C" {

int hb_initialize(char* message, int message_size) {
  try {
    if (!Kokkos::is_initialized()) {
      Kokkos::initialize();
      we_initialized = true;
    }
    return 0;
  } catch (const std::exception& e) {
    say(message, message_size, e.what());
    return 3;
  }
}

void hb_finalize(void) {
  if (we_initialized && Kokkos::is_initialized()) Kokkos::finalize();
  we_initialized = false;
}

const char* hb_backend(void) { return ExecutionSpace::name(); }

int hb_memory_is_host(void) {
  return Kokkos::SpaceAccessibility<Kokkos::HostSpace, MemorySpace>::accessible ? 1 : 0;
}

const char* hb_version(void) { return HINESBATCH_VERSION; }

int hb_solve_hines_f64(const int* parent, int n, int N, int layout, const double* u,
                       const double* l, double* d, double* rhs, int overwrite_d, long long* system,
                       long long* node, char* message, int message_size) {
  return solve_hines_c(parent, n, N, layout, u, l, d, rhs, overwrite_d, system, node, message,
                       message_size);
}
int hb_solve_hines_f32(const int* parent, int n, int N, int layout, const float* u, const float* l,
                       float* d, float* rhs, int overwrite_d, long long* system, long long* node,
                       char* message, int message_size) {
  return solve_hines_c(parent, n, N, layout, u, l, d, rhs, overwrite_d, system, node, message,
                       message_size);
}
int hb_thomas_batch_f64(int N, int m, int layout, const double* a, const double* b, double* c,
                        double* d, int overwrite_c, long long* system, long long* node,
                        char* message, int message_size) {
  return thomas_c(N, m, layout, a, b, c, d, overwrite_c, system, node, message, message_size);
}
int hb_thomas_batch_f32(int N, int m, int layout, const float* a, const float* b, float* c,
                        float* d, int overwrite_c, long long* system, long long* node,
                        char* message, int message_size) {
  return thomas_c(N, m, layout, a, b, c, d, overwrite_c, system, node, message, message_size);
}

void hb_last_pointers(void* out[4]) {
  for (int k = 0; k < 4; ++k) out[k] = last[k];
}

}  // extern "C"
