// The solvers on numpy arrays: mono-morphology Hines batches (Flat and Full-Interleaved),
// ThomasBatch and ThomasVBatch, and multi-morphology batches (PackedMultiBatch).
#include <memory>

#include "arrays.hpp"
#include "hinesbatch/layouts/hines_batch.hpp"
#include "hinesbatch/layouts/packed_multi_batch.hpp"
#include "hinesbatch/solvers/device_tree.hpp"
#include "hinesbatch/solvers/hines_batch_solve.hpp"
#include "hinesbatch/solvers/multi_morphology_solve.hpp"
#include "hinesbatch/solvers/thomas_batch.hpp"

namespace hinesbatch {
namespace python {

std::vector<std::pair<std::string, std::uintptr_t>>& last_views() {
  thread_local std::vector<std::pair<std::string, std::uintptr_t>> views;
  return views;
}

namespace {

// A 1-D array of integers (parent array, sizes) as a std::vector<int>.
std::vector<int> int_vector(const char* name, py::handle arg) {
  py::array a = numpy().attr("asarray")(arg);
  const char kind = a.dtype().kind();
  if (a.ndim() != 1 || (kind != 'i' && kind != 'u' && !(a.size() == 0)))
    throw py::value_error(std::string("argument '") + name +
                          "' must be a 1-D sequence of integers, got shape " + shape_string(a) +
                          " and dtype " + dtype_string(a));
  py::array_t<long long, py::array::c_style | py::array::forcecast> v(a);
  std::vector<int> out(static_cast<std::size_t>(v.size()));
  for (py::ssize_t k = 0; k < v.size(); ++k) {
    const long long x = v.at(k);
    if (x < INT_MIN || x > INT_MAX)
      throw py::value_error(std::string("argument '") + name + "' element " + std::to_string(k) +
                            " = " + std::to_string(x) + " does not fit an int");
    out[static_cast<std::size_t>(k)] = static_cast<int>(x);
  }
  return out;
}

Tree tree_of(const char* name, py::handle arg) {
  py::object parent = py::reinterpret_borrow<py::object>(arg);
  if (py::hasattr(arg, "parent") && !py::isinstance<py::array>(arg) &&
      !py::isinstance<py::list>(arg) && !py::isinstance<py::tuple>(arg))
    parent = arg.attr("parent");  // a Morphology (read_swc) or anything with .parent
  return Tree(int_vector(name, parent));
}

enum class BatchLayout { Flat, Interleaved };
BatchLayout batch_layout(const std::string& s) {
  if (s == "flat") return BatchLayout::Flat;
  if (s == "interleaved" || s == "full_interleaved") return BatchLayout::Interleaved;
  throw py::value_error(
      "layout must be 'flat' (arrays (N, n), C order) or 'interleaved' "
      "(arrays (n, N): node i of every system contiguous), got '" +
      s + "'");
}
// The schedules' short names (to_string gives the long ones).
HinesSchedule hines_schedule(const std::string& s) {
  HinesSchedule schedule{};
  if (from_string(s, schedule)) return schedule;
  throw py::value_error(
      "schedule must be 'auto', 'per_system', 'team', 'warp', 'on_chip', 'block' or "
      "'simd_tiles', got '" +
      s + "'");
}
ThomasSchedule thomas_schedule(const std::string& s) {
  ThomasSchedule schedule{};
  if (from_string(s, schedule)) return schedule;
  throw py::value_error(
      "schedule must be 'auto', 'per_system', 'team', 'warp', 'on_chip', 'team_in_memory', "
      "'simd_tiles' or 'team_two_pass', got '" +
      s + "'");
}

// Checks the four arrays of an (N, n) / (n, N) batch; returns (N, n).
template <class T>
std::pair<int, int> bind_batch(std::vector<BoundArray>& arrays, const char* const names[4],
                               const py::handle args[4], const bool output[4],
                               const bool scratch[4], BatchLayout layout, int tree_nodes,
                               const char* what) {
  for (int k = 0; k < 4; ++k)
    arrays.push_back(bind_array<T>(names[k], args[k], output[k], scratch[k]));
  const BoundArray& ref = arrays[3];
  if (ref.original.ndim() != 2)
    throw py::value_error(std::string("argument '") + ref.name + "' must be 2-D, got shape " +
                          shape_string(ref.original));
  const bool flat = layout == BatchLayout::Flat;
  const py::ssize_t systems = ref.original.shape(flat ? 0 : 1);
  const py::ssize_t nodes = tree_nodes >= 0 ? tree_nodes : ref.original.shape(flat ? 1 : 0);
  const std::string from =
      std::string(flat ? "(N, n)" : "(n, N)") + " for the '" + (flat ? "flat" : "interleaved") +
      "' layout, N = " + std::to_string(systems) + " systems of n = " + std::to_string(nodes) +
      " " + what + (tree_nodes >= 0 ? " (the tree's size)" : "");
  const std::vector<py::ssize_t> shape =
      flat ? std::vector<py::ssize_t>{systems, nodes} : std::vector<py::ssize_t>{nodes, systems};
  for (const auto& a : arrays) require_shape(a, shape, from);
  require_no_overlap(arrays);
  if (systems > INT_MAX || nodes > INT_MAX)
    throw py::value_error(std::string("a batch of ") + std::to_string(systems) + " systems of " +
                          std::to_string(nodes) + " is larger than the solvers index (INT_MAX)");
  return {static_cast<int>(systems), static_cast<int>(nodes)};
}

void write_back(const std::vector<BoundArray>& arrays) {
  for (const auto& a : arrays) a.write_back();
}

// --- mono-morphology Hines batch -------------------------------------------------------
template <class T, class Layout>
void solve_hines_typed(const Tree& tree, const std::vector<BoundArray>& a, int N, int n,
                       HinesSchedule schedule) {
  using Batch = HinesBatch<T, Layout, MemorySpace>;
  using View = typename Batch::view_type;
  const ExecutionSpace space = exec();
  last_views().clear();
  Batch batch;
  {
    py::gil_scoped_release unlocked;
    const DeviceTree<MemorySpace> device_tree(space, tree);
    batch = Batch(device_view<View>(space, a[0], N, n), device_view<View>(space, a[1], N, n),
                  device_view<View>(space, a[2], N, n), device_view<View>(space, a[3], N, n));
    solve(space, device_tree, batch, schedule);
    copy_back(space, a[2], batch.d());
    copy_back(space, a[3], batch.rhs());
  }
  write_back(a);
  batch.check(space);  // SolverError -> hinesbatch.SolveError(system, node)
}

// Binds the four arrays as T (bind_batch) and solves them in the layout they are in.
template <class T>
void bind_and_solve_hines(const Tree& tree, std::vector<BoundArray>& arrays,
                          const char* const names[4], const py::handle args[4],
                          const bool output[4], const bool scratch[4], BatchLayout layout,
                          HinesSchedule schedule) {
  const auto [N, n] =
      bind_batch<T>(arrays, names, args, output, scratch, layout, tree.size(), "nodes");
  if (layout == BatchLayout::Flat)
    solve_hines_typed<T, layouts::Flat>(tree, arrays, N, n, schedule);
  else
    solve_hines_typed<T, layouts::FullInterleaved>(tree, arrays, N, n, schedule);
}

py::object solve_hines(py::handle parent, py::handle u_arg, py::handle l_arg, py::handle d_arg,
                       py::handle rhs_arg, const std::string& layout_name,
                       const std::string& schedule_name, bool overwrite_d) {
  const BatchLayout layout = batch_layout(layout_name);
  const HinesSchedule schedule = hines_schedule(schedule_name);
  const Tree tree = tree_of("parent", parent);
  const py::object u = as_array("u", u_arg), l = as_array("l", l_arg), d = as_array("d", d_arg),
                   rhs = as_array("rhs", rhs_arg);
  const char* const names[4] = {"u", "l", "d", "rhs"};
  const py::handle args[4] = {u, l, d, rhs};
  // Whether d is written depends on the schedule: unless the caller allows it, the solve
  // runs on a copy of d, so that d is left as it was under every schedule.
  const bool output[4] = {false, false, overwrite_d, true};
  const bool scratch[4] = {false, false, !overwrite_d, false};
  std::vector<BoundArray> arrays;
  if (solver_dtype("rhs", rhs) == Dtype::Float64)
    bind_and_solve_hines<double>(tree, arrays, names, args, output, scratch, layout, schedule);
  else
    bind_and_solve_hines<float>(tree, arrays, names, args, output, scratch, layout, schedule);
  return py::reinterpret_borrow<py::object>(rhs_arg);
}

// --- ThomasBatch / ThomasVBatch ----------------------------------------------------------
template <class T, class KokkosLayout>
void thomas_typed(const std::vector<BoundArray>& a, int N, int m, ThomasSchedule schedule,
                  const std::vector<int>* sizes, bool computing_padding) {
  using View = Kokkos::View<T**, KokkosLayout, MemorySpace>;
  const ExecutionSpace space = exec();
  last_views().clear();
  auto status = make_thomas_status(space);
  {
    py::gil_scoped_release unlocked;
    View A = device_view<View>(space, a[0], N, m), B = device_view<View>(space, a[1], N, m),
         C = device_view<View>(space, a[2], N, m), D = device_view<View>(space, a[3], N, m);
    if (!sizes) {
      thomas_batch(space, A, B, C, D, status, schedule);
    } else {
      Kokkos::View<int*, MemorySpace> s(
          Kokkos::view_alloc(Kokkos::WithoutInitializing, "hinesbatch::sizes"), sizes->size());
      Kokkos::deep_copy(
          space, s,
          Kokkos::View<const int*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>(
              sizes->data(), sizes->size()));
      if (computing_padding) {
        pad_vbatch(space, A, B, C, D, s);
        thomas_vbatch_computing_padding(space, A, B, C, D, s, status, schedule);
        copy_back(space, a[0], A);
        copy_back(space, a[1], B);
      } else {
        thomas_vbatch_no_computing_padding(space, A, B, C, D, s, status, schedule);
      }
      space.fence();  // s is freed on leaving this scope
    }
    copy_back(space, a[2], C);
    copy_back(space, a[3], D);
  }
  write_back(a);
  check_thomas_status(space, status, m);  // SolverError -> SolveError(system, node = row)
}

py::object thomas(py::handle a_arg, py::handle b_arg, py::handle c_arg, py::handle d_arg,
                  py::object sizes_arg, const std::string& layout_name,
                  const std::string& schedule_name, bool computing_padding, bool overwrite_c) {
  const BatchLayout layout = batch_layout(layout_name);
  const ThomasSchedule schedule = thomas_schedule(schedule_name);
  const py::object a_ = as_array("a", a_arg), b_ = as_array("b", b_arg), c_ = as_array("c", c_arg),
                   d_ = as_array("d", d_arg);
  const char* const names[4] = {"a", "b", "c", "d"};
  const py::handle args[4] = {a_, b_, c_, d_};
  // a and b are only read, except that ThomasVBatch with computing padding writes their
  // padding rows (pad_vbatch). Whether c is written depends on the schedule: unless the
  // caller allows it (or asks for computing padding, which writes its padding rows), the
  // solve runs on a copy of c.
  const bool vbatch = !sizes_arg.is_none();
  const bool padding = vbatch && computing_padding;
  const bool c_written = overwrite_c || padding;
  const bool output[4] = {padding, padding, c_written, true};
  const bool scratch[4] = {false, false, !c_written, false};
  std::vector<BoundArray> arrays;
  const bool f64 = solver_dtype("d", d_) == Dtype::Float64;
  const auto [N, m] =
      f64 ? bind_batch<double>(arrays, names, args, output, scratch, layout, -1, "rows")
          : bind_batch<float>(arrays, names, args, output, scratch, layout, -1, "rows");
  std::vector<int> sizes;
  if (vbatch) {
    sizes = int_vector("sizes", sizes_arg);
    if (static_cast<long long>(sizes.size()) != N)
      throw py::value_error("argument 'sizes' has " + std::to_string(sizes.size()) +
                            " entries, the arrays hold N = " + std::to_string(N) + " systems");
  }
  const std::vector<int>* s = vbatch ? &sizes : nullptr;
  if (f64) {
    if (layout == BatchLayout::Flat)
      thomas_typed<double, Kokkos::LayoutRight>(arrays, N, m, schedule, s, computing_padding);
    else
      thomas_typed<double, Kokkos::LayoutLeft>(arrays, N, m, schedule, s, computing_padding);
  } else {
    if (layout == BatchLayout::Flat)
      thomas_typed<float, Kokkos::LayoutRight>(arrays, N, m, schedule, s, computing_padding);
    else
      thomas_typed<float, Kokkos::LayoutLeft>(arrays, N, m, schedule, s, computing_padding);
  }
  return py::reinterpret_borrow<py::object>(d_arg);
}

// --- multi-morphology batch ----------------------------------------------------------------
// Cells packed back to back (PackedMultiBatch, its Auto schedule, one plan per distinct
// tree). The batch's Views are its own (planned once, solved many times): arrays are
// copied in and the solution copied out.
class MultiBatch : public Resource {
 public:
  MultiBatch(const py::iterable& parents, const py::object& dtype) {
    int k = 0;
    for (py::handle p : parents) {
      const std::string name = "parents[" + std::to_string(k++) + "]";
      cells_.push_back(tree_of(name.c_str(), p));
    }
    const py::dtype dt = py::dtype::from_args(dtype);
    f64_ = dt.is(py::dtype::of<double>()) || text(dt) == "float64";
    if (!f64_ && !(dt.is(py::dtype::of<float>()) || text(dt) == "float32"))
      throw py::value_error("dtype must be float64 or float32, got " + text(dt));
    offsets_.push_back(0);
    for (const Tree& t : cells_) offsets_.push_back(offsets_.back() + t.size());
    const ExecutionSpace space = exec();
    py::gil_scoped_release unlocked;
    if (f64_)
      b64_ = std::make_unique<PackedMultiBatch<double, MemorySpace>>(space, cells_);
    else
      b32_ = std::make_unique<PackedMultiBatch<float, MemorySpace>>(space, cells_);
  }
  void release() override {
    b64_.reset();
    b32_.reset();
  }
  int num_cells() const { return static_cast<int>(cells_.size()); }
  long long num_nodes() const { return offsets_.back(); }
  py::array_t<long long> offsets() const {
    return py::array_t<long long>(static_cast<py::ssize_t>(offsets_.size()), offsets_.data());
  }
  py::object dtype() const { return f64_ ? py::dtype::of<double>() : py::dtype::of<float>(); }

