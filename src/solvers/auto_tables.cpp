// Auto's tables (generated from the solver map: auto_thomas_table.hpp,
// auto_thomas_vbatch_table.hpp, auto_hines_table.hpp) and the nearest-point search over them.
#include <cmath>
#include <cstddef>

#include "hinesbatch/solvers/impl/auto_schedule_point.hpp"
#include "solvers/auto_hines_table.hpp"
#include "solvers/auto_thomas_table.hpp"
#include "solvers/auto_thomas_vbatch_table.hpp"

namespace hinesbatch::impl {

namespace {

template <class Schedule, class Shape>
int height_of(const AutoSchedulePoint<Schedule, Shape>&) {
  return 0;
}
template <class Schedule, class Shape>
int height_of(const AutoTreePoint<Schedule, Shape>& p) {
  return p.height;
}

template <class Point>
const Point& nearest(AutoTable<Point> table, int size, long long systems, int height) {
  // The search costs a log2 per point, about a microsecond over a table: several percent of a
  // small batch's solve, which a program repeats with the same question. Each host thread
  // keeps its last few questions and answers (a program may solve batches of several kinds
  // in turn).
  struct Answer {
    const Point* table = nullptr;
    std::size_t points = 0;
    int size = 0, height = 0;
    long long systems = 0;
    std::size_t best = 0;
  };
  constexpr int kKept = 8;
  static thread_local Answer kept[kKept];
  static thread_local int next = 0;
  const Point* points = table.begin();
  for (const Answer& a : kept)
    if (a.table == points && a.points == table.size() && a.size == size && a.systems == systems &&
        a.height == height)
      return points[a.best];
  const double ls = std::log2(static_cast<double>(size > 0 ? size : 1));
  const double lt = std::log2(static_cast<double>(size > 0 ? size : 1) *
                              static_cast<double>(systems > 0 ? systems : 1));
  const double lh = std::log2(static_cast<double>(height > 0 ? height : 1));
  std::size_t best = 0;
  double best_d = -1;
  for (std::size_t k = 0; k < table.size(); ++k) {
    const double ds = ls - std::log2(static_cast<double>(points[k].size));
    const double dt = (lt - points[k].total_log2) / 2;
    const int ph = height_of(points[k]);
    const double dh = height > 0 && ph > 0 ? (lh - std::log2(static_cast<double>(ph))) / 2 : 0;
    const double d = ds * ds + dt * dt + dh * dh;
    if (best_d < 0 || d < best_d) {
      best_d = d;
      best = k;
    }
  }
  kept[next] = Answer{points, table.size(), size, height, systems, best};
  next = (next + 1) % kKept;
  return points[best];
}

}  // namespace

AutoTable<ThomasAutoPoint> auto_table(ThomasAutoTable which) {
  switch (which) {
    case ThomasAutoTable::Flat:
      return kThomasAutoFlat;
    case ThomasAutoTable::FullInterleaved:
      return kThomasAutoFullInterleaved;
    case ThomasAutoTable::VBatchFlatCp:
      return kThomasVAutoFlatCp;
    case ThomasAutoTable::VBatchFlatNcp:
      return kThomasVAutoFlatNcp;
    case ThomasAutoTable::VBatchFullInterleavedCp:
      return kThomasVAutoFullInterleavedCp;
    case ThomasAutoTable::VBatchFullInterleavedNcp:
      return kThomasVAutoFullInterleavedNcp;
    case ThomasAutoTable::VBatchPacked:
      break;
  }
  return kThomasVAutoPacked;
}

AutoTable<HinesAutoPoint> auto_table(HinesAutoTable which) {
  return which == HinesAutoTable::Flat ? AutoTable<HinesAutoPoint>(kHinesAutoFlat)
                                       : AutoTable<HinesAutoPoint>(kHinesAutoFullInterleaved);
}

const ThomasAutoPoint& nearest_auto_point(AutoTable<ThomasAutoPoint> table, int size,
                                          long long systems, int height) {
  return nearest(table, size, systems, height);
}
const HinesAutoPoint& nearest_auto_point(AutoTable<HinesAutoPoint> table, int size,
                                         long long systems, int height) {
  return nearest(table, size, systems, height);
}

}  // namespace hinesbatch::impl
