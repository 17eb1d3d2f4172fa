#include "core/real_run_session.hpp"

namespace ws::app {

RealRunSession::RealRunSession(JobRunner::RunFn run) : runner_(run) {}

void RealRunSession::note_controls_edited(double now) {
  if (ever_submitted_ && controls_ == submitted_ && !run_due_at_) return;
  if (ever_submitted_ && controls_ == submitted_) {
    run_due_at_.reset();  // edited back to what already ran
    return;
  }
  runner_.cancel_all();
  run_due_at_ = now + kDebounceSeconds;
}

void RealRunSession::run_now() {
  run_due_at_.reset();
  submitted_ = controls_;
  ever_submitted_ = true;
  std::vector<kernels::JobRequest> jobs;
  for (const auto* name : {&controls_.cpu_kernel, &controls_.gpu_kernel}) {
    if (name->empty()) continue;
    kernels::JobRequest r;
    r.kernel = *name;
    r.shape = controls_.shape;
    r.threads = controls_.threads;
    r.repeats = controls_.repeats;
    jobs.push_back(r);
  }
  // Stale figures from other controls would be compared with the new ones: drop them.
  cpu_result_.reset();
  gpu_result_.reset();
  batch_ = runner_.submit(std::move(jobs));
}

void RealRunSession::update(double now) {
  for (auto& done : runner_.take_finished()) {
    if (done.batch != batch_ || done.result.cancelled) continue;
    ++runs_finished_;
    if (on_result) on_result(done.result);
    if (done.result.device == kernels::Device::cpu)
      cpu_result_ = std::move(done.result);
    else
      gpu_result_ = std::move(done.result);
  }
  if (run_due_at_ && now >= *run_due_at_) run_now();
}

void RealRunSession::cancel() {
  run_due_at_.reset();
  runner_.cancel_all();
}

bool RealRunSession::busy() const {
  const auto s = runner_.status();
  return s.busy || s.queued > 0 || run_due_at_.has_value();
}

}  // namespace ws::app
