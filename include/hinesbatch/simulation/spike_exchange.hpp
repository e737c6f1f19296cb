#pragma once
// How ranks share spikes (docs/REFERENCE.md §5): at every epoch each rank contributes its local
// spikes and receives everyone's (an all-gather, MPI_Allgatherv under MPI). The
// simulation sees only this interface, so the library needs no MPI: the program provides
// an MPI implementation; LocalExchange is one rank; DryRunExchange emulates `ranks` ranks
// by replicating the local spikes with gid offsets (Arbor's dry-run mode), to measure
// exchange and event-delivery cost at scales we do not have.
#include <cstdint>
#include <string>
#include <vector>

namespace hinesbatch {

struct Spike {
  std::int64_t gid = 0;
  std::int64_t step = 0;  // the spike happened at t = step * dt (end of step - 1)
  friend bool operator<(const Spike& a, const Spike& b) {
    return a.step != b.step ? a.step < b.step : a.gid < b.gid;
  }
  friend bool operator==(const Spike& a, const Spike& b) {
    return a.step == b.step && a.gid == b.gid;
  }
};

class SpikeExchange {
 public:
  virtual ~SpikeExchange() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;  // ranks whose spikes all_gather returns (emulated ones too)
  // Every rank's spikes, concatenated in rank order. Called from one thread at a time
  // (possibly not the main thread: the simulation overlaps it with compute).
  virtual std::vector<Spike> all_gather(const std::vector<Spike>& local) = 0;
  virtual double max(double x) = 0;  // over the real ranks
  virtual double sum(double x) = 0;
  virtual std::string name() const = 0;
};

class LocalExchange final : public SpikeExchange {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<Spike> all_gather(const std::vector<Spike>& local) override { return local; }
  double max(double x) override { return x; }
  double sum(double x) override { return x; }
  std::string name() const override { return "local"; }
};

class DryRunExchange final : public SpikeExchange {
 public:
  // Rank r's cells are gids [r * gids_per_rank, (r + 1) * gids_per_rank); the real one is 0.
  DryRunExchange(int ranks, std::int64_t gids_per_rank)
      : ranks_(ranks), gids_per_rank_(gids_per_rank) {}
  int rank() const override { return 0; }
  int size() const override { return ranks_; }
  std::vector<Spike> all_gather(const std::vector<Spike>& local) override {
    std::vector<Spike> all;
    all.reserve(local.size() * ranks_);
    for (int r = 0; r < ranks_; ++r)
      for (Spike s : local) {
        s.gid += r * gids_per_rank_;
        all.push_back(s);
      }
    return all;
  }
  double max(double x) override { return x; }
  double sum(double x) override { return x * ranks_; }
  std::string name() const override { return "dry-run x" + std::to_string(ranks_); }

 private:
  int ranks_;
  std::int64_t gids_per_rank_;
};

}  // namespace hinesbatch
