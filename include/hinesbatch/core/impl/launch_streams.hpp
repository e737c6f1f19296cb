#pragma once
// Streams of their own for launches that should run side by side: several small launches,
// each too small to fill the GPU, in order on one stream leave most SMs idle; side by side
// they fill it. Launches queued on the streams after fork() wait for the work queued on exec
// before it (an event), and exec's work queued after join() waits for all of them, so the
// caller stays asynchronous. Without CUDA, or for one launch, every launch runs on exec.
#include <Kokkos_Core.hpp>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace hinesbatch::impl {

// Kokkos' CUDA backend passes a functor of more than 512 bytes through one constant-memory
// buffer, and the host waits at each such launch until the launch before it is done with
// the buffer: such launches run one after another whatever their streams. A functor that
// fits the kernel's arguments (4 KB, less Kokkos' own part of them) is passed there instead.
inline constexpr std::size_t kArgumentFunctorBytes = 3584;
template <class Functor, class Policy>
auto side_by_side_policy(const Policy& policy) {
  if constexpr (sizeof(Functor) <= kArgumentFunctorBytes)
    return Kokkos::Experimental::require(policy,
                                         Kokkos::Experimental::WorkItemProperty::HintLightWeight);
  else
    return policy;
}

template <class ExecutionSpace>
class LaunchStreams {
 public:
  // Makes `count` streams (none for fewer than two); keeps them while the count stays.
  void reserve(int count) { (void)count; }
  // Where launch i runs.
  const ExecutionSpace& space(const ExecutionSpace& exec, int) const { return exec; }
  void fork(const ExecutionSpace&) const {}
  void join(const ExecutionSpace&) const {}
  int streams() const { return 0; }
};

#if defined(KOKKOS_ENABLE_CUDA)
inline void launch_streams_check(cudaError_t e) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("hinesbatch: CUDA error in the launch streams: ") +
                             cudaGetErrorString(e));
}

template <>
class LaunchStreams<Kokkos::Cuda> {
 public:
  void reserve(int count) {
    if (count < 2) {
      state_.reset();
    } else if (!state_ || static_cast<int>(state_->streams.size()) != count) {
      state_.reset();
      state_ = std::make_shared<State>(count);
    }
  }
  const Kokkos::Cuda& space(const Kokkos::Cuda& exec, int i) const {
    return state_ ? state_->spaces[i % state_->spaces.size()] : exec;
  }
  void fork(const Kokkos::Cuda& exec) const {
    if (!state_) return;
    launch_streams_check(cudaEventRecord(state_->forked, exec.cuda_stream()));
    for (cudaStream_t s : state_->streams)
      launch_streams_check(cudaStreamWaitEvent(s, state_->forked, 0));
  }
  void join(const Kokkos::Cuda& exec) const {
    if (!state_) return;
    for (std::size_t i = 0; i < state_->streams.size(); ++i) {
      launch_streams_check(cudaEventRecord(state_->done[i], state_->streams[i]));
      launch_streams_check(cudaStreamWaitEvent(exec.cuda_stream(), state_->done[i], 0));
    }
  }
  int streams() const { return state_ ? static_cast<int>(state_->streams.size()) : 0; }

 private:
  struct State {
    std::vector<cudaStream_t> streams;
    std::vector<Kokkos::Cuda> spaces;  // go before their streams: an instance uses its stream
    cudaEvent_t forked{};
    std::vector<cudaEvent_t> done;
    explicit State(int n) : streams(n), done(n) {
      launch_streams_check(cudaEventCreateWithFlags(&forked, cudaEventDisableTiming));
      for (int i = 0; i < n; ++i) {
        launch_streams_check(cudaStreamCreateWithFlags(&streams[i], cudaStreamNonBlocking));
        launch_streams_check(cudaEventCreateWithFlags(&done[i], cudaEventDisableTiming));
        spaces.emplace_back(streams[i]);
      }
    }
    ~State() {
      for (Kokkos::Cuda& s : spaces) s.fence();
      spaces.clear();
      for (cudaStream_t s : streams) cudaStreamDestroy(s);
      for (cudaEvent_t e : done) cudaEventDestroy(e);
      cudaEventDestroy(forked);
    }
    State(const State&) = delete;
    State& operator=(const State&) = delete;
  };
  std::shared_ptr<State> state_;
};
#endif

}  // namespace hinesbatch::impl
