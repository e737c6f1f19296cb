#pragma once
// numpy arrays handed to the solvers: checked (dtype, shape, writability, overlap) with
// ValueErrors that name the argument, then used in place when they are C-contiguous,
// aligned (and writeable where the solver writes); otherwise a contiguous copy is solved
// and written back. On a device backend the data are copied to device Views and back.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "runtime.hpp"

namespace hinesbatch {
namespace python {

enum class Dtype { Float64, Float32 };

inline py::module_ numpy() { return py::module_::import("numpy"); }
inline std::string text(py::handle h) { return py::str(h).cast<std::string>(); }

inline std::string shape_string(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t k = 0; k < a.ndim(); ++k) s += (k ? ", " : "") + std::to_string(a.shape(k));
  return s + (a.ndim() == 1 ? ",)" : ")");
}
inline std::string dtype_string(const py::array& a) { return text(a.dtype()); }

// The scalar type of the batch: the dtype of `arg` (the array the solution goes to).
inline Dtype solver_dtype(const char* name, py::handle arg) {
  if (!py::isinstance<py::array>(arg))
    throw py::value_error(std::string("argument '") + name + "' must be a numpy.ndarray, got " +
                          py::str(py::type::of(arg).attr("__name__")).cast<std::string>());
  const py::array a = py::reinterpret_borrow<py::array>(arg);
  if (a.dtype().is(py::dtype::of<double>())) return Dtype::Float64;
  if (a.dtype().is(py::dtype::of<float>())) return Dtype::Float32;
  const std::string dt = dtype_string(a);
  if (dt == "float64") return Dtype::Float64;
  if (dt == "float32") return Dtype::Float32;
  throw py::value_error(std::string("argument '") + name + "' has dtype " + dt +
                        "; the solvers take float64 or float32 arrays");
}

// The data pointers of the Views the last solve ran on, by argument name: tests compare
// them with the numpy arrays' to prove that nothing was copied (hinesbatch._last_views()).
std::vector<std::pair<std::string, std::uintptr_t>>& last_views();

// One argument, ready for the solver.
struct BoundArray {
  const char* name = "";
  py::array original;  // what the caller passed
  py::array work;      // C-contiguous, aligned, of the solver's dtype: original when possible
  bool output = false;
  bool copied() const { return !work.is(original); }
  void* data() const { return const_cast<void*>(work.data()); }
  // Copies a solved copy back into the caller's array.
  void write_back() const {
    if (output && copied()) numpy().attr("copyto")(original, work);
  }
};

template <class T>
BoundArray bind_array(const char* name, py::handle arg, bool output) {
  BoundArray b;
  b.name = name;
  b.output = output;
  if (!py::isinstance<py::array>(arg)) {
    if (output)
      throw py::value_error(std::string("argument '") + name +
                            "' must be a numpy.ndarray (it is overwritten in place), got " +
                            py::str(py::type::of(arg).attr("__name__")).cast<std::string>());
    b.original = numpy().attr("asarray")(arg, py::dtype::of<T>());
  } else {
    b.original = py::reinterpret_borrow<py::array>(arg);
  }
  if (!b.original.dtype().is(py::dtype::of<T>()) &&
      dtype_string(b.original) != dtype_string(py::array_t<T>(0)))
    throw py::value_error(std::string("argument '") + name + "' has dtype " +
                          dtype_string(b.original) + " but the batch is " +
                          dtype_string(py::array_t<T>(0)) +
                          " (set by the array that receives the solution): all arrays of one "
                          "call must have the same dtype");
  const int flags = b.original.flags();
  const bool contiguous = (flags & py::array::c_style) != 0;
  const bool aligned = (flags & 0x0100 /* NPY_ARRAY_ALIGNED */) != 0;
  const bool writeable = b.original.writeable();
  if (output && !writeable)
    throw py::value_error(std::string("argument '") + name +
                          "' is read-only; it is overwritten in place");
  if (contiguous && aligned)
    b.work = b.original;
  else
    b.work = numpy().attr("ascontiguousarray")(b.original);  // documented: copy in and out
  return b;
}

inline void require_shape(const BoundArray& b, const std::vector<py::ssize_t>& shape,
                          const std::string& expected_from) {
  bool ok = b.original.ndim() == static_cast<py::ssize_t>(shape.size());
  for (std::size_t k = 0; ok && k < shape.size(); ++k) ok = b.original.shape(k) == shape[k];
  if (ok) return;
  std::string want = "(";
  for (std::size_t k = 0; k < shape.size(); ++k) want += (k ? ", " : "") + std::to_string(shape[k]);
  want += shape.size() == 1 ? ",)" : ")";
  throw py::value_error(std::string("argument '") + b.name + "' has shape " +
                        shape_string(b.original) + ", expected " + want + " (" + expected_from +
                        ")");
}

// Arrays the solver writes must not overlap any other argument.
inline void require_no_overlap(const std::vector<BoundArray>& arrays) {
  auto may_share = numpy().attr("may_share_memory");
  for (std::size_t i = 0; i < arrays.size(); ++i)
    for (std::size_t j = 0; j < arrays.size(); ++j)
      if (i < j && (arrays[i].output || arrays[j].output) &&
          may_share(arrays[i].original, arrays[j].original).cast<bool>())
        throw py::value_error(std::string("arguments '") + arrays[i].name + "' and '" +
                              arrays[j].name +
                              "' share memory; the solver overwrites one of them, so they must "
                              "be distinct arrays");
}

// A Kokkos View of the solver's memory space on a bound array of Kokkos extents (n0, n1):
// the numpy memory itself on host backends, a device copy otherwise (see copy_back).
template <class View, class First>
View make_view(const First& first, std::size_t n0, std::size_t n1) {
  if constexpr (static_cast<int>(View::rank) == 1) {
    (void)n1;
    return View(first, n0);
  } else {
    return View(first, n0, n1);
  }
}

template <class View>
View device_view_of(const ExecutionSpace& space, const BoundArray& b, std::size_t n0,
                    std::size_t n1) {
  using T = typename View::non_const_value_type;
  using HostView = Kokkos::View<typename View::data_type, typename View::array_layout,
                                Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  T* p = static_cast<T*>(b.data());
  if constexpr (kHostAccessible) {
    (void)space;
    return make_view<View>(p, n0, n1);
  } else {
    View v = make_view<View>(
        Kokkos::view_alloc(Kokkos::WithoutInitializing, std::string("hinesbatch::") + b.name), n0,
        n1);
    Kokkos::deep_copy(space, v, make_view<HostView>(p, n0, n1));
    return v;
  }
}

template <class View>
View device_view(const ExecutionSpace& space, const BoundArray& b, std::size_t n0,
                 std::size_t n1 = 0) {
  View v = device_view_of<View>(space, b, n0, n1);
  last_views().emplace_back(b.name, reinterpret_cast<std::uintptr_t>(v.data()));
  return v;
}

// Device backends: the solved View back into the bound (host) array. Fences space.
template <class View>
void copy_back(const ExecutionSpace& space, const BoundArray& b, const View& v) {
  (void)b;
  (void)v;
  if constexpr (!kHostAccessible) {
    using T = typename View::non_const_value_type;
    using HostView = Kokkos::View<typename View::data_type, typename View::array_layout,
                                  Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    Kokkos::deep_copy(space,
                      make_view<HostView>(static_cast<T*>(b.data()), v.extent(0), v.extent(1)), v);
  }
  space.fence();
}

}  // namespace python
}  // namespace hinesbatch
