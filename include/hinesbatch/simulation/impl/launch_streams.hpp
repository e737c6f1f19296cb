#pragma once
// Streams of their own for the on-chip schedule's launches of one epoch. A mixed network has
// several launches (cells of alike sizes, each its own team shape); in order on one stream,
// every launch ends with a last wave that leaves most SMs idle, once per launch per epoch.
// Side by side, another launch's teams take those SMs. Each launch waits for the work
// queued on exec before it (an event), and exec's later work waits for all of them, so the
// schedule stays asynchronous. Where there is one launch, or no CUDA, the launches run in
// order on exec.
#include <Kokkos_Core.hpp>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace hinesbatch::impl {

template <class ExecutionSpace>
class LaunchStreams {
 public:
  // Streams for `launches` launches (none for one launch).
  void reset(int launches) { (void)launches; }
  // Where launch i runs.
  const ExecutionSpace& space(const ExecutionSpace& exec, int) const { return exec; }
  // Launches queued after this wait for exec's work so far.
  void fork(const ExecutionSpace&) const {}
  // exec's work queued after this waits for every launch.
  void join(const ExecutionSpace&) const {}
  int streams() const { return 0; }
};

#if defined(KOKKOS_ENABLE_CUDA)
inline void cuda_check(cudaError_t e) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("CUDA error in the on-chip launches' streams: ") +
                             cudaGetErrorString(e));
}

template <>
class LaunchStreams<Kokkos::Cuda> {
 public:
  void reset(int launches) {
    state_.reset();
    if (launches > 1) state_ = std::make_shared<State>(launches);
  }
  const Kokkos::Cuda& space(const Kokkos::Cuda& exec, int i) const {
    return state_ ? state_->spaces[i] : exec;
  }
  void fork(const Kokkos::Cuda& exec) const {
    if (!state_) return;
    cuda_check(cudaEventRecord(state_->forked, exec.cuda_stream()));
    for (cudaStream_t s : state_->streams) cuda_check(cudaStreamWaitEvent(s, state_->forked, 0));
  }
  void join(const Kokkos::Cuda& exec) const {
    if (!state_) return;
    for (std::size_t i = 0; i < state_->streams.size(); ++i) {
      cuda_check(cudaEventRecord(state_->done[i], state_->streams[i]));
      cuda_check(cudaStreamWaitEvent(exec.cuda_stream(), state_->done[i], 0));
    }
  }
  int streams() const { return state_ ? static_cast<int>(state_->streams.size()) : 0; }

 private:
  struct State {
    std::vector<cudaStream_t> streams;
    std::vector<Kokkos::Cuda> spaces;  // before the streams go: an instance uses its stream
    cudaEvent_t forked{};
    std::vector<cudaEvent_t> done;
    explicit State(int n) : streams(n), done(n) {
      cuda_check(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming));
      for (int i = 0; i < n; ++i) {
        cuda_check(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
        cuda_check(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
        spaces.emplace_back(streams[i]);
      }
    }
    ~State() {
      for (Kokkos::Cuda& s : spaces) s.fence();
      spaces.clear();  // the instances' own resources go before their streams
      for (cudaStream_t s : streams) cudaStreamDestroy(s);
      for (cudaEvent_t e : done) cudaEventDestroy(e);
      cudaEventDestroy(forked);
    }
    State(const State&) = delete;
    State& operator=(const State&) = delete;
  };
  std::shared_ptr<State> state_;  // shared by copies of the schedule
};
#endif

}  // namespace hinesbatch::impl
