#pragma once
// Spike delivery on the device: the connections live on the device in CSR by
// source gid; each epoch's spikes (gathered on the host by the exchange) are uploaded and
// turned into events there, and the events of the next epoch are selected and ordered
// there, so the host only copies the epoch's spikes in and count + 1 step offsets out.
//
// Order (what makes rasters independent of ranks, overlap, epoch length and backend):
// within a step, events are applied by synapse and, on one synapse, in the order of their
// spikes (step, gid) and then of the source's connections (the order they were added).
// Every batch of spikes comes sorted by (step, gid) and batches come in step order, so
// "position in the pending pool" is that order; the sort key (step, synapse, position)
// is a total order. NEURON's delivery rule as in events.hpp (te <= t + dt/2).
#include <Kokkos_Core.hpp>
#include <Kokkos_Sort.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "hinesbatch/core/backend_traits.hpp"
#include "hinesbatch/simulation/impl/delivery_step.hpp"
#include "hinesbatch/simulation/spike_exchange.hpp"

namespace hinesbatch {
namespace impl {

inline int bits_for(std::uint64_t n) {  // bits to hold 0 .. n - 1 (at least 1)
  int b = 1;
  while (b < 64 && (std::uint64_t(1) << b) < n) ++b;
  return b;
}

// Heap sort of a(lo .. lo + len) ascending: in place, no recursion, O(len log len) on one
// thread whatever the input order.
template <class View>
KOKKOS_INLINE_FUNCTION void sift_down(const View& a, std::int64_t lo, std::int64_t root,
                                      std::int64_t len) {
  const auto x = a(lo + root);
  while (2 * root + 1 < len) {
    std::int64_t child = 2 * root + 1;
    if (child + 1 < len && a(lo + child) < a(lo + child + 1)) ++child;
    if (!(x < a(lo + child))) break;
    a(lo + root) = a(lo + child);
    root = child;
  }
  a(lo + root) = x;
}
template <class View>
KOKKOS_INLINE_FUNCTION void heap_sort(const View& a, std::int64_t lo, std::int64_t len) {
  bool sorted = true;  // already in order (one thread placed all of them): one pass, no sort
  for (std::int64_t k = 1; k < len && sorted; ++k) sorted = !(a(lo + k) < a(lo + k - 1));
  if (sorted) return;
  for (std::int64_t root = len / 2 - 1; root >= 0; --root) sift_down(a, lo, root, len);
  for (std::int64_t end = len - 1; end > 0; --end) {
    const auto top = a(lo);
    a(lo) = a(lo + end);
    a(lo + end) = top;
    sift_down(a, lo, 0, end);
  }
}

// Connections ordered by source: order(slot) = the input connection in that slot (by
// source gid, each source's connections in the order added); the distinct source gids,
// ascending, and where each one's slots begin (one more entry: the end).
template <class Memory>
struct CsrBySource {
  using index_view = Kokkos::View<std::int64_t*, Memory>;
  index_view order, source_gid, source_begin;
  int num_sources = 0;

