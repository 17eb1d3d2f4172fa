// The real-run side of the window without the drawing: the controls, the debounce that turns
// slider drags into one run, and the latest measured result of each side.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/job_runner.hpp"
#include "core/run_estimate.hpp"

namespace ws::app {

struct RealRunControls {
  kernels::Shape shape{1024, 1024, 1024};
  int threads = 1;
  std::string cpu_kernel = "cpu-parallel";
  std::string gpu_kernel = "cublas";
  int repeats = 5;

  bool operator==(const RealRunControls&) const = default;
};

// The GPU kernel the window starts with: cuBLAS where CUDA works, else the best GL kernel on a
// hardware GL device, else none (an empty name) and the reason. A software GL renderer computes
// on this CPU, so it is never picked as "the GPU" by default.
struct DefaultGpuKernel {
  std::string kernel;  // "" when no GPU kernel runs here
  // Why not, when `kernel` is "": the parts as kernels/ wrote them ("" where that API works).
  std::string cuda_why, gl_why;
  std::string gl_software_renderer;  // the renderer, when OpenGL works but only in software
};
// Why no GPU kernel runs here, in `lang` (English for --print-state): "no GPU kernel runs here.
// CUDA: ... OpenGL: ...", each part worded by kernels_words; "" when one does.
std::string why_no_gpu_words(const DefaultGpuKernel& d, lesson::Language lang);
DefaultGpuKernel choose_default_gpu_kernel(const std::optional<std::string>& cuda_unavailable,
                                           const std::optional<std::string>& gl_unavailable, bool gl_software,
                                           const std::string& gl_renderer);
DefaultGpuKernel default_gpu_kernel_here();
// Whether this machine has a GPU that really computes (CUDA, or GL on hardware).
bool hardware_gpu_here();
// Lessons name CUDA kernels. Where those cannot run but the GL kernels run on a hardware GPU, the
// GL kernel of the same design stands in (cuda-naive -> gl-naive, cuda-tiled -> gl-tiled,
// cuda-regblock and cublas -> gl-regblock); otherwise the name is kept and the run says why it was skipped.
std::string stand_in_gpu_kernel(const std::string& wanted, bool wanted_runs_here, const DefaultGpuKernel& here);
// Likewise on the CPU: where OpenBLAS is missing, a lesson's cpu-blas runs as cpu-parallel (the
// same product, this project's own code) rather than leaving the step without a CPU figure.
std::string stand_in_cpu_kernel(const std::string& wanted, bool wanted_runs_here);

class RealRunSession {
 public:
  // A drag produces many changes a second; wait this long after the last one before running.
  static constexpr double kDebounceSeconds = 0.35;

  explicit RealRunSession(JobRunner::RunFn run = &kernels::run_job);

  RealRunControls& controls() { return controls_; }
  const RealRunControls& controls() const { return controls_; }

  // Call after the UI may have edited controls(): a change cancels the running job at once
  // (so the cores are free within the kernel's polling interval) and schedules a new run. A run
  // waiting for confirmation is dropped: the new controls are estimated again when it is due.
  void note_controls_edited(double now);
  // Starts a run of both sides now, unless the batch is estimated above kLongRunSeconds: then
  // nothing starts and pending_confirmation() says how long it would take.
  void run_now();
  // Moves finished results in and fires a debounced run when due. Call once a frame.
  void update(double now);
  // Cancels the running job, a debounced run, and a run waiting for confirmation.
  void cancel();

  // "cpu-naive at 16384³: about 6.11 h" while a long run waits for "Run anyway", else nothing.
  std::optional<std::string> pending_confirmation(lesson::Language lang) const;
  // How the pending estimate was reached (each job's speed and runs), for a tooltip.
  std::string pending_basis(lesson::Language lang) const;
  // Starts the run that waits for confirmation, as estimated.
  void confirm();
  // The estimate of the current controls, from the speeds measured so far in this session.
  BatchEstimate estimate() const;
  const MeasuredSpeeds& measured_speeds() const { return speeds_; }

  const std::optional<kernels::JobResult>& cpu_result() const { return cpu_result_; }
  const std::optional<kernels::JobResult>& gpu_result() const { return gpu_result_; }
  RunnerStatus status() const { return runner_.status(); }
  bool cpu_job_running() const { return runner_.cpu_job_running(); }
  bool busy() const;
  int runs_finished() const { return runs_finished_; }

  // Called for each fresh, verified-or-not, non-cancelled result (the GUI feeds its history plot).
  std::function<void(const kernels::JobResult&)> on_result;

 private:
  JobRunner runner_;
  RealRunControls controls_;
  RealRunControls submitted_;
  std::optional<double> run_due_at_;
  std::uint64_t batch_ = 0;
  std::optional<kernels::JobResult> cpu_result_, gpu_result_;
  int runs_finished_ = 0;
  bool ever_submitted_ = false;
  MeasuredSpeeds speeds_;
  struct Pending {
    RealRunControls controls;
    BatchEstimate estimate;
  };
  std::optional<Pending> pending_;

  std::vector<kernels::JobRequest> requests() const;
  void submit();
};

}  // namespace ws::app
