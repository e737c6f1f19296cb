#pragma once
// Reader for SWC neuron morphologies (one point per line: id type x y z radius parent).
//
// Accepted: '#' comments (whole-line or trailing), blank lines, LF, CRLF or CR line ends, a
// UTF-8 byte-order mark, spaces/tabs anywhere, up to 6 extra columns after the 7th (ignored;
// 7 or more numbers there are a second point on the line: rejected), ids in any
// order and with gaps, any negative parent meaning "root", soma of any number of points
// (branched, non-contiguous ids) or none, radius 0. Integer columns may be written as
// integral decimals ("3.0"). Rejected with InputError (file, line, value): fewer than 7
// fields, several points on one line, a field that is not a finite decimal number (trailing
// garbage, nan, inf, hex), a coordinate beyond 1e8 um or a radius beyond 1e6 um, a
// negative radius, a non-integer or negative id, a non-integer type or parent, duplicate
// ids (both lines named), a missing parent, a parent cycle, several roots (unless
// SwcOptions::keep_largest_component) and a file without points.
//
// Counting conventions (they reproduce the table in shared/morphologies/README.md):
//  - branch_point_count(): points with two or more children, soma points included.
//  - section_count(): unbranched paths of edges that start at the root or at a branch point
//    and end at the next branch point or leaf, i.e. the sum of the child counts of the root
//    and of every branch point. The soma is not special: a 3-point soma contributes its two
//    soma-soma edges as (short) sections. A single point has 0 sections. (This differs from
//    Tree::branches(), which also counts a branching root as a one-node branch.)
//  - depth(): the largest centrifugal branch order, 1 + the number of NON-soma branch points
//    strictly above a point, maximised over all points. Branching inside the soma does not
//    raise the order; a branching root that is not a soma point (axon-only files) does.
#include <iosfwd>
#include <string>
#include <vector>

#include "hinesbatch/morphology/tree.hpp"

namespace hinesbatch {

struct SwcPoint {
  long id = 0;
  int type = 0;  // 1 soma, 2 axon, 3 basal dendrite, 4 apical dendrite, others custom
  double x = 0, y = 0, z = 0, radius = 0;  // micrometres
  long parent_id = -1;                     // -1 for the root (any negative value in the file)
  long line = 0;                           // 1-based line of the file it came from
};

struct SwcOptions {
  // Several roots (a forest) are an error unless this is set; then the component with the
  // most points is kept (the first in file order on a tie) and the others are dropped.
  bool keep_largest_component = false;
};

struct SwcMorphology {
  std::string source;            // file name (or the name given to parse_swc)
  std::vector<SwcPoint> points;  // Hines order: points[0] is the root, parent index < own index
  std::vector<int> parent;       // parent[k] = index into points (-1 for the root)

  Tree tree() const { return Tree(parent); }
  int size() const { return static_cast<int>(points.size()); }
  int soma_point_count() const;    // points with type == 1
  int branch_point_count() const;  // see the conventions above
  int section_count() const;
  int depth() const;
};

// Throws InputError if the file cannot be opened or is malformed.
SwcMorphology read_swc(const std::string& path, const SwcOptions& options = {});
// name is used as the file name in error messages and as SwcMorphology::source.
SwcMorphology parse_swc(std::istream& in, const std::string& name, const SwcOptions& options = {});

}  // namespace hinesbatch