  // Sizes the per-source views for `sources` distinct sources (zeroed; both builders below
  // fill them once they have counted the sources).
  void allocate_sources(int sources) {
    source_gid = index_view("hb::conn_source", sources);
    source_begin = index_view("hb::conn_source_begin", sources + 1);
    num_sources = sources;
  }
};

// By counting: a count per gid, their offsets, a slot per connection (atomic, so in any
// order within its source), then each source's slots sorted by input index. Returns an
// empty order where that does not suit: gids much sparser than connections (the counts
// would outgrow them) or a source whose fan-out one thread would sort for too long;
// csr_by_key then gives the same result.
template <class ExecutionSpace, class SourceView>
CsrBySource<typename ExecutionSpace::memory_space> csr_by_counting(const ExecutionSpace& exec,
                                                                   const SourceView& src,
                                                                   std::int64_t max_gid) {
  using mem = typename ExecutionSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecutionSpace>;
  using index_view = typename CsrBySource<mem>::index_view;
  CsrBySource<mem> csr;
  const std::int64_t n = static_cast<std::int64_t>(src.extent(0));
  constexpr std::int64_t kMaxFanOutToSort = std::int64_t(1) << 14;
  if (n == 0 || max_gid >= 4 * n + 4096) return csr;  // (max_gid + 1 could overflow)
  const std::int64_t ng = max_gid + 1;
  index_view begin("hb::conn_gid_begin", ng + 1);  // counts (shifted by one), then offsets
  Kokkos::parallel_for(
      "hinesbatch::conn_count", policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        Kokkos::atomic_add(&begin(src(i) + 1), typename index_view::value_type(1));
      });
  std::int64_t fan_out = 0;
  int nsrc = 0;
  Kokkos::parallel_reduce(
      "hinesbatch::conn_fan_out", policy(exec, 0, ng),
      KOKKOS_LAMBDA(const std::int64_t g, std::int64_t& m) {
        if (begin(g + 1) > m) m = begin(g + 1);
      },
      Kokkos::Max<std::int64_t>(fan_out));
  if (fan_out > kMaxFanOutToSort) return csr;
  Kokkos::parallel_reduce(
      "hinesbatch::conn_count_sources", policy(exec, 0, ng),
      KOKKOS_LAMBDA(const std::int64_t g, int& c) { c += begin(g + 1) > 0 ? 1 : 0; }, nsrc);
  csr.allocate_sources(nsrc);
  auto sg = csr.source_gid;
  auto sb = csr.source_begin;
  Kokkos::parallel_scan(
      "hinesbatch::conn_offsets", policy(exec, 0, ng + 1),
      KOKKOS_LAMBDA(const std::int64_t g, std::int64_t& acc, const bool final) {
        acc += begin(g);
        if (final) begin(g) = acc;
      });
  Kokkos::parallel_scan(
      "hinesbatch::conn_sources", policy(exec, 0, ng),
      KOKKOS_LAMBDA(const std::int64_t g, int& k, const bool final) {
        if (begin(g + 1) == begin(g)) return;
        if (final) {
          sg(k) = g;
          sb(k) = begin(g);
        }
        ++k;
      });
  Kokkos::deep_copy(exec, Kokkos::subview(sb, nsrc), n);
  // begin is the cursor from here on (sb keeps each source's start for the sort).
  csr.order = index_view(Kokkos::view_alloc("hb::conn_order", Kokkos::WithoutInitializing), n);
  auto order = csr.order;
  Kokkos::parallel_for(
      "hinesbatch::conn_place", policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        order(Kokkos::atomic_fetch_add(&begin(src(i)), std::int64_t(1))) = i;
      });
  Kokkos::parallel_for(
      "hinesbatch::conn_sort_sources", policy(exec, 0, nsrc),
      KOKKOS_LAMBDA(const int k) { heap_sort(order, sb(k), sb(k + 1) - sb(k)); });
  exec.fence();
  return csr;
}

