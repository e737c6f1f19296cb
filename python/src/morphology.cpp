// Morphologies: SWC files read by the library's reader, and their sections as NEURON's
// Import3d builds them (morphology/sections.hpp).
#include <pybind11/stl.h>

#include <sstream>

#include "hinesbatch/morphology/sections.hpp"
#include "hinesbatch/morphology/swc.hpp"
#include "runtime.hpp"

namespace hinesbatch {
namespace python {

namespace {

// NEURON's section names (Import3d_GUI.instantiate): soma, axon, dend, apic, dend_<type>
// for other positive types, minus_<-type> for negative ones.
std::string type_name(int swc_type) {
  switch (swc_type) {
    case 1:
      return "soma";
    case 2:
      return "axon";
    case 3:
      return "dend";
    case 4:
      return "apic";
    default:
      return swc_type < 0 ? "minus_" + std::to_string(-swc_type)
                          : "dend_" + std::to_string(swc_type);
  }
}

struct PySection {
  Section s;
  std::string name() const {
    return type_name(s.swc_type) + "[" + std::to_string(s.name_index) + "]";
  }
  py::array_t<double> pt3d() const {
    py::array_t<double> a({static_cast<py::ssize_t>(s.pt3d.size()), py::ssize_t(4)});
    auto w = a.mutable_unchecked<2>();
    for (std::size_t k = 0; k < s.pt3d.size(); ++k) {
      const auto& p = s.pt3d[k];
      w(k, 0) = p.x;
      w(k, 1) = p.y;
      w(k, 2) = p.z;
      w(k, 3) = p.diam;
    }
    return a;
  }
};

SectionOptions section_options(int nseg, double max_segment_length_um, double d_lambda,
                               double d_lambda_freq_hz, double Ra, double cm) {
  SectionOptions o;
  o.nseg_per_section = nseg;
  o.max_segment_length_um = max_segment_length_um;
  o.d_lambda = d_lambda;
  o.d_lambda_freq_hz = d_lambda_freq_hz;
  o.Ra_ohm_cm = Ra;
  o.cm_uF_cm2 = cm;
  // One rule: naming another one replaces the default nseg = 1.
  if ((max_segment_length_um > 0 || d_lambda > 0) && nseg == 1) o.nseg_per_section = 0;
  return o;
}

std::vector<PySection> sections_of(const SwcMorphology& m, const SectionOptions& o, bool* reread) {
  const SectionedMorphology sm = neuron_sections(m, o, reread);
  std::vector<PySection> out;
  out.reserve(sm.sections.size());
  for (const Section& s : sm.sections) out.push_back(PySection{s});
  return out;
}

template <class Get>
py::array column(const SwcMorphology& m, Get get) {
  using T = decltype(get(m.points[0]));
  py::array_t<T> a(static_cast<py::ssize_t>(m.points.size()));
  auto w = a.template mutable_unchecked<1>();
  for (std::size_t k = 0; k < m.points.size(); ++k) w(k) = get(m.points[k]);
  return std::move(a);
}

// An integer field of every point (id, parent_id, line) as an int64 column.
py::array long_column(const SwcMorphology& m, long SwcPoint::*field) {
  return column(m, [field](const SwcPoint& p) { return static_cast<long long>(p.*field); });
}

}  // namespace

void bind_morphology(py::module_& m) {
  py::class_<PySection>(m, "Section", "An unbranched section as NEURON's Import3d builds it.")
      .def_property_readonly("name", &PySection::name, "NEURON's name, e.g. 'dend[3]'")
      .def_property_readonly(
          "parent", [](const PySection& s) { return s.s.parent; },
          "index of the parent section, -1 for the root section")
      .def_property_readonly(
          "parent_x", [](const PySection& s) { return s.s.parent_x; },
          "where the 0 end attaches on the parent (0, 0.5 or 1)")
      .def_property_readonly("swc_type", [](const PySection& s) { return s.s.swc_type; })
      .def_property_readonly("name_index", [](const PySection& s) { return s.s.name_index; })
      .def_property_readonly("nseg", [](const PySection& s) { return s.s.nseg; })
      .def_property_readonly("pt3d", &PySection::pt3d, "(k, 4) array: x, y, z, diam (um)")
      .def_property_readonly(
          "length", [](const PySection& s) { return s.s.length(); },
          "L in um (sum of the 3-D distances between the pt3d points)")
      .def_property_readonly("first_swc_line",
                             [](const PySection& s) { return s.s.first_swc_line; })
      .def("__repr__", [](const PySection& s) {
        std::ostringstream o;
        o << "<Section " << s.name() << " parent=" << s.s.parent << "(" << s.s.parent_x
          << ") points=" << s.s.pt3d.size() << " L=" << s.s.length() << " nseg=" << s.s.nseg << ">";
        return o.str();
      });

  py::class_<SwcMorphology>(m, "Morphology", R"doc(A reconstruction read from an SWC file.

Points are in Hines order (point 0 the root, parent[k] < k): `parent` is a tree the solvers
take directly. `sections` are the sections NEURON's Import3d makes of the file.)doc")
      .def_readonly("source", &SwcMorphology::source)
      .def("__len__", &SwcMorphology::size)
      .def_property_readonly("num_points", &SwcMorphology::size)
      .def_property_readonly(
          "parent",
          [](const SwcMorphology& s) {
            return py::array_t<int>(static_cast<py::ssize_t>(s.parent.size()), s.parent.data());
          },
          "parent point of each point (-1 for the root), Hines order")
      .def_property_readonly("ids",
                             [](const SwcMorphology& s) { return long_column(s, &SwcPoint::id); })
      .def_property_readonly(
          "parent_ids", [](const SwcMorphology& s) { return long_column(s, &SwcPoint::parent_id); })
      .def_property_readonly("types",
                             [](const SwcMorphology& s) {
                               return column(s, [](const SwcPoint& p) { return p.type; });
                             })
      .def_property_readonly("lines",
                             [](const SwcMorphology& s) { return long_column(s, &SwcPoint::line); })
      .def_property_readonly(
          "points",
          [](const SwcMorphology& s) {
            py::array_t<double> a({static_cast<py::ssize_t>(s.points.size()), py::ssize_t(4)});
            auto w = a.mutable_unchecked<2>();
            for (std::size_t k = 0; k < s.points.size(); ++k) {
              w(k, 0) = s.points[k].x;
              w(k, 1) = s.points[k].y;
              w(k, 2) = s.points[k].z;
              w(k, 3) = s.points[k].radius;
            }
            return a;
          },
          "(P, 4) array: x, y, z, radius (um), Hines order")
      .def_property_readonly("soma_point_count", &SwcMorphology::soma_point_count)
      .def_property_readonly("branch_point_count", &SwcMorphology::branch_point_count)
      .def_property_readonly("section_count", &SwcMorphology::section_count,
                             "unbranched paths of the point tree (shared/morphologies counts)")
      .def_property_readonly("depth", &SwcMorphology::depth)
      .def_property_readonly(
          "sections",
          [](const SwcMorphology& s) { return sections_of(s, SectionOptions{1}, nullptr); },
          "NEURON's sections (Import3d), nseg = 1")
      .def(
          "neuron_sections",
          [](const SwcMorphology& s, int nseg, double max_segment_length_um, double d_lambda,
             double d_lambda_freq_hz, double Ra, double cm) {
            return sections_of(
                s, section_options(nseg, max_segment_length_um, d_lambda, d_lambda_freq_hz, Ra, cm),
                nullptr);
          },
          py::arg("nseg") = 1, py::arg("max_segment_length_um") = 0.0, py::arg("d_lambda") = 0.0,
          py::arg("d_lambda_freq_hz") = 100.0, py::arg("Ra") = 0.0, py::arg("cm") = 0.0,
          "Sections with nseg by one rule: nseg per section, or the smallest odd nseg with "
          "segments <= max_segment_length_um, or NEURON's d_lambda rule (needs Ra, cm).")
      .def_property_readonly(
          "depth_first_reread",
          [](const SwcMorphology& s) {
            bool reread = false;
            sections_of(s, SectionOptions{1}, &reread);
            return reread;
          },
          "whether the file was renumbered depth first before Import3d's rules (ids not "
          "increasing along the tree, sections.hpp)")
      .def("__repr__", [](const SwcMorphology& s) {
        return "<Morphology " + s.source + ": " + std::to_string(s.size()) + " points, " +
               std::to_string(s.section_count()) + " sections>";
      });

  m.def(
      "read_swc",
      [](const std::string& path, bool keep_largest_component) {
        SwcOptions o;
        o.keep_largest_component = keep_largest_component;
        py::gil_scoped_release unlocked;
        return read_swc(path, o);
      },
      py::arg("path"), py::arg("keep_largest_component") = false,
      "Read an SWC file. Raises InputError(file, line, value) for a malformed file.");
  m.def(
      "parse_swc",
      [](const std::string& text, const std::string& name, bool keep_largest_component) {
        SwcOptions o;
        o.keep_largest_component = keep_largest_component;
        std::istringstream in(text);
        return parse_swc(in, name, o);
      },
      py::arg("text"), py::arg("name") = "<string>", py::arg("keep_largest_component") = false,
      "Parse SWC text; name stands for the file in errors.");
}

}  // namespace python
}  // namespace hinesbatch
