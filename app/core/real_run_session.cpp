#include "core/real_run_session.hpp"

#include "warpscope/kernels/system_info.hpp"

namespace ws::app {

DefaultGpuKernel choose_default_gpu_kernel(const std::optional<std::string>& cuda_unavailable,
                                           const std::optional<std::string>& gl_unavailable, bool gl_software,
                                           const std::string& gl_renderer) {
  if (!cuda_unavailable) return {"cublas", ""};
  if (!gl_unavailable && !gl_software) return {"gl-regblock", ""};
  const std::string gl_why =
      gl_unavailable ? *gl_unavailable : gl_renderer + " is a software renderer: it computes on this CPU";
  return {"", "no GPU kernel runs here. CUDA: " + *cuda_unavailable + ". OpenGL: " + gl_why + "."};
}

DefaultGpuKernel default_gpu_kernel_here() {
  const auto gl = kernels::gl_info();
  return choose_default_gpu_kernel(kernels::unavailable_reason("cublas"), kernels::unavailable_reason("gl-regblock"),
                                   gl && gl->software, gl ? gl->renderer : std::string());
}

bool hardware_gpu_here() { return default_gpu_kernel_here().why_none.empty(); }

std::string stand_in_gpu_kernel(const std::string& wanted, bool wanted_runs_here, const DefaultGpuKernel& here) {
  if (wanted_runs_here || here.kernel.rfind("gl-", 0) != 0) return wanted;
  if (wanted == "cuda-naive") return "gl-naive";
  if (wanted == "cuda-tiled") return "gl-tiled";
  if (wanted == "cublas") return "gl-regblock";
  return wanted;
}

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