// The same from a sort of (source, index) keys: any gids, any fan-out.
template <class ExecutionSpace, class SourceView>
CsrBySource<typename ExecutionSpace::memory_space> csr_by_key(const ExecutionSpace& exec,
                                                              const SourceView& src,
                                                              std::int64_t max_gid) {
  using mem = typename ExecutionSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecutionSpace>;
  using index_view = typename CsrBySource<mem>::index_view;
  CsrBySource<mem> csr;
  const std::int64_t n = static_cast<std::int64_t>(src.extent(0));
  const int bpos = bits_for(static_cast<std::uint64_t>(std::max<std::int64_t>(n, 1)));
  const int bsrc = bits_for(static_cast<std::uint64_t>(max_gid) + 1);
  if (bpos + bsrc > 64)
    throw std::length_error("hinesbatch: too many connections and gids for a 64-bit sort key");
  Kokkos::View<std::uint64_t*, mem> key(
      Kokkos::view_alloc("hb::conn_key", Kokkos::WithoutInitializing), n);
  Kokkos::parallel_for(
      "hinesbatch::conn_key", policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
        key(i) = (static_cast<std::uint64_t>(src(i)) << bpos) | static_cast<std::uint64_t>(i);
      });
  exec.fence();
  if (n > 1) Kokkos::sort(key);
  csr.order = index_view(Kokkos::view_alloc("hb::conn_order", Kokkos::WithoutInitializing), n);
  auto order = csr.order;
  const std::uint64_t mask = (std::uint64_t(1) << bpos) - 1;
  int nsrc = 0;
  Kokkos::parallel_reduce(
      "hinesbatch::conn_order_of_key", policy(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, int& c) {
        order(i) = static_cast<std::int64_t>(key(i) & mask);
        c += (i == 0 || (key(i) >> bpos) != (key(i - 1) >> bpos)) ? 1 : 0;
      },
      nsrc);
  csr.allocate_sources(nsrc);
  auto sg = csr.source_gid;
  auto sb = csr.source_begin;
  Kokkos::parallel_scan(
      "hinesbatch::conn_sources", policy(exec, 0, n),
      KOKKOS_LAMBDA(const std::int64_t i, int& k, const bool final) {
        if (i == 0 || (key(i) >> bpos) != (key(i - 1) >> bpos)) {
          if (final) {
            sg(k) = static_cast<std::int64_t>(key(i) >> bpos);
            sb(k) = i;
          }
          ++k;
        }
      });
  Kokkos::parallel_for(
      "hinesbatch::conn_sources_end", policy(exec, 0, 1),
      KOKKOS_LAMBDA(const int) { sb(nsrc) = n; });
  exec.fence();
  return csr;
}

}  // namespace impl

template <class ExecutionSpace>
class DeviceEventQueue {
  using mem = typename ExecutionSpace::memory_space;
  using policy = Kokkos::RangePolicy<ExecutionSpace>;
  template <class T>
  using view = Kokkos::View<T*, mem>;

 public:
  DeviceEventQueue() = default;

  // Connections (source gid, local synapse, weight, delay) in the order they were added;
  // num_synapses bounds the synapse indices. Builds the CSR on the device. With details,
  // events also carry their time and their connection's `vector` (an index the queue
  // passes on, -1 for none; one per connection, or empty: -1 for all).
  DeviceEventQueue(const ExecutionSpace& exec, const std::vector<std::int64_t>& source,
                   const std::vector<int>& synapse, const std::vector<double>& weight,
                   const std::vector<double>& delay, int num_synapses, double dt,
                   bool details = false, const std::vector<int>& vector = {})
      : DeviceEventQueue(exec, host_view(source), host_view(synapse), host_view(weight),
                         host_view(delay), num_synapses, dt, details, host_view(vector)) {}
  // The same from host arrays (the simulation fills them in parallel, uninitialised first).
  template <class T>
  using host_array =
      Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  DeviceEventQueue(const ExecutionSpace& exec, const host_array<std::int64_t>& source,
                   const host_array<int>& synapse, const host_array<double>& weight,
                   const host_array<double>& delay, int num_synapses, double dt,
                   bool details = false, const host_array<int>& vector = {})
      : dt_(dt), num_synapses_(std::max(num_synapses, 1)), details_(details) {
    build(exec, source, synapse, weight, delay, vector);
  }