  py::object solve(py::handle u, py::handle l, py::handle d, py::handle rhs) {
    if (!b64_ && !b32_)
      throw std::runtime_error("hinesbatch.MultiBatch: Kokkos was finalized; batch released");
    const py::object ua = as_array("u", u), la = as_array("l", l), da = as_array("d", d),
                     ra = as_array("rhs", rhs);
    if (f64_)
      solve_typed<double>(*b64_, ua, la, da, ra);
    else
      solve_typed<float>(*b32_, ua, la, da, ra);
    return py::reinterpret_borrow<py::object>(rhs);
  }

 private:
  template <class T>
  void solve_typed(const PackedMultiBatch<T, MemorySpace>& batch, py::handle u, py::handle l,
                   py::handle d, py::handle rhs) {
    const char* names[4] = {"u", "l", "d", "rhs"};
    const py::handle args[4] = {u, l, d, rhs};
    std::vector<BoundArray> a;
    if (solver_dtype("rhs", rhs) != (f64_ ? Dtype::Float64 : Dtype::Float32))
      throw py::value_error("argument 'rhs' has dtype " +
                            dtype_string(py::reinterpret_borrow<py::array>(rhs)) +
                            ", the batch was made for " + text(dtype()));
    for (int k = 0; k < 4; ++k) a.push_back(bind_array<T>(names[k], args[k], k == 3));
    const std::string from = "the " + std::to_string(num_cells()) +
                             " cells' nodes back to back, cell c at offsets[c]:offsets[c+1]";
    for (const auto& b : a) require_shape(b, {static_cast<py::ssize_t>(num_nodes())}, from);
    require_no_overlap(a);
    using HostView = Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
    const ExecutionSpace space = exec();
    const std::size_t n = static_cast<std::size_t>(num_nodes());
    {
      py::gil_scoped_release unlocked;
      Kokkos::deep_copy(space, batch.u(), HostView(static_cast<T*>(a[0].data()), n));
      Kokkos::deep_copy(space, batch.l(), HostView(static_cast<T*>(a[1].data()), n));
      Kokkos::deep_copy(space, batch.d(), HostView(static_cast<T*>(a[2].data()), n));
      Kokkos::deep_copy(space, batch.rhs(), HostView(static_cast<T*>(a[3].data()), n));
      hinesbatch::solve(space, batch);
      Kokkos::deep_copy(space, HostView(static_cast<T*>(a[3].data()), n), batch.rhs());
      space.fence();
    }
    write_back(a);
    batch.check(space);  // SolveError(system = cell, node)
  }

