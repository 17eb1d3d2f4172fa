#include "core/real_run_session.hpp"
#include "core/measured_text.hpp"

#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

DefaultGpuKernel choose_default_gpu_kernel(const std::optional<std::string>& cuda_unavailable,
                                           const std::optional<std::string>& gl_unavailable, bool gl_software,
                                           const std::string& gl_renderer) {
  const auto runs = [](const char* kernel) {
    DefaultGpuKernel d;
    d.kernel = kernel;
    return d;
  };
  if (!cuda_unavailable) return runs("cublas");
  if (!gl_unavailable && !gl_software) return runs("gl-regblock");
  DefaultGpuKernel d;
  d.cuda_why = *cuda_unavailable;
  if (gl_unavailable) d.gl_why = *gl_unavailable;
  else d.gl_software_renderer = gl_renderer;
  return d;
}

std::string why_no_gpu_words(const DefaultGpuKernel& d, lesson::Language lang) {
  if (!d.kernel.empty()) return "";
  const std::string gl = d.gl_software_renderer.empty() ? kernels_words(d.gl_why, lang)
                                                        : lesson::trf("run.gl_software_why", lang, d.gl_software_renderer);
  return lesson::trf("run.why_no_gpu", lang, kernels_words(d.cuda_why, lang), gl);
}

DefaultGpuKernel default_gpu_kernel_here() {
  const auto gl = kernels::gl_info();
  return choose_default_gpu_kernel(kernels::unavailable_reason("cublas"), kernels::unavailable_reason("gl-regblock"),
                                   gl && gl->software, gl ? gl->renderer : std::string());
}

bool hardware_gpu_here() { return !default_gpu_kernel_here().kernel.empty(); }

std::string stand_in_gpu_kernel(const std::string& wanted, bool wanted_runs_here, const DefaultGpuKernel& here) {
  if (wanted_runs_here || here.kernel.rfind("gl-", 0) != 0) return wanted;
  if (wanted == "cuda-naive") return "gl-naive";
  if (wanted == "cuda-tiled") return "gl-tiled";
  if (wanted == "cuda-regblock" || wanted == "cublas") return "gl-regblock";
  return wanted;
}

std::string stand_in_cpu_kernel(const std::string& wanted, bool wanted_runs_here) {
  return !wanted_runs_here && wanted == "cpu-blas" ? "cpu-parallel" : wanted;
}

RealRunSession::RealRunSession(JobRunner::RunFn run) : runner_(run) {}

void RealRunSession::note_controls_edited(double now) {
  if (pending_) {
    if (controls_ == pending_->controls) return;
    pending_.reset();
    run_due_at_ = now + kDebounceSeconds;  // estimated again once the drag settles
    return;
  }
  if (ever_submitted_ && controls_ == submitted_ && !run_due_at_) return;
  if (ever_submitted_ && controls_ == submitted_) {
    run_due_at_.reset();  // edited back to what already ran
    return;
  }
  runner_.cancel_all();
  run_due_at_ = now + kDebounceSeconds;
}

std::vector<kernels::JobRequest> RealRunSession::requests() const {
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
  return jobs;
}

BatchEstimate RealRunSession::estimate() const { return estimate_batch(requests(), speeds_); }

void RealRunSession::run_now() {
  run_due_at_.reset();
  BatchEstimate batch = estimate();
  if (!batch.long_run()) {
    submit();
    return;
  }
  runner_.cancel_all();
  // Figures of other controls would sit next to the new kernel names while the question is asked;
  // and with them gone, editing back to what ran last must run it again, not show nothing.
  cpu_result_.reset();
  gpu_result_.reset();
  batch_ = 0;  // the runner numbers batches from 1: a job of the last batch that finished anyway is not shown
  ever_submitted_ = false;
  pending_ = Pending{controls_, std::move(batch)};
}

void RealRunSession::confirm() {
  if (!pending_) return;
  if (controls_ == pending_->controls)
    submit();
  else
    run_now();  // edited without a note: what was estimated is not what would run
}

void RealRunSession::submit() {
  pending_.reset();
  run_due_at_.reset();
  submitted_ = controls_;
  ever_submitted_ = true;
  // Stale figures from other controls would be compared with the new ones: drop them.
  cpu_result_.reset();
  gpu_result_.reset();
  batch_ = runner_.submit(requests());
}

std::optional<std::string> RealRunSession::pending_confirmation(lesson::Language lang) const {
  if (!pending_) return std::nullopt;
  return estimate_sentence(pending_->estimate, lang);
}

std::string RealRunSession::pending_basis(lesson::Language lang) const {
  return pending_ ? estimate_basis(pending_->estimate, lang) : "";
}

void RealRunSession::update(double now) {
  for (auto& done : runner_.take_finished()) {
    speeds_.add(done.result);  // a superseded batch's finished job still measured its kernel
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
  pending_.reset();
  run_due_at_.reset();
  runner_.cancel_all();
}

bool RealRunSession::busy() const {
  // A job that finished after this frame's update() has a result the session has not taken yet:
  // still busy, or a headless run waiting for results (--wait-results) would stop without it.
  const auto s = runner_.status();
  return s.busy || s.queued > 0 || s.untaken > 0 || run_due_at_.has_value();
}

}  // namespace ws::app