  // The constructor's work (CUDA's extended lambdas may not live in a constructor).
  void build(const ExecutionSpace& exec, const host_array<std::int64_t>& source,
             const host_array<int>& synapse, const host_array<double>& weight,
             const host_array<double>& delay, const host_array<int>& vector) {
    const std::int64_t n = static_cast<std::int64_t>(source.extent(0));
    if (static_cast<std::int64_t>(synapse.extent(0)) != n ||
        static_cast<std::int64_t>(weight.extent(0)) != n ||
        static_cast<std::int64_t>(delay.extent(0)) != n ||
        (vector.extent(0) > 0 && static_cast<std::int64_t>(vector.extent(0)) != n))
      throw std::invalid_argument("hinesbatch: connection arrays of different lengths");
    num_connections_ = n;
    auto src_in = upload(exec, source, "hb::conn_src_in");
    auto syn_in = upload(exec, synapse, "hb::conn_syn_in");
    auto w_in = upload(exec, weight, "hb::conn_w_in");
    auto d_in = upload(exec, delay, "hb::conn_d_in");
    // The CSR order: for each connection slot, which input connection sits there (by
    // source gid, each source's connections in the order added).
    Kokkos::MinMaxScalar<std::int64_t> range;
    Kokkos::parallel_reduce(
        "hinesbatch::conn_source_range", policy(exec, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i, Kokkos::MinMaxScalar<std::int64_t>& r) {
          if (src_in(i) < r.min_val) r.min_val = src_in(i);
          if (src_in(i) > r.max_val) r.max_val = src_in(i);
        },
        Kokkos::MinMax<std::int64_t>(range));
    if (n > 0 && range.min_val < 0)
      throw std::invalid_argument("hinesbatch: a connection has source gid " +
                                  std::to_string(range.min_val) + " (gids are >= 0)");
    const std::int64_t max_gid = n > 0 ? range.max_val : 0;
    // On a host backend, counting (the connections' whole setup of the p3_synaptic networks on
    // 16 cores took 3.6-4.4x less than with Kokkos::sort); on the GPU the key sort is the faster
    // one (H100, 10 M connections: 3 against 5 ms). docs/history/SCALING-log.md (the
    // connections' CSR by counting on the host).
    impl::CsrBySource<mem> csr;
    if constexpr (is_host_backend<ExecutionSpace>())
      csr = impl::csr_by_counting(exec, src_in, max_gid);
    if (csr.order.extent(0) == 0 && n > 0) csr = impl::csr_by_key(exec, src_in, max_gid);
    target_synapse_ = view<int>(Kokkos::view_alloc("hb::conn_syn", Kokkos::WithoutInitializing), n);
    target_weight_ = view<double>(Kokkos::view_alloc("hb::conn_w", Kokkos::WithoutInitializing), n);
    target_delay_ =
        view<double>(Kokkos::view_alloc("hb::conn_delay", Kokkos::WithoutInitializing), n);
    auto ts = target_synapse_;
    auto tw = target_weight_;
    auto td = target_delay_;
    auto order = csr.order;
    Kokkos::parallel_for(
        "hinesbatch::conn_permute", policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
          const std::int64_t j = order(i);
          ts(i) = syn_in(j);
          tw(i) = w_in(j);
          td(i) = d_in(j);
        });
    if (details_) {
      target_vector_ = view<int>(Kokkos::view_alloc("hb::conn_vector"), n);
      if (vector.extent(0) > 0) {
        auto v_in = upload(exec, vector, "hb::conn_vector_in");
        auto tv = target_vector_;
        Kokkos::parallel_for(
            "hinesbatch::conn_permute_vector", policy(exec, 0, n),
            KOKKOS_LAMBDA(const std::int64_t i) { tv(i) = v_in(order(i)); });
      } else {
        Kokkos::deep_copy(exec, target_vector_, -1);
      }
    }
    source_gid_ = csr.source_gid;
    source_begin_ = csr.source_begin;
    if (n == 0) source_begin_ = view<std::int64_t>("hb::conn_source_begin", 1);
    num_sources_ = csr.num_sources;
    exec.fence();
  }

  std::int64_t num_connections() const { return num_connections_; }
  bool details() const { return details_; }

  // External events (before the run): appended to the pool in the order given. With
  // details, each has its time and vector (empty: the step's start and -1).
  void push_external(const ExecutionSpace& exec, const std::vector<std::int64_t>& step,
                     const std::vector<int>& synapse, const std::vector<double>& weight,
                     const std::vector<double>& time = {}, const std::vector<int>& vector = {}) {
    const std::int64_t m = static_cast<std::int64_t>(step.size());
    if (m == 0) return;
    if (details_ && ((!time.empty() && static_cast<std::int64_t>(time.size()) != m) ||
                     (!vector.empty() && static_cast<std::int64_t>(vector.size()) != m)))
      throw std::invalid_argument("hinesbatch: external event arrays of different lengths");
    reserve(exec, pool_n_ + m);
    auto s = upload(exec, host_view(step), "hb::ext_step");
    auto y = upload(exec, host_view(synapse), "hb::ext_syn");
    auto w = upload(exec, host_view(weight), "hb::ext_w");
    auto ps = pool_step_;
    auto py = pool_syn_;
    auto pw = pool_w_;
    const std::int64_t base = pool_n_;
    Kokkos::parallel_for(
        "hinesbatch::ev_external", policy(exec, 0, m), KOKKOS_LAMBDA(const std::int64_t i) {
          ps(base + i) = s(i);
          py(base + i) = y(i);
          pw(base + i) = w(i);
        });
    if (details_) {
      std::vector<double> te(time);
      std::vector<int> vec(vector);
      if (te.empty())
        for (std::int64_t st : step) te.push_back(static_cast<double>(st) * dt_);
      if (vec.empty()) vec.assign(m, -1);
      auto t_in = upload(exec, host_view(te), "hb::ext_t");
      auto v_in = upload(exec, host_view(vec), "hb::ext_vector");
      auto pt = pool_t_;
      auto pv = pool_vec_;
      Kokkos::parallel_for(
          "hinesbatch::ev_external_details", policy(exec, 0, m),
          KOKKOS_LAMBDA(const std::int64_t i) {
            pt(base + i) = t_in(i);
            pv(base + i) = v_in(i);
          });
    }
    pool_n_ += m;
    exec.fence();
  }

  // Turns spikes (sorted by (step, gid)) into events in the pool; returns their number.
  // Throws std::logic_error when an event falls before first_open_step (it would be late).
  // times (artificial cells' spikes): each spike's exact time instead of its step's.
  std::int64_t push_spikes(const ExecutionSpace& exec, const std::vector<Spike>& spikes,
                           std::int64_t first_open_step, const std::vector<double>& times = {}) {
    const std::int64_t ns = static_cast<std::int64_t>(spikes.size());
    if (ns == 0 || num_sources_ == 0) return 0;
    std::vector<std::int64_t> gid(ns), step(ns);
    for (std::int64_t i = 0; i < ns; ++i) {
      gid[i] = spikes[i].gid;
      step[i] = spikes[i].step;
    }
    const bool timed = !times.empty();
    if (timed && static_cast<std::int64_t>(times.size()) != ns)
      throw std::invalid_argument("hinesbatch: spike times and spikes of different lengths");
    grow(spk_gid_, ns, "hb::spk_gid");
    grow(spk_step_, ns, "hb::spk_step");
    grow(spk_first_, ns, "hb::spk_first");
    grow(spk_offset_, ns + 1, "hb::spk_offset");
    copy_in(exec, spk_gid_, gid);
    copy_in(exec, spk_step_, step);
    if (timed) {
      grow(spk_time_, ns, "hb::spk_time");
      copy_in(exec, spk_time_, times);
    }
    auto sgid = spk_gid_;
    auto sstep = spk_step_;
    auto stime = spk_time_;
    auto first_target = spk_first_;
    auto offset = spk_offset_;
    auto srcg = source_gid_;
    auto srcb = source_begin_;
    const int nsrc = num_sources_;
    Kokkos::parallel_for(
        "hinesbatch::ev_lookup", policy(exec, 0, ns), KOKKOS_LAMBDA(const std::int64_t i) {
          int lo = 0, hi = nsrc;  // first source >= gid
          while (lo < hi) {
            const int mid = (lo + hi) / 2;
            if (srcg(mid) < sgid(i))
              lo = mid + 1;
            else
              hi = mid;
          }
          const bool found = lo < nsrc && srcg(lo) == sgid(i);
          first_target(i) = found ? srcb(lo) : 0;
          offset(i) = found ? srcb(lo + 1) - srcb(lo) : 0;
        });
    std::int64_t m = 0;
    Kokkos::parallel_scan(
        "hinesbatch::ev_offsets", policy(exec, 0, ns),
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& acc, const bool final) {
          const std::int64_t c = offset(i);
          if (final) offset(i) = acc;
          acc += c;
        },
        m);
    if (m == 0) return 0;
    reserve(exec, pool_n_ + m);
    auto ps = pool_step_;
    auto py = pool_syn_;
    auto pw = pool_w_;
    auto ts = target_synapse_;
    auto tw = target_weight_;
    auto td = target_delay_;
    auto pt = pool_t_;
    auto pv = pool_vec_;
    auto tv = target_vector_;
    const bool details = details_;
    const std::int64_t base = pool_n_;
    const double dt = dt_;
    int late = 0;
    // One thread per spike: its events keep the source's connection order.
    Kokkos::parallel_reduce(
        "hinesbatch::ev_fill", policy(exec, 0, ns),
        KOKKOS_LAMBDA(const std::int64_t i, int& bad) {
          const std::int64_t o = base + offset(i);
          const std::int64_t c = (i + 1 < ns ? offset(i + 1) : m) - offset(i);
          for (std::int64_t k = 0; k < c; ++k) {
            const std::int64_t t = first_target(i) + k;
            const double te = (timed ? stime(i) : static_cast<double>(sstep(i)) * dt) + td(t);
            const std::int64_t st = impl::delivery_step_of(te, dt);
            if (st < first_open_step) ++bad;
            ps(o + k) = st;
            py(o + k) = ts(t);
            pw(o + k) = tw(t);
            if (details) {
              pt(o + k) = te;
              pv(o + k) = tv(t);
            }
          }
        },
        late);
    if (late > 0)
      throw std::logic_error("hinesbatch: " + std::to_string(late) + " events arrive before step " +
                             std::to_string(first_open_step) +
                             ", which already ran: the epoch is longer than the delays allow");
    pool_n_ += m;
    return m;
  }

  // Moves the events of steps [first, first + count) to synapse()/weight(), sorted by
  // (step, synapse, pool position); step_begin (host) gets count + 1 offsets.
  void take(const ExecutionSpace& exec, std::int64_t first, int count,
            std::vector<int>& step_begin) {
    step_begin.assign(count + 1, 0);
    if (pool_n_ == 0) return;
    const std::int64_t n = pool_n_, last = first + count;
    auto ps = pool_step_;
    auto py = pool_syn_;
    auto pw = pool_w_;
    auto pt = pool_t_;
    auto pv = pool_vec_;
    const bool details = details_;
    grow(win_pos_, n, "hb::ev_winpos");
    auto win_pos = win_pos_;
    std::int64_t w = 0;
    int early = 0;
    Kokkos::parallel_reduce(
        "hinesbatch::ev_early", policy(exec, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i, int& e) { e += ps(i) < first ? 1 : 0; }, early);
    if (early > 0)
      throw std::logic_error("hinesbatch: events left behind before step " + std::to_string(first));
    Kokkos::parallel_scan(
        "hinesbatch::ev_window", policy(exec, 0, n),
        KOKKOS_LAMBDA(const std::int64_t i, std::int64_t& acc, const bool final) {
          if (final) win_pos(i) = acc;
          acc += ps(i) < last ? 1 : 0;
        },
        w);
    if (w > 0) {
      const int bstep = impl::bits_for(static_cast<std::uint64_t>(count));
      const int bsyn = impl::bits_for(static_cast<std::uint64_t>(num_synapses_));
      const int bpos = impl::bits_for(static_cast<std::uint64_t>(w));
      if (bstep + bsyn + bpos > 64)
        throw std::length_error("hinesbatch: too many events in one epoch for a 64-bit sort key");
      grow(key_, w, "hb::ev_key");
      grow(wsyn_, w, "hb::ev_wsyn");
      grow(ww_, w, "hb::ev_ww");
      if (details) {
        grow(wt_, w, "hb::ev_wt");
        grow(wvec_, w, "hb::ev_wvec");
      }
      auto key = Kokkos::subview(key_, std::make_pair(std::int64_t(0), w));
      auto wsyn = wsyn_;
      auto ww = ww_;
      auto wt = wt_;
      auto wvec = wvec_;
      Kokkos::parallel_for(
          "hinesbatch::ev_keys", policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
            if (ps(i) >= last) return;
            const std::int64_t j = win_pos(i);
            key(j) = (static_cast<std::uint64_t>(ps(i) - first) << (bsyn + bpos)) |
                     (static_cast<std::uint64_t>(py(i)) << bpos) | static_cast<std::uint64_t>(j);
            wsyn(j) = py(i);
            ww(j) = pw(i);
            if (details) {
              wt(j) = pt(i);
              wvec(j) = pv(i);
            }
          });
      exec.fence();
      if (w > 1) Kokkos::sort(key);
      if (static_cast<std::int64_t>(syn_.extent(0)) < w) {
        syn_ = view<int>("hb::ev_syn", 2 * w);
        w_ = view<double>("hb::ev_w", 2 * w);
      }
      if (details && static_cast<std::int64_t>(t_.extent(0)) < w) {
        t_ = view<double>("hb::ev_t", 2 * w);
        vec_ = view<int>("hb::ev_vector", 2 * w);
      }
      auto os = syn_;
      auto ow = w_;
      auto ot = t_;
      auto ov = vec_;
      const std::uint64_t mask = (std::uint64_t(1) << bpos) - 1;
      Kokkos::parallel_for(
          "hinesbatch::ev_order", policy(exec, 0, w), KOKKOS_LAMBDA(const std::int64_t k) {
            const std::int64_t j = static_cast<std::int64_t>(key(k) & mask);
            os(k) = wsyn(j);
            ow(k) = ww(j);
            if (details) {
              ot(k) = wt(j);
              ov(k) = wvec(j);
            }
          });
      // step_begin[s] = first sorted event of step first + s (binary search).
      grow(step_begin_, count + 1, "hb::ev_step_begin");
      auto begin_dev = step_begin_;
      const int shift = bsyn + bpos;
      Kokkos::parallel_for(
          "hinesbatch::ev_step_begin", policy(exec, 0, count + 1), KOKKOS_LAMBDA(const int s) {
            std::int64_t lo = 0, hi = w;
            while (lo < hi) {
              const std::int64_t mid = (lo + hi) / 2;
              if (static_cast<int>(key(mid) >> shift) < s)
                lo = mid + 1;
              else
                hi = mid;
            }
            begin_dev(s) = static_cast<int>(lo);
          });
      const auto r = std::make_pair(0, count + 1);
      auto h = Kokkos::create_mirror_view(Kokkos::subview(begin_dev, r));
      Kokkos::deep_copy(exec, h, Kokkos::subview(begin_dev, r));
      exec.fence();
      for (int s = 0; s <= count; ++s) step_begin[s] = h(s);
    }
    // Keep the rest, in order.
    const std::int64_t rest = n - w;
    // Double-buffered pool: the rest goes to the spare arrays, which then swap in.
    grow(spare_step_, rest, "hb::pool_step");
    grow(spare_syn_, rest, "hb::pool_syn");
    grow(spare_w_, rest, "hb::pool_w");
    if (details) {
      grow(spare_t_, rest, "hb::pool_t");
      grow(spare_vec_, rest, "hb::pool_vector");
    }
    auto rs = spare_step_;
    auto ry = spare_syn_;
    auto rw = spare_w_;
    auto rt = spare_t_;
    auto rv = spare_vec_;
    Kokkos::parallel_for(
        "hinesbatch::ev_keep", policy(exec, 0, n), KOKKOS_LAMBDA(const std::int64_t i) {
          if (ps(i) < last) return;
          const std::int64_t j = i - win_pos(i);
          rs(j) = ps(i);
          ry(j) = py(i);
          rw(j) = pw(i);
          if (details) {
            rt(j) = pt(i);
            rv(j) = pv(i);
          }
        });
    exec.fence();
    std::swap(pool_step_, spare_step_);
    std::swap(pool_syn_, spare_syn_);
    std::swap(pool_w_, spare_w_);
    std::swap(pool_t_, spare_t_);
    std::swap(pool_vec_, spare_vec_);
    pool_n_ = rest;
  }

  // The events taken by the last take(), on the device.
  Kokkos::View<const int*, mem> synapse() const { return syn_; }
  Kokkos::View<const double*, mem> weight() const { return w_; }
  // With details: the taken events' times and their connections' vectors (else empty).
  Kokkos::View<const double*, mem> time() const { return t_; }
  Kokkos::View<const int*, mem> vector() const { return vec_; }
  // take()'s step offsets on the device; valid when the last take() found events.
  Kokkos::View<const int*, mem> step_begin() const { return step_begin_; }
  std::int64_t pending() const { return pool_n_; }

 private:
  template <class T>
  static host_array<T> host_view(const std::vector<T>& v) {
    return host_array<T>(v.data(), v.size());
  }
  // The host array itself where the backend's memory is host memory (OpenMP, Serial): a View
  // of it can wrap the host pointer; else a copy.
  template <class T>
  static Kokkos::View<const T*, mem> upload(const ExecutionSpace& exec, const host_array<T>& h,
                                            const char* label) {
    if constexpr (std::is_same<mem, Kokkos::HostSpace>::value) {
      (void)exec;
      (void)label;
      return Kokkos::View<const T*, mem>(h.data(), h.extent(0));  // unmanaged: h outlives it
    } else {
      view<T> d(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing), h.extent(0));
      Kokkos::deep_copy(exec, d, h);
      exec.fence();
      return d;
    }
  }

  // Grow-only scratch (no allocation per epoch once the sizes settle).
  template <class T>
  static void grow(view<T>& v, std::int64_t n, const char* label) {
    if (static_cast<std::int64_t>(v.extent(0)) >= n) return;
    v = view<T>(Kokkos::view_alloc(std::string(label), Kokkos::WithoutInitializing),
                std::max<std::int64_t>(2 * n, 1024));
  }
  template <class T>
  static void copy_in(const ExecutionSpace& exec, const view<T>& d, const std::vector<T>& v) {
    Kokkos::View<const T*, Kokkos::HostSpace, Kokkos::MemoryTraits<Kokkos::Unmanaged>> h(v.data(),
                                                                                         v.size());
    Kokkos::deep_copy(exec, Kokkos::subview(d, std::make_pair(std::size_t(0), v.size())), h);
  }

  void reserve(const ExecutionSpace& exec, std::int64_t n) {
    if (static_cast<std::int64_t>(pool_step_.extent(0)) >= n) return;
    const std::int64_t cap = std::max<std::int64_t>(2 * n, 1024);
    view<std::int64_t> s("hb::pool_step", cap);
    view<int> y("hb::pool_syn", cap);
    view<double> w("hb::pool_w", cap);
    view<double> t;
    view<int> v;
    if (details_) {
      t = view<double>("hb::pool_t", cap);
      v = view<int>("hb::pool_vector", cap);
    }
    if (pool_n_ > 0) {
      const auto r = std::make_pair(std::int64_t(0), pool_n_);
      Kokkos::deep_copy(exec, Kokkos::subview(s, r), Kokkos::subview(pool_step_, r));
      Kokkos::deep_copy(exec, Kokkos::subview(y, r), Kokkos::subview(pool_syn_, r));
      Kokkos::deep_copy(exec, Kokkos::subview(w, r), Kokkos::subview(pool_w_, r));
      if (details_) {
        Kokkos::deep_copy(exec, Kokkos::subview(t, r), Kokkos::subview(pool_t_, r));
        Kokkos::deep_copy(exec, Kokkos::subview(v, r), Kokkos::subview(pool_vec_, r));
      }
    }
    exec.fence();
    pool_step_ = s;
    pool_syn_ = y;
    pool_w_ = w;
    pool_t_ = t;
    pool_vec_ = v;
  }

  double dt_ = 0.025;
  int num_synapses_ = 1, num_sources_ = 0;
  bool details_ = false;
  std::int64_t num_connections_ = 0;
  view<std::int64_t> source_gid_, source_begin_;
  view<int> target_synapse_, target_vector_;
  view<double> target_weight_, target_delay_;
  view<std::int64_t> pool_step_, spare_step_;
  view<int> pool_syn_, spare_syn_;
  view<double> pool_w_, spare_w_, pool_t_, spare_t_;
  view<int> pool_vec_, spare_vec_;
  view<std::int64_t> spk_gid_, spk_step_, spk_first_, spk_offset_, win_pos_;
  view<double> spk_time_;
  view<std::uint64_t> key_;
  view<int> wsyn_, step_begin_, wvec_;
  view<double> ww_, wt_;
  std::int64_t pool_n_ = 0;
  view<int> syn_, vec_;
  view<double> w_, t_;
};

}  // namespace hinesbatch
