#pragma once
// Arrays handed to the solvers: checked (dtype, shape, writability, overlap) with
// ValueErrors that name the argument, then used in place when they are C-contiguous,
// aligned (and writeable where the solver writes); otherwise a contiguous copy of a numpy
// array is solved and written back. Arrays of other libraries come through DLPack
// (__dlpack__): host memory is used in place, or refused when that would need a copy.
// On a device backend the data are copied to device Views and back.
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

// The data pointers of the Views the last solve of the calling thread ran on, by argument
// name: tests compare them with the arrays' to prove that nothing was copied
// (hinesbatch._last_views()). Per thread: solves release the GIL, so two Python threads may
// solve at once, and each sees its own.
std::vector<std::pair<std::string, std::uintptr_t>>& last_views();

// --- DLPack (the ABI of dlpack.h, stable since v0.2): only what the import reads ---------
namespace dlpack {
enum DeviceType : std::int32_t { kCPU = 1, kCUDA = 2, kCUDAHost = 3, kROCM = 10 };
struct Device {
  std::int32_t device_type, device_id;
};
struct DataType {
  std::uint8_t code, bits;
  std::uint16_t lanes;
};
constexpr std::uint8_t kFloat = 2;
struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null: C-contiguous
  std::uint64_t byte_offset;
};
struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor*);
};
}  // namespace dlpack

inline const char* device_name(std::int32_t type) {
  switch (type) {
    case dlpack::kCUDA:
      return "a CUDA GPU";
    case dlpack::kROCM:
      return "a ROCm GPU";
    default:
      return "a device other than the host";
  }
}

// A numpy array over the memory of `arg`, an object of another library with __dlpack__
// (PyTorch, CuPy, JAX, ...): no copy, writeable, keeping the producer's tensor alive. Host
// memory only in this build; anything that could not be solved in place is refused.
inline py::array from_dlpack(const char* name, py::handle arg) {
  const std::string who = std::string("argument '") + name + "' (" +
                          py::str(py::type::of(arg).attr("__name__")).cast<std::string>() +
                          ", through DLPack)";
  if (py::hasattr(arg, "__dlpack_device__")) {
    const py::tuple dev = arg.attr("__dlpack_device__")();
    const int type = dev[0].cast<int>();
    if (type != dlpack::kCPU && type != dlpack::kCUDAHost)
      throw py::value_error(who + " lives on " + device_name(type) + " (device " +
                            py::str(dev[1]).cast<std::string>() +
                            "); this build of hinesbatch solves in host memory: copy it to the "
                            "host first (e.g. .cpu() or cupy.asnumpy), or use a CUDA build");
  }
  py::capsule capsule = arg.attr("__dlpack__")();
  auto* managed =
      static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), "dltensor"));
  if (!managed) throw py::error_already_set();
  const dlpack::Tensor& t = managed->dl_tensor;
  // Ours from here: the producer's capsule must no longer call the deleter.
  PyCapsule_SetName(capsule.ptr(), "used_dltensor");
  py::capsule owner(managed, [](void* p) {
    auto* m = static_cast<dlpack::ManagedTensor*>(p);
    if (m->deleter) m->deleter(m);
  });
  if (t.device.device_type != dlpack::kCPU && t.device.device_type != dlpack::kCUDAHost)
    throw py::value_error(who + " lives on " + device_name(t.device.device_type) +
                          "; this build of hinesbatch solves in host memory");
  if (t.dtype.code != dlpack::kFloat || t.dtype.lanes != 1 ||
      (t.dtype.bits != 64 && t.dtype.bits != 32))
    throw py::value_error(who + " has DLPack dtype code " + std::to_string(t.dtype.code) + ", " +
                          std::to_string(t.dtype.bits) +
                          " bits; the solvers take float64 or float32");
  const py::ssize_t item = t.dtype.bits / 8;
  std::vector<py::ssize_t> shape(t.ndim), strides(t.ndim);
  py::ssize_t expected = item;
  bool contiguous = true;
  for (int k = t.ndim - 1; k >= 0; --k) {
    shape[k] = static_cast<py::ssize_t>(t.shape[k]);
    strides[k] = t.strides ? static_cast<py::ssize_t>(t.strides[k]) * item : expected;
    contiguous = contiguous && (shape[k] == 1 || strides[k] == expected);
    expected *= shape[k];
  }
  if (!contiguous)
    throw py::value_error(who +
                          " is not C-contiguous: it cannot be solved in place without a "
                          "copy (make it contiguous first, e.g. .contiguous() or "
                          "numpy.ascontiguousarray)");
  char* data = static_cast<char*>(t.data) + t.byte_offset;
  const py::dtype dt = t.dtype.bits == 64 ? py::dtype::of<double>() : py::dtype::of<float>();
  return py::array(dt, shape, strides, data, owner);
}

// The argument as a numpy array when it is one or has __dlpack__; otherwise as given
// (lists and tuples of inputs are converted by bind_array).
inline py::object as_array(const char* name, py::handle arg) {
  if (py::isinstance<py::array>(arg)) return py::reinterpret_borrow<py::object>(arg);
  if (py::hasattr(arg, "__dlpack__")) return from_dlpack(name, arg);
  return py::reinterpret_borrow<py::object>(arg);
}

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
    if (output && copied()) numpy().attr("copyto")(original, work);  // never a scratch copy
  }
};

// scratch: the solver may overwrite it but the caller's array must stay as it is (a copy).
template <class T>
BoundArray bind_array(const char* name, py::handle arg, bool output, bool scratch = false) {
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
                          "' is read-only; it is overwritten in place (numpy.from_dlpack gives "
                          "read-only arrays: pass the other library's array itself, which is "
                          "imported through DLPack writeable)");
  if (scratch)
    b.work = numpy().attr("array")(b.original, py::arg("order") = "C");  // always a copy
  else if (contiguous && aligned)
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
