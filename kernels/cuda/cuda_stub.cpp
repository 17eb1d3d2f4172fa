// Stands in for cuda_backend.cu when the build found no CUDA toolkit.

#include "cuda/build_resources.hpp"
#include "cuda/cuda_backend.hpp"
#include "multi_gpu.hpp"

namespace ws::kernels::cuda {

namespace {
constexpr const char* kNoToolkit = "built without the CUDA toolkit";
}

std::optional<std::string> unavailable_reason() { return std::string(kNoToolkit); }

std::optional<std::string> unavailable_reason(Kernel) { return std::string(kNoToolkit); }

std::optional<DeviceFacts> device_facts() { return std::nullopt; }

std::optional<std::uint64_t> free_memory_bytes() { return std::nullopt; }

std::optional<KernelResources> kernel_resources(Kernel, int, int, int) { return std::nullopt; }

const char* ptxas_report() { return ""; }

Outcome run(const Run&) {
  Outcome out;
  out.error = kNoToolkit;
  out.before_kernel = true;
  return out;
}

int device_count() { return 0; }

std::optional<std::string> multi_unavailable_reason() {
  return std::string("needs 2 CUDA GPUs; this machine has 0 (") + kNoToolkit + ")";
}

Outcome run_multi(const Run&) {
  Outcome out;
  out.error = *multi_unavailable_reason();
  out.before_kernel = true;
  return out;
}

}  // namespace ws::kernels::cuda
