#pragma once
// The spike detector (NEURON's NetCon threshold): v at cell s's detector node above the
// threshold, coming from below, appends (slot s, step_end) to the step's spike list; a
// list that is full keeps counting, so that the host sees the overflow. `c` holds the
// group's det_flag, det_threshold, spike_count, spike_slot and spike_step Views
// (CellGroupViews). Device code, shared by every step schedule.
#include <Kokkos_Core.hpp>

namespace hinesbatch::mechanisms {

template <class Views>
KOKKOS_INLINE_FUNCTION void detect_threshold_crossing(const Views& c, const int s, const double v,
                                                      const int step_end) {
  if (v > c.det_threshold(s)) {
    if (!c.det_flag(s)) {
      c.det_flag(s) = 1;
      const int idx = Kokkos::atomic_fetch_add(&c.spike_count(), 1);
      if (idx < static_cast<int>(c.spike_slot.extent(0))) {
        c.spike_slot(idx) = s;
        c.spike_step(idx) = step_end;
      }
    }
  } else {
    c.det_flag(s) = 0;
  }
}

}  // namespace hinesbatch::mechanisms