  std::vector<Tree> cells_;
  std::vector<long long> offsets_;
  bool f64_ = true;
  std::unique_ptr<PackedMultiBatch<double, MemorySpace>> b64_;
  std::unique_ptr<PackedMultiBatch<float, MemorySpace>> b32_;
};

}  // namespace

void bind_solvers(py::module_& m) {
  m.def(
      "_last_views",
      []() {
        py::dict d;
        for (const auto& v : last_views()) d[py::str(v.first)] = v.second;
        return d;
      },
      "Diagnostics: {argument: data address of the Kokkos View the last solve_hines / "
      "thomas_* call of this thread ran on}; equal to the array's address when solved in "
      "place. Per thread, so that threads solving at once do not mix.");
  m.def("solve_hines", &solve_hines, py::arg("parent"), py::arg("u"), py::arg("l"), py::arg("d"),
        py::arg("rhs"), py::arg("layout") = "flat", py::arg("schedule") = "auto",
        py::arg("overwrite_d") = false,
        R"doc(Solve a batch of N Hines systems that share one tree, in place.

parent: the tree in Hines numbering (parent[0] = -1, parent[i] < i), a 1-D integer
sequence or a Morphology. u, l, d, rhs: float64 or float32 arrays, (N, n) for
layout='flat', (n, N) for layout='interleaved' (Full-Interleaved: node i of all systems
contiguous). A[parent[i]][i] = u[i], A[i][parent[i]] = l[i], A[i][i] = d[i].
On return rhs holds the solution; u, l and d are as they were, under every schedule (d is
solved on a copy). overwrite_d=True lets the solver use d as scratch (no copy; d's content
afterwards is unspecified). C-contiguous arrays are solved in place (no copy); other numpy
arrays are copied and written back; arrays of other libraries come through DLPack (host
memory, C-contiguous, else ValueError). Returns rhs.
Raises SolveError(system, node) for a zero or non-finite pivot or a non-finite solution,
ValueError for bad shapes or dtypes, InputError for a parent array not in Hines order.)doc");
  m.def(
      "thomas_batch",
      [](py::handle a, py::handle b, py::handle c, py::handle d, const std::string& layout,
         const std::string& schedule, bool overwrite_c) {
        return thomas(a, b, c, d, py::none(), layout, schedule, false, overwrite_c);
      },
      py::arg("a"), py::arg("b"), py::arg("c"), py::arg("d"), py::arg("layout") = "flat",
      py::arg("schedule") = "auto", py::arg("overwrite_c") = false,
      R"doc(ThomasBatch: solve N tridiagonal systems of m rows in place.

Row i: a[i] x[i-1] + b[i] x[i] + c[i] x[i+1] = d[i] (a[0], c[m-1] ignored). Arrays (N, m)
for layout='flat', (m, N) for 'interleaved'. d <- x; a, b and c are as they were under
every schedule (c is solved on a copy; overwrite_c=True lets the solver use c as scratch,
its content afterwards unspecified). Returns d. SolveError(system, node = row) on failure.)doc");
  m.def(
      "thomas_vbatch",
      [](py::handle a, py::handle b, py::handle c, py::handle d, py::object sizes,
         const std::string& layout, bool computing_padding, const std::string& schedule,
         bool overwrite_c) {
        if (sizes.is_none()) throw py::value_error("argument 'sizes' is required");
        return thomas(a, b, c, d, sizes, layout, schedule, computing_padding, overwrite_c);
      },
      py::arg("a"), py::arg("b"), py::arg("c"), py::arg("d"), py::arg("sizes"),
      py::arg("layout") = "flat", py::arg("computing_padding") = false,
      py::arg("schedule") = "auto", py::arg("overwrite_c") = false,
      R"doc(ThomasVBatch: N tridiagonal systems of sizes[s] <= m_max rows, padded to m_max.

Arrays (N, m_max) ('flat') or (m_max, N) ('interleaved'). computing_padding=False: each
system stops at its size (padding rows untouched). True: the ThomasBatch paper's Computing Padding; the padding
rows of a, b, c, d are first set to identity rows (written in place) and solved as well
(c is then written too). Otherwise a, b and c are as they were (overwrite_c as in
thomas_batch).
A size outside [1, m_max] raises InputError naming the system. Returns d.)doc");

  py::class_<MultiBatch>(m, "MultiBatch", R"doc(A multi-morphology batch: every cell its own tree.

MultiBatch(parents, dtype=numpy.float64): parents is a list of parent arrays (Hines order)
or Morphology objects. Planned once (cells sharing a tree share a plan); solve() copies the
arrays in, solves with a team per cell, and copies the solution into rhs.)doc")
      .def(py::init<const py::iterable&, const py::object&>(), py::arg("parents"),
           py::arg("dtype") = py::dtype::of<double>())
      .def_property_readonly("num_cells", &MultiBatch::num_cells)
      .def_property_readonly("num_nodes", &MultiBatch::num_nodes)
      .def_property_readonly("offsets", &MultiBatch::offsets,
                             "cell c's nodes are [offsets[c], offsets[c+1]) of every array")
      .def_property_readonly("dtype", &MultiBatch::dtype)
      .def("solve", &MultiBatch::solve, py::arg("u"), py::arg("l"), py::arg("d"), py::arg("rhs"),
           "1-D arrays of num_nodes (cells back to back); rhs <- solution, u, l, d only read. "
           "Returns rhs. SolveError(system = cell, node) on failure.");
}

}  // namespace python
}  // namespace hinesbatch
