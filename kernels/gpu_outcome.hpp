// What both GPU back ends (CUDA, OpenGL) report about a run, and how it becomes a JobResult. Internal
// to the kernels library; tests/kernels/gpu_outcome_test.cpp drives it with failures no CPU-only
// machine can provoke (a launch that fails after the copies, a sticky error).
#pragma once

#include <string>
#include <vector>

#include "warpscope/kernels/job.hpp"

namespace ws::kernels {

struct GpuOutcome {
  std::vector<double> kernel_ms;
  double transfer_ms = 0;
  bool cancelled = false;
  std::string error;
  bool before_kernel = false;
};

// Moves the outcome's verdict into `r`: a refusal before the kernel ran is `skipped`, a failure
// while or after running it is `failed` (with the error itself, never as a wrong result), a cancel
// is `cancelled`. Returns true only when the run finished and C is there to verify; then the
// timings are in `r` (repeats, medians, GFLOP/s) and the caller verifies.
bool take_gpu_outcome(GpuOutcome&& out, JobResult& r);

}  // namespace ws::kernels
