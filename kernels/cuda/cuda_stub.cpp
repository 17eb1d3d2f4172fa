// Stands in for cuda_backend.cu when the build found no CUDA toolkit.

#include "cuda/build_resources.hpp"
#include "cuda/cuda_backend.hpp"

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

}  // namespace ws::kernels::cuda
