// The list of kernels and whether each can run on this machine.

#include <string_view>

#include "cpu/cpu_kernels.hpp"
#include "cpu/microkernel.hpp"
#include "cuda/cuda_backend.hpp"
#include "gl/gl_backend.hpp"
#include "multi_gpu.hpp"
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
      {"cuda-regblock", Device::gpu, "each thread a 4x4 block of C in registers from 64x64 shared tiles, float4 loads", false},
      {"cuda-warptiled", Device::gpu, "128x128 block tiles split by warp, 64 cells of C per thread", false},
      {"cuda-tensor", Device::gpu, "tensor cores (mma.sync): BF16 inputs, FP32 accumulation, cc 8.0+", false},
      {"cublas", Device::gpu, "NVIDIA cuBLAS cublasSgemm (fp32)", false},
      {"cublas-tf32", Device::gpu, "NVIDIA cuBLAS cublasGemmEx, TF32 tensor cores, FP32 accumulation", false},
      {"cublas-bf16", Device::gpu, "NVIDIA cuBLAS cublasGemmEx, BF16 inputs, FP32 accumulation", false},
      {"cuda-multi", Device::gpu, "every CUDA GPU here, B's columns split between them, cuBLAS fp32 on each (needs 2+)",
       false},
      {"gl-naive", Device::gpu, "OpenGL compute: one invocation per C element, operands from storage buffers", false},
      {"gl-tiled", Device::gpu, "OpenGL compute: 32x32 tiles of A and B staged in shared memory", false},
      {"gl-regblock", Device::gpu, "OpenGL compute: each invocation computes a block of C from shared tiles", false},
  };
  return kernels;
}

bool is_gl_kernel(const std::string& name) { return name.rfind("gl-", 0) == 0; }

const KernelInfo* find_kernel(const std::string& name) {
  for (const auto& k : all_kernels())
    if (k.name == name) return &k;
  return nullptr;
}

std::optional<std::string> unavailable_reason(const std::string& kernel) {
  const KernelInfo* info = find_kernel(kernel);
  if (info == nullptr) return "unknown kernel \"" + kernel + "\"";
  if (kernel == "cpu-blas" && !cpu::blas_available()) return std::string("built without OpenBLAS");
  if (kernel == "cpu-parallel") return cpu::microkernel_refusal();
  if (is_gl_kernel(kernel)) return gl::unavailable_reason();
  if (kernel == "cuda-multi") return cuda::multi_unavailable_reason();
  if (const auto cuda_kernel = cuda::parse_kernel(kernel)) return cuda::unavailable_reason(*cuda_kernel);
  return std::nullopt;
}

}  // namespace ws::kernels
