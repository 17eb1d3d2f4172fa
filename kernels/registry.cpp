// The list of kernels and whether each can run on this machine.

#include <string_view>

#include "cpu/cpu_kernels.hpp"
#include "cuda/cuda_backend.hpp"
#include "warpscope/kernels/job.hpp"

namespace ws::kernels {

const char* to_string(Device d) { return d == Device::cpu ? "cpu" : "gpu"; }

const std::vector<KernelInfo>& all_kernels() {
  static const std::vector<KernelInfo> kernels = {
      {"cpu-naive", Device::cpu, "textbook i-j-k triple loop on one core", false},
      {"cpu-parallel", Device::cpu, "packed, cache-blocked SIMD micro-kernel (BLIS design) on T threads", true},
      {"cpu-blas", Device::cpu, "OpenBLAS cblas_sgemm on T threads", true},
      {"cuda-naive", Device::gpu, "one GPU thread per C element, operands read from global memory", false},
      {"cuda-tiled", Device::gpu, "32x32 tiles of A and B staged in shared memory", false},
      {"cublas", Device::gpu, "NVIDIA cuBLAS cublasSgemm (fp32)", false},
  };
  return kernels;
}

const KernelInfo* find_kernel(const std::string& name) {
  for (const auto& k : all_kernels())
    if (k.name == name) return &k;
  return nullptr;
}

std::optional<std::string> unavailable_reason(const std::string& kernel) {
  const KernelInfo* info = find_kernel(kernel);
  if (info == nullptr) return "unknown kernel \"" + kernel + "\"";
  if (kernel == "cpu-blas" && !cpu::blas_available()) return std::string("built without OpenBLAS");
  if (info->device == Device::gpu) return cuda::unavailable_reason();
  return std::nullopt;
}

}  // namespace ws::kernels
