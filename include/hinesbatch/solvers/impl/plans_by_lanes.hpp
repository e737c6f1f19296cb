#pragma once
// One tree's solve plans by lane count, made on first use (a plan's build can take longer
// than most trees' solves, and most trees never run the schedule that needs it). Shared by
// the copies of a DeviceTree; safe to use from several host threads.
#include <map>
#include <mutex>
#include <utility>
#include <vector>

namespace hinesbatch {
namespace impl {

template <class Plan>
class PlansByLanes {
 public:
  explicit PlansByLanes(std::vector<int> parents) : parents_(std::move(parents)) {}

  // The plan for `lanes`: make(parents, lanes) the first time it is asked for.
  template <class Make>
  const Plan& get(int lanes, const Make& make) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto found = plans_.find(lanes);
    if (found != plans_.end()) return found->second;
    return plans_.emplace(lanes, make(parents_, lanes)).first->second;
  }

 private:
  std::vector<int> parents_;
  std::mutex mutex_;
  std::map<int, Plan> plans_;
};

}  // namespace impl
}  // namespace hinesbatch
