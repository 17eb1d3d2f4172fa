#include "core/job_runner.hpp"

#include <optional>
#include <string>

#include "warpscope/kernels/system_info.hpp"
#include "warpscope/sim/simulation.hpp"

namespace ws::app {

JobRunner::JobRunner(RunFn run) : run_(run), worker_([this] { worker_loop(); }) {}

JobRunner::~JobRunner() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    queue_.clear();
    if (running_control_) running_control_->cancel = true;
  }
  wake_.notify_all();
  worker_.join();
}

std::uint64_t JobRunner::submit(std::vector<kernels::JobRequest> jobs) {
  std::uint64_t batch;
  {
    std::lock_guard lock(mutex_);
    batch = ++queued_batch_;
    queue_.assign(std::make_move_iterator(jobs.begin()), std::make_move_iterator(jobs.end()));
    if (running_control_) running_control_->cancel = true;
  }
  wake_.notify_all();
  return batch;
}

void JobRunner::cancel_all() {
  std::lock_guard lock(mutex_);
  ++queued_batch_;
  queue_.clear();
  if (running_control_) running_control_->cancel = true;
}

std::vector<FinishedJob> JobRunner::take_finished() {
  std::lock_guard lock(mutex_);
  std::vector<FinishedJob> out;
  out.swap(finished_);
  return out;
}

RunnerStatus JobRunner::status() const {
  std::lock_guard lock(mutex_);
  RunnerStatus s;
  s.busy = running_;
  s.batch = running_ ? running_batch_ : queued_batch_;
  s.queued = static_cast<int>(queue_.size());
  s.untaken = static_cast<int>(finished_.size());
  if (running_) {
    s.kernel = running_request_.kernel;
    const auto* info = kernels::find_kernel(running_request_.kernel);
    s.device = info ? info->device : kernels::Device::cpu;
    s.progress = running_control_ ? running_control_->progress.load() : 0.0;
  }
  return s;
}

namespace {

bool computes_on_the_cpu_cores(const std::string& kernel) {
  const auto* info = kernels::find_kernel(kernel);
  if (info && info->device == kernels::Device::cpu) return true;
  // A GL kernel on a software renderer computes on the CPU cores just the same.
  if (!kernels::is_gl_kernel(kernel)) return false;
  const auto gl = kernels::gl_info();
  return gl && gl->software;
}

}  // namespace

bool JobRunner::cpu_job_running() const {
  std::string kernel;
  {
    std::lock_guard lock(mutex_);
    if (!running_) return false;
    kernel = running_request_.kernel;
  }
  return computes_on_the_cpu_cores(kernel);
}

void JobRunner::worker_loop() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    running_request_ = std::move(queue_.front());
    queue_.pop_front();
    running_batch_ = queued_batch_;
    running_control_ = std::make_shared<kernels::JobControl>();
    running_ = true;
    auto control = running_control_;
    auto request = running_request_;
    const auto batch = running_batch_;
    lock.unlock();

    kernels::JobResult result;
    {
      // The simulation's background runs wait while a kernel is timed on the CPU cores, here
      // rather than in the window's frames: a window thread waiting for a simulation (a
      // screenshot, a lesson export) let it run beside the kernel, which then measured 0.46-0.67
      // of `bench` at 1024^3 on two threads (docs/PERFORMANCE.md, "GUI against bench").
      std::optional<sim::BackgroundRunsHold> hold;
      if (computes_on_the_cpu_cores(request.kernel)) hold.emplace();
      result = run_(request, *control);
    }
    result.cancelled = result.cancelled || control->cancelled();

    lock.lock();
    finished_.push_back({batch, std::move(result)});
    running_ = false;
    running_control_.reset();
  }
}

}  // namespace ws::app
