// How a running kernel sees its job: a cancel flag to poll and a progress value to advance. Kept
// free of job.hpp so the CUDA translation unit can use it with nvcc's C++ dialect.
#pragma once

#include <atomic>

namespace ws::kernels {

struct RunControl {
  const std::atomic<bool>* cancel = nullptr;
  std::atomic<double>* progress = nullptr;
  // One kernel run is one slice of the job (warm-up + repeats): [base, base + span].
  double base = 0.0;
  double span = 1.0;

  bool cancelled() const { return cancel != nullptr && cancel->load(std::memory_order_relaxed); }
  void report(double fraction) const {
    if (progress != nullptr) progress->store(base + span * fraction, std::memory_order_relaxed);
  }
};

}  // namespace ws::kernels
