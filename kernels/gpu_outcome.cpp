#include "gpu_outcome.hpp"

#include <algorithm>

namespace ws::kernels {

bool take_gpu_outcome(GpuOutcome&& out, JobResult& r) {
  if (out.cancelled) {
    r.cancelled = true;
    return false;
  }
  if (!out.error.empty()) {
    if (out.before_kernel)
      r.skipped = std::move(out.error);
    else
      r.failed = std::move(out.error);
    return false;
  }
  if (out.kernel_ms.empty()) {
    r.failed = "the back end returned no timing";
    return false;
  }
  std::vector<double> ms = std::move(out.kernel_ms);
  std::sort(ms.begin(), ms.end());
  const std::size_t h = ms.size() / 2;
  r.repeats = static_cast<int>(ms.size());
  r.ms_median = ms.size() % 2 ? ms[h] : 0.5 * (ms[h - 1] + ms[h]);
  r.ms_min = ms.front();
  r.gflops = r.ms_median > 0 ? r.shape.flops() / (r.ms_median * 1e6) : 0.0;
  r.transfer_ms = out.transfer_ms;
  return true;
}

}  // namespace ws::kernels
