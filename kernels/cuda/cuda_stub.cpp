// Stands in for cuda_backend.cu when the build found no CUDA toolkit.

#include "cuda/cuda_backend.hpp"

namespace ws::kernels::cuda {

std::optional<std::string> unavailable_reason() { return std::string("built without the CUDA toolkit"); }

std::optional<DeviceFacts> device_facts() { return std::nullopt; }

std::optional<std::uint64_t> free_memory_bytes() { return std::nullopt; }

Outcome run(const Run&) {
  Outcome out;
  out.error = "built without the CUDA toolkit";
  out.before_kernel = true;
  return out;
}

}  // namespace ws::kernels::cuda
