// The one channel between the UI thread and real work: the UI submits batches of jobs and
// collects finished results each frame; a single worker thread runs them one after another,
// so a CPU timing is never disturbed by another of our own jobs.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "warpscope/kernels/job.hpp"

namespace ws::app {

struct FinishedJob {
  std::uint64_t batch = 0;  // the batch it belonged to; older batches were superseded
  kernels::JobResult result;
};

struct RunnerStatus {
  bool busy = false;
  std::uint64_t batch = 0;
  std::string kernel;
  kernels::Device device = kernels::Device::cpu;
  double progress = 0;  // of the running job, 0..1
  int queued = 0;       // jobs of the current batch not started yet
  int untaken = 0;      // finished jobs take_finished() has not handed out yet
};

class JobRunner {
 public:
  using RunFn = kernels::JobResult (*)(const kernels::JobRequest&, kernels::JobControl&);

  // `run` is injectable so tests can drive the runner with fake jobs of known length.
  explicit JobRunner(RunFn run = &kernels::run_job);
  ~JobRunner();
  JobRunner(const JobRunner&) = delete;
  JobRunner& operator=(const JobRunner&) = delete;

  // Drops whatever is queued, cancels the running job, and queues `jobs`. Returns the batch id.
  std::uint64_t submit(std::vector<kernels::JobRequest> jobs);
  void cancel_all();

  // Results finished since the last call, oldest first (cancelled ones included, marked so).
  std::vector<FinishedJob> take_finished();
  RunnerStatus status() const;
  // True while a CPU kernel is being timed: the UI throttles itself so it does not steal the cores.
  bool cpu_job_running() const;

 private:
  void worker_loop();

  RunFn run_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<kernels::JobRequest> queue_;
  std::uint64_t queued_batch_ = 0;
  std::vector<FinishedJob> finished_;
  // The running job's control lives on the heap so cancel_all can reach it under the lock.
  std::shared_ptr<kernels::JobControl> running_control_;
  kernels::JobRequest running_request_;
  bool running_ = false;
  std::uint64_t running_batch_ = 0;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace ws::app
